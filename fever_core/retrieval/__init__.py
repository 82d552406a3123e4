"""The retrieval layer: a claim's pages, then the sentences of those pages that may be its evidence.

One module per backend (:mod:`~fever_core.retrieval.fused`, :mod:`~fever_core.retrieval.bm25`,
:mod:`~fever_core.retrieval.tfidf`), named in :mod:`~fever_core.retrieval.registry`; what they share beside them:
the claim's analysis, the dense sentence index and its encoder, title matching, the optional re-ranker, the second
hop through links, and the typed results (:mod:`~fever_core.retrieval.results`).
"""

from __future__ import annotations

from fever_core.retrieval.base import Retriever
from fever_core.retrieval.claim_analysis import ClaimAnalysis, analyse_claim
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.registry import BACKENDS, RETRIEVERS, get_retriever
from fever_core.retrieval.results import EvidenceSentence, HopLink, PageCandidate
from fever_core.retrieval.two_hop import drawn_chains, merge_hops, rank_linked_pages, second_hop

__all__ = [
    "BACKENDS",
    "RETRIEVERS",
    "ClaimAnalysis",
    "DenseSentenceIndex",
    "EvidenceSentence",
    "HopLink",
    "PageCandidate",
    "Retriever",
    "analyse_claim",
    "drawn_chains",
    "get_retriever",
    "merge_hops",
    "rank_linked_pages",
    "second_hop",
]
