"""A learned claim-level verdict over the evidence's selection scores and stances.

The verifier says, for one premise, how likely it supports, refutes or says nothing about the claim.
Whether the *claim* is settled depends on all top evidence together: how well each sentence matches
(its selection score), how decisive each stance is, whether several sentences agree, and how much of
what the claim says the evidence mentions at all (a claim whose words the evidence lacks is more
often unverifiable than refuted). A multinomial logistic regression over :func:`claim_features`
weighs these; it is trained on end-to-end runs of non-benchmark claims
(:mod:`fever_core.training.aggregator`) and ships beside the verifier as ``aggregator.json``. A verifier without that file gets the best-sentence rule
(:mod:`fever_core.verification.verdict`).

The regression sees the evidence only through one-premise stances. The *joint verifier* reads the
top sentences together with the claim (:func:`joint_premise`), as FEVER systems that concatenate
their evidence do, and was trained on the same end-to-end runs with claim-level labels. When one is
configured the verdict is the mix ``(1 - joint_weight) * regression + joint_weight * joint``;
``joint_weight`` is chosen on held-out claims and saved in ``aggregator.json``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from fever_core.common.text import WORD_RE, content_words
from fever_core.common.types import Stance
from fever_core.verification.model_integrity import ModelDamaged, record_checksums

AGGREGATOR_FILE = "aggregator.json"
JOINT_EVIDENCE_K = 5
TOP_POSITIONS = 3
FEATURE_NAMES = (
    [f"{name}@{i + 1}" for i in range(TOP_POSITIONS) for name in ("score", "p_supports", "p_refutes", "p_nei", "judged")]
    + ["max_p_supports", "max_p_refutes", "min_p_nei", "mean_p_nei", "scored_p_supports", "scored_p_refutes",
       "max_score", "mean_score", "second_hop_share", "judged_share",
       "coverage@1", "coverage@3", "coverage@5", "numbers_missing", "negation", "claim_words",
       "coverage@1*p_supports@1", "coverage@1*p_refutes@1", "coverage@1*p_nei@1"]
)
_NEGATION = frozenset(
    "not no never only exclusively incapable unable none neither nor without refused failed yet lacks".split()
)


@dataclass
class EvidenceView:
    """What the verdict sees of one evidence sentence.

    Attributes:
        score: selection score (bi-encoder cosine, about -1..1; higher is more relevant).
        hop: 1 for first-hop evidence, 2 when reached through a link.
        stance: the verifier's stance, or ``None`` when the sentence was not judged (below the minimum
            evidence score).
        text: the sentence as ``"Title: sentence"`` (a second-hop stance may have been judged on a chain:
            :func:`~fever_core.verification.claim_verifier.chain_premise`).
    """

    score: float
    hop: int
    stance: Stance | None
    text: str = ""

    def to_dict(self) -> dict:
        """As the verdict's training runs record it (the stance as ``{label: probability}``)."""
        return {"score": self.score, "hop": self.hop, "stance": self.stance.to_dict() if self.stance else None,
                "text": self.text}

    @classmethod
    def from_dict(cls, record: dict) -> EvidenceView:
        """The inverse of :meth:`to_dict`."""
        stance = record.get("stance")
        return cls(record["score"], record["hop"], Stance.from_dict(stance) if stance else None, record.get("text", ""))


def joint_premise(texts: Sequence[str], k: int = JOINT_EVIDENCE_K) -> str:
    """The joint verifier's premise: the top ``k`` evidence premises (``"Title: sentence"``, best
    first, judged or not) joined with one space. Training and the pipeline both build it here."""
    return " ".join(texts[:k])


def _coverage(claim_words: set[str], texts: Sequence[str]) -> float:
    """Share of the claim's content words that occur in ``texts`` (1.0 for a claim without any)."""
    if not claim_words:
        return 1.0
    seen = {w for text in texts for w in content_words(text)}
    return len(claim_words & seen) / len(claim_words)


def claim_features(claim: str, evidence: Sequence[EvidenceView], k: int = 5) -> np.ndarray:
    """The feature vector (``FEATURE_NAMES`` order, float64) for a claim and its top ``k`` evidence
    sentences, best first.

    Unjudged sentences and missing positions contribute zeros (and ``judged`` = 0). Coverage features
    are shares in [0, 1] of the claim's content words found in the top 1 / 3 / 5 premises;
    ``numbers_missing`` is 1 when a number of the claim is in none of them; ``negation`` is 1 when the
    claim has a negating or exclusive word ("not", "only"...); ``claim_words`` is its word count / 20.
    """
    items = list(evidence)[:k]
    rows = np.zeros((max(len(items), 1), 3))
    judged = np.zeros(max(len(items), 1))
    scores = np.zeros(max(len(items), 1))
    for i, item in enumerate(items):
        scores[i] = item.score
        if item.stance is not None:
            rows[i] = item.stance.as_row()
            judged[i] = 1.0
    per_position = []
    for i in range(TOP_POSITIONS):
        if i < len(items):
            per_position += [scores[i], *rows[i], judged[i]]
        else:
            per_position += [0.0, 0.0, 0.0, 0.0, 0.0]
    any_judged = judged.any()
    weights = np.clip(scores, 0.0, None) * judged
    summary = [
        rows[:, 0].max() if any_judged else 0.0,
        rows[:, 1].max() if any_judged else 0.0,
        rows[judged > 0, 2].min() if any_judged else 1.0,
        rows[judged > 0, 2].mean() if any_judged else 1.0,
        float(weights @ rows[:, 0]),
        float(weights @ rows[:, 1]),
        scores.max() if items else 0.0,
        scores.mean() if items else 0.0,
        float(np.mean([item.hop == 2 for item in items])) if items else 0.0,
        float(judged.mean()) if items else 0.0,
    ]
    claim_words = set(content_words(claim))
    texts = [item.text for item in items]
    numbers = {w for w in claim_words if w.isdigit()}
    coverage_1 = _coverage(claim_words, texts[:1])
    lexical = [
        coverage_1,
        _coverage(claim_words, texts[:3]),
        _coverage(claim_words, texts),
        float(bool(numbers - {w for text in texts for w in content_words(text)})),
        float(any(w in _NEGATION for w in WORD_RE.findall(claim.lower()))),
        len(WORD_RE.findall(claim)) / 20,
        coverage_1 * rows[0, 0],
        coverage_1 * rows[0, 1],
        coverage_1 * rows[0, 2],
    ]
    return np.array(per_position + summary + lexical, dtype=np.float64)


