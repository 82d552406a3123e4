import json

import numpy as np
import pytest

from fever_core.common.text import premise_text
from fever_core.corpus.build import ensure_corpus_store
from fever_core.retrieval import dense as dense_module
from fever_core.retrieval import dense_build
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.dense_build import SPOT_CHECK
from fever_core.retrieval.dense_files import DenseIndexDamaged, damaged_files

from ..conftest import write_jsonl

ENCODING_MODULES = (dense_module, dense_build)
"""The modules of the dense index that call the encoder: a test that counts or stops its calls patches each."""


def patch_encode(monkeypatch, fake) -> None:
    """Make every call of the dense index to the encoder go to ``fake`` (``encode``'s signature)."""
    for module in ENCODING_MODULES:
        monkeypatch.setattr(module, "encode", fake)


def counting_encode(monkeypatch) -> list[str]:
    """The texts the dense index asks the encoder for from now on (it still embeds them)."""
    real_encode, encoded = dense_build.encode, []
    patch_encode(monkeypatch, lambda e, t, batch_size=64: (encoded.extend(t), real_encode(e, t))[1])
    return encoded


def test_dense_search_finds_the_expected_page(workspace):
    vector = workspace.dense.embed(["Who created the fictional detective Sherlock Holmes?"])[0]
    hits = workspace.dense.search(vector, 3)
    pages = [workspace.store.sentences_by_ids([h.sentence_id])[0].sentence.page_id for h in hits]
    assert pages[0] in {"Sherlock_Holmes", "Arthur_Conan_Doyle"}
    assert all(-1.0 <= h.score <= 1.0001 for h in hits)


def test_dense_search_matches_brute_force(workspace):
    """FAISS top-k equals an exhaustive cosine ranking over freshly encoded sentences."""
    rows = [r for batch in workspace.store.iter_sentence_texts() for r in batch]
    vectors = workspace.dense.embed([premise_text(title, text) for _, title, text in rows])
    query = workspace.dense.embed(["a shark film from the seventies"])[0]
    expected = [rows[i][0] for i in np.argsort(-(vectors @ query))[:5]]
    assert [h.sentence_id for h in workspace.dense.search(query, 5)] == expected
    np.testing.assert_allclose(
        workspace.dense.vectors_of(expected[:2]), vectors[np.argsort(-(vectors @ query))[:2]], atol=1e-5
    )


def test_index_is_reused_then_rebuilt_when_the_corpus_changes(tmp_path, settings):
    source = write_jsonl(tmp_path / "p.jsonl", [{"id": "A", "lines": "0\tApples are red fruit ."}])
    folder = tmp_path / "corpora" / "d"
    store = ensure_corpus_store(tmp_path, "d", specs=[f"fever:{source}"], progress=False)
    first = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    stamp = (folder / "dense.json").stat().st_mtime_ns
    DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert (folder / "dense.json").stat().st_mtime_ns == stamp
    write_jsonl(
        source, [{"id": "A", "lines": "0\tApples are red fruit ."}, {"id": "B", "lines": "0\tBananas are yellow ."}]
    )
    store = ensure_corpus_store(tmp_path, "d", progress=False)
    second = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert len(first) == 1 and len(second) == 2
    assert json.loads((folder / "dense.json").read_text())["store_fingerprint"] == store.get_meta("fingerprint")


def test_a_killed_embedding_run_resumes_from_saved_chunks(tmp_path, settings, monkeypatch):
    source = write_jsonl(
        tmp_path / "p.jsonl", [{"id": f"P{i}", "lines": f"0\tPage {i} is about topic {i} ."} for i in range(7)]
    )
    store = ensure_corpus_store(tmp_path, "r", specs=[f"fever:{source}"], progress=False)
    folder = tmp_path / "corpora" / "r"
    monkeypatch.setattr(dense_build, "CHUNK", 3)
    real_encode, calls = dense_build.encode, []

    def encode_then_die(encoder, texts, batch_size=64):
        calls.append(len(texts))
        if len(calls) == 2:
            raise KeyboardInterrupt("killed")
        return real_encode(encoder, texts, batch_size)

    patch_encode(monkeypatch, encode_then_die)
    with pytest.raises(KeyboardInterrupt):
        DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert not (folder / "dense.json").exists()
    assert len(list((folder / "dense.partial").glob("chunk_*.npz"))) == 1
    calls.clear()
    patch_encode(monkeypatch, lambda e, t, batch_size=64: (calls.append(len(t)), real_encode(e, t))[1])
    index = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert calls == [3, 1]  # the first chunk was not embedded again
    assert len(index) == 7 and not (folder / "dense.partial").exists()


