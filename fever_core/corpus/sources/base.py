"""What every page source is: the :class:`PageSource` protocol and the error a source raises."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from fever_core.common.types import Page


class CorpusSourceError(ValueError):
    """A source's input is missing or malformed; the message names the file and line."""


class PageSource(Protocol):
    """A kind of input pages come from.

    Attributes:
        name: what the store records as each page's source.
        carries_links: the pages come with their hyperlinks (FEVER's dump), so they are not anchored by title
            matching when the corpus is built: nor is every title of the source held in memory for it.
    """

    name: str
    carries_links: bool

    def fingerprint(self) -> str: ...

    def count_pages(self) -> int:
        """How many pages :meth:`iter_pages` yields, counted without parsing them (for progress)."""
        ...

    def iter_titles(self) -> Iterator[tuple[str, str]]: ...

    def iter_pages(self, start: int = 0) -> Iterator[Page]:
        """The pages in a fixed order, from the ``start``-th on (a resumed build skips those it stored)."""
        ...
