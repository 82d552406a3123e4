"""What the compressed-index experiments share: the exact vectors of the large real corpus (built by
``benchmarks/scale/run.sh``; ``FEVER_DATA_DIR`` names its data folder), 1,000 fever-dev claims embedded as queries,
their exact neighbours, and a training sample. Run the scripts from the project root with ``PYTHONPATH=.``."""

from __future__ import annotations

import json

import numpy as np

from fever_core.common.settings import SHARED_DATA_DIR, Settings
from fever_core.workspace import open_workspace

TRAIN = 81_920
"""Training vectors: 40 a cell for 2,048 cells, as the workbench's plan takes."""


def load(claims: int = 1000, depth: int = 5):
    """``(dense, vectors, queries, exact)``: the corpus's flat index, all its vectors, the claims' vectors and their
    exact top ``depth`` (rows)."""
    dense = open_workspace("large", Settings.from_env(), progress=False).dense
    vectors = dense.index.reconstruct_n(0, dense.index.ntotal)
    with open(SHARED_DATA_DIR / "claims" / "fever-dev.jsonl") as fh:
        texts = [json.loads(line)["claim"] for line in fh][:claims]
    queries = dense.embed(texts)
    return dense, vectors, queries, dense.index.search(queries, depth)[1]


def sample(vectors: np.ndarray, size: int = TRAIN) -> np.ndarray:
    return vectors[np.sort(np.random.default_rng(0).choice(len(vectors), size, replace=False))]


def recall(found: np.ndarray, exact: np.ndarray, k: int = 5) -> float:
    """Mean share of each exact top ``k`` among the rows found."""
    return round(float(np.mean([len(set(a) & set(b[:k])) / k for a, b in zip(found, exact)])), 4)
