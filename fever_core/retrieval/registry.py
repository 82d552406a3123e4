"""The retrievers a checker can use, by name: a page retriever and a sentence selector that go together.

- ``fused`` (default): title match + dense (FAISS) + lexical (FTS5 bm25) pages, fused by reciprocal rank;
  sentences by bi-encoder cosine, optionally re-ordered by a cross-encoder (:mod:`~fever_core.retrieval.reranker`).
- ``bm25``: the lexical signal alone, for pages and sentences (a baseline).
- ``tfidf``: the FEVER baseline's DrQA-style TF-IDF (:mod:`~fever_core.retrieval.tfidf`).

Use :func:`get_retriever`; the pipeline and the command line both read :data:`RETRIEVERS` from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import EvidenceSentence, PageCandidate

RETRIEVERS = ("fused", "bm25", "tfidf")


class PageRetriever(Protocol):
    def retrieve(self, analysis: ClaimAnalysis, claim_vector: np.ndarray | None, k: int = 5) -> list[PageCandidate]:
        """The ``k`` best pages for the claim, best first, each with the signals that found it."""


class SentenceSelector(Protocol):
    def select(self, claim: str, claim_vector: np.ndarray | None, page_ids: list[str]) -> list[EvidenceSentence]:
        """Every sentence of ``page_ids``, scored against the claim, best first."""


@dataclass
class Retriever:
    """A named pair of page retriever and sentence selector.

    Attributes:
        name: one of :data:`RETRIEVERS`.
        pages: finds the claim's pages.
        sentences: scores the sentences of those pages.
        dense: whether it reads the claim's dense vector (only ``fused`` does; the others get ``None``), and so
            whether two-hop, which scores linked sentences with the same vectors, can follow it.
    """

    name: str
    pages: PageRetriever
    sentences: SentenceSelector
    dense: bool


def get_retriever(
    name: str, store: CorpusStore, dense: DenseSentenceIndex, folder: Path, reranker_model: str = "", device: str = "auto"
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
    if name == "fused":
        from fever_core.retrieval.documents import FusedDocumentRetriever
        from fever_core.retrieval.reranker import load_reranker
        from fever_core.retrieval.sentences import DenseSentenceSelector

        reranker = load_reranker(reranker_model, device) if reranker_model else None
        return Retriever(name, FusedDocumentRetriever(store, dense), DenseSentenceSelector(store, dense, reranker), True)
    if name == "bm25":
        from fever_core.retrieval.documents import Bm25DocumentRetriever
        from fever_core.retrieval.sentences import Bm25SentenceSelector

        return Retriever(name, Bm25DocumentRetriever(store), Bm25SentenceSelector(store), False)
    if name == "tfidf":
        from fever_core.retrieval.tfidf import TfidfRetriever

        tfidf = TfidfRetriever.build_or_load(store, folder)
        return Retriever(name, tfidf, tfidf, False)
    raise ValueError(f"Unknown retriever {name!r}: choose one of {', '.join(RETRIEVERS)}.")
