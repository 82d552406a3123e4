"""A named corpus together with its indexes: what every command and the app work on.

This sits above the corpus and retrieval layers (the store never imports the dense index).
"""

from __future__ import annotations

from dataclasses import dataclass

from fever_core.corpus.build import corpus_dir, ensure_corpus_store
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.settings import Settings


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
            name: ``embedded``, ``fever-dev``, ``fm2`` or a corpus made with ``specs``.
            specs: source specs to (re)define the corpus with (see ``fever_core.corpus.sources``).
            progress: show progress bars while building.
            rebuild: rebuild the store (and so the index) even if it looks current.
        """
        settings = settings or Settings.from_env()
        store = ensure_corpus_store(settings.data_dir, name, specs=specs, progress=progress, rebuild=rebuild)
        dense = DenseSentenceIndex.build_or_load(
            store, corpus_dir(settings.data_dir, name), settings.encoder_model, settings.device, progress=progress
        )
        return cls(name, store, dense, settings)
