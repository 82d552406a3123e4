"""A claim's verdict, as a check reports it: the deciding :class:`~fever_core.verification.decision.Decision` with
its words (:mod:`~fever_core.verification.explanation`) and its calibrated probability."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from fever_core.common.records import record_dict
from fever_core.verification.decision import ClaimPart, Decision
from fever_core.verification.number_check import NumberCheck


@dataclass(frozen=True)
class Verdict(Decision):
    """A claim's verdict: the :class:`~fever_core.verification.decision.Decision` that made it (its label,
    probabilities, decider, deciding and used evidence, whether undecided, its parts: each described there), with its
    words and its calibrated probability.

    Attributes:
        reason: one line for logs and the command line: the verdict, the deciding sentence quoted, why.
        why: the reason in one plain sentence without the quote (the app quotes the deciding sentences itself),
            e.g. "The sentence from Munich says Bavaria, where the claim says Saxony (this sentence alone: refutes
            0.97)."
        calibrated: how often a verdict like this one is right, in [0, 1]
            (:class:`~fever_core.verification.calibration.Calibration`); ``None`` for a verifier without a calibration.
        verifier_calls: how many calls of the verifier the verdict took (each over a batch of pairs, shared with the
            claims checked with it): 1, or 2 where a two-hop bridge was read after the evidence; 0 when nothing was
            read (or for a verdict kept before they were counted).
        notes: what the reader should know about how the verdict was reached, in words: a check not tried in full
            (:meth:`~fever_core.verification.number_check.NumberTrial.untried_note`). The check's warnings repeat
            them.
        label_withheld: the label is not worth showing people (undecided, or :attr:`probability` below
            :data:`~fever_core.verification.read_these.SHOWN_LABEL_MIN`): the card says "Undecided" and names
            :attr:`read_these`. The label stays the likeliest one, for programs and FEVER's files.
        read_these: indexes into the evidence of the (at most three) sentences most likely to settle the claim,
            most likely first (:func:`~fever_core.verification.read_these.settling_sentences`): the card shows them
            open in place of the deciding sentences where the label is withheld or NOT ENOUGH INFO, and those it
            does not quote already beside a shown label. Empty for a verdict kept before they were named.
    """

    reason: str = ""
    why: str = ""
    calibrated: float | None = None
    verifier_calls: int = 0
    notes: tuple[str, ...] = ()
    label_withheld: bool = False
    read_these: list[int] = field(default_factory=list)

    @property
    def probability(self) -> float:
        """The verdict's probability as people are told it, in [0, 1]: how often a verdict like it is right
        (:attr:`calibrated`), else its decider's probability of its label."""
        return self.probabilities[self.label] if self.calibrated is None else self.calibrated

    @classmethod
    def of(
        cls,
        decision: Decision,
        reason: str,
        why: str,
        calibrated: float | None = None,
        verifier_calls: int = 0,
        notes: tuple[str, ...] = (),
    ) -> Verdict:
        """The verdict a decision makes, with its words (its calibrated probability, the verifier calls it took, its
        notes)."""
        return cls(
            **{f.name: getattr(decision, f.name) for f in fields(Decision)},
            reason=reason,
            why=why,
            calibrated=calibrated,
            verifier_calls=verifier_calls,
            notes=notes,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        """The inverse of :meth:`to_dict` (a verdict kept before a field was written gets its default)."""
        return cls(
            **{
                **data,
                "parts": tuple(ClaimPart(**part) for part in data.get("parts", [])),
                "numbers": NumberCheck(**data["numbers"]) if data.get("numbers") else None,
                "notes": tuple(data.get("notes", ())),
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """Every field, by its name (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)
