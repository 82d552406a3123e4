"""The history of checks (fever_core/workbench/history.py): kept, re-opened as they were, searched, cleared; a file that
can't be the history is a clear refusal naming it, and can be moved aside."""

import dataclasses
import re
import sqlite3
import threading

import pytest

from fever_core.common import sqlite as sqlite_module
from fever_core.common.sqlite import UnusableDatabase, move_aside
from fever_core.pipeline import CheckOptions, CheckResult
from fever_core.workbench.history import HistoryStore

SETTINGS = {"corpus": "fixture", "pages_k": 5, "two_hop": True, "nei_threshold": None}


@pytest.fixture(scope="module")
def results(checker):
    """Checks of the fixture corpus: one reaching a second-hop sentence through a link, one without."""
    two_hop = checker.check(
        "Jaws was directed by a man born in Ohio.", CheckOptions(two_hop=True, two_hop_threshold=0.0)
    )
    assert any(item.sentence.via is not None for item in two_hop.evidence)
    return [two_hop, checker.check("Sherlock Holmes was created by Arthur Conan Doyle.")]


@pytest.fixture
def history(tmp_path):
    return HistoryStore(tmp_path / "history.sqlite")


def test_a_result_reads_back_from_its_dict_as_it_was(results):
    for result in results:
        assert CheckResult.from_dict(result.to_dict()) == result


def test_a_check_is_kept_with_its_settings_verdict_and_deciding_sentence(history, results):
    result = results[1]
    key = history.add(result, SETTINGS, batch="b1")
    entry = history.entry(key)
    assert (entry.claim, entry.corpus, entry.settings, entry.batch) == (result.claim, "fixture", SETTINGS, "b1")
    assert entry.verdict == result.verdict.label and entry.probabilities == result.verdict.probabilities
    assert entry.probability == result.verdict.probability
    deciding = result.evidence[result.verdict.deciding_evidence[0]].sentence
    assert (entry.deciding_page, entry.deciding_sentence) == (deciding.title, deciding.text)
    assert history.result(key) == result  # re-opened as it was, without checking again
    assert entry.key == key and not entry.shared
    assert history.entry(str(entry.entry_id)) is None and history.result(key[:-1]) is None


def test_an_entry_tells_the_verdict_s_calibrated_probability_and_whether_its_label_is_withheld(history, results):
    shown = dataclasses.replace(results[1].verdict, calibrated=0.675, label_withheld=False)
    withheld = dataclasses.replace(results[1].verdict, calibrated=0.52, label_withheld=True)
    uncalibrated = dataclasses.replace(results[1].verdict, calibrated=None, label_withheld=False)
    keys = [history.add(dataclasses.replace(results[1], verdict=v), SETTINGS) for v in (shown, withheld, uncalibrated)]
    entries = [history.entry(key) for key in keys]
    assert [(e.probability, e.label_withheld) for e in entries] == [
        (0.675, False),
        (0.52, True),
        (uncalibrated.probabilities[uncalibrated.label], False),  # a verifier without a calibration: the decider's
    ]
    assert [(e.probability, e.label_withheld) for e in reversed(history.search())] == [
        (e.probability, e.label_withheld) for e in entries
    ]


def test_search_finds_every_word_in_the_claim_or_deciding_sentence_newest_first(history, results):
    jaws, holmes = (history.add(result, SETTINGS) for result in results)
    again = history.add(results[1], SETTINGS)
    assert [e.key for e in history.search()] == [again, holmes, jaws]
    assert [e.key for e in history.search("sherlock DOYLE")] == [again, holmes]
    assert [e.key for e in history.search("Ohio")] == [jaws]
    assert history.search("Sherlock Ohio") == []
    assert history.search("%") == [] and history.search("_") == []  # LIKE's wildcards are plain characters
    assert [e.key for e in history.search(limit=1)] == [again]


def test_checks_kept_from_several_threads_at_once_are_all_kept(history, results):
    def keep() -> None:
        for _ in range(10):
            history.add(results[0], SETTINGS, batch="thread")

    threads = [threading.Thread(target=keep) for _ in range(3)]
    for thread in threads:
        thread.start()
    keep()
    for thread in threads:
        thread.join()
    assert history.count() == 40


