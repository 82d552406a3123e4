"""The verdict's probability calibrated: how often a verdict like this one is right, fit on hand-written claims.

A decider's probability of its label is what the decider holds (:class:`~fever_core.verification.deciders.Decision`),
and it overstates: on hand-written claims, a verdict said at 0.9 or more was right 83 % of the time
(``benchmarks/calibration/README.md``). :class:`Calibration` maps a decision to the probability that it is right: a
logistic regression on the log-odds of the decider's probability, whether the label is NOT ENOUGH INFO, whether a
single-sentence rule decided (rather than the learned verdict) and whether the verdict is undecided. It is fit on the
240 calibration claims (``benchmarks/calibration/calibration-claims.jsonl``: hand-written, blind, about pages no
yardstick uses) by ``benchmarks/recipes/calibrate.py``, and ships in the verifier's
:data:`~fever_core.verification.learned.VERDICT_FILE`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from fever_core.common.types import NEI

FEATURES = ("log_odds", "not_enough_info", "sentence_rule", "undecided")
"""What the calibration reads of a decision, in its weights' order."""
_EDGE = 1e-4


@dataclass(frozen=True)
class Calibration:
    """P(a verdict is right) = sigmoid(weights · features(decision) + bias) (:data:`FEATURES`).

    Attributes:
        weights: one per feature of :data:`FEATURES`.
        bias: the intercept.
        report: how it was fit and what it measured (kept for the model card).
    """

    weights: tuple[float, ...]
    bias: float
    report: dict[str, Any]

    @staticmethod
    def features(probability: float, label: str, sentence_rule: bool, undecided: bool) -> list[float]:
        """A decision as the calibration reads it (:data:`FEATURES`): its decider's ``probability`` of its ``label``,
        whether a rule rather than the learned verdict decided, whether it is undecided."""
        p = min(max(probability, _EDGE), 1 - _EDGE)
        return [math.log(p / (1 - p)), float(label == NEI), float(sentence_rule), float(undecided)]

    def probability(self, probability: float, label: str, sentence_rule: bool, undecided: bool) -> float:
        """How often a verdict with these :meth:`features` is right, in [0, 1], rounded to 4 places."""
        features = self.features(probability, label, sentence_rule, undecided)
        z = sum(w * x for w, x in zip(self.weights, features)) + self.bias
        return round(1.0 / (1.0 + math.exp(-z)), 4)

    def to_dict(self) -> dict[str, Any]:
        return {"weights": list(self.weights), "bias": self.bias, "features": list(FEATURES), "report": self.report}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """As :meth:`to_dict` wrote it. Raises ``ValueError`` for other features or numbers that are not finite."""
        weights = tuple(float(w) for w in data["weights"])
        if (
            list(data.get("features", [])) != list(FEATURES)
            or len(weights) != len(FEATURES)
            or not all(math.isfinite(x) for x in (*weights, float(data["bias"])))
        ):
            raise ValueError(f"a calibration reads {', '.join(FEATURES)} with finite weights")
        return cls(weights, float(data["bias"]), dict(data.get("report", {})))
