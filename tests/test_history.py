"""The history of checks (fever_core/history.py): kept, re-opened as they were, searched, cleared."""

import threading

import pytest

from fever_core.history import HistoryStore
from fever_core.pipeline import CheckOptions, CheckResult

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