def test_clearing_deletes_every_check(history, results):
    for result in results:
        history.add(result, SETTINGS)
    assert history.clear() == 2
    assert history.count() == 0 and history.search() == []
    assert HistoryStore(history.path).count() == 0  # for good, not just in this connection


def garbage(path, results):
    path.write_bytes(b"this is not a database" * 100)


def truncated(path, results):
    history = HistoryStore(path)
    for _ in range(20):
        history.add(results[0], SETTINGS)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every check in the file itself, then half of it gone
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


def foreign(path, results):
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.close()


def emptied(path, results):
    path.write_bytes(b"")  # what a full disk or a copy that stopped can leave; SQLite would take it for a new one


@pytest.mark.parametrize(
    "damage, says",
    [
        (garbage, "is damaged"),
        (truncated, "is damaged"),
        (foreign, "not a FEVER Workbench history database"),
        (emptied, r"is empty \(0 bytes\): whatever it held was lost"),
    ],
)
def test_a_file_that_cant_be_the_history_is_refused_naming_it_and_can_be_moved_aside(tmp_path, results, damage, says):
    path = tmp_path / "history.sqlite"
    damage(path, results)
    before = path.read_bytes()
    with pytest.raises(UnusableDatabase, match=says) as error:
        HistoryStore(path)
    assert str(path) in str(error.value) and "Move it aside" in str(error.value) and error.value.movable
    assert path.read_bytes() == before  # nothing written to it

    moved = move_aside(path)
    assert moved.name.startswith("history.sqlite.moved-aside-") and moved.read_bytes() == before
    assert not path.exists()
    history = HistoryStore(path)
    history.add(results[0], SETTINGS)
    assert history.count() == 1


def test_a_read_only_history_lists_its_checks_and_refuses_a_new_one_clearly(tmp_path, results, monkeypatch):
    path = tmp_path / "history.sqlite"
    HistoryStore(path).add(results[0], SETTINGS)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # as the last writer's close leaves it
    writable = sqlite_module.os.access
    monkeypatch.setattr(sqlite_module.os, "access", lambda p, mode: writable(p, mode) and str(p) != str(path))
    history = HistoryStore(path)
    assert history.read_only and history.count() == 1 and history.search()[0].claim == results[0].claim
    with pytest.raises(UnusableDatabase, match=f"{path} is read-only.*Make it writable") as error:
        history.add(results[1], SETTINGS)
    assert not error.value.movable


def test_each_session_sees_and_clears_only_its_own_checks_unless_the_history_is_shared(history, results):
    mine = history.add(results[0], SETTINGS, session="a" * 32)
    theirs = history.add(results[1], SETTINGS, session="b" * 32)
    assert [e.key for e in history.search(session="a" * 32)] == [mine]
    assert history.count("a" * 32) == 1 and history.count() == 2  # None: everyone's (a shared history)
    assert history.entry(theirs, session="a" * 32) is None and history.result(theirs, session="a" * 32) is None
    assert history.entry(theirs).claim == results[1].claim
    assert history.clear("a" * 32) == 1 and history.count() == 1 and history.count("b" * 32) == 1


OLD_SCHEMA = """
CREATE TABLE checks (id INTEGER PRIMARY KEY, checked_at REAL NOT NULL, claim TEXT NOT NULL, corpus TEXT NOT NULL,
    settings TEXT NOT NULL, verdict TEXT NOT NULL, probabilities TEXT NOT NULL, deciding_page TEXT NOT NULL,
    deciding_sentence TEXT NOT NULL, batch TEXT NOT NULL, result TEXT NOT NULL);
"""
"""The history as the first version made it: no sessions, no keys."""


def test_a_history_kept_before_sessions_opens_with_its_checks_in_no_session(tmp_path, results):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("INSERT INTO checks VALUES (1, 0, 'c', 'fixture', '{}', 'SUPPORTS', '{}', '', '', '', '{}')")
    history = HistoryStore(path)
    assert history.count("") == 1 and history.count("a" * 32) == 0
    history.add(results[0], SETTINGS, session="a" * 32)
    assert history.count("a" * 32) == 1


# --- issue 44, item 1: checks are private unless shared ------------------------------------------------------------


