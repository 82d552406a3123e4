"""Document retrieval: which pages may hold the evidence for a claim.

:class:`FusedDocumentRetriever` fuses three signals by weighted reciprocal-rank fusion (Cormack et
al. 2009): title matching, dense retrieval (best sentence of each page in the FAISS index) and
lexical retrieval (SQLite FTS5 bm25 over whole pages). :class:`Bm25DocumentRetriever` is the
lexical signal alone, kept as a baseline.
"""

from __future__ import annotations

import numpy as np

from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import PageCandidate
from fever_core.retrieval.titles import TitleMatcher

RRF_K = 60
SIGNAL_WEIGHTS = {"title": 1.0, "dense": 1.0, "lexical": 1.0}
DENSE_SENTENCES = 100
LIST_DEPTH = 20


def reciprocal_rank_fusion(
    ranked: dict[str, list[tuple[str, float]]], weights: dict[str, float], k: int = RRF_K
) -> list[tuple[str, float, dict[str, float]]]:
    """Fuse ranked lists of ``(page_id, score)``: ``sum_s w_s / (k + rank_s)``, rank from 1.

    Returns:
        ``(page_id, fused score, {signal: the signal's own score})``, best first; ties keep the
        order in which pages were first seen.
    """
    fused: dict[str, float] = {}
    signals: dict[str, dict[str, float]] = {}
    for name, items in ranked.items():
        for rank, (page_id, score) in enumerate(items, start=1):
            fused[page_id] = fused.get(page_id, 0.0) + weights.get(name, 1.0) / (k + rank)
            signals.setdefault(page_id, {})[name] = score
    order = sorted(fused, key=lambda p: -fused[p])
    return [(p, fused[p], signals[p]) for p in order]


class FusedDocumentRetriever:
    """Title match + dense + lexical, fused. Build once per corpus (the title table takes a moment)."""

    name = "fused"

    def __init__(self, store: CorpusStore, dense: DenseSentenceIndex, weights: dict[str, float] | None = None):
        self.store = store
        self.dense = dense
        self.weights = weights or SIGNAL_WEIGHTS
        self._titles_of = store.get_meta("fingerprint")
        self.titles = TitleMatcher(store)

    def _current_titles(self) -> TitleMatcher:
        """The title table, read again when the store changed since (the live Wikipedia cache grows)."""
        fingerprint = self.store.get_meta("fingerprint")
        if fingerprint != self._titles_of:
            self._titles_of, self.titles = fingerprint, TitleMatcher(self.store)
        return self.titles

    def signal_lists(
        self, analysis: ClaimAnalysis, claim_vector: np.ndarray
    ) -> tuple[dict[str, list[tuple[str, float]]], dict[str, str]]:
        """Each signal's ranked ``(page_id, score)`` list (best first), and how each title matched."""
        matches = self._current_titles().match(analysis, limit=LIST_DEPTH)
        title = [(m.page_id, m.score) for m in matches]
        best: dict[str, float] = {}
        hits = self.dense.search(claim_vector, DENSE_SENTENCES)
        page_of = {h.sentence_id: h.sentence.page_id for h in self.store.sentences_by_ids([d.sentence_id for d in hits])}
        for hit in hits:
            page_id = page_of.get(hit.sentence_id)
            if page_id is not None and page_id not in best:
                best[page_id] = hit.score
        dense = list(best.items())[:LIST_DEPTH]
        lexical = [(h.page_id, h.score) for h in self.store.search_pages(analysis.claim, LIST_DEPTH)]
        return {"title": title, "dense": dense, "lexical": lexical}, {m.page_id: m.match for m in matches}

    def retrieve(self, analysis: ClaimAnalysis, claim_vector: np.ndarray, k: int = 5) -> list[PageCandidate]:
        """The ``k`` best pages, each with the signals that found it."""
        lists, how = self.signal_lists(analysis, claim_vector)
        fused = reciprocal_rank_fusion(lists, self.weights)[:k]
        return [
            PageCandidate(page_id, self.store.title_of(page_id) or page_id, score, signals, how.get(page_id, ""))
            for page_id, score, signals in fused
        ]


class Bm25DocumentRetriever:
    """Pages by FTS5 bm25 over title and body: the lexical signal alone (baseline)."""

    name = "bm25"

    def __init__(self, store: CorpusStore):
        self.store = store

    def retrieve(self, analysis: ClaimAnalysis, claim_vector: np.ndarray | None = None, k: int = 5) -> list[PageCandidate]:
        return [
            PageCandidate(h.page_id, h.title, h.score, {"lexical": h.score})
            for h in self.store.search_pages(analysis.claim, k)
        ]
