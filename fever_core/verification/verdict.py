"""From per-evidence stances to one verdict.

Only trustworthy evidence counts (DOMLIN's finding): sentences whose selection score is below
``min_evidence_score`` are shown but not used. Each stance of the trustworthy sentences (each alone,
and all of them joined as one premise) is decided by the model's NEI rule
(:mod:`fever_core.verification.decision`); among those that come out SUPPORTS or REFUTES, the most
decisive one — highest P(SUPPORTS) or P(REFUTES) — gives the verdict. When none does, and when no
evidence is trustworthy, the verdict is NOT ENOUGH INFO.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fever_core.verification.decision import NEI_INDEX, decide
from fever_core.verification.nli import LABELS

NEI = "NOT ENOUGH INFO"


@dataclass
class Stance:
    """Probabilities in [0, 1] that a premise supports, refutes or says nothing about the claim."""

    supports: float
    refutes: float
    not_enough_info: float

    @classmethod
    def from_row(cls, row: np.ndarray) -> Stance:
        return cls(float(row[0]), float(row[1]), float(row[2]))

    @property
    def label(self) -> str:
        return LABELS[int(np.argmax([self.supports, self.refutes, self.not_enough_info]))]

    @property
    def decisiveness(self) -> float:
        """max(P(SUPPORTS), P(REFUTES))."""
        return max(self.supports, self.refutes)

    def to_dict(self) -> dict[str, float]:
        return {"SUPPORTS": self.supports, "REFUTES": self.refutes, NEI: self.not_enough_info}


@dataclass
class Verdict:
    """The aggregate verdict: a FEVER label, its probabilities, and a one-line reason."""

    label: str
    probabilities: dict[str, float]
    reason: str
    deciding_evidence: list[int]

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "probabilities": self.probabilities,
            "reason": self.reason,
            "deciding_evidence": self.deciding_evidence,
        }


def aggregate(
    stances: list[Stance | None],
    joint: Stance | None,
    descriptions: list[str],
    nei_threshold: float | None = None,
) -> Verdict:
    """Combine per-evidence stances into a verdict.

    Args:
        stances: one per evidence sentence, ``None`` for sentences that are not trustworthy.
        joint: the stance of all trustworthy sentences joined into one premise, if computed.
        descriptions: a short name for each evidence sentence ("Page, sentence 3"), for the reason.
        nei_threshold: a stance with P(NOT ENOUGH INFO) at or above this is not decisive;
            ``None`` means a stance is decisive when SUPPORTS or REFUTES is its argmax.

    Returns:
        The verdict; ``deciding_evidence`` holds the indices of the sentences it rests on.
    """
    trusted = [i for i, s in enumerate(stances) if s is not None]
    if not trusted:
        return Verdict(NEI, {"SUPPORTS": 0.0, "REFUTES": 0.0, NEI: 1.0},
                       "No trustworthy evidence was found in the corpus.", [])
    options: list[tuple[Stance, list[int]]] = [(stances[i], [i]) for i in trusted]
    if joint is not None and len(trusted) > 1:
        options.append((joint, trusted))
    rows = np.array([[s.supports, s.refutes, s.not_enough_info] for s, _ in options])
    decisive = [o for o, label in zip(options, decide(rows, nei_threshold)) if label != NEI_INDEX]
    if not decisive:
        stance = max((s for s, _ in options), key=lambda s: s.decisiveness)
        return Verdict(NEI, stance.to_dict(),
                       "The evidence found neither supports nor refutes the claim clearly "
                       f"(strongest: P(SUPPORTS) {stance.supports:.2f}, P(REFUTES) {stance.refutes:.2f}).", [])
    stance, used = max(decisive, key=lambda option: option[0].decisiveness)
    probabilities = stance.to_dict()
    label = "SUPPORTS" if stance.supports >= stance.refutes else "REFUTES"
    verb = "Supported" if label == "SUPPORTS" else "Refuted"
    names = "; ".join(descriptions[i] for i in used)
    return Verdict(label, probabilities, f"{verb} by {names} (P = {probabilities[label]:.2f}).", used)
