"""FEVER's official metrics, as ``fever_score(predictions, actual, max_evidence=5)`` of the
sheffieldnlp/fever-scorer package defines them (the PyPI package no longer installs).

- label accuracy: predicted label equals the gold label;
- FEVER score: correct label and, unless the gold label is NOT ENOUGH INFO, some complete gold
  evidence group (its ``[page, line]`` pairs) among the first ``max_evidence`` predicted;
- evidence precision: macro average over non-NEI claims of the share of predicted pairs that are in
  any gold group (a claim with no predicted evidence counts 1.0);
- evidence recall: macro average over non-NEI claims of "a complete group is among the predicted";
  a claim with no gold group counts 1.0;
- F1 from those two (0.0 where both are 0, where the official code would divide by zero).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from fever_core.common.types import NEI


@dataclass(frozen=True)
class FeverScores:
    """The five official numbers, each in [0, 1]."""

    fever_score: float
    label_accuracy: float
    evidence_precision: float
    evidence_recall: float
    evidence_f1: float

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def gold_groups(evidence: list[Any]) -> list[list[list[Any]]]:
    """Gold evidence groups as lists of ``[page, line]`` (annotation ids dropped)."""
    return [[[e[2], e[3]] for e in group] for group in evidence]


def _predicted(instance: dict[str, Any], max_evidence: int | None) -> list[list[Any]]:
    predicted = [list(p) for p in instance.get("predicted_evidence", [])]
    return predicted if max_evidence is None else predicted[:max_evidence]


def is_correct_label(instance: dict[str, Any]) -> bool:
    gold: str = instance["label"]
    predicted: str = instance["predicted_label"]
    return gold.upper() == predicted.upper()


def is_strictly_correct(instance: dict[str, Any], max_evidence: int | None = None) -> bool:
    """Correct label and, for SUPPORTS/REFUTES, a complete gold group in the predicted evidence."""
    if not is_correct_label(instance):
        return False
    if instance["label"].upper() == NEI:
        return True
    predicted = _predicted(instance, max_evidence)
    return any(all(pair in predicted for pair in group) for group in gold_groups(instance["evidence"]))


def evidence_macro_precision(instance: dict[str, Any], max_evidence: int | None = None) -> tuple[float, float]:
    """``(precision, 1.0)`` for a non-NEI claim, ``(0.0, 0.0)`` for an NEI one."""
    if instance["label"].upper() == NEI:
        return 0.0, 0.0
    all_evidence = [[e[2], e[3]] for group in instance["evidence"] for e in group if e[3] is not None]
    predicted = _predicted(instance, max_evidence)
    if not predicted:
        return 1.0, 1.0
    return sum(1.0 for p in predicted if p in all_evidence) / len(predicted), 1.0


def evidence_macro_recall(instance: dict[str, Any], max_evidence: int | None = None) -> tuple[float, float]:
    """``(1.0 if a complete gold group is predicted else 0.0, 1.0)``; ``(0.0, 0.0)`` for NEI."""
    if instance["label"].upper() == NEI:
        return 0.0, 0.0
    if len(instance["evidence"]) == 0:
        return 1.0, 1.0
    predicted = _predicted(instance, max_evidence)
    for group in gold_groups(instance["evidence"]):
        if all(pair in predicted for pair in group):
            return 1.0, 1.0
    return 0.0, 1.0


def fever_score(
    predictions: list[dict[str, Any]], actual: list[dict[str, Any]] | None = None, max_evidence: int = 5
) -> FeverScores:
    """Score predictions (``predicted_label``, ``predicted_evidence``) against gold claims.

    Args:
        predictions: one dict per claim; when ``actual`` is None each must also hold ``label``
            and ``evidence`` (FEVER format).
        actual: gold claims in the same order as ``predictions``.
        max_evidence: how many predicted sentences count. Default 5, as in the shared task.
    """
    if actual is not None and len(actual) != len(predictions):
        raise ValueError(f"{len(predictions)} predictions but {len(actual)} gold claims.")
    if not predictions:
        raise ValueError("No predictions to score.")
    correct = strict = 0.0
    precision = precision_hits = recall = recall_hits = 0.0
    for i, prediction in enumerate(predictions):
        instance = dict(prediction)
        if actual is not None:
            instance["label"] = actual[i]["label"]
            instance["evidence"] = actual[i]["evidence"]
        if is_correct_label(instance):
            correct += 1
            if is_strictly_correct(instance, max_evidence):
                strict += 1
        p, ph = evidence_macro_precision(instance, max_evidence)
        r, rh = evidence_macro_recall(instance, max_evidence)
        precision, precision_hits = precision + p, precision_hits + ph
        recall, recall_hits = recall + r, recall_hits + rh
    total = len(predictions)
    pr = precision / precision_hits if precision_hits > 0 else 1.0
    rec = recall / recall_hits if recall_hits > 0 else 0.0
    f1 = 2.0 * pr * rec / (pr + rec) if pr + rec > 0 else 0.0
    return FeverScores(strict / total, correct / total, pr, rec, f1)