def test_a_corrupt_index_file_is_rebuilt(tmp_path, settings):
    source = write_jsonl(tmp_path / "p.jsonl", [{"id": "A", "lines": "0\tApples are red fruit ."}])
    store = ensure_corpus_store(tmp_path, "x", specs=[f"fever:{source}"], progress=False)
    folder = tmp_path / "corpora" / "x"
    DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    (folder / "dense.faiss").write_bytes(b"garbage")
    assert len(DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)) == 1


def test_a_rebuild_embeds_only_new_texts(tmp_path, settings, monkeypatch):
    source = write_jsonl(
        tmp_path / "p.jsonl", [{"id": "A", "lines": "0\tApples are red fruit .\n1\tThey grow on trees ."}]
    )
    folder = tmp_path / "corpora" / "k"
    store = ensure_corpus_store(tmp_path, "k", specs=[f"fever:{source}"], progress=False)
    before = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    write_jsonl(
        source,
        [
            {"id": "A", "lines": "0\tApples are red fruit .\n1\tThey grow on trees ."},
            {"id": "B", "lines": "0\tBananas are yellow ."},
        ],
    )
    store = ensure_corpus_store(tmp_path, "k", progress=False)
    encoded = counting_encode(monkeypatch)
    after = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    # the reused vectors are spot-checked against the encoder first, then only the new text is embedded
    assert encoded == ["A: Apples are red fruit.", "A: They grow on trees.", "B: Bananas are yellow."]
    apple_before = before.vectors_of([before.sentence_ids[0]])
    apple_after = after.vectors_of([store.sentence_ids_of_pages(["A"])[0]])
    np.testing.assert_allclose(apple_before, apple_after)


def test_an_index_grows_with_its_store_and_reloads_without_a_rebuild(tmp_path, settings, monkeypatch):
    from fever_core.common.types import Page, Sentence
    from fever_core.corpus.store import CorpusStore

    store = CorpusStore.create(tmp_path / "grow" / "store.sqlite")
    store.add_pages([Page("A", "A", [Sentence("A", 0, "Apples are red fruit.")])])
    store.set_meta("fingerprint", "one page")
    folder = tmp_path / "grow"
    index = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    index.vectors_of([index.sentence_ids[0]])  # the vector cache must grow too
    store.add_pages(
        [Page("B", "B", [Sentence("B", 0, "Bananas are yellow."), Sentence("B", 1, "They grow in bunches.")])]
    )
    assert index.extend_from(store) == 2 and index.extend_from(store) == 0
    rows = [r for batch in store.iter_sentence_texts() for r in batch]
    vectors = index.embed([premise_text(title, text) for _, title, text in rows])
    np.testing.assert_allclose(index.vectors_of([sid for sid, _, _ in rows]), vectors, atol=1e-5)
    query = index.embed(["a yellow fruit"])[0]
    assert [h.sentence_id for h in index.search(query, 3)] == [rows[i][0] for i in np.argsort(-(vectors @ query))]

    store.set_meta("fingerprint", "three sentences")
    index.save("three sentences")
    patch_encode(monkeypatch, lambda *a, **k: pytest.fail("reloading must not embed"))
    reloaded = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert len(reloaded) == 3 and list(reloaded.sentence_ids) == [sid for sid, _, _ in rows]
    assert len(np.load(folder / "dense_keys.npy")) == 3


def small_index(tmp_path, settings, n: int = 40):
    """A corpus of ``n`` one-sentence pages with its dense index, and the folder it lives in."""
    source = write_jsonl(
        tmp_path / "p.jsonl", [{"id": f"P{i}", "lines": f"0\tPage {i} is about topic number {i} ."} for i in range(n)]
    )
    store = ensure_corpus_store(tmp_path, "c", specs=[f"fever:{source}"], progress=False)
    folder = tmp_path / "corpora" / "c"
    return store, folder, DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)


