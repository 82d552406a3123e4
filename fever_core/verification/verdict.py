"""From per-evidence stances to one verdict.

A verifier that ships a learned claim-level verdict (:mod:`fever_core.verification.aggregator`)
decides with it (:func:`aggregate_learned`). Otherwise a rule decides (:func:`aggregate`): only
trustworthy evidence counts (DOMLIN's finding): sentences whose selection score is below
``min_evidence_score`` are shown, with their stance, but not used. The best-ranked trustworthy
sentence decides, by the model's NEI rule (:mod:`fever_core.verification.decision`); with no
trustworthy evidence the verdict is NOT ENOUGH INFO.

Why the best sentence alone: on FEVER the verifier often calls an on-topic sentence that says
nothing about the claim SUPPORTS or REFUTES, so letting the most decisive of several sentences win
turns NOT ENOUGH INFO claims into false verdicts (label accuracy 0.52 vs 0.60 for the best sentence
on 300 fever-dev claims, measured when this rule was chosen in commit db3345f).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fever_core.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.verification.aggregator import EvidenceView, LearnedAggregator
from fever_core.verification.decision import decide


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
    descriptions: list[str],
    nei_threshold: float | None = None,
) -> Verdict:
    """The verdict from per-evidence stances, given best evidence first.

    Args:
        stances: one per evidence sentence in selection order, ``None`` for untrustworthy sentences.
        descriptions: a short name for each evidence sentence ("Page, sentence 3"), for the reason.
        nei_threshold: the model's NEI rule (see :func:`~fever_core.verification.decision.decide`);
            ``None`` means argmax.

    Returns:
        The verdict; ``deciding_evidence`` holds the index of the sentence it rests on.
    """
    trusted = [i for i, s in enumerate(stances) if s is not None]
    if not trusted:
        return Verdict(NEI, {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0},
                       "No trustworthy evidence was found in the corpus.", [])
    best = trusted[0]
    stance = stances[best]
    probabilities = stance.to_dict()
    label = LABELS[int(decide(stance.as_row()[None, :], nei_threshold)[0])]
    if label == NEI:
        return Verdict(NEI, probabilities,
                       f"The best evidence, {descriptions[best]}, neither supports nor refutes the claim "
                       f"(P(NOT ENOUGH INFO) = {stance.not_enough_info:.2f}).", [best])
    verb = "Supported" if label == SUPPORTS else "Refuted"
    return Verdict(label, probabilities, f"{verb} by {descriptions[best]} (P = {probabilities[label]:.2f}).", [best])


def aggregate_learned(
    aggregator: LearnedAggregator,
    claim: str,
    views: list[EvidenceView],
    descriptions: list[str],
    joint: np.ndarray | None = None,
) -> Verdict:
    """The verdict of a learned claim-level model over the evidence, given best evidence first.

    ``joint`` is the joint verifier's probabilities for the claim (``LABELS`` order), or ``None``
    without a joint verifier (see :class:`~fever_core.verification.aggregator.LearnedAggregator`).
    ``deciding_evidence`` is the best-ranked sentence whose own stance leans the verdict's way
    (SUPPORTS or REFUTES); a NOT ENOUGH INFO verdict rests on no sentence.
    """
    row = aggregator.probabilities(claim, views, joint)
    probabilities = dict(zip(LABELS, (float(p) for p in row)))
    label = LABELS[int(row.argmax())]
    if label == NEI:
        return Verdict(NEI, probabilities,
                       f"The evidence found does not settle the claim (P(NOT ENOUGH INFO) = {probabilities[NEI]:.2f}).", [])
    index = LABELS.index(label)
    other = LABELS[1 - index]
    leaning = [i for i, v in enumerate(views) if v.stance is not None and v.stance.of(label) > v.stance.of(other)]
    verb = "Supported" if label == SUPPORTS else "Refuted"
    if not leaning:
        return Verdict(label, probabilities, f"{verb} on balance of the evidence (P = {probabilities[label]:.2f}).", [])
    best = leaning[0]
    return Verdict(label, probabilities,
                   f"{verb} by {descriptions[best]} (P = {probabilities[label]:.2f}).", [best])
