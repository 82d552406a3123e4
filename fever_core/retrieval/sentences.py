"""Sentence selection: score every sentence of the retrieved pages against the claim.

:class:`DenseSentenceSelector` uses the bi-encoder embeddings already in the FAISS index (each
sentence embedded with its page title prefixed, as Papelo and DOMLIN do) and, when a cross-encoder
is configured, re-ranks the best of them with it. :class:`Bm25SentenceSelector` is the lexical
baseline. Both return every candidate, best first, each with its score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fever_core.corpus.store import CorpusStore, SentenceHit
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import EvidenceSentence
from fever_core.common.text import premise_text

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

RERANK_DEPTH = 20


def evidence_from_hits(hits: list[SentenceHit], scores: list[float]) -> list[EvidenceSentence]:
    """Evidence sentences from store hits and their scores, best first."""
    items = [
        EvidenceSentence(h.sentence.page_id, h.title, h.sentence.line, h.sentence.text, float(s))
        for h, s in zip(hits, scores)
    ]
    return sorted(items, key=lambda e: -e.score)


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
        return self.dense.vectors_of(sentence_ids) @ query_vector

    def select(self, claim: str, claim_vector: np.ndarray, page_ids: list[str]) -> list[EvidenceSentence]:
        """All sentences of ``page_ids``, scored and sorted best first."""
        ids = self.store.sentence_ids_of_pages(page_ids)
        hits = self.store.sentences_by_ids(ids)
        ranked = evidence_from_hits(hits, self.score_ids(claim_vector, [h.sentence_id for h in hits]).tolist())
        if self.cross_encoder is None or not ranked:
            return ranked
        head, tail = ranked[: self.rerank_depth], ranked[self.rerank_depth:]
        relevance = np.atleast_1d(self.cross_encoder.predict(
            [(claim, premise_text(e.title, e.text)) for e in head], show_progress_bar=False
        ))
        cosines = [e.score for e in head]  # best first
        reranked = [head[i] for i in np.argsort(-relevance, kind="stable")]
        for item, score in zip(reranked, cosines):
            item.score = score
        return reranked + tail


class Bm25SentenceSelector:
    """FTS5 bm25 over the candidate pages' sentences (lexical baseline)."""

    name = "bm25"

    def __init__(self, store: CorpusStore):
        self.store = store

    def select(self, claim: str, claim_vector: np.ndarray | None, page_ids: list[str]) -> list[EvidenceSentence]:
        hits = self.store.search_sentences(claim, k=200, page_ids=page_ids)
        return evidence_from_hits(hits, [h.score for h in hits])
