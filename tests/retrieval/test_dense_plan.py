"""The dense index by size: exact below the threshold; above it compressed (IVF, SQ8), trained on a sample, built
in shards, merged, memory-mapped when served, recorded with the index, and resumable."""

import dataclasses
import json

import faiss
import numpy as np
import pytest

from fever_core.cli import main
from fever_core.corpus.build import ensure_corpus_store
from fever_core.retrieval import dense_build, dense_plan
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.dense_plan import IVFDATA_FILE, IndexPlan

from ..conftest import write_jsonl
from .test_dense import patch_encode

TOPICS = ["rivers", "castles", "sharks", "films", "painters", "rockets", "volcanoes", "poets", "trains", "islands"]


def test_the_plan_follows_the_size():
    assert IndexPlan.for_size(1_000_000, flat_max=1_000_000) == IndexPlan()
    big = IndexPlan.for_size(25_000_000, flat_max=1_000_000)
    assert (big.kind, big.nlist, big.nprobe, big.train_size) == ("ivf-sq8", 16384, 8192, 40 * 16384)
    assert big.factory == "IVF16384,SQ8" and big.describe() == "IVF16384,SQ8, nprobe 8192 (compressed)"
    # how many cells are searched is not how the index is made: another nprobe is no reason to rebuild
    assert big.builds_like(dataclasses.replace(big, nprobe=64)) and not big.builds_like(
        dataclasses.replace(big, nlist=8)
    )
    assert IndexPlan.for_size(300_000, flat_max=1000).nlist == 2048
    assert IndexPlan.for_size(300_000, flat_max=1000, kind="ivf-pq").factory == "IVF2048,PQ48"
    assert IndexPlan.from_meta(None) == IndexPlan() and IndexPlan.from_meta(big.to_meta()) == big
    with pytest.raises(ValueError, match="Unknown index kind"):
        IndexPlan.for_size(10, flat_max=1, kind="lsh")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    base = tmp_path_factory.mktemp("sized")
    pages = [
        {
            "id": f"{topic.title()}_{i}",
            "lines": f"0\tThis page is number {i} about {topic} .\n"
            f"1\tIt tells of {topic} seen in the year {1900 + i} .",
        }
        for topic in TOPICS
        for i in range(12)
    ]
    source = write_jsonl(base / "pages.jsonl", pages)
    return base, ensure_corpus_store(base, "sized", specs=[f"fever:{source}"], progress=False)


def test_a_corpus_above_the_threshold_gets_a_compressed_index_built_in_shards(corpus, settings, monkeypatch, capsys):
    base, store = corpus
    monkeypatch.setattr(dense_build, "CHUNK", 50)
    monkeypatch.setattr(dense_plan, "SHARD_VECTORS", 100)  # 240 sentences: three shards, merged
    exact = DenseSentenceIndex.build_or_load(store, base / "flat", settings.encoder_model, progress=False)
    folder = base / "corpora" / "sized"
    written = []
    real_write = dense_plan._atomic_write
    monkeypatch.setattr(
        dense_plan, "_atomic_write", lambda index, path: (written.append(path.name), real_write(index, path))
    )
    index = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False, flat_max=100)
    assert written == ["trained.faiss", "shard_00000.faiss", "shard_00001.faiss", "shard_00002.faiss"]
    meta = json.loads((folder / "dense.json").read_text())
    assert meta["index"]["kind"] == "ivf-sq8" and meta["index"]["factory"] == index.plan.factory
    assert IVFDATA_FILE in meta["checksums"] and (folder / IVFDATA_FILE).is_file()
    assert exact.plan.kind == "flat" and len(index) == len(exact) == 240

    reopened = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False, flat_max=100)
    invlists = faiss.extract_index_ivf(reopened.index).invlists
    assert isinstance(faiss.downcast_InvertedLists(invlists), faiss.OnDiskInvertedLists)  # served memory-mapped
    queries = exact.embed([f"Which {topic} were seen in {1900 + i}?" for topic in TOPICS for i in (1, 7)])
    recall = np.mean(
        [
            len({h.sentence_id for h in reopened.search(q, 5)} & {h.sentence_id for h in exact.search(q, 5)}) / 5
            for q in queries
        ]
    )
    assert recall >= 0.95
    ids = [int(i) for i in exact.sentence_ids[::17]] + [10**9]
    np.testing.assert_allclose(reopened.vectors_of(ids), exact.vectors_of(ids), atol=0.02)
    assert not reopened.vectors_of([10**9]).any()

    monkeypatch.setenv("FEVER_DENSE_FLAT_MAX_SENTENCES", "100")
    assert main(["--data-dir", str(base), "corpus", "info", "sized"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["dense_index"] == f"{index.plan.factory}, nprobe {index.plan.nprobe} (compressed)"
    assert info["dense_plan"]["kind"] == "ivf-sq8" and info["dense_vectors"] == 240

    # back under the threshold (it was raised), the index is rebuilt exact and the compressed lists go
    flat_again = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False)
    assert flat_again.plan.kind == "flat" and not (folder / IVFDATA_FILE).exists()


def test_a_killed_compressed_build_keeps_its_training_and_shards(corpus, settings, monkeypatch, tmp_path):
    _, store = corpus
    monkeypatch.setattr(dense_build, "CHUNK", 50)
    monkeypatch.setattr(dense_plan, "SHARD_VECTORS", 100)
    real_write, written = dense_plan._atomic_write, []

    def dies_at_the_third_shard(index, path):
        if path.name == "shard_00002.faiss" and not written.count(path.name):
            written.append(path.name)
            raise KeyboardInterrupt("killed")
        written.append(path.name)
        real_write(index, path)

    monkeypatch.setattr(dense_plan, "_atomic_write", dies_at_the_third_shard)
    folder = tmp_path / "corpora" / "sized"
    with pytest.raises(KeyboardInterrupt):
        DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False, flat_max=100)
    patch_encode(monkeypatch, lambda *a, **k: pytest.fail("embedded again after the kill"))
    index = DenseSentenceIndex.build_or_load(store, folder, settings.encoder_model, progress=False, flat_max=100)
    assert written == [
        "trained.faiss",
        "shard_00000.faiss",
        "shard_00001.faiss",
        "shard_00002.faiss",
        "shard_00002.faiss",
    ]
    assert len(index) == 240 and not (folder / "dense.partial").exists()


def test_the_index_kinds_are_measured_against_flat_search_on_real_queries(corpus, settings):
    from fever_core.evaluation.corpus_benchmark import benchmark_index_kinds

    base, store = corpus
    exact = DenseSentenceIndex.build_or_load(store, base / "flat", settings.encoder_model, progress=False)
    queries = exact.embed([f"Which {topic} were seen in {1900 + i}?" for topic in TOPICS for i in (2, 9)])
    reports = benchmark_index_kinds(exact, queries, k=5, kinds=("ivf-sq8",), nprobes=(1, 64))
    assert [(r.kind, r.nprobe) for r in reports] == [("flat", 0), ("ivf-sq8", 1), ("ivf-sq8", 64)]
    assert reports[0].recall_at_k == reports[0].recall_at_k_in_50 == 1.0
    one_cell, every_cell = reports[1:]
    assert one_cell.recall_at_k <= every_cell.recall_at_k and every_cell.recall_at_k >= 0.95
    assert all(r.recall_at_k <= r.recall_at_k_in_50 <= 1 and r.disk_mb > 0 for r in (one_cell, every_cell))
