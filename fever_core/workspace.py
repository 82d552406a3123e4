"""A named corpus together with its indexes: what every command and the app work on.

This sits above the corpus and retrieval layers (the store never imports the dense index). A local
corpus is fixed once built; the live ``wikipedia`` corpus (:mod:`fever_core.live_wikipedia`) grows
as claims are checked, through the :meth:`Workspace.prepare` hooks the checker calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fever_core.corpus.build import LIVE_CORPUS, corpus_dir, ensure_corpus_store
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.results import EvidenceSentence
from fever_core.settings import Settings


@dataclass
class FetchReport:
    """What getting a corpus ready for a claim did.

    Attributes:
        grew: the corpus gained pages (so tables read from it once, like the titles, are stale).
        warnings: what the reader of the check should know, e.g. that Wikipedia could not be reached.
    """

    grew: bool = False
    warnings: list[str] = field(default_factory=list)


@dataclass
class Workspace:
    """A corpus store and its dense sentence index, built on first use."""

    name: str
    store: CorpusStore
    dense: DenseSentenceIndex
    settings: Settings

    @classmethod
    def open(
        cls,
        name: str,
        settings: Settings | None = None,
        specs: list[str] | None = None,
        progress: bool = True,
        rebuild: bool = False,
    ) -> Workspace:
        """Open corpus ``name``, building its store and dense index first if they are missing or stale.

        Args:
            name: ``embedded``, ``fever-dev``, ``fm2``, ``wikipedia`` (live; see
                :mod:`fever_core.live_wikipedia`) or a corpus made with ``specs``.
            specs: source specs to (re)define the corpus with (see ``fever_core.corpus.sources``).
            progress: show progress bars while building.
            rebuild: rebuild the store (and so the index) even if it looks current.
        """
        settings = settings or Settings.from_env()
        if name == LIVE_CORPUS:
            if specs or rebuild:
                raise ValueError(
                    f"'{LIVE_CORPUS}' is the live Wikipedia cache: it has no sources to build from. "
                    f"To start it afresh, delete {corpus_dir(settings.data_dir, name)}."
                )
            from fever_core.live_wikipedia import open_live_workspace

            return open_live_workspace(settings, progress=progress)
        store = ensure_corpus_store(settings.data_dir, name, specs=specs, progress=progress, rebuild=rebuild)
        dense = DenseSentenceIndex.build_or_load(
            store, corpus_dir(settings.data_dir, name), settings.encoder_model, settings.device, progress=progress
        )
        return cls(name, store, dense, settings)

    def prepare(self, analysis: ClaimAnalysis) -> FetchReport:
        """Get the corpus ready to check a claim, before document retrieval. A local corpus has
        nothing to do; the live one fetches the pages Wikipedia's search finds for the claim."""
        return FetchReport()

    def prepare_links(self, evidence: list[EvidenceSentence], min_score: float) -> FetchReport:
        """Get the pages that first-hop evidence scoring at least ``min_score`` links to ready for
        two-hop. A local corpus has them all; the live one fetches some."""
        return FetchReport()
