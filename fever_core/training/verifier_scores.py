"""Scoring a trained verifier: the NOT ENOUGH INFO rule tuned on the dev split, the dev split and evaluation sets scored
per source, and the training report (``verifier.json``) written beside the model."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from fever_core.common.formats import Pair
from fever_core.common.types import LABELS
from fever_core.evaluation.pairs import report_from_predictions
from fever_core.training.pairs import label_ids
from fever_core.training.verifier_config import TrainConfig, TrainResult
from fever_core.verification.model_integrity import TRAINING_REPORT_FILE, record_checksums
from fever_core.verification.nli import NliModel

log = logging.getLogger(__name__)


def choose_nei_threshold(gold: np.ndarray, probs: np.ndarray) -> tuple[float, float, float]:
    """The P(NEI) threshold in [0.05, 0.95] that maximises macro-F1 on ``(gold, probs)``.

    Rule: NOT ENOUGH INFO when P(NEI) >= threshold, else the larger of SUPPORTS / REFUTES.
    Ties go to the threshold closest to 0.5.

    Returns:
        ``(threshold, macro-F1 with it, macro-F1 of plain argmax)``.
    """
    argmax_f1 = report_from_predictions(gold, probs).macro_f1
    best = (-1.0, 0.0)
    for t in np.round(np.arange(0.05, 0.951, 0.01), 2):
        f1 = report_from_predictions(gold, probs, nei_threshold=float(t)).macro_f1
        if f1 > best[0] + 1e-9 or (abs(f1 - best[0]) <= 1e-9 and abs(t - 0.5) < abs(best[1] - 0.5)):
            best = (f1, float(t))
    return best[1], best[0], argmax_f1


def score_trained_model(
    config: TrainConfig, result: TrainResult, dev_pairs: list[Pair], eval_sets: Callable[[], dict[str, list[Pair]]]
) -> None:
    """Tune the NEI rule on the FEVER part of the dev split (written into ``config.json``), then score the dev split
    and the evaluation sets ``eval_sets()`` gives (read after the dev split is scored:
    :func:`~fever_core.training.verifier.load_eval_sets`) per source, into ``result``."""
    from transformers import AutoConfig

    out = Path(config.out)
    model = NliModel.load(str(out), device="cpu", max_length=config.max_length)
    reports: dict[str, dict[str, Any]] = {}
    if dev_pairs:
        probs = model.predict([(p.premise, p.hypothesis) for p in dev_pairs], batch_size=config.eval_batch_size)
        gold = label_ids(dev_pairs)
        fever = np.array([p.source.startswith("fever") for p in dev_pairs])
        tune = fever if fever.any() and len(set(gold[fever])) == len(LABELS) else np.ones(len(gold), bool)
        threshold, tuned_f1, argmax_f1 = choose_nei_threshold(gold[tune], probs[tune])
        result.nei_threshold = threshold
        log.info("NEI threshold %.2f: dev macro-F1 %.4f (argmax %.4f)", threshold, tuned_f1, argmax_f1)
        reports["dev/all"] = report_from_predictions(gold, probs).to_dict()
        reports["dev/all@nei_threshold"] = report_from_predictions(gold, probs, nei_threshold=threshold).to_dict()
        sources = sorted({p.source for p in dev_pairs})
        for source in sources:
            mask = np.array([p.source == source for p in dev_pairs])
            reports[f"dev/{source}"] = report_from_predictions(gold[mask], probs[mask]).to_dict()
        hf_config = AutoConfig.from_pretrained(out)
        hf_config.nei_threshold = threshold
        hf_config.save_pretrained(out)
        record_checksums(out, ["config.json"])  # its rule changes the verdicts: checked like the weights
    for source, pairs in eval_sets().items():
        start = time.perf_counter()
        probs = model.predict([(p.premise, p.hypothesis) for p in pairs], batch_size=config.eval_batch_size)
        rate = len(pairs) / max(time.perf_counter() - start, 1e-9)
        report = report_from_predictions(label_ids(pairs), probs, rate)
        reports[source] = report.to_dict()
        if result.nei_threshold is not None:
            reports[f"{source}@nei_threshold"] = report_from_predictions(
                label_ids(pairs), probs, rate, nei_threshold=result.nei_threshold
            ).to_dict()
        log.info("%s: n=%d accuracy %.4f macro-F1 %.4f", source, report.n, report.accuracy, report.macro_f1)
    result.reports = reports


def write_training_report(config: TrainConfig, result: TrainResult) -> None:
    """Write :data:`~fever_core.verification.model_integrity.TRAINING_REPORT_FILE` beside the model: the NEI rule, the
    settings, data counts, losses and reports."""
    meta = {
        "labels": list(LABELS),
        "nei_rule": {
            "nei_threshold": result.nei_threshold,
            "rule": "NOT ENOUGH INFO if P(NEI) >= nei_threshold, else the larger of P(SUPPORTS) and P(REFUTES)",
            "chosen_on": "held-out dev split of the training claims (FEVER-derived sources), maximising macro-F1",
        },
        "max_length": config.max_length,
        "config": config.to_dict(),
        "steps": result.steps,
        "total_steps": result.total_steps,
        "schedule_completed": result.finished,
        "wall_s": round(result.wall_s, 1),
        "train_pairs": result.train_pairs,
        "dev_pairs": result.dev_pairs,
        "losses": result.losses,
        "reports": result.reports,
    }
    (Path(config.out) / TRAINING_REPORT_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