@dataclass
class LearnedAggregator:
    """Multinomial logistic regression over standardised :func:`claim_features`.

    Attributes:
        weights: ``(3, n_features)`` in ``LABELS`` order.
        bias: ``(3,)``.
        mean, scale: per-feature standardisation.
        feature_names: the features the weights belong to (checked on load).
        report: how it was trained and scored (kept for the model card).
        joint_weight: share in [0, 1] of the joint verifier's probabilities in the verdict, when the
            caller has them. Default 0 (the regression alone).
        two_hop_chains: the runs it was fit on read each second-hop sentence together with the first-hop
            sentence that links to it (:func:`~fever_core.verification.claim_verifier.chain_premise`), so
            the checker must read them so too. ``False`` for verdicts fit before chains were read.
    """

    weights: np.ndarray
    bias: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    feature_names: list[str]
    report: dict
    joint_weight: float = 0.0
    two_hop_chains: bool = False

    def probabilities(
        self, claim: str, evidence: Sequence[EvidenceView], joint: np.ndarray | None = None
    ) -> np.ndarray:
        """P(SUPPORTS, REFUTES, NOT ENOUGH INFO) for the claim, shape ``(3,)``.

        Args:
            joint: the joint verifier's probabilities for the claim (``LABELS`` order), mixed in with
                ``joint_weight``; ``None`` when there is no joint verifier.
        """
        row = self.probabilities_of(claim_features(claim, evidence)[None, :])[0]
        return row if joint is None else mix(row, np.asarray(joint, dtype=np.float64), self.joint_weight)

    def probabilities_of(self, features: np.ndarray) -> np.ndarray:
        """Row-wise probabilities for an ``(n, n_features)`` feature matrix."""
        logits = ((features - self.mean) / self.scale) @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def save(self, model_dir: Path) -> Path:
        """Write ``aggregator.json`` into the verifier's folder, and its checksum beside the weights'."""
        path = Path(model_dir) / AGGREGATOR_FILE
        data = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in asdict(self).items()}
        path.write_text(json.dumps(data, indent=1) + "\n")
        record_checksums(model_dir, [AGGREGATOR_FILE])
        return path

    @classmethod
    def load(cls, model_dir: str | Path) -> LearnedAggregator | None:
        """The aggregator saved beside a local verifier, or ``None`` (hub models, older verifiers,
        or an aggregator trained on other features).

        Raises:
            ModelDamaged: the file is there but is not an aggregator with finite numbers.
        """
        path = Path(model_dir) / AGGREGATOR_FILE
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("feature_names") != list(FEATURE_NAMES):
                return None
            aggregator = cls(
                np.array(data["weights"], dtype=np.float64), np.array(data["bias"], dtype=np.float64),
                np.array(data["mean"], dtype=np.float64), np.array(data["scale"], dtype=np.float64),
                list(data["feature_names"]), data.get("report", {}), float(data.get("joint_weight", 0.0)),
                bool(data.get("two_hop_chains", False)),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ModelDamaged(str(model_dir), f"{path} can't be read as a learned verdict ({exc.__class__.__name__}): "
                               "restore the verifier folder from a copy, or train the verdict again (`python -m "
                               "fever_core train aggregator`).") from exc
        n = len(FEATURE_NAMES)
        shapes = (aggregator.weights.shape, aggregator.bias.shape, aggregator.mean.shape, aggregator.scale.shape)
        numbers = (aggregator.weights, aggregator.bias, aggregator.mean, aggregator.scale, [aggregator.joint_weight])
        if shapes != ((3, n), (3,), (n,), (n,)) or not all(np.isfinite(a).all() for a in numbers) \
                or not (aggregator.scale != 0).all():
            raise ModelDamaged(str(model_dir), f"{path} does not hold {n} finite weights for each of the 3 labels (and "
                               "a non-zero scale for each feature): restore the verifier folder from a copy, or train "
                               "the verdict again (`python -m fever_core train aggregator`).")
        return aggregator


def mix(regression: np.ndarray, joint: np.ndarray, joint_weight: float) -> np.ndarray:
    """``(1 - joint_weight) * regression + joint_weight * joint``, row-wise; both in ``LABELS`` order."""
    return (1.0 - joint_weight) * regression + joint_weight * joint
