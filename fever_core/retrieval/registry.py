"""The retrievers a checker can use, by name: each a backend module with its page retriever and sentence selector.

- ``fused`` (default, :mod:`~fever_core.retrieval.fused`): title match + dense (FAISS) + lexical (FTS5 bm25)
  pages, fused by reciprocal rank; sentences by bi-encoder cosine, optionally re-ordered by a cross-encoder
  (:mod:`~fever_core.retrieval.reranker`).
- ``bm25`` (:mod:`~fever_core.retrieval.bm25`): the lexical signal alone, for pages and sentences (a baseline).
- ``tfidf`` (:mod:`~fever_core.retrieval.tfidf`): the FEVER baseline's DrQA-style TF-IDF.

Use :func:`get_retriever`; the pipeline and the command line both read :data:`RETRIEVERS` from here. A new
backend is a module with a :class:`~fever_core.retrieval.base.Retriever` subclass, named in :data:`BACKENDS`.
"""

from __future__ import annotations

from pathlib import Path

from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.base import Retriever
from fever_core.retrieval.bm25 import Bm25Backend
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.fused import FusedBackend
from fever_core.retrieval.tfidf import TfidfBackend

BACKENDS: dict[str, type[Retriever]] = {"fused": FusedBackend, "bm25": Bm25Backend, "tfidf": TfidfBackend}
RETRIEVERS = tuple(BACKENDS)


def get_retriever(
    name: str,
    store: CorpusStore,
    dense: DenseSentenceIndex,
    folder: Path,
    reranker_model: str = "",
    device: str = "auto",
) -> Retriever:
    """The retriever ``name`` over a corpus.

    Args:
        name: one of :data:`RETRIEVERS`.
        store, dense: the corpus and its dense sentence index.
        folder: the corpus's folder, where the TF-IDF index is kept once built.
        reranker_model: a one-output cross-encoder re-ordering the ``fused`` sentences ("" for none).
        device: ``auto``, ``cpu`` or ``cuda``, for the re-ranker.

    Raises:
        ValueError: for a name not in :data:`RETRIEVERS`.
    """
    if name not in BACKENDS:
        raise ValueError(f"Unknown retriever {name!r}: choose one of {', '.join(RETRIEVERS)}.")
    return BACKENDS[name].open(store, dense, folder, reranker_model, device)
