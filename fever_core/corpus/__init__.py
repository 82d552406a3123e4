"""The corpus layer: the SQLite page store, the sources that fill it, and hyperlink anchoring.

:mod:`~fever_core.corpus.store` (:class:`CorpusStore`: pages, lines, links and a full-text index),
:mod:`~fever_core.corpus.sources` (the inputs a corpus is built from), :mod:`~fever_core.corpus.linking` (anchoring
links to pages) and :mod:`~fever_core.corpus.build` (named corpora, built or opened by name).
"""

from __future__ import annotations

from fever_core.corpus.build import (
    CORPORA_HELP,
    CORPUS_CLAIMS,
    LIVE_CORPUS,
    NAMED_CORPORA,
    SOURCES_FILE,
    STORE_FILE,
    corpus_claims,
    corpus_dir,
    corpus_specs,
    ensure_corpus_store,
    list_corpora,
    sources_fingerprint,
    text_age,
)
from fever_core.corpus.sources import CorpusSourceError, PageSource, source_from_spec
from fever_core.corpus.store import CorpusStats, CorpusStore, DiskFull, PageHit, SentenceHit

__all__ = [
    "CORPORA_HELP",
    "CORPUS_CLAIMS",
    "LIVE_CORPUS",
    "NAMED_CORPORA",
    "SOURCES_FILE",
    "STORE_FILE",
    "CorpusSourceError",
    "CorpusStats",
    "CorpusStore",
    "DiskFull",
    "PageHit",
    "PageSource",
    "SentenceHit",
    "corpus_claims",
    "corpus_dir",
    "corpus_specs",
    "ensure_corpus_store",
    "list_corpora",
    "source_from_spec",
    "sources_fingerprint",
    "text_age",
]
