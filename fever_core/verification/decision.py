"""The NOT ENOUGH INFO decision rule that ships inside a verifier's ``config.json``.

Training chooses ``nei_threshold`` on held-out data and saves it with the weights, so a model and the
rule it was calibrated for travel together: a premise is NOT ENOUGH INFO when P(NEI) reaches the
threshold, else the larger of SUPPORTS and REFUTES. A model without it (a hub NLI model) gets
plain argmax.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NEI_INDEX = 2


@dataclass(frozen=True)
class DecisionRule:
    """Attributes:
    nei_threshold: P(NOT ENOUGH INFO), in [0, 1], from which a stance counts as NEI;
        ``None`` means plain argmax.
    min_evidence_score: minimum sentence-selection score for evidence to count in a verdict.
        Default 0.25 (bi-encoder cosine).
    """

    nei_threshold: float | None = None
    min_evidence_score: float = 0.25


def decide(probs: np.ndarray, nei_threshold: float | None = None) -> np.ndarray:
    """Label indices (in ``LABELS`` order) for ``(n, 3)`` probabilities under the rule.

    Returns:
        int64 array of shape ``(n,)``; ties between SUPPORTS and REFUTES go to SUPPORTS.
    """
    probs = np.asarray(probs)
    if nei_threshold is None:
        return probs.argmax(axis=1).astype(np.int64)
    stance = np.where(probs[:, 0] >= probs[:, 1], 0, 1)
    return np.where(probs[:, NEI_INDEX] >= nei_threshold, NEI_INDEX, stance).astype(np.int64)


def load_decision_rule(model: str | Path) -> DecisionRule:
    """The rule saved in a local model's ``config.json``, or argmax for models without one."""
    path = Path(model) / "config.json"
    if not path.is_file():
        return DecisionRule()
    config = json.loads(path.read_text())
    threshold = config.get("nei_threshold")
    return DecisionRule(
        nei_threshold=float(threshold) if threshold is not None else None,
        min_evidence_score=float(config.get("min_evidence_score", DecisionRule.min_evidence_score)),
    )
