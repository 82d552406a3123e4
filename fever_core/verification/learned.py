"""The learned verdict's numbers: a regression over a claim's evidence, mixed with the joint verifier, in a file.

Whether the *claim* is settled depends on all its top evidence together: how well each sentence matches (its
selection score), how decisive each stance is, whether several sentences agree, and how much of what the claim says
the evidence mentions at all (a claim whose words the evidence lacks is more often unverifiable than refuted). A
multinomial logistic regression over :func:`~fever_core.verification.features.claim_features` weighs these; it is fit
on end-to-end runs of non-benchmark claims (:mod:`fever_core.training.verdict`) and ships beside the verifier as
:data:`VERDICT_FILE`. The regression sees the evidence only through one-premise stances; the *joint verifier* reads
the top sentences together with the claim (:func:`~fever_core.verification.features.joint_premise`), as FEVER systems
that concatenate their evidence do, and is mixed in: ``(1 - joint_weight) * regression + joint_weight * joint``, with
``joint_weight`` chosen on held-out claims. How the mix becomes a verdict is
:func:`~fever_core.verification.deciders.learned_verdict`'s job.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.features import FEATURE_NAMES, claim_features
from fever_core.verification.model_integrity import ModelDamaged, record_checksums

VERDICT_FILE = "verdict.json"
"""The learned verdict's file in a verifier's folder."""
_RETRAIN = "train the verdict again (`python -m fever_core train verdict`)"
CHAINS_KEY = "two_hop_chains"
"""Written ``true`` into every verdict file: it was fit on runs that read each second-hop sentence after the sentence
that links to it (:func:`~fever_core.verification.evidence.chain_premise`), as the checker reads them. A file without
it was fit before, on sentences read alone, and is refused with the way to fit it again."""


@dataclass
class LearnedVerdict:
    """The contents of :data:`VERDICT_FILE`: the regression over standardised features, the joint verifier's weight,
    and the thresholds of the cascade's stages that were chosen with it.

    Attributes:
        weights: ``(3, n_features)`` in ``LABELS`` order.
        bias: ``(3,)``.
        mean, scale: per-feature standardisation.
        feature_names: the features the weights belong to (:data:`~fever_core.verification.features.FEATURE_NAMES`
            when it was fit; checked on load).
        report: how it was trained and scored (kept for the model card).
        joint_weight: share in [0, 1] of the joint verifier's probabilities in the verdict, when the
            caller has them. Default 0 (the regression alone).
        subject_stance_min: the page rule's threshold (:func:`~fever_core.verification.deciders.page_rule`), in
            [0.5, 1]; ``None`` (default): no page rule.
        sure_sentence_min: the sure-sentence rule's threshold
            (:func:`~fever_core.verification.deciders.sure_sentence`), in [0.5, 1]; ``None`` (default): no such rule.
        claim_parts_min: how sure a sentence must be of a compound claim's part to settle it
            (:func:`~fever_core.verification.deciders.part_of`), in [0.5, 1]; ``None`` (default): claims are read
            whole.
        bridge_min: how sure the verifier must be of both facts of a two-hop bridge
            (:func:`~fever_core.verification.deciders.bridge_decision`), in [0.5, 1]; ``None`` (default): no bridges.
    """

    weights: np.ndarray
    bias: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    feature_names: list[str]
    report: dict[str, Any]
    joint_weight: float = 0.0
    subject_stance_min: float | None = None
    sure_sentence_min: float | None = None
    claim_parts_min: float | None = None
    bridge_min: float | None = None

    def probabilities(
        self, claim: str, evidence: Sequence[JudgedSentence], joint: np.ndarray | None = None
    ) -> np.ndarray:
        """P(SUPPORTS, REFUTES, NOT ENOUGH INFO) for the claim, shape ``(3,)``.

        Args:
            joint: the joint verifier's probabilities for the claim (``LABELS`` order), mixed in with
                ``joint_weight``; ``None`` when there is no joint verifier.
        """
        row = self.probabilities_of(claim_features(claim, evidence)[None, :])[0]
        return row if joint is None else mix(row, np.asarray(joint, dtype=np.float64), self.joint_weight)

    def probabilities_of(self, features: np.ndarray) -> np.ndarray:
        """Row-wise probabilities of the regression alone for an ``(n, n_features)`` feature matrix."""
        logits = ((features - self.mean) / self.scale) @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        probabilities: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
        return probabilities

    def save(self, model_dir: Path) -> Path:
        """Write :data:`VERDICT_FILE` into the verifier's folder, and its checksum beside the weights'."""
        path = Path(model_dir) / VERDICT_FILE
        data = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in asdict(self).items()}
        data[CHAINS_KEY] = True
        path.write_text(json.dumps(data, indent=1) + "\n")
        record_checksums(model_dir, [VERDICT_FILE])
        return path

    @classmethod
    def load(cls, model_dir: str | Path) -> LearnedVerdict | None:
        """The learned verdict saved beside a local verifier (:func:`verdict_file`), or ``None`` when it has none (hub
        models, verifiers trained without one).

        Raises:
            ModelDamaged: the file is there but is not a learned verdict with finite numbers, or it was fit on other
                features than :data:`~fever_core.verification.features.FEATURE_NAMES` (the checker then uses a
                shipped verifier and says why).
        """
        path = verdict_file(model_dir)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            learned = cls(
                np.array(data["weights"], dtype=np.float64),
                np.array(data["bias"], dtype=np.float64),
                np.array(data["mean"], dtype=np.float64),
                np.array(data["scale"], dtype=np.float64),
                list(data["feature_names"]),
                data.get("report", {}),
                float(data.get("joint_weight", 0.0)),
                _threshold(data, "subject_stance_min"),
                _threshold(data, "sure_sentence_min"),
                _threshold(data, "claim_parts_min"),
                _threshold(data, "bridge_min"),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ModelDamaged(
                str(model_dir),
                f"{path} can't be read as a learned verdict ({exc.__class__.__name__}): "
                f"restore the verifier folder from a copy, or {_RETRAIN}.",
            ) from exc
        if data.get(CHAINS_KEY) is not True:
            raise ModelDamaged(
                str(model_dir),
                f"{path} was fit before second-hop sentences were read after the sentence "
                f"that links to them: {_RETRAIN}.",
            )
        if learned.feature_names != list(FEATURE_NAMES):
            differ = sorted(set(learned.feature_names) ^ set(FEATURE_NAMES)) or ["their order"]
            raise ModelDamaged(
                str(model_dir),
                f"{path} was fit on other features than this workbench computes "
                f"(they differ in {', '.join(differ[:5])}): move it aside and {_RETRAIN}, or use the "
                "workbench version it was made with.",
            )
        n = len(FEATURE_NAMES)
        shapes = (learned.weights.shape, learned.bias.shape, learned.mean.shape, learned.scale.shape)
        numbers = (learned.weights, learned.bias, learned.mean, learned.scale, [learned.joint_weight])
        thresholds = (
            learned.subject_stance_min,
            learned.sure_sentence_min,
            learned.claim_parts_min,
            learned.bridge_min,
        )
        if (
            shapes != ((3, n), (3,), (n,), (n,))
            or not all(np.isfinite(a).all() for a in numbers)
            or not (learned.scale != 0).all()
            or any(t is not None and not 0.5 <= t <= 1 for t in thresholds)
        ):
            raise ModelDamaged(
                str(model_dir),
                f"{path} does not hold {n} finite weights for each of the 3 labels (and "
                "a non-zero scale for each feature; a subject_stance_min, sure_sentence_min, "
                f"claim_parts_min and bridge_min, if any, in [0.5, 1]): restore the verifier folder from a copy, or {_RETRAIN}.",
            )
        return learned


def _threshold(data: dict[str, Any], key: str) -> float | None:
    """A rule's threshold in a verdict file (``None``: not there, no such rule)."""
    return None if data.get(key) is None else float(data[key])


