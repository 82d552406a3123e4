"""Probe 6: resident memory over many claims, checked one by one on one checker. It should level off once the
first claims have loaded what is loaded lazily."""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.reliability.common import Row, rss_mb
from fever_core.pipeline import Checker, ClaimError

TEMPLATE = "{} is a city in France."


@dataclass
class RssResult:
    """Resident memory (MiB, ``VmRSS``) after the first ``early`` claims and after all ``claims``.

    Attributes:
        claims: claims checked, ``TEMPLATE`` filled with the corpus's page titles in turn.
        early: claims checked when ``early_mb`` was read.
        early_mb, end_mb: resident memory then and at the end, in MiB.
        growth_pct: ``end_mb`` over ``early_mb``, as a percentage increase.
        refused: claims refused (:class:`ClaimError`; a title can make an unusable claim).
    """

    claims: int
    early: int
    early_mb: float
    end_mb: float
    growth_pct: float
    refused: int

    def rows(self) -> list[Row]:
        figures = (
            f"{self.claims} claims: {self.early_mb:.0f} MiB after {self.early}, {self.end_mb:.0f} MiB at the "
            f"end ({self.refused} refused)"
        )
        return [("6 RSS over many claims", f"{self.growth_pct:+.1f}% after claim {self.early}", figures)]


def run(checker: Checker, claims: int, early: int) -> RssResult:
    """Check ``claims`` claims made from the corpus's titles, reading resident memory after ``early`` and at the end."""
    titles = [title for _, title in checker.workspace.store.titles()]
    refused = 0
    early_mb = 0.0
    for number in range(claims):
        try:
            checker.check(TEMPLATE.format(titles[number % len(titles)]))
        except ClaimError:
            refused += 1
        if number + 1 == early:
            early_mb = rss_mb()
    end_mb = rss_mb()
    return RssResult(
        claims, early, round(early_mb, 1), round(end_mb, 1), round(100 * (end_mb / early_mb - 1), 1), refused
    )
