"""A verdict as people are told it, on every page, download and printout: its word ("Undecided" where its label is
withheld) and its one probability, rounded here and nowhere else (issue 48).

A check has one probability for people: :attr:`Verdict.probability <fever_core.verification.verdict.Verdict.probability>`,
the calibrated one where the verifier has a calibration. The card, its chart, History, Batch, Check a text and the
ClaimReview all write it with :func:`probability_text`, so none shows 0.67 where another shows 0.68. A sentence's own
reading (its stance against the claim, or a rewritten claim) is written the same way, and always labelled as that
sentence's, never as the verdict's.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from fever_core.common.types import UNDECIDED_WORD, VERDICT_WORDS

PROBABILITY_PLACES = Decimal("0.01")
"""A probability is shown to two decimal places."""


def probability_text(probability: float) -> str:
    """A probability in [0, 1] as people read it: two decimals, a half rounded up as written ("0.675" -> "0.68",
    where ``f"{0.675:.2f}"`` gives "0.67", the binary float being a hair under 0.675); 1 -> "1.00"."""
    return str(Decimal(repr(float(probability))).quantize(PROBABILITY_PLACES, rounding=ROUND_HALF_UP))


def times_in_100(probability: float) -> int:
    """A probability in [0, 1] as how many times in 100, the same number :func:`probability_text` writes ("0.52" ->
    52): "verdicts this unsure are right only about 52 times in 100"."""
    return int(Decimal(probability_text(probability)) * 100)


def verdict_shown(label: str, withheld: bool) -> str:
    """A verdict's word for people: :data:`~fever_core.common.types.UNDECIDED_WORD` where its label is withheld
    (:attr:`Verdict.label_withheld <fever_core.verification.verdict.Verdict.label_withheld>`: too unsure to call, or
    no sentence settles it), else its label's (:data:`~fever_core.common.types.VERDICT_WORDS`, "Supported")."""
    return UNDECIDED_WORD if withheld else VERDICT_WORDS[label]
