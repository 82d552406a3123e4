"""Scoring a verifier on labelled (premise, hypothesis) pairs: accuracy, macro-F1, confusion matrix."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from fever_core.common.types import LABELS
from fever_core.verification.policy import NEI_INDEX, decide

if TYPE_CHECKING:
    from fever_core.verification.nli import NliModel


class LabelledPair(Protocol):
    """A (premise, hypothesis) pair with its gold label, e.g. a :class:`~fever_core.common.formats.Pair`."""

    @property
    def premise(self) -> str: ...

    @property
    def hypothesis(self) -> str: ...

    @property
    def label(self) -> str: ...


@dataclass
class LabelScores:
    """Precision, recall and F1 in [0, 1] for one label; ``support`` = gold pairs with that label."""

    precision: float
    recall: float
    f1: float
    support: int


@dataclass
class PairsReport:
    """How a verifier did on a pair set.

    Attributes:
        n: pairs scored.
        accuracy: share of pairs whose predicted label is the gold label, in [0, 1].
        macro_f1: mean F1 over the labels present in gold or predictions.
        per_label: label -> :class:`LabelScores`, in :data:`LABELS` order.
        confusion: 3x3 counts, rows = gold, columns = predicted, both in :data:`LABELS` order.
        two_way_accuracy: on gold SUPPORTS / REFUTES pairs only, accuracy of argmax over those two
            labels (NEI ignored): the verifier's stance quality apart from its NEI decisions.
            ``None`` when there are no such pairs.
        pairs_per_s: prediction throughput (pairs per second, wall clock).
        nei_threshold: the NEI decision rule used (``None`` = plain argmax), see :func:`decide`.
    """

    n: int
    accuracy: float
    macro_f1: float
    per_label: dict[str, LabelScores]
    confusion: list[list[int]]
    two_way_accuracy: float | None
    pairs_per_s: float
    nei_threshold: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def report_from_predictions(
    gold: Sequence[int] | np.ndarray,
    probs: np.ndarray,
    pairs_per_s: float = 0.0,
    nei_threshold: float | None = None,
) -> PairsReport:
    """Build a :class:`PairsReport` from gold label indices and ``(n, 3)`` probabilities."""
    gold = np.asarray(gold, dtype=np.int64)
    probs = np.asarray(probs, dtype=np.float64)
    if probs.shape != (len(gold), len(LABELS)):
        raise ValueError(f"Expected probabilities of shape ({len(gold)}, {len(LABELS)}), got {probs.shape}.")
    pred = decide(probs, nei_threshold)
    k = len(LABELS)
    confusion = np.zeros((k, k), dtype=np.int64)
    np.add.at(confusion, (gold, pred), 1)
    per_label = {}
    f1s = []
    for i, label in enumerate(LABELS):
        tp = confusion[i, i]
        predicted, actual = confusion[:, i].sum(), confusion[i, :].sum()
        precision = tp / predicted if predicted else 0.0
        recall = tp / actual if actual else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[label] = LabelScores(float(precision), float(recall), float(f1), int(actual))
        if predicted or actual:
            f1s.append(f1)
    sr = gold != NEI_INDEX
    two_way = None
    if sr.any():
        two_way = float((np.where(probs[sr, 0] >= probs[sr, 1], 0, 1) == gold[sr]).mean())
    n = len(gold)
    return PairsReport(
        n=n,
        accuracy=float((pred == gold).mean()) if n else 0.0,
        macro_f1=float(np.mean(f1s)) if f1s else 0.0,
        per_label=per_label,
        confusion=confusion.tolist(),
        two_way_accuracy=two_way,
        pairs_per_s=float(pairs_per_s),
        nei_threshold=nei_threshold,
    )


def evaluate_pairs(
    model: NliModel,
    pairs: Sequence[LabelledPair],
    batch_size: int = 32,
    nei_threshold: float | None = None,
) -> PairsReport:
    """Run ``model`` on ``pairs`` and score its predictions against their gold labels.

    Args:
        model: a loaded :class:`~fever_core.verification.nli.NliModel`.
        pairs: objects with ``premise``, ``hypothesis`` and ``label`` (a :data:`LABELS` name).
        batch_size: pairs per forward pass.
        nei_threshold: NEI decision rule (see :func:`decide`); ``None`` = argmax.
    """
    gold = [LABELS.index(p.label) for p in pairs]
    start = time.perf_counter()
    probs = model.predict([(p.premise, p.hypothesis) for p in pairs], batch_size=batch_size)
    elapsed = time.perf_counter() - start
    return report_from_predictions(gold, probs, len(pairs) / elapsed if elapsed > 0 else 0.0, nei_threshold)
