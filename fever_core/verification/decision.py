"""The verdict decision rule that ships beside a verifier model, in ``decision.json``.

Training chooses these numbers on held-out data and writes them next to the weights, so a model and
the thresholds it was calibrated for travel together. A model without the file gets the defaults.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DECISION_FILE = "decision.json"


@dataclass(frozen=True)
class DecisionRule:
    """Attributes:
    decision_threshold: minimum P(SUPPORTS) or P(REFUTES), in [0, 1], for a verdict other than
        NOT ENOUGH INFO. Default 0.5.
    min_evidence_score: minimum sentence-selection score for evidence to count. Default 0.25
        (bi-encoder cosine).
    """

    decision_threshold: float = 0.5
    min_evidence_score: float = 0.25


def load_decision_rule(model: str | Path) -> DecisionRule:
    """The rule saved beside a local model, or the defaults (hub ids, models without the file)."""
    path = Path(model) / DECISION_FILE
    if not path.is_file():
        return DecisionRule()
    data = json.loads(path.read_text())
    known = {k: float(v) for k, v in data.items() if k in DecisionRule.__dataclass_fields__}
    return DecisionRule(**known)


def save_decision_rule(model_dir: str | Path, rule: DecisionRule, **notes: object) -> None:
    """Write ``decision.json`` beside a model (``notes`` are kept for people to read)."""
    payload = {"decision_threshold": rule.decision_threshold, "min_evidence_score": rule.min_evidence_score, **notes}
    (Path(model_dir) / DECISION_FILE).write_text(json.dumps(payload, indent=2))
