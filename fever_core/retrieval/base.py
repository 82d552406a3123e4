"""What a retriever is: a page retriever and a sentence selector that go together, opened over one corpus.

Each backend is a module beside this one (:mod:`~fever_core.retrieval.fused`, :mod:`~fever_core.retrieval.bm25`,
:mod:`~fever_core.retrieval.tfidf`) with a :class:`Retriever` subclass whose :meth:`Retriever.open` builds it;
:mod:`~fever_core.retrieval.registry` names them.
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
        name: its name in :data:`~fever_core.retrieval.registry.RETRIEVERS`.
        pages: finds the claim's pages.
        sentences: scores the sentences of those pages.
        dense: whether it reads the claim's dense vector (only ``fused`` does; the others get ``None``), and so
            whether two-hop, which scores linked sentences with the same vectors, can follow it.
    """

    name: str
    pages: PageRetriever
    sentences: SentenceSelector
    dense: bool

    @classmethod
    def open(
        cls, store: CorpusStore, dense: DenseSentenceIndex, folder: Path, reranker_model: str = "", device: str = "auto"
    ) -> Retriever:
        """This backend over a corpus.

        Args:
            store, dense: the corpus and its dense sentence index.
            folder: the corpus's folder, where a backend keeps an index of its own once built (TF-IDF's).
            reranker_model: a one-output cross-encoder re-ordering the sentences ("" for none; ``fused`` only).
            device: ``auto``, ``cpu`` or ``cuda``, for the re-ranker.
        """
        raise NotImplementedError(f"{cls.__name__} is not a retrieval backend: open one of its subclasses")
