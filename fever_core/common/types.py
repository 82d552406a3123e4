"""The FEVER vocabulary and the data types every layer shares: labels, stances, pages, sentences, links."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np

SUPPORTS = "SUPPORTS"
REFUTES = "REFUTES"
NEI = "NOT ENOUGH INFO"
LABELS = (SUPPORTS, REFUTES, NEI)
"""FEVER's three labels, in the order of every probability row and model output in the workbench."""
Label = Literal["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
"""A FEVER label as a type: one of :data:`LABELS` (a type spells its values out; a test holds them to ``LABELS``), e.g.
the enumeration of labels in the service's OpenAPI document."""
VERDICT_WORDS = {SUPPORTS: "Supported", REFUTES: "Refuted", NEI: "Not enough info"}
"""Each FEVER label in the workbench's words for people: the verdicts the app's pages show (``pages/words.py``), and a
ClaimReview's rating (:mod:`fever_core.workbench.claimreview`)."""
UNDECIDED_WORD = "Undecided"
"""The word for an undecided verdict (NOT ENOUGH INFO for FEVER: the evidence bears on the claim, but no sentence
settles it on its own), wherever the verdict is shown to people."""


@dataclass
class Stance:
    """Probabilities in [0, 1] that a premise supports, refutes or says nothing about the claim."""

    supports: float
    refutes: float
    not_enough_info: float

    @classmethod
    def from_row(cls, row: np.ndarray) -> Stance:
        """From a probability row in :data:`LABELS` order."""
        return cls(float(row[0]), float(row[1]), float(row[2]))

    @classmethod
    def from_dict(cls, probabilities: dict[str, float]) -> Stance:
        """From ``{label: probability}`` (as :meth:`to_dict` writes it)."""
        return cls(probabilities[SUPPORTS], probabilities[REFUTES], probabilities[NEI])

    def as_row(self) -> np.ndarray:
        """The probabilities in :data:`LABELS` order, shape ``(3,)``."""
        import numpy as np

        return np.array([self.supports, self.refutes, self.not_enough_info])

    def to_dict(self) -> dict[str, float]:
        return {SUPPORTS: self.supports, REFUTES: self.refutes, NEI: self.not_enough_info}

    def of(self, label: str) -> float:
        """The probability of ``label`` (one of :data:`LABELS`)."""
        return self.to_dict()[label]


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