def test_the_index_files_carry_checksums_that_catch_damage(tmp_path, settings):
    _store, folder, _index = small_index(tmp_path, settings)
    meta = json.loads((folder / "dense.json").read_text())
    assert set(meta["checksums"]) == {"dense.faiss", "dense_ids.npy", "dense_keys.npy"}
    assert damaged_files(folder, meta) == []
    with (folder / "dense.faiss").open("r+b") as fh:
        fh.seek((folder / "dense.faiss").stat().st_size // 2)
        fh.write(b"\x7f" * 64)
    assert damaged_files(folder, meta) == ["dense.faiss"]


def test_a_damaged_index_is_rebuilt_reusing_the_vectors_still_good(tmp_path, settings, monkeypatch):
    store, folder, before = small_index(tmp_path, settings)
    size = (folder / "dense.faiss").stat().st_size
    with (folder / "dense.faiss").open("r+b") as fh:  # 3 rows' worth of bytes in the middle become garbage
        fh.seek(size // 2)
        fh.write(np.full(3 * 384, 5e37, dtype=np.float32).tobytes())
    encoded = counting_encode(monkeypatch)
    after = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert len(after) == 40 and damaged_files(folder, after.meta) == []
    assert 3 <= len(encoded) <= 4 + SPOT_CHECK  # the damaged rows, and the spot check
    np.testing.assert_allclose(after.index.reconstruct_n(0, 40), before.index.reconstruct_n(0, 40), atol=1e-5)


def test_deleting_the_meta_file_beside_an_intact_index_re_embeds_nothing_but_the_spot_check(
    tmp_path, settings, monkeypatch, caplog
):
    store, folder, _ = small_index(tmp_path, settings)
    (folder / "dense.json").unlink()
    encoded = counting_encode(monkeypatch)
    assert len(DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)) == 40
    assert len(encoded) <= SPOT_CHECK
    assert "has lost its dense.json: rebuilding it, reusing every vector" in caplog.text


def test_impossible_scores_are_an_error_never_evidence(tmp_path, settings):
    import faiss

    _store, _folder, index = small_index(tmp_path, settings, n=3)
    broken = faiss.IndexFlatIP(index.index.d)
    broken.add(np.full((3, index.index.d), 1e30, dtype=np.float32))
    index.index = broken
    with pytest.raises(DenseIndexDamaged, match="impossible scores"):
        index.search(index.embed(["topic"])[0], 2)


def test_a_damaged_store_is_refused_with_what_to_do(tmp_path, settings):
    from fever_core.corpus.store import CorpusStore

    store, _, _ = small_index(tmp_path, settings, n=300)
    store.close()
    path = store.path
    with path.open("r+b") as fh:
        fh.seek(path.stat().st_size // 2)
        fh.write(b"\x00\xff" * 2048)
    with pytest.raises(ValueError, match="(damaged|not a readable).*rebuild"):
        CorpusStore.open(path)


def test_a_lost_key_file_is_rebuilt_from_the_store_without_embedding_again(tmp_path, settings, monkeypatch, caplog):
    store, folder, before = small_index(tmp_path, settings)
    keys = np.load(folder / "dense_keys.npy")
    (folder / "dense_keys.npy").unlink()
    encoded = counting_encode(monkeypatch)
    after = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert len(encoded) <= SPOT_CHECK  # the spot check only, not the 40 sentences
    assert "dense_keys.npy" in caplog.text and "reusing every vector" in caplog.text
    np.testing.assert_array_equal(np.load(folder / "dense_keys.npy"), keys)
    np.testing.assert_allclose(after.index.reconstruct_n(0, 40), before.index.reconstruct_n(0, 40), atol=1e-5)
    assert damaged_files(folder, after.meta) == []


def test_an_index_is_queried_at_the_precision_it_was_built_with(tmp_path, settings, monkeypatch, caplog):
    source = write_jsonl(
        tmp_path / "p.jsonl", [{"id": "A", "lines": "0\tApples are red fruit .\n1\tThey grow on trees ."}]
    )
    store = ensure_corpus_store(tmp_path, "q", specs=[f"fever:{source}"], progress=False)
    folder = tmp_path / "corpora" / "q"
    fresh = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, "cpu", progress=False)
    assert fresh.encoder.precision == "int8" and fresh.meta["encoder_precision"] == "int8"
    exact = DenseSentenceIndex.build_or_load(
        store, folder, settings.encoder_model, "cpu", progress=False, precision="fp32"
    )  # asked for: a rebuild, reusing no int8 vector
    assert "out of date: rebuilding" in caplog.text and exact.encoder.precision == "fp32"
    assert json.loads((folder / "dense.json").read_text())["encoder_precision"] == "fp32"
    assert (exact.index.reconstruct_n(0, 2) * fresh.index.reconstruct_n(0, 2)).sum(axis=1).max() < 0.99999
    # an index written before precisions were kept is fp32: opened as it is, queried at fp32, not rebuilt
    meta = json.loads((folder / "dense.json").read_text())
    del meta["encoder_precision"]
    (folder / "dense.json").write_text(json.dumps(meta))
    encoded = counting_encode(monkeypatch)
    old = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, "cpu", progress=False)
    assert encoded == [] and old.encoder.precision == "fp32"
