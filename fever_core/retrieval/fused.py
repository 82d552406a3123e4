"""The ``fused`` retriever (the default): fused page signals, then sentences by the bi-encoder.

:class:`FusedDocumentRetriever` fuses three signals by weighted reciprocal-rank fusion (Cormack et
al. 2009): title matching, dense retrieval (best sentence of each page in the FAISS index) and
lexical retrieval (SQLite FTS5 bm25 over whole pages). :class:`DenseSentenceSelector` scores the
sentences of those pages with the bi-encoder embeddings already in the FAISS index (each sentence
embedded with its page title prefixed, as Papelo and DOMLIN do) and, when a cross-encoder is
configured, re-ranks the best of them with it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fever_core.common.text import premise_text
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.base import Retriever
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.reranker import load_reranker
from fever_core.retrieval.results import EvidenceSentence, PageCandidate, evidence_from_hits
from fever_core.retrieval.titles import TitleMatcher

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

RRF_K = 60
SIGNAL_WEIGHTS = {"title": 1.0, "dense": 1.0, "lexical": 1.0}
DENSE_SENTENCES = 100
LIST_DEPTH = 20
RERANK_DEPTH = 20


def _needed(claim_vector: np.ndarray | None) -> np.ndarray:
    """The claim's dense vector, which the fused retriever reads (its :class:`~fever_core.retrieval.base.Retriever`
    says ``dense``, so the checker computes one)."""
    if claim_vector is None:
        raise ValueError("The fused retriever reads the claim's dense vector: none was given.")
    return claim_vector


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
        page_of = {
            h.sentence_id: h.sentence.page_id for h in self.store.sentences_by_ids([d.sentence_id for d in hits])
        }
        for hit in hits:
            page_id = page_of.get(hit.sentence_id)
            if page_id is not None and page_id not in best:
                best[page_id] = hit.score
        dense = list(best.items())[:LIST_DEPTH]
        lexical = [(h.page_id, h.score) for h in self.store.search_pages(analysis.claim, LIST_DEPTH)]
        return {"title": title, "dense": dense, "lexical": lexical}, {m.page_id: m.match for m in matches}

    def retrieve(self, analysis: ClaimAnalysis, claim_vector: np.ndarray | None, k: int = 5) -> list[PageCandidate]:
        """The ``k`` best pages, each with the signals that found it."""
        lists, how = self.signal_lists(analysis, _needed(claim_vector))
        fused = reciprocal_rank_fusion(lists, self.weights)[:k]
        return [
            PageCandidate(page_id, self.store.title_of(page_id) or page_id, score, signals, how.get(page_id, ""))
            for page_id, score, signals in fused
        ]


class DenseSentenceSelector:
    """Bi-encoder cosine over candidate sentences, optionally re-ranked by a cross-encoder.

    Args:
        store, dense: the corpus and its index.
        cross_encoder: a sentence-transformers ``CrossEncoder`` scoring (claim, premise) pairs; it
            re-orders the top ``rerank_depth`` sentences (default 20). Scores stay on the bi-encoder's
            scale: the sentence re-ranked into place *i* of the head gets the *i*-th best cosine of
            the head, so the two-hop threshold, the minimum evidence score and the learned verdict,
            all set on cosine scores, mean the same with or without a re-ranker.
    """

    name = "dense"

    def __init__(
        self,
        store: CorpusStore,
        dense: DenseSentenceIndex,
        cross_encoder: CrossEncoder | None = None,
        rerank_depth: int = RERANK_DEPTH,
    ):
        self.store = store
        self.dense = dense
        self.cross_encoder = cross_encoder
        self.rerank_depth = rerank_depth

    def score_ids(self, query_vector: np.ndarray, sentence_ids: list[int]) -> np.ndarray:
        """Cosine similarity of the query to each stored sentence, shape ``(len(sentence_ids),)``."""
        if not sentence_ids:
            return np.zeros(0, dtype=np.float32)
        cosines: np.ndarray = self.dense.vectors_of(sentence_ids) @ query_vector
        return cosines

    def select(self, claim: str, claim_vector: np.ndarray | None, page_ids: list[str]) -> list[EvidenceSentence]:
        """All sentences of ``page_ids``, scored and sorted best first."""
        ids = self.store.sentence_ids_of_pages(page_ids)
        hits = self.store.sentences_by_ids(ids)
        scores = self.score_ids(_needed(claim_vector), [h.sentence_id for h in hits])
        ranked = evidence_from_hits(hits, scores.tolist())
        if self.cross_encoder is None or not ranked:
            return ranked
        head, tail = ranked[: self.rerank_depth], ranked[self.rerank_depth :]
        relevance = np.atleast_1d(
            self.cross_encoder.predict([(claim, premise_text(e.title, e.text)) for e in head], show_progress_bar=False)
        )
        cosines = [e.score for e in head]  # best first
        reranked = [head[i] for i in np.argsort(-relevance, kind="stable")]
        for item, score in zip(reranked, cosines):
            item.score = score
        return reranked + tail


class FusedBackend(Retriever):
    """``fused``: :class:`FusedDocumentRetriever` pages, :class:`DenseSentenceSelector` sentences; the only
    backend that reads the claim's dense vector."""

    @classmethod
    def open(
        cls, store: CorpusStore, dense: DenseSentenceIndex, folder: Path, reranker_model: str = "", device: str = "auto"
    ) -> FusedBackend:
        reranker = load_reranker(reranker_model, device) if reranker_model else None
        return cls("fused", FusedDocumentRetriever(store, dense), DenseSentenceSelector(store, dense, reranker), True)
