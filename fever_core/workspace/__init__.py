"""Workspaces: a named corpus with its indexes, local (:mod:`~fever_core.workspace.base`) or live Wikipedia
(:mod:`~fever_core.workspace.live`). Open one with :func:`open_workspace`."""

from __future__ import annotations

from fever_core.common.settings import Settings
from fever_core.corpus.build import LIVE_CORPUS, corpus_dir
from fever_core.retrieval.encoder import ChunkEmbedder
from fever_core.workspace.base import PendingBuild, Workspace, open_local_workspace, pending_build
from fever_core.workspace.live import open_live_workspace


def open_workspace(
    name: str,
    settings: Settings | None = None,
    specs: list[str] | None = None,
    progress: bool = True,
    rebuild: bool = False,
    embedder: ChunkEmbedder | None = None,
) -> Workspace:
    """Open corpus ``name``, building its store and dense index first if they are missing or stale.

    Args:
        name: ``embedded``, ``fever-dev``, ``fm2``, ``wikipedia`` (live, see :mod:`fever_core.workspace.live`)
            or a corpus made with ``specs``.
        settings: default :meth:`Settings.from_env`.
        specs: source specs to (re)define the corpus with (see ``fever_core.corpus.sources``).
        progress: show progress bars while building.
        rebuild: rebuild the store (and so the index) even if it looks current.
        embedder: embeds the sentences when the dense index is built, e.g. on a Ray cluster
            (:mod:`fever_core.distributed`); default the encoder, in this process.
    """
    settings = settings or Settings.from_env()
    if name == LIVE_CORPUS:
        if specs or rebuild:
            raise ValueError(
                f"'{LIVE_CORPUS}' is the live Wikipedia cache: it has no sources to build from. "
                f"To start it afresh, delete {corpus_dir(settings.data_dir, name)}."
            )
        return open_live_workspace(settings, progress=progress)
    return open_local_workspace(name, settings, specs=specs, progress=progress, rebuild=rebuild, embedder=embedder)


__all__ = ["PendingBuild", "Workspace", "open_workspace", "pending_build"]
