"""The live ``wikipedia`` corpus end to end: real store, encoder, index and pipeline; only Wikipedia's
API is a local server answering from recordings (or nothing listening, for offline)."""

import contextlib
import json

import pytest

from benchmarks.reliability.messages import read_only
from fever_core.common.settings import Settings
from fever_core.corpus.build import corpus_dir
from fever_core.pipeline import Checker, CheckOptions
from fever_core.workspace import live as live_wikipedia
from fever_core.workspace import open_workspace
from fever_core.workspace.live import LiveWikipediaWorkspace, content_fingerprint
from tests.conftest import local_api, recorded_answer

CLAIM = "Ada Lovelace worked on the Analytical Engine."


def live_checker(tmp_path, tiny_nli_model, api_url: str, **settings) -> Checker:
    settings = Settings.from_env(
        {},
        data_dir=tmp_path,
        verifier_model=str(tiny_nli_model),
        wikipedia_api_url=api_url,
        wikipedia_timeout_s=2.0,
        **settings,
    )
    return Checker.open("wikipedia", settings, progress=False)


def test_a_claim_fetches_pages_into_the_cache_and_its_index(tmp_path, tiny_nli_model, recorded_wikipedia):
    checker = live_checker(tmp_path, tiny_nli_model, recorded_wikipedia.url)
    workspace = checker.workspace
    assert isinstance(workspace, LiveWikipediaWorkspace) and workspace.store.stats().pages == 0
    result = checker.check(CLAIM, CheckOptions(two_hop=False))
    # the top hit of each search (claim, "Ada Lovelace", "the Analytical Engine"), then the second...
    assert [page_id for page_id, _ in workspace.store.titles()] == [
        "Ada_Lovelace",
        "Analytical_Engine",
        "Lovelace_-LRB-film-RRB-",
    ]
    assert len(workspace.dense) == workspace.store.stats().sentences
    query = workspace.dense.embed(["Who designed the analytical engine?"])[0]
    found = workspace.store.sentences_by_ids([workspace.dense.search(query, 1)[0].sentence_id])[0]
    assert found.sentence.page_id == "Analytical_Engine"
    assert result.warnings == []
    assert result.evidence and result.evidence[0].sentence.page_id in {"Ada_Lovelace", "Analytical_Engine"}
    assert result.pages[0].signals.get("title") is not None  # the title table knows the fetched pages
    assert result.timings["fetch"] > 0
    searches = [r["srsearch"] for r in recorded_wikipedia.requests if r.get("list") == "search"]
    assert searches == [CLAIM, "Ada Lovelace", "the Analytical Engine"]


def test_a_second_check_needs_no_network_and_reopening_does_not_rebuild(
    tmp_path, tiny_nli_model, recorded_wikipedia, monkeypatch, caplog
):
    checker = live_checker(tmp_path, tiny_nli_model, recorded_wikipedia.url)
    checker.check(CLAIM)
    asked = len(recorded_wikipedia.requests)
    again = checker.check(CLAIM)
    assert len(recorded_wikipedia.requests) == asked
    assert again.evidence and again.warnings == []

    folder = corpus_dir(tmp_path, "wikipedia")
    store = checker.workspace.store
    assert (
        json.loads((folder / "dense.json").read_text())["store_fingerprint"]
        == store.get_meta("fingerprint")
        == content_fingerprint(store)
    )
    saved = (folder / "dense.faiss").stat().st_mtime_ns
    monkeypatch.setattr(live_wikipedia, "_OPEN", {})  # as a new process would
    reopened = open_workspace("wikipedia", checker.settings, progress=False)
    assert reopened is not checker.workspace
    assert len(reopened.dense) == store.stats().sentences
    assert (folder / "dense.faiss").stat().st_mtime_ns == saved
    assert "rebuilding" not in caplog.text


def test_two_hop_fetches_the_pages_evidence_links_to(tmp_path, tiny_nli_model, recorded_wikipedia):
    checker = live_checker(tmp_path, tiny_nli_model, recorded_wikipedia.url, wikipedia_pages_per_claim=1)
    result = checker.check(CLAIM, CheckOptions(two_hop=True, two_hop_threshold=0.0))
    store = checker.workspace.store
    assert store.has_page("Charles_Babbage") and store.has_page("Analytical_Engine")
    hop2 = [s for s in result.sentences if s.hop == 2]
    assert hop2 and {s.page_id for s in hop2} <= {"Charles_Babbage", "Analytical_Engine"}
    assert all(s.via.from_page_id == "Ada_Lovelace" for s in hop2)


def test_offline_with_nothing_cached_says_so(tmp_path, tiny_nli_model, offline_wikipedia_url):
    result = live_checker(tmp_path, tiny_nli_model, offline_wikipedia_url).check(CLAIM)
    assert result.verdict.label == "NOT ENOUGH INFO" and result.evidence == []
    assert len(result.warnings) == 1
    assert "offline" in result.warnings[0] and "No Wikipedia pages are cached yet" in result.warnings[0]


