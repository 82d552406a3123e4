"""The history of checks (fever_core/workbench/history.py): kept, re-opened as they were, searched, cleared; a file that
can't be the history is a clear refusal naming it, and can be moved aside."""

import sqlite3
import threading

import pytest

from fever_core.common import sqlite as sqlite_module
from fever_core.workbench.history import HistoryStore
from fever_core.pipeline import CheckOptions, CheckResult
from fever_core.common.sqlite import UnusableDatabase, move_aside

SETTINGS = {"corpus": "fixture", "pages_k": 5, "two_hop": True, "nei_threshold": None}


@pytest.fixture(scope="module")
def results(checker):
    """Checks of the fixture corpus: one reaching a second-hop sentence through a link, one without."""
    two_hop = checker.check("Jaws was directed by a man born in Ohio.", CheckOptions(two_hop=True, two_hop_threshold=0.0))
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
    entry_id = history.add(result, SETTINGS, batch="b1")
    entry = history.entry(entry_id)
    assert (entry.claim, entry.corpus, entry.settings, entry.batch) == (result.claim, "fixture", SETTINGS, "b1")
    assert entry.verdict == result.verdict.label and entry.probabilities == result.verdict.probabilities
    assert entry.confidence == result.verdict.probabilities[result.verdict.label]
    deciding = result.evidence[result.verdict.deciding_evidence[0]].sentence
    assert (entry.deciding_page, entry.deciding_sentence) == (deciding.title, deciding.text)
    assert history.result(entry_id) == result  # re-opened as it was, without checking again
    assert history.entry(entry_id + 1) is None and history.result(entry_id + 1) is None


def test_search_finds_every_word_in_the_claim_or_deciding_sentence_newest_first(history, results):
    jaws, holmes = (history.add(result, SETTINGS) for result in results)
    again = history.add(results[1], SETTINGS)
    assert [e.entry_id for e in history.search()] == [again, holmes, jaws]
    assert [e.entry_id for e in history.search("sherlock DOYLE")] == [again, holmes]
    assert [e.entry_id for e in history.search("Ohio")] == [jaws]
    assert history.search("Sherlock Ohio") == []
    assert history.search("%") == [] and history.search("_") == []  # LIKE's wildcards are plain characters
    assert [e.entry_id for e in history.search(limit=1)] == [again]


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


@pytest.mark.parametrize("damage, says", [(garbage, "is damaged"), (truncated, "is damaged"),
                                          (foreign, "not a FEVER Workbench history database"),
                                          (emptied, r"is empty \(0 bytes\): whatever it held was lost")])
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
    assert [e.entry_id for e in history.search(session="a" * 32)] == [mine]
    assert history.count("a" * 32) == 1 and history.count() == 2  # None: everyone's (a shared history)
    assert history.entry(theirs, session="a" * 32) is None and history.result(theirs, session="a" * 32) is None
    assert history.entry(theirs).claim == results[1].claim
    assert history.clear("a" * 32) == 1 and history.count() == 1 and history.count("b" * 32) == 1


def test_a_history_kept_before_sessions_opens_with_its_checks_in_no_session(tmp_path, results):
    from fever_core.workbench.history import _SCHEMA

    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(_SCHEMA.replace(",\n    session TEXT NOT NULL DEFAULT ''", ""))
        conn.execute("INSERT INTO checks VALUES (1, 0, 'c', 'fixture', '{}', 'SUPPORTS', '{}', '', '', '', '{}')")
    history = HistoryStore(path)
    assert history.count("") == 1 and history.count("a" * 32) == 0
    history.add(results[0], SETTINGS, session="a" * 32)
    assert history.count("a" * 32) == 1
