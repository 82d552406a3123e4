"""A corpus together with its indexes: what every command and the app work on.

This sits above the corpus and retrieval layers (the store never imports the dense index). A local corpus is
fixed once built. The live ``wikipedia`` corpus (:mod:`fever_core.workspace.live`) grows as claims are checked:
it gets ready for each claim in :meth:`Workspace.prepare` and :meth:`Workspace.prepare_links`, which a local
corpus answers with nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fever_core.corpus.build import corpus_dir, ensure_corpus_store
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.encoder import ChunkEmbedder, encoder_cache_dir
from fever_core.retrieval.results import EvidenceSentence
from fever_core.common.settings import Settings


@dataclass
class Workspace:
    """A corpus store and its dense sentence index."""

    name: str
    store: CorpusStore
    dense: DenseSentenceIndex
    settings: Settings

    fetches = False
    """Whether a check may fetch pages from the network (the live corpus)."""

    @property
    def folder(self) -> Path:
        """The corpus's folder under the data folder (its store, indexes and caches)."""
        return corpus_dir(self.settings.data_dir, self.name)

    def prepare(self, analysis: ClaimAnalysis) -> list[str]:
        """Get the corpus ready to check a claim, before document retrieval; returns warnings for the reader of
        the check. A local corpus has nothing to do; the live one fetches the pages Wikipedia's search finds."""
        return []

    def prepare_links(self, evidence: list[EvidenceSentence], min_score: float) -> list[str]:
        """Get the pages that first-hop evidence scoring at least ``min_score`` links to ready for two-hop;
        returns warnings. A local corpus has them all; the live one fetches some."""
        return []


def open_local_workspace(
    name: str, settings: Settings, specs: list[str] | None = None, progress: bool = True, rebuild: bool = False,
    embedder: ChunkEmbedder | None = None,
) -> Workspace:
    """Open local corpus ``name``, building its store and dense index first if they are missing or stale
    (see :func:`fever_core.workspace.open_workspace`)."""
    store = ensure_corpus_store(settings.data_dir, name, specs=specs, progress=progress, rebuild=rebuild)
    dense = DenseSentenceIndex.build_or_load(
        store, corpus_dir(settings.data_dir, name), settings.encoder_model, settings.device, progress=progress,
        encoder_cache=encoder_cache_dir(settings.data_dir), flat_max=settings.dense_flat_max_sentences,
        embedder=embedder, precision=settings.encoder_precision,
    )
    return Workspace(name, store, dense, settings)
