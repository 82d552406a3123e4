"""The ``bm25`` retriever: SQLite FTS5 bm25 alone, for pages (over title and body) and then for their
sentences. A lexical baseline; it reads no dense vector."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.base import Retriever
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import EvidenceSentence, PageCandidate, evidence_from_hits


class Bm25DocumentRetriever:
    """Pages by FTS5 bm25 over title and body: the lexical signal alone (baseline)."""

    name = "bm25"

    def __init__(self, store: CorpusStore):
        self.store = store

    def retrieve(
        self, analysis: ClaimAnalysis, claim_vector: np.ndarray | None = None, k: int = 5
    ) -> list[PageCandidate]:
        return [
            PageCandidate(h.page_id, h.title, h.score, {"lexical": h.score})
            for h in self.store.search_pages(analysis.claim, k)
        ]


class Bm25SentenceSelector:
    """FTS5 bm25 over the candidate pages' sentences (lexical baseline)."""

    name = "bm25"

    def __init__(self, store: CorpusStore):
        self.store = store

    def select(self, claim: str, claim_vector: np.ndarray | None, page_ids: list[str]) -> list[EvidenceSentence]:
        hits = self.store.search_sentences(claim, k=200, page_ids=page_ids)
        return evidence_from_hits(hits, [h.score for h in hits])


class Bm25Backend(Retriever):
    """``bm25``: :class:`Bm25DocumentRetriever` pages, :class:`Bm25SentenceSelector` sentences."""

    @classmethod
    def open(
        cls, store: CorpusStore, dense: DenseSentenceIndex, folder: Path, reranker_model: str = "", device: str = "auto"
    ) -> Bm25Backend:
        return cls("bm25", Bm25DocumentRetriever(store), Bm25SentenceSelector(store), False)
