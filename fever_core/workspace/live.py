"""The live ``wikipedia`` workspace: a local cache of Wikipedia page leads that grows with every claim checked.

Before document retrieval, Wikipedia is searched for the claim and for its first mentions, and the
leads of the top pages are fetched; before two-hop, some pages the best evidence links to. Each
page is fetched once (:class:`~fever_core.corpus.wikipedia_cache.WikipediaCache`), stored, and its
sentence vectors appended to the dense index, which is saved with the store's new fingerprint, so
reopening the cache loads it as it is. Then the ordinary pipeline runs on the cache.

Network per claim is bounded: at most ``1 + MAX_MENTION_SEARCHES`` searches,
``wikipedia_pages_per_claim`` page fetches and ``wikipedia_links_per_claim`` linked-page fetches
(two requests each, see :meth:`LiveWikipediaSource.fetch_page`). Each search or page fetch takes at most
``wikipedia_timeout_s`` in all, however slowly the server answers, and no fetch starts once a step (the
claim's pages, then its linked pages) has used that much. When Wikipedia can't be reached or does not
answer in time, the claim is checked against the pages cached so far with a warning saying so, and no
request is made for :data:`RETRY_AFTER_S` seconds.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fever_core.common.settings import Settings
from fever_core.common.text import page_id_to_title
from fever_core.corpus.build import LIVE_CORPUS, STORE_FILE, corpus_dir
from fever_core.corpus.sources.wikipedia_api import LiveWikipediaSource, WikipediaUnavailable
from fever_core.corpus.store import SCHEMA_VERSION, CorpusStore, DiskFull, check_store_path
from fever_core.corpus.wikipedia_cache import WikipediaCache
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.dense import DenseSentenceIndex
from fever_core.retrieval.encoder import encoder_cache_dir
from fever_core.retrieval.results import EvidenceSentence
from fever_core.workspace.base import Workspace

MAX_MENTION_SEARCHES = 2
MAX_SEARCH_CHARS = 300  # Wikipedia's search refuses longer queries
RETRY_AFTER_S = 30.0

# One indexer at a time for every live cache in this process: extending the index and saving it. Never held
# across network I/O, so a slow Wikipedia holds only the claims that wait for it.
_INDEXING = threading.Lock()
_OPEN: dict[tuple[Any, ...], LiveWikipediaWorkspace] = {}


def content_fingerprint(store: CorpusStore) -> str:
    """The fingerprint of what the cache holds (it only grows); the dense index is saved with it."""
    stats = store.stats()
    return f"{LIVE_CORPUS}|{SCHEMA_VERSION}|{stats.pages}|{stats.sentences}|{stats.links}"


def open_live_workspace(settings: Settings, progress: bool = False) -> LiveWikipediaWorkspace:
    """The live Wikipedia workspace of ``settings.data_dir``, created empty on first use.

    One instance per cache folder and network settings is kept per process (they write the same
    files), so the app's pages and checkers share it.

    Raises:
        ValueError: something is in the way of the cache's folder (a file, or a folder where its store goes).
        RuntimeError: the cache's folder can't be written to (a read-only data folder).
    """
    folder = corpus_dir(settings.data_dir, LIVE_CORPUS)
    check_store_path(folder / STORE_FILE)
    if not _writable(folder):
        raise RuntimeError(
            f"The live Wikipedia corpus keeps every page it fetches in {folder}, which this process can't write to "
            "(a read-only data folder?). Point --data-dir or FEVER_DATA_DIR at a folder it can write to, or check "
            "against a local corpus (embedded, fever-dev, fm2)."
        )
    key = (
        folder.resolve(),
        settings.encoder_model,
        settings.encoder_precision,
        settings.device,
        settings.wikipedia_api_url,
        settings.wikipedia_timeout_s,
        settings.wikipedia_pages_per_claim,
        settings.wikipedia_links_per_claim,
    )
    with _INDEXING:
        if key not in _OPEN:
            store = _open_store(folder / STORE_FILE)
            store.set_meta("fingerprint", content_fingerprint(store))
            dense = DenseSentenceIndex.build_or_load(
                store,
                folder,
                settings.encoder_model,
                settings.device,
                progress=progress,
                encoder_cache=encoder_cache_dir(settings.data_dir),
                flat_max=settings.dense_flat_max_sentences,
                precision=settings.encoder_precision,
            )
            source = LiveWikipediaSource(timeout_s=settings.wikipedia_timeout_s, api_url=settings.wikipedia_api_url)
            _OPEN[key] = LiveWikipediaWorkspace(LIVE_CORPUS, store, dense, settings, WikipediaCache(store, source))
        return _OPEN[key]


def _writable(folder: Path) -> bool:
    """Whether this process can write the cache: its folder (or, before it is made, the nearest folder above it)
    and its store, when there is one."""
    existing = next(path for path in (folder, *folder.parents) if path.exists())
    store = folder / STORE_FILE
    return os.access(existing, os.W_OK) and (not store.exists() or os.access(store, os.W_OK))


def _open_store(path: Path) -> CorpusStore:
    if path.is_file():
        return CorpusStore.open(path)
    store = CorpusStore.create(path)
    store.set_meta("sources", json.dumps([LIVE_CORPUS]))
    return store


def _interleave(lists: list[list[str]]) -> list[str]:
    """The first item of each list, then the second of each..., without repeats."""
    return list(dict.fromkeys(t for row in itertools.zip_longest(*lists) for t in row if t))


@dataclass
class LiveWikipediaWorkspace(Workspace):
    """The ``wikipedia`` corpus: fetches what a claim needs before the pipeline reads the cache.

    Open it with ``open_workspace("wikipedia")`` (or :func:`open_live_workspace`).
    """

    fetches = True
    cache: WikipediaCache = field(repr=False)
    _retry_at: float = field(default=0.0, init=False, repr=False)  # time.monotonic() of the next try

    def prepare(self, analysis: ClaimAnalysis) -> list[str]:
        """Search Wikipedia for the claim and its first mentions; fetch the top pages not cached."""
        limit = self.settings.wikipedia_pages_per_claim
        mentions = [m for m in analysis.mentions if m != analysis.claim][:MAX_MENTION_SEARCHES]
        queries = [query[:MAX_SEARCH_CHARS] for query in [analysis.claim, *mentions]]

        def titles() -> list[str]:
            return _interleave([self.cache.search(query, limit) for query in queries])[:limit]

        return self._grow(titles, limit, warn_when_waiting=True)

    def prepare_links(self, evidence: list[EvidenceSentence], min_score: float) -> list[str]:
        """Fetch the first pages not cached that first-hop evidence scoring ``min_score`` links to."""

        def titles() -> list[str]:
            targets: list[str] = []
            for item in evidence:
                sentence = (
                    self.store.sentence(item.page_id, item.line) if item.hop == 1 and item.score >= min_score else None
                )
                targets.extend(page_id_to_title(link.target) for link in (sentence.links if sentence else []))
            return list(dict.fromkeys(targets))

        return self._grow(titles, self.settings.wikipedia_links_per_claim, warn_when_waiting=False)

    def _grow(self, titles: Callable[[], list[str]], limit: int, warn_when_waiting: bool) -> list[str]:
        """Fetch up to ``limit`` of the pages named by ``titles()`` that the cache doesn't know, then
        index whatever the store gained (also what another claim or process added), and save the index with the
        store's new fingerprint (which tells the page retriever to read its title table again). A failure (Wikipedia
        unreachable, a full disk) stops the fetching, keeps what was fetched and turns into a warning; the warnings
        are returned. The fetching holds no lock: only the indexing is one claim at a time."""
        warnings: list[str] = []
        waiting = time.monotonic() < self._retry_at
        if waiting and warn_when_waiting:  # say when, not what: the failed request was another claim's
            ago = RETRY_AFTER_S - (self._retry_at - time.monotonic())
            warnings.append(
                self._cached_only(
                    f"Wikipedia could not be reached {ago:.0f} s ago, so this claim was not searched on it (Not "
                    f"tried again for {self._retry_at - time.monotonic():.0f} s.)"
                )
            )
        if not waiting:
            deadline = time.monotonic() + self.settings.wikipedia_timeout_s  # the claim's budget for this step
            try:
                wanted = [t for t in titles() if not self.cache.is_known(t)][:limit]
                for number, title in enumerate(wanted):
                    if time.monotonic() > deadline:
                        warnings.append(
                            f"Wikipedia was slow: {len(wanted) - number} of {len(wanted)} pages "
                            "were not fetched for this claim."
                        )
                        break
                    if not self.cache.is_known(title):  # another claim may have fetched it meanwhile
                        self.cache.fetch(title)
            except WikipediaUnavailable as exc:
                self._retry_at = time.monotonic() + RETRY_AFTER_S
                warnings.append(self._cached_only(str(exc)))
            except DiskFull as exc:
                warnings.append(self._cached_only(f"{exc} The pages fetched for this claim could not be kept."))
        with _INDEXING:
            try:
                if self.dense.extend_from(self.store) > 0:
                    fingerprint = content_fingerprint(self.store)
                    self.store.set_meta("fingerprint", fingerprint)
                    self.dense.save(fingerprint)
            except DiskFull as exc:  # the index in memory has the new pages; the one on disk is rebuilt when reopened
                warnings.append(str(exc))
        return warnings

    def _cached_only(self, reason: str) -> str:
        pages = self.store.stats().pages
        if not pages:
            return (
                f"{reason} No Wikipedia pages are cached yet, so there was nothing to check this claim "
                "against: the verdict only says that."
            )
        return f"{reason} This claim was checked against the {pages:,} Wikipedia pages cached so far only."
