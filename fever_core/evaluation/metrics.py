"""Which metrics a list of claims allows, from the gold data it carries (:class:`GoldData`).

A claim list (:func:`fever_core.common.claim_lists.read_claim_list`) may carry gold labels and gold evidence, or
neither. Label accuracy needs labels; the FEVER score also needs a gold evidence set for every labelled SUPPORTS or
REFUTES claim; the evidence and retrieval metrics need those sets too, and at least one such claim. A metric the gold
data does not allow is ``None`` (shown "n/a"), never a number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from fever_core.common.formats import Claim
from fever_core.common.types import NEI

LABEL_METRICS = ("label_accuracy",)
FEVER_METRICS = ("fever_score",)
EVIDENCE_METRICS = (
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
    "doc_recall_at_1",
    "doc_recall_at_5",
    "doc_recall_at_10",
    "sentence_recall_at_5",
)
NEEDS_LABELS = "needs gold labels"
NEEDS_EVIDENCE = "needs gold evidence for every SUPPORTS / REFUTES claim"


@dataclass(frozen=True)
class GoldData:
    """How much gold data a list of claims carries.

    Attributes:
        claims: claims in the list.
        labelled: claims with a gold label.
        verifiable: labelled SUPPORTS or REFUTES claims (those that need gold evidence).
        with_evidence: verifiable claims with at least one gold evidence set.
    """

    claims: int
    labelled: int
    verifiable: int
    with_evidence: int

    @classmethod
    def of(cls, claims: Iterable[Claim]) -> GoldData:
        claims = list(claims)
        verifiable = [c for c in claims if c.label not in (None, NEI)]
        return cls(
            len(claims),
            sum(c.label is not None for c in claims),
            len(verifiable),
            sum(bool(c.evidence_sets()) for c in verifiable),
        )

    @property
    def all_labelled(self) -> bool:
        return self.labelled == self.claims

    def missing_for(self, metric: str) -> str:
        """Why the gold data does not allow ``metric`` (a key of the evaluation report), "" when it does."""
        if metric not in (*LABEL_METRICS, *FEVER_METRICS, *EVIDENCE_METRICS):
            return ""
        if not self.labelled:
            return NEEDS_LABELS
        evidence_complete = self.with_evidence == self.verifiable
        if metric in FEVER_METRICS and not evidence_complete:
            return NEEDS_EVIDENCE
        if metric in EVIDENCE_METRICS and not (evidence_complete and self.verifiable):
            return NEEDS_EVIDENCE
        return ""

    def allowed(self, metrics: Mapping[str, float]) -> dict[str, float | None]:
        """``metrics`` with ``None`` for each one the gold data does not allow."""
        return {name: None if self.missing_for(name) else value for name, value in metrics.items()}