def test_a_second_session_can_neither_list_nor_open_a_first_session_s_unshared_checks_by_any_id(history, results):
    first, second = "a" * 32, "b" * 32
    keys = [history.add(result, SETTINGS, session=first) for result in results]
    rows = [e.entry_id for e in history.search(session=first)]
    assert history.search(session=second) == [] and history.search("Sherlock", session=second) == []
    assert history.count(second) == 0
    for guess in [*keys, *map(str, rows), *map(str, range(10)), "", "%", "' OR 1=1 --"]:
        assert history.entry(guess, session=second) is None, guess
        assert history.result(guess, session=second) is None, guess
    assert not history.share(keys[0], second)  # nor share it
    assert history.clear(second) == 0 and history.count(first) == 2  # nor clear it
    assert all(history.entry(key, session=first) is not None for key in keys)  # its maker opens them


def test_a_shared_check_opens_from_another_session_by_its_key_only_and_stops_when_unshared(history, results):
    first, second = "a" * 32, "b" * 32
    key, other = (history.add(result, SETTINGS, session=first) for result in results)
    assert history.share(key, first)
    assert history.entry(key, session=second).shared and history.result(key, session=second) == results[0]
    assert history.entry(other, session=second) is None  # only the one shared
    assert history.search(session=second) == []  # opened by its link, never listed in another's History
    assert history.share(key, first, shared=False)
    assert history.entry(key, session=second) is None


def test_keys_are_128_random_bits_never_row_numbers(history, results):
    keys = {history.add(results[0], SETTINGS) for _ in range(50)}
    assert len(keys) == 50
    for key in keys:
        assert len(key) == 22 and re.fullmatch(r"[A-Za-z0-9_-]{22}", key) and not key.isdigit()


def test_an_old_history_gets_a_key_for_each_check_and_old_row_links_open_nothing(tmp_path, results):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("ALTER TABLE checks ADD COLUMN session TEXT NOT NULL DEFAULT ''")  # as sessions left it
        for row in (1, 2, 3):
            conn.execute(
                f"INSERT INTO checks VALUES ({row}, 0, 'c{row}', 'fixture', '{{}}', 'SUPPORTS', "
                f"'{{\"SUPPORTS\": 1.0}}', '', '', '', '{{}}', '{'a' * 32}')"
            )
    conn.close()
    history = HistoryStore(path)
    entries = history.search(session="a" * 32)
    assert [e.claim for e in entries] == ["c3", "c2", "c1"]  # still its maker's
    assert len({e.key for e in entries}) == 3 and not any(e.shared for e in entries)
    assert [e.key for e in HistoryStore(path).search()] == [e.key for e in entries]  # given once, kept
    for row in ("1", "2", "3"):
        assert history.entry(row) is None  # "?history=1": not found or not shared
    assert history.entry(entries[0].key, session="b" * 32) is None
    assert history.entry(entries[0].key, session="a" * 32).claim == "c3"


def test_a_read_only_history_of_an_earlier_version_is_listed_and_opens_nothing(tmp_path, results, monkeypatch):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("INSERT INTO checks VALUES (1, 0, 'c', 'fixture', '{}', 'SUPPORTS', '{}', '', '', '', '{}')")
    conn.close()
    writable = sqlite_module.os.access
    monkeypatch.setattr(sqlite_module.os, "access", lambda p, mode: writable(p, mode) and str(p) != str(path))
    history = HistoryStore(path)
    (entry,) = history.search()
    assert history.read_only and entry.claim == "c" and entry.key == "" and history.search(session="a" * 32) == []
    assert history.entry("1") is None and history.shared_keys() == set()


def test_search_never_matches_the_hidden_deciding_sentence_of_a_check_whose_label_is_withheld(history, results):
    result = results[1]
    deciding = result.evidence[result.verdict.deciding_evidence[0]].sentence
    seen = (result.claim + " " + results[0].claim).lower()
    only_deciding = next(w for w in re.findall(r"\w{4,}", deciding.text) if w.lower() not in seen)
    hidden, shown = (
        history.add(
            dataclasses.replace(result, verdict=dataclasses.replace(result.verdict, label_withheld=w)), SETTINGS
        )
        for w in (True, False)
    )
    assert history.entry(hidden).deciding_sentence == deciding.text  # kept, only not shown ("Undecided")
    assert [e.key for e in history.search(only_deciding)] == [shown]
    assert [e.key for e in history.search(f"Sherlock {only_deciding}")] == [shown]
    assert [e.key for e in history.search("sherlock DOYLE")] == [shown, hidden]  # its claim is shown: found by it
