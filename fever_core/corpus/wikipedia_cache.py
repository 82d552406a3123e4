"""Pages fetched from live Wikipedia, kept in a corpus store, with the lookups that found them.

A page is fetched once; after that it is read from the store. Searches are remembered by query, and
so is a title that named no page or redirected to another, so checking a claim again needs no
network. The lookups are kept in the store's meta table, under keys starting ``wikipedia.``.
"""

from __future__ import annotations

import json

from fever_core.common.text import title_to_page_id
from fever_core.common.types import Page
from fever_core.corpus.sources.wikipedia_api import LiveWikipediaSource
from fever_core.corpus.store import CorpusStore

_SEARCH = "wikipedia.search"
_TITLE = "wikipedia.title"


class WikipediaCache:
    """Live Wikipedia with a memory: a store of fetched pages and the searches and titles looked up.

    Args:
        store: where fetched pages go (the ``wikipedia`` corpus's store).
        source: the live API client.
    """

    def __init__(self, store: CorpusStore, source: LiveWikipediaSource):
        self.store = store
        self.source = source

    def search(self, query: str, limit: int) -> list[str]:
        """Titles of Wikipedia's best ``limit`` matches for ``query``, asked once and then remembered.

        Raises:
            WikipediaUnavailable: the search is not remembered and Wikipedia can't be reached.
        """
        key = f"{_SEARCH}:{self.source.api_url or self.source.language}:{limit}:{query}"  # per API: a mirror answers differently
        remembered = self.store.get_meta(key)
        if remembered is not None:
            titles: list[str] = json.loads(remembered)
            return titles
        titles = self.source.search_titles(query, limit)
        self.store.set_meta(key, json.dumps(titles, ensure_ascii=False))
        return titles

    def is_known(self, title: str) -> bool:
        """Whether ``title`` needs no fetch: its page is stored, or it is remembered as naming no
        page (or a page with no lead) or as a redirect."""
        page_id = title_to_page_id(title)
        return self.store.has_page(page_id) or self.store.get_meta(f"{_TITLE}:{page_id}") is not None

    def fetch(self, title: str) -> Page | None:
        """Fetch a page that :meth:`is_known` says is not, and store it.

        Returns:
            The page, if it was new to the store; ``None`` when the title names no page, the page
            has no lead text, or it redirects to a page already stored.

        Raises:
            WikipediaUnavailable: Wikipedia can't be reached (nothing is stored or remembered).
        """
        asked = title_to_page_id(title)
        page = self.source.fetch_page(title)
        if page is None or not page.sentences:
            self.store.set_meta(f"{_TITLE}:{asked}", "")
            return None
        added = self.store.add_pages([page])
        if page.page_id != asked:
            self.store.set_meta(f"{_TITLE}:{asked}", page.page_id)
        return page if added else None
