"""Embedding and batch checks on a real local Ray cluster of two workers (Ray is an optional extra)."""

import json

import numpy as np
import pytest

from fever_core.cli import main
from fever_core.retrieval import dense_build
from fever_core.retrieval.dense import DenseSentenceIndex

ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install -r requirements-ray.txt (CI does)")

from fever_core.distributed import RayEmbedder, connect  # only once Ray is there
from fever_core.distributed.embedding import VECTOR_TOLERANCE

from ..conftest import CLAIMS


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster of two CPUs: two workers."""
    connect(cpus=2)
    yield ray
    ray.shutdown()


def test_a_ray_build_gives_the_vectors_of_a_local_build(cluster, workspace, settings, tmp_path, monkeypatch):
    monkeypatch.setattr(dense_build, "CHUNK", 4)  # the fixture's 14 sentences in four chunks, over both workers
    embedder = RayEmbedder(settings.encoder_model, "cpu", tmp_path / "encoders")
    try:
        built = DenseSentenceIndex.build_or_load(
            workspace.store,
            tmp_path / "corpora" / "fixture",
            settings.encoder_model,
            "cpu",
            progress=False,
            embedder=embedder,
        )
        assert embedder.workers == 2 and len(embedder.actors) == 2
    finally:
        embedder.close()
    local = workspace.dense
    assert list(built.sentence_ids) == list(local.sentence_ids)
    difference = np.abs(built.index.reconstruct_n(0, len(built)) - local.index.reconstruct_n(0, len(local))).max()
    assert difference <= VECTOR_TOLERANCE
    query = local.embed(["Who directed Jaws?"])[0]
    on_ray, here = built.search(query, 5), local.search(query, 5)
    assert [h.sentence_id for h in on_ray] == [h.sentence_id for h in here]
    assert [h.score for h in on_ray] == pytest.approx([h.score for h in here], abs=1e-5)


def test_check_batch_on_ray_gives_the_local_rows_in_input_order(
    cluster, settings, workspace, tiny_nli_model, tmp_path, capsys
):
    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS * 3))  # 12 claims: two slices a worker
    options = [
        "--data-dir",
        str(settings.data_dir),
        "check-batch",
        str(claims),
        "--corpus",
        "fixture",
        "--model",
        str(tiny_nli_model),
    ]
    assert main([*options, "--out", str(tmp_path / "local.jsonl")]) == 0
    local = capsys.readouterr().out.splitlines()[:-1]
    assert main([*options, "--out", str(tmp_path / "ray.jsonl"), "--ray", "--ray-workers", "2"]) == 0
    on_ray = capsys.readouterr().out.splitlines()[:-1]
    assert on_ray == local and len(local) == 12
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()
