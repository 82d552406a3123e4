"""Anchor hyperlinks: mentions of other corpus titles inside a sentence become links.

Pages that come without links (the embedded summaries, FM2 pages, live fetches) get them here, so
two-hop evidence can follow them. Matching is case-sensitive on spaCy tokens; a disambiguated title
("Soul Food (film)") is matched by its base name ("Soul Food") when no undisambiguated page has that
name; overlapping matches keep the longest; a page never links to itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from fever_core.common.names import base_title
from fever_core.common.nlp import load_spacy
from fever_core.common.types import Link, Page

MIN_ANCHOR_CHARS = 3


class TitleLinker:
    """Finds mentions of known titles in text. Build once per corpus, then call :meth:`link_page`."""

    def __init__(self, titles: Iterable[tuple[str, str]]):
        from spacy.matcher import PhraseMatcher

        self.nlp = load_spacy("sentences")
        candidates: dict[str, list[tuple[bool, str]]] = {}
        for page_id, title in titles:
            surface = base_title(title)
            if len(surface) >= MIN_ANCHOR_CHARS and not surface.isdigit():
                candidates.setdefault(surface, []).append((surface == title, page_id))
        targets: dict[str, str] = {}
        for surface, pages in candidates.items():
            exact = [page_id for is_exact, page_id in pages if is_exact]
            if exact:
                targets[surface] = exact[0]
            elif len(pages) == 1:
                targets[surface] = pages[0][1]
            # several disambiguated pages and no plain one: ambiguous, not linked
        self._targets = targets
        self._matcher = PhraseMatcher(self.nlp.vocab, attr="ORTH")
        surfaces = list(targets)
        for start in range(0, len(surfaces), 1000):
            chunk = surfaces[start : start + 1000]
            self._matcher.add("TITLE", [self.nlp.make_doc(surface) for surface in chunk])

    def __len__(self) -> int:
        return len(self._targets)

    def link_texts(self, texts: list[str], own_page_id: str | None = None) -> list[list[Link]]:
        """Links found in each text, in text order, without duplicates or self-links."""
        from spacy.util import filter_spans

        result = []
        for doc in map(self.nlp.make_doc, texts):
            spans = filter_spans([doc[s:e] for _, s, e in self._matcher(doc)])
            links: list[Link] = []
            for span in sorted(spans, key=lambda sp: sp.start):
                target = self._targets.get(span.text)
                link = Link(span.text, target) if target else None
                if link and target != own_page_id and link not in links:
                    links.append(link)
            result.append(links)
        return result

    def link_page(self, page: Page) -> Page:
        """Add anchored links to every sentence of a page that has none of its own."""
        if any(s.links for s in page.sentences):
            return page
        for sentence, links in zip(page.sentences, self.link_texts([s.text for s in page.sentences], page.page_id)):
            sentence.links = links
        return page
