"""A model's readings of many claims' (premise, claim) pairs in one batch: how the verdict's cascade
(:func:`~fever_core.verification.cascade.run_cascade`) calls the verifier and the joint verifier once for every
claim of a stage, and hands each claim its rows back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

import numpy as np

Pair = tuple[str, str]
"""What a model reads: (premise, claim)."""


class Reader(Protocol):
    """What the cascade needs of a model (:class:`~fever_core.verification.nli.NliModel`): its name, its batch size
    and its ``(n, 3)`` probabilities for (premise, claim) pairs."""

    name: str
    batch_size: int

    def predict(self, pairs: list[Pair]) -> np.ndarray: ...


def rows_by_claim(rows: Iterator[np.ndarray], pairs: dict[int, list[Pair]]) -> dict[int, np.ndarray]:
    """Each claim's ``(n, 3)`` rows for its ``pairs`` (by the claim's index), taken in their order from ``rows``."""
    return {i: np.array([next(rows) for _ in claim_pairs]).reshape(-1, 3) for i, claim_pairs in pairs.items()}


def read_pairs(model: Reader | None, pairs: dict[int, list[Pair]], by_length: bool) -> dict[int, np.ndarray]:
    """``model``'s probabilities for each claim's ``pairs`` (by the claim's index), every claim's in one batch (no
    call, and no rows, without a model or pairs)."""
    every = [pair for claim_pairs in pairs.values() for pair in claim_pairs]
    if model is None or not every:
        return {}
    return rows_by_claim(iter(predict_pairs(model, every, by_length)), pairs)


def predict_pairs(
    model: Reader | None, pairs: list[Pair], by_length: bool, unwanted: Callable[[int], bool] | None = None
) -> np.ndarray:
    """``model``'s probabilities for ``pairs`` (none asked: no call); ``by_length`` reads them shortest first, so
    the model's batches hold pairs of like length and pad less, and returns the rows in the pairs' order.
    ``unwanted``, when given, is asked of each pair before each of the model's batches (``model.batch_size`` pairs):
    a pair no longer wanted is not read, its row left at 1/3 each (for nobody to read)."""
    if not pairs or model is None:
        return np.zeros((0, 3), dtype=np.float32)
    order = list(range(len(pairs)))
    if by_length:
        order.sort(key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    if unwanted is None:
        rows = np.empty((len(pairs), 3), dtype=np.float32)
        rows[order] = model.predict([pairs[i] for i in order])
        return rows
    rows = np.full((len(pairs), 3), 1 / 3, dtype=np.float32)
    for start in range(0, len(order), model.batch_size):
        wanted = [i for i in order[start : start + model.batch_size] if not unwanted(i)]
        if wanted:
            rows[wanted] = model.predict([pairs[i] for i in wanted])
    return rows
