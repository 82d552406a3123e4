"""What every page source is: the :class:`PageSource` protocol and the error a source raises."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from fever_core.types import Page


class CorpusSourceError(ValueError):
    """A source's input is missing or malformed; the message names the file and line."""


class PageSource(Protocol):
    name: str

    def fingerprint(self) -> str: ...

    def iter_titles(self) -> Iterator[tuple[str, str]]: ...

    def iter_pages(self) -> Iterator[Page]: ...
