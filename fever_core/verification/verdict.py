"""A claim's verdict, as a check reports it: the deciding :class:`~fever_core.verification.deciders.Decision` in
words (:mod:`~fever_core.verification.explanation`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from fever_core.verification.deciders import ClaimPart, Decision


@dataclass
class Verdict:
    """A claim's verdict: a FEVER label, its probabilities, what it rests on, and why.

    Attributes:
        label: SUPPORTS, REFUTES or NOT ENOUGH INFO.
        probabilities: each label's probability for the claim, in [0, 1], as the decider holds it (what that is for
            each decider: :class:`~fever_core.verification.deciders.Decision`).
        reason: one line for logs and the command line: the verdict, the deciding sentence quoted, why.
        deciding_evidence: indexes into the evidence of the one or two sentences that decide it, best
            first (none when no single sentence does, e.g. a learned NOT ENOUGH INFO verdict).
        used_evidence: indexes of every sentence the verdict used, best first; the deciding ones lead it.
        why: the reason in one plain sentence without the quote (the app quotes the deciding sentences itself),
            e.g. "The sentence from Munich says Bavaria, where the claim says Saxony (this sentence alone: refutes
            0.97)."
        decided_by: the decider: ``learned``, ``rule`` (the best-sentence rule), ``page_rule`` or ``number_check``
            ("" for a verdict kept before it was recorded).
        undecided: the evidence bears on the claim but no sentence settles it on its own: the label is NOT ENOUGH
            INFO (as FEVER counts it) and ``deciding_evidence`` names the sentences to read.
        parts: the facts of a compound claim, each with its verdict and deciding sentence
            (:class:`~fever_core.verification.deciders.ClaimPart`); empty for a claim that states one fact.
        calibrated: how often a verdict like this one is right, in [0, 1]
            (:class:`~fever_core.verification.calibration.Calibration`); ``None`` for a verifier without a calibration.
    """

    label: str
    probabilities: dict[str, float]
    reason: str
    deciding_evidence: list[int]
    used_evidence: list[int] = field(default_factory=list)
    why: str = ""
    decided_by: str = ""
    undecided: bool = False
    parts: list[ClaimPart] = field(default_factory=list)
    calibrated: float | None = None

    @property
    def probability(self) -> float:
        """The verdict's probability as people are told it, in [0, 1]: how often a verdict like it is right
        (:attr:`calibrated`), else its decider's probability of its label."""
        return self.probabilities[self.label] if self.calibrated is None else self.calibrated

    @classmethod
    def of(cls, decision: Decision, reason: str, why: str, calibrated: float | None = None) -> Verdict:
        """The verdict a decision makes, with its words (and its calibrated probability)."""
        return cls(decision.label, decision.probabilities, reason, list(decision.deciding), list(decision.used), why,
                   decision.decider, decision.undecided, list(decision.parts), calibrated)

    @classmethod
    def from_dict(cls, data: dict) -> Verdict:
        """The inverse of :meth:`to_dict` (a verdict kept before a field was written gets its default)."""
        return cls(**{**data, "parts": [ClaimPart(**part) for part in data.get("parts", [])]})

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "probabilities": self.probabilities,
            "reason": self.reason,
            "deciding_evidence": self.deciding_evidence,
            "used_evidence": self.used_evidence,
            "why": self.why,
            "decided_by": self.decided_by,
            "undecided": self.undecided,
            "parts": [part.to_dict() for part in self.parts],
            "calibrated": self.calibrated,
        }
