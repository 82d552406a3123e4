"""Local workspaces (fever_core/workspace/base.py through open_workspace): a corpus built from its sources
with its dense index, reopened by name, rebuilt when the sources change."""

import json

import pytest

from fever_core.common.settings import Settings
from fever_core.corpus import build as build_module
from fever_core.corpus.sources import embedded
from fever_core.retrieval.dense_files import INDEX_FILE, META_FILE
from fever_core.workspace import PendingBuild, open_workspace, pending_build
from tests.conftest import write_jsonl
from tests.retrieval.test_dense import patch_encode


def test_a_corpus_made_from_sources_reopens_by_name_without_rebuilding(settings, workspace, monkeypatch):
    monkeypatch.setattr(
        build_module, "build_store", lambda *a, **k: pytest.fail("reopening must not rebuild the store")
    )
    patch_encode(monkeypatch, lambda *a, **k: pytest.fail("reopening must not embed"))
    reopened = open_workspace("fixture", settings, progress=False)
    assert reopened.folder == settings.data_dir / "corpora" / "fixture" == workspace.folder
    assert reopened.store.get_meta("fingerprint") == workspace.store.get_meta("fingerprint")
    assert list(reopened.dense.sentence_ids) == list(workspace.dense.sentence_ids)


def test_other_sources_rebuild_the_store_and_its_index(tmp_path):
    settings = Settings.from_env({}, data_dir=tmp_path)
    apples = write_jsonl(tmp_path / "apples.jsonl", [{"id": "Apple", "lines": "0\tApples are red fruit ."}])
    bananas = write_jsonl(
        tmp_path / "bananas.jsonl", [{"id": "Banana", "lines": "0\tBananas are yellow .\n1\tThey are long ."}]
    )
    first = open_workspace("fruit", settings, specs=[f"fever:{apples}"], progress=False)
    assert [page_id for page_id, _ in first.store.titles()] == ["Apple"] and len(first.dense) == 1

    second = open_workspace("fruit", settings, specs=[f"fever:{bananas}"], progress=False)
    assert [page_id for page_id, _ in second.store.titles()] == ["Banana"] and len(second.dense) == 2
    assert json.loads((second.folder / "sources.json").read_text()) == [f"fever:{bananas}"]
    [hit] = second.dense.search(second.dense.embed(["a yellow fruit"])[0], 1)
    found = second.store.sentences_by_ids([hit.sentence_id])[0].sentence
    assert (found.page_id, found.line) == ("Banana", 0)


def test_an_unknown_corpus_says_how_to_make_one(tmp_path):
    with pytest.raises(KeyError, match="corpus build nothing --source"):
        open_workspace("nothing", Settings.from_env({}, data_dir=tmp_path), progress=False)


def test_a_corpus_that_fails_to_build_leaves_nothing_behind(tmp_path):
    from fever_core.corpus.build import list_corpora

    settings = Settings.from_env({}, data_dir=tmp_path)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "Apple", "lines": "0\\tApples are red ."}\n{not json\n')
    for path in (broken, tmp_path / "missing.jsonl"):
        with pytest.raises(ValueError):
            open_workspace("mine", settings, specs=[f"fever:{path}"], progress=False)
        assert "mine" not in list_corpora(tmp_path) and not (tmp_path / "corpora" / "mine").exists()

    apples = write_jsonl(tmp_path / "apples.jsonl", [{"id": "Apple", "lines": "0\tApples are red fruit ."}])
    open_workspace("mine", settings, specs=[f"fever:{apples}"], progress=False)
    with pytest.raises(ValueError):  # remade from a broken file: the corpus keeps its sources and pages
        open_workspace("mine", settings, specs=[f"fever:{broken}"], progress=False)
    reopened = open_workspace("mine", settings, progress=False)
    assert [page_id for page_id, _ in reopened.store.titles()] == ["Apple"]


# --- issue 44, item 5: a clear word before a long build -------------------------------------------------------------


def test_an_empty_data_folder_says_the_embedded_corpus_is_built_first_and_about_how_long(tmp_path):
    settings = Settings.from_env({}, data_dir=tmp_path)
    build = pending_build("embedded", settings)
    assert build == PendingBuild("embedded", True, embedded.SENTENCES, shipped=True)
    assert build.describe() == (
        "Building the embedded corpus for the first time (about 1 minute on two CPU cores: the "
        "vectors of its 36,233 sentences ship with it)… `python -m fever_core corpus build "
        "embedded` builds it ahead of time."
    )
    assert PendingBuild("embedded", True, embedded.SENTENCES).describe(ahead=False) == (
        "Building the embedded corpus for the first time (about 2 minutes on two CPU cores: 36,233 sentences to embed)…"
    )
    assert pending_build("wikipedia", settings) is None and pending_build("nothing", settings) is None
    assert not any(tmp_path.iterdir())  # looking builds nothing


def test_a_built_corpus_has_nothing_to_build_and_one_whose_build_stopped_resumes_saying_so(
    settings, workspace, tmp_path
):
    assert pending_build("fixture", settings) is None
    lines = ["\n".join(f"{i}\tSentence {i} of page {n} ." for i in range(3)) for n in range(5)]
    pages = write_jsonl(tmp_path / "pages.jsonl", [{"id": f"Page_{n}", "lines": lines[n]} for n in range(5)])
    mine = Settings.from_env({}, data_dir=tmp_path / "data")
    built = open_workspace("pages", mine, specs=[f"fever:{pages}"], progress=False)
    (built.folder / "dense.partial").mkdir()
    (built.folder / "dense.partial" / "chunk_00000.npz").write_bytes(b"")  # as a build that stopped leaves it
    for name in (META_FILE, INDEX_FILE):
        (built.folder / name).unlink()
    build = pending_build("pages", mine)
    assert build == PendingBuild("pages", False, 15, 15)
    assert build.describe().startswith(
        "Resuming the build of the pages corpus that stopped before: 15 of its 15 "
        "sentences are embedded (about 1 minute on two CPU cores left)…"
    )