def verdict_file(model_dir: str | Path) -> Path | None:
    """The learned verdict's file in a verifier's folder (:data:`VERDICT_FILE`); ``None`` when it has none.

    Raises:
        ModelDamaged: the folder holds a learned verdict under another name (a version trained before the file had
            its name): the message says to rename it.
    """
    path = Path(model_dir) / VERDICT_FILE
    if path.is_file() or not Path(model_dir).is_dir():
        return path if path.is_file() else None
    for other in Path(model_dir).glob("*.json"):
        if other.stat().st_size < 100_000 and {"weights", "feature_names"} <= set(_json_keys(other)):
            raise ModelDamaged(
                str(model_dir),
                f"{other} is a learned verdict under its old name: rename it to "
                f"{VERDICT_FILE}, and its entry in checksums.json beside it likewise.",
            )
    return None


def _json_keys(path: Path) -> list[str]:
    """The keys of the JSON object in ``path`` (none when it is not one)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(data) if isinstance(data, dict) else []


def mix(regression: np.ndarray, joint: np.ndarray, joint_weight: float) -> np.ndarray:
    """``(1 - joint_weight) * regression + joint_weight * joint``, row-wise; both in ``LABELS`` order."""
    return (1.0 - joint_weight) * regression + joint_weight * joint
