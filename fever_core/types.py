"""Corpus data types shared by every layer: pages, their sentences and hyperlinks."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Link:
    """A hyperlink inside a sentence: the anchor text and the FEVER page id it points to."""

    anchor: str
    target: str


@dataclass
class Sentence:
    """One sentence of a page, at its FEVER line index, in plain (detokenised) text."""

    page_id: str
    line: int
    text: str
    links: list[Link] = field(default_factory=list)


@dataclass
class Page:
    """A corpus page: FEVER page id (exact), display title, sentences in line order."""

    page_id: str
    title: str
    sentences: list[Sentence]
    source: str = ""

    @property
    def text(self) -> str:
        """The page's sentences joined with single spaces."""
        return " ".join(s.text for s in self.sentences)
