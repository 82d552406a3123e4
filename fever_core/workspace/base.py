"""A corpus together with its indexes: what every command and the app work on.

This sits above the corpus and retrieval layers (the store never imports the dense index). A local corpus is
fixed once built. The live ``wikipedia`` corpus (:mod:`fever_core.workspace.live`) grows as claims are checked:
it gets ready for each claim in :meth:`Workspace.prepare` and :meth:`Workspace.prepare_links`, which a local
corpus answers with nothing to do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from fever_core.common.settings import SHIPPED_VECTORS_DIR, Settings
from fever_core.corpus.build import (
    LIVE_CORPUS,
    NAMED_CORPORA,
    STORE_FILE,
    corpus_dir,
    corpus_specs,
    ensure_corpus_store,
)
from fever_core.corpus.sources import embedded
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.dense_build import CHUNK
from fever_core.retrieval.dense_files import INDEX_FILE, META_FILE
from fever_core.retrieval.encoder import ChunkEmbedder, encoder_cache_dir
from fever_core.retrieval.results import EvidenceSentence

EMBEDDING_RATE = 396.0
"""Sentences a second a corpus build embeds on two CPU cores (the int8 encoder; ``benchmarks/scale/README.md``): what
the estimate of a first build reads."""
STORING_SECONDS = 13.0
"""Seconds storing the embedded corpus's pages takes before its sentences are embedded (``benchmarks/scale``)."""


def shipped_manifest(name: str) -> Path | None:
    """The manifest of the sentence vectors shipped for corpus ``name`` (``assets/models/embedded-vectors/NAME.json``: the embedded
    corpus's, :mod:`~fever_core.retrieval.shipped_vectors`), or ``None`` when none ship for it."""
    manifest = SHIPPED_VECTORS_DIR / f"{name}.json"
    return manifest if manifest.is_file() else None


@dataclass(frozen=True)
class PendingBuild:
    """What opening a local corpus builds first, said before it starts (:func:`pending_build`).

    Attributes:
        corpus: the corpus's name.
        store: its pages are stored first (its store is not built yet).
        sentences: the sentences to embed for its dense index; ``None`` when not known before its pages are stored.
        embedded: sentences an interrupted build embedded already, which this one keeps (resumes from).
        shipped: their vectors ship with the project (:func:`shipped_manifest`): a build embeds none of them (but a
            spot check's) when they are the store's sentences' by this encoder, as they are in a fresh install.
    """

    corpus: str
    store: bool
    sentences: int | None
    embedded: int = 0
    shipped: bool = False

    @property
    def seconds(self) -> float | None:
        """About how long the build takes on two CPU cores (:data:`EMBEDDING_RATE`), or ``None`` when not known."""
        if self.sentences is None:
            return None
        embedding = 0.0 if self.shipped else max(0, self.sentences - self.embedded) / EMBEDDING_RATE
        return (STORING_SECONDS if self.store else 0.0) + embedding

    def describe(self, ahead: bool = True) -> str:
        """The notice, e.g. "Building the embedded corpus for the first time (about 2 minutes on two CPU cores: 36,233
        sentences to embed)…", and (``ahead``, default) the command that builds it ahead of time."""
        command = f" `python -m fever_core corpus build {self.corpus}` builds it ahead of time." if ahead else ""
        if self.seconds is None:
            return (
                f"Building the {self.corpus} corpus for the first time: storing its pages, then embedding their "
                "sentences (the progress bar then says how long)…" + command
            )
        minutes = max(1, math.ceil(self.seconds / 60))
        took = f"about {minutes} minute{'s' if minutes > 1 else ''} on two CPU cores"
        if self.embedded:
            return (
                f"Resuming the build of the {self.corpus} corpus that stopped before: {self.embedded:,} of its "
                f"{self.sentences:,} sentences are embedded ({took} left)…"
            )
        plural = "" if self.sentences == 1 else "s"
        if self.shipped:
            return (
                f"Building the {self.corpus} corpus for the first time ({took}: the vectors of its "
                f"{self.sentences:,} sentence{plural} ship with it)…" + command
            )
        return (
            f"Building the {self.corpus} corpus for the first time ({took}: {self.sentences:,} sentence{plural} "
            "to embed)…" + command
        )


def pending_build(name: str, settings: Settings) -> PendingBuild | None:
    """What opening local corpus ``name`` would build first, from the files in its folder (nothing is opened for
    writing): its store and its dense index when neither is there, the index when only the store is, what remains
    of a build that stopped (its chunks in ``dense.partial/``); ``None`` when both are built (an index out of date is
    rebuilt with a warning of its own) or for the live corpus, which grows as claims are checked."""
    if name == LIVE_CORPUS:
        return None
    try:
        folder = corpus_dir(settings.data_dir, name)
        specs = corpus_specs(settings.data_dir, name)
    except (KeyError, OSError, ValueError):
        return None  # opening it says why
    if (folder / META_FILE).is_file() or (folder / INDEX_FILE).is_file():
        return None
    store_path = folder / STORE_FILE
    shipped = shipped_manifest(name) is not None
    if not store_path.is_file():
        return PendingBuild(
            name, True, embedded.SENTENCES if specs == NAMED_CORPORA["embedded"] else None, shipped=shipped
        )
    chunks = len(list((folder / "dense.partial").glob("chunk_*.npz")))
    try:
        store = CorpusStore(store_path)
        try:
            sentences = store.stats().sentences
        finally:
            store.close()
    except Exception:  # noqa: BLE001 - a store that can't be read says so when it is opened
        return None
    return PendingBuild(name, False, sentences, min(sentences, chunks * CHUNK), shipped)


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
    name: str,
    settings: Settings,
    specs: list[str] | None = None,
    progress: bool = True,
    rebuild: bool = False,
    embedder: ChunkEmbedder | None = None,
) -> Workspace:
    """Open local corpus ``name``, building its store and dense index first if they are missing or stale
    (see :func:`fever_core.workspace.open_workspace`)."""
    store = ensure_corpus_store(settings.data_dir, name, specs=specs, progress=progress, rebuild=rebuild)
    dense = DenseSentenceIndex.build_or_load(
        store,
        corpus_dir(settings.data_dir, name),
        settings.encoder_model,
        settings.device,
        progress=progress,
        encoder_cache=encoder_cache_dir(settings.data_dir),
        flat_max=settings.dense_flat_max_sentences,
        embedder=embedder,
        precision=settings.encoder_precision,
        shipped=shipped_manifest(name),
    )
    return Workspace(name, store, dense, settings)