def test_offline_checks_against_the_cached_pages(tmp_path, tiny_nli_model, recorded_wikipedia, offline_wikipedia_url):
    live_checker(tmp_path, tiny_nli_model, recorded_wikipedia.url).check(CLAIM, CheckOptions(two_hop=False))
    offline = live_checker(tmp_path, tiny_nli_model, offline_wikipedia_url)
    result = offline.check("Charles Babbage designed the Analytical Engine.")
    assert {e.sentence.page_id for e in result.evidence} & {"Analytical_Engine", "Charles_Babbage"}
    assert len(result.warnings) == 1 and "checked against the 3 Wikipedia pages cached so far" in result.warnings[0]
    later = offline.check("Charles Babbage designed the Analytical Engine.")
    assert "Not tried again for" in later.warnings[0]


@pytest.mark.parametrize("kwargs", [{"specs": ["embedded"]}, {"rebuild": True}])
def test_the_live_corpus_is_not_built_from_sources(tmp_path, kwargs):
    with pytest.raises(ValueError, match="live Wikipedia cache"):
        open_workspace("wikipedia", Settings.from_env({}, data_dir=tmp_path), **kwargs)


def test_warming_up_the_live_corpus_fetches_nothing_and_loads_the_models(
    tmp_path, tiny_nli_model, recorded_wikipedia, monkeypatch
):
    checker = live_checker(tmp_path, tiny_nli_model, recorded_wikipedia.url)
    passes = []
    predict = type(checker.verification.verifier).predict
    monkeypatch.setattr(
        type(checker.verification.verifier),
        "predict",
        lambda self, pairs, **kw: passes.append(len(pairs)) or predict(self, pairs, **kw),
    )
    checker.warm_up()
    assert recorded_wikipedia.requests == [] and checker.workspace.store.stats().pages == 0
    assert passes == [1]  # the verifier's first pass is done


@pytest.fixture
def answering(request):
    """A local api.php that gives every request the same body (``request.param``: bytes)."""
    with local_api(lambda query: request.param) as url:
        yield url


@pytest.mark.parametrize(
    "answering",
    [
        b"{}",
        b"<html>not json</html>",
        b'{"error": {"code": "readonly", "info": "The wiki is read-only"}}',
        b'{"batchcomplete": "", "query": null}',
        b"[" * 200_000 + b"]" * 200_000,
    ],
    indirect=True,
    ids=["{}", "HTML", "an error", "query null", "JSON nested 200,000 deep"],
)
def test_a_malformed_api_answer_is_a_warning_and_nothing_of_it_is_kept(tmp_path, tiny_nli_model, answering):
    checker = live_checker(tmp_path, tiny_nli_model, answering)
    result = checker.check(CLAIM)
    assert len(result.warnings) == 1 and "unexpected form" in result.warnings[0]
    store = checker.workspace.store
    assert store.stats().pages == 0
    assert not [key for key, _ in store.connection.execute("SELECT key, value FROM meta WHERE key LIKE 'wikipedia.%'")]


def test_no_lock_is_held_while_wikipedia_is_asked(tmp_path, tiny_nli_model, recorded_wikipedia, monkeypatch):
    checker = live_checker(tmp_path, tiny_nli_model, recorded_wikipedia.url)
    source = checker.workspace.cache.source
    held = []
    for name in ("search_titles", "fetch_page"):
        call = getattr(source, name)
        monkeypatch.setattr(
            source, name, lambda *a, _call=call, **k: held.append(live_wikipedia._INDEXING.locked()) or _call(*a, **k)
        )
    checker.check(CLAIM)
    assert held and not any(held)


def test_a_read_only_data_folder_is_refused_with_the_fix(tmp_path, tiny_nli_model, offline_wikipedia_url):
    data = tmp_path / "data"
    data.mkdir()
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(read_only(data))
        except PermissionError as exc:
            pytest.skip(f"a read-only folder is a read-only bind mount for root here: {exc}")
        with pytest.raises(
            RuntimeError,
            match=rf"keeps every page it fetches in {data}/corpora/wikipedia, which this "
            r"process can't write to .* Point --data-dir or FEVER_DATA_DIR",
        ):
            live_checker(data, tiny_nli_model, offline_wikipedia_url)


def test_a_full_disk_while_fetching_is_a_warning_and_the_cache_stays_whole(tmp_path, tiny_nli_model):
    """SQLite's ``max_page_count`` stands in for a full disk; Wikipedia answers long leads, which need new pages."""

    def answer(query):
        found = recorded_answer(query)
        for page in found.get("query", {}).get("pages", {}).values():
            if "extract" in page:
                page["extract"] = f"{page['title']} was written about at length. " * 300
        return json.dumps(found).encode()

    with local_api(answer) as url:
        checker = live_checker(tmp_path, tiny_nli_model, url)
        store = checker.workspace.store
        store.connection.execute(
            f"PRAGMA max_page_count = {store.connection.execute('PRAGMA page_count').fetchone()[0]}"
        )
        result = checker.check(CLAIM, CheckOptions(two_hop=False))
    assert any("is full" in warning and "could not be kept" in warning for warning in result.warnings)
    assert result.verdict.label == "NOT ENOUGH INFO"  # nothing to check against, and it says so
    assert store.stats().pages == 0 and store.connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
