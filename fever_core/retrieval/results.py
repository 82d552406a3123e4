"""Typed results of the retrieval stages: retrieved pages and scored evidence sentences."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fever_core.corpus.store import SentenceHit


@dataclass
class PageCandidate:
    """A retrieved page.

    Attributes:
        page_id: FEVER page id.
        title: display title.
        score: fused retrieval score (higher is better; only comparable within one claim).
        signals: the score each retrieval signal gave the page, e.g. ``{"title": 1.0, "dense": 0.62}``;
            a signal that did not find the page is absent. This is what tells a user *why* it is here.
        match: how the title signal matched (``"exact"``, ``"disambiguated"``, ``"fuzzy"``) or ``""``.
        used: whether sentence selection read this page (the top ``pages_k`` are used).
    """

    page_id: str
    title: str
    score: float
    signals: dict[str, float] = field(default_factory=dict)
    match: str = ""
    used: bool = True


@dataclass(frozen=True)
class HopLink:
    """How a second-hop sentence was reached: from a first-hop sentence through one of its links.

    Attributes:
        from_page_id, from_line: the first-hop sentence.
        anchor: the link's text in it.
        from_title, from_text: that sentence's page title and text, so the two can be read as one chain.
    """

    from_page_id: str
    from_line: int
    anchor: str
    from_title: str = ""
    from_text: str = ""


@dataclass
class EvidenceSentence:
    """A candidate evidence sentence with its selection score.

    Attributes:
        page_id, title, line, text: where the sentence is and what it says (plain text).
        score: selection score; cosine similarity in [-1, 1] for the bi-encoder, or the
            re-ranker's relevance probability in [0, 1] when a cross-encoder is configured.
        hop: 1 for sentences of retrieved pages, 2 for sentences reached through a link.
        via: for hop 2, the first-hop sentence and link it came through.
    """

    page_id: str
    title: str
    line: int
    text: str
    score: float
    hop: int = 1
    via: HopLink | None = None

    @property
    def key(self) -> tuple[str, int]:
        """``(page_id, line)``, the FEVER evidence pair."""
        return (self.page_id, self.line)

    @classmethod
    def from_dict(cls, fields: dict[str, Any]) -> EvidenceSentence:
        """The sentence ``dataclasses.asdict`` wrote (other keys of ``fields`` are ignored)."""
        via = fields.get("via")
        return cls(
            fields["page_id"],
            fields["title"],
            fields["line"],
            fields["text"],
            fields["score"],
            fields["hop"],
            HopLink(**via) if via else None,
        )


def evidence_from_hits(hits: list[SentenceHit], scores: list[float]) -> list[EvidenceSentence]:
    """Evidence sentences from store hits and their scores, best first."""
    items = [
        EvidenceSentence(h.sentence.page_id, h.title, h.sentence.line, h.sentence.text, float(s))
        for h, s in zip(hits, scores)
    ]
    return sorted(items, key=lambda e: -e.score)
