"""Would more inputs make the claim-level verdict better? (issue 4, session 6; nothing here is shipped)

The shipped verdict mixes a logistic regression over :func:`claim_features` with the joint verifier
(``aggregator.json``). This script adds candidate inputs to the regression and scores each variant
the same way, so they compare:

- ``title+empty``: the verifier's stance with the top page's title alone as premise, and with an
  empty premise (what the claim's wording alone says), and the top sentence's stance minus the
  title-only stance;
- ``selector``: 1 - P(NOT ENOUGH INFO) and P(S), P(R) of the Papelo-style selector
  (``experiments/selector/train_selector.sh``, in ``data/models/selector``) on each top-5 sentence;
- ``joint-per-sentence``: the joint verifier's probabilities on each of the top 3 sentences alone.

Protocol: the 1,588 held-out claims of the shipped verdict's 8,052 ``paper_test`` runs (neither the
joint verifier nor the selector was trained on them), 5-fold cross-validated regression (C = 0.1),
alone and mixed with the shipped joint verifier (weight chosen on the cross-validated predictions);
then the regression fit on all 1,588 and applied to 1,200 random fever-dev claims (diagnostic only:
nothing is chosen on them; claims with the same text are checked once). Also: the shipped regression
on ``paper_test`` claims the verifier was / was not trained on (its 4 % dev split), to see whether
stances on trained-on claims mislead the fit, and a regression fit on the claims the verifier did not
see against as many it saw (:func:`fit_on_unseen_claims`).

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python experiments/verdict_features/verdict_features.py

Needs the shipped verifier's end-to-end runs (``./experiments/shipped_runs.sh``) and, for the selector
variant, ``experiments/selector/train_selector.sh``. Model outputs are cached in ``data/experiments/``
(about 15 minutes on 2 cores the first time).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from fever_core.common.settings import Settings
from fever_core.common.text import fever_to_plain
from fever_core.common.types import LABELS
from fever_core.training.aggregator import (
    HOLDOUT,
    ProxyClaim,
    choose_joint_weight,
    collect_runs,
    in_holdout,
    verifier_fingerprint,
)
from fever_core.training.pairs import in_dev_split
from fever_core.verification.aggregator import EvidenceView, LearnedAggregator, claim_features, joint_premise, mix
from fever_core.verification.nli import NliModel

RUNS = Path(f"data/training/aggregator-runs-fever-dev-{verifier_fingerprint(Path('assets/models/verifier'))}.jsonl")
SHIPPED_RUNS = 8052
"""The first lines of RUNS as this project's file holds them: the claims the shipped aggregator.json was
fit on. (A fresh ``shipped_runs.sh`` run shuffles all 8,981 claims, so its first 8,052 are another draw.)"""
FEVER_DEV = Path("../shared/data/claims/fever-dev.jsonl")
FEVER_DEV_CLAIMS = 4626
CACHE = Path("data/experiments")
VERIFIER, JOINT, SELECTOR = "assets/models/verifier", "assets/models/joint-verifier", "data/models/selector"
VERIFIER_SEED, VERIFIER_DEV_FRACTION = 13, 0.04  # the shipped verifier's recipe: its dev split never trained on


def dev_runs(n: int = 1200) -> list[dict]:
    """End-to-end runs (no joint verifier) of ``n`` random fever-dev claims, cached."""
    from fever_core.pipeline import Checker

    claims = [json.loads(line) for line in FEVER_DEV.open()]
    random.Random(1).shuffle(claims)
    wanted = [ProxyClaim(fever_to_plain(c["claim"]), c["label"]) for c in claims[:n]]
    settings = Settings.from_env()
    checker = Checker.open("fever-dev", replace(settings, joint_verifier_model=""), progress=False)
    return collect_runs(checker, wanted, CACHE / f"devruns-{n}.jsonl", progress=False)


def cached(name: str, compute) -> np.ndarray:
    path = CACHE / f"{name}.npy"
    if not path.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        np.save(path, compute())
    return np.load(path)


def per_sentence(model: str, runs: list[dict], k: int) -> np.ndarray:
    """``(n, k, 3)`` probabilities of ``model`` on each of the top ``k`` premises alone (NEI = 1 where missing)."""
    nli = NliModel.load(model, "cpu", max_length=128)
    index = [(i, j) for i, run in enumerate(runs) for j in range(min(k, len(run["evidence"])))]
    probabilities = nli.predict([(runs[i]["evidence"][j]["text"], runs[i]["claim"]) for i, j in index], batch_size=64)
    out = np.zeros((len(runs), k, 3))
    out[:, :, 2] = 1.0
    for (i, j), row in zip(index, probabilities):
        out[i, j] = row
    return out


def joint(runs: list[dict], top: int = 5) -> np.ndarray:
    """``(n, 3)`` joint-verifier probabilities with the ``top`` best sentences as premise (it was trained on 5)."""
    return (
        NliModel.load(JOINT, "cpu")
        .predict([(joint_premise([e["text"] for e in run["evidence"][:top]]), run["claim"]) for run in runs])
        .astype(np.float64)
    )


def title_and_empty(runs: list[dict]) -> np.ndarray:
    nli = NliModel.load(VERIFIER, "cpu", max_length=128)
    titles = [
        (run["evidence"][0]["text"].split(": ", 1)[0] + ":" if run["evidence"] else "", run["claim"]) for run in runs
    ]
    empty = [("", run["claim"]) for run in runs]
    return np.hstack([nli.predict(titles, batch_size=64), nli.predict(empty, batch_size=64)]).astype(np.float64)


def base_features(runs: list[dict]) -> np.ndarray:
    return np.stack([claim_features(r["claim"], [EvidenceView.from_dict(e) for e in r["evidence"]]) for r in runs])


def extra_features(name: str, tag: str, runs: list[dict], base: np.ndarray) -> np.ndarray:
    if name == "title+empty":
        t = cached(f"title-empty-{tag}", lambda: title_and_empty(runs))
        p_supports_1, p_refutes_1 = base[:, 1], base[:, 2]  # FEATURE_NAMES: score@1, p_supports@1, p_refutes@1
        return np.hstack([t, (p_supports_1 - t[:, 0])[:, None], (p_refutes_1 - t[:, 1])[:, None]])
    if name == "selector":
        s = cached(f"selector-{tag}", lambda: per_sentence(SELECTOR, runs, 5))
        relevance = 1.0 - s[:, :, 2]
        return np.stack([relevance.max(1), relevance[:, 0], s[:, :, 0].max(1), s[:, :, 1].max(1), relevance.mean(1)], 1)
    if name == "joint-per-sentence":
        s = cached(f"joint-per-sentence-{tag}", lambda: per_sentence(JOINT, runs, 3))
        return np.hstack(
            [
                s.reshape(len(runs), -1),
                s[:, :, 0].max(1, keepdims=True),
                s[:, :, 1].max(1, keepdims=True),
                s[:, :, 2].min(1, keepdims=True),
            ]
        )
    raise ValueError(name)


def cross_validated_regression(a: np.ndarray, y: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The regression's 5-fold cross-validated probabilities on ``a`` and, fit on all of ``a``, on ``b``."""
    mean, scale = a.mean(0), a.std(0)
    scale[scale == 0] = 1.0
    regression = LogisticRegression(C=0.1, max_iter=3000)
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    held = cross_val_predict(regression, (a - mean) / scale, y, cv=folds, method="predict_proba")
    return held, regression.fit((a - mean) / scale, y).predict_proba((b - mean) / scale)


def labels_of(runs: list[dict]) -> np.ndarray:
    return np.array([LABELS.index(r["label"]) for r in runs])


def main() -> None:
    runs = [json.loads(line) for line in RUNS.open()][:SHIPPED_RUNS]
    held = [r for r in runs if in_holdout(r["claim"], HOLDOUT, 0)]
    dev = dev_runs()
    y, y_dev = labels_of(held), labels_of(dev)
    j_held, j_dev = cached("joint-held", lambda: joint(held)), cached("joint-dev", lambda: joint(dev))
    x_held, x_dev = base_features(held), base_features(dev)
    print(f"{len(held)} held-out paper_test claims, {len(dev)} fever-dev claims")
    print(f"variant               | held-out CV: regression  mixed (w) | fever-dev {len(dev)}: regression  mixed")
    for name in ("base", "title+empty", "selector", "joint-per-sentence"):
        if name == "selector" and not Path(SELECTOR).is_dir():
            print(f"{name:21s} | skipped: run experiments/selector/train_selector.sh first")
            continue
        a, b = x_held, x_dev
        if name != "base":
            a = np.hstack([a, extra_features(name, "held", held, a)])
            b = np.hstack([b, extra_features(name, "dev", dev, b)])
        p_held, p_dev = cross_validated_regression(a, y, b)
        weight, mixed = choose_joint_weight(p_held, j_held, y)
        dev_mixed = (mix(p_dev, j_dev, weight).argmax(1) == y_dev).mean()
        print(
            f"{name:21s} | {(p_held.argmax(1) == y).mean():.3f}  {mixed:.3f} ({weight:.2f})"
            f"           | {(p_dev.argmax(1) == y_dev).mean():.3f}  {dev_mixed:.3f}"
        )
    shorter_joint_premises(held, dev, *cross_validated_regression(x_held, y, x_dev), j_held, j_dev)
    shipped = LearnedAggregator.load(VERIFIER)
    for trained_on in (True, False):
        subset = [r for r in runs if in_dev_split(r["claim"], VERIFIER_DEV_FRACTION, VERIFIER_SEED) != trained_on]
        predicted = shipped.probabilities_of(base_features(subset)).argmax(1)
        recall = {label: float((predicted[labels_of(subset) == i] == i).mean()) for i, label in enumerate(LABELS)}
        recalls = ", ".join(f"{k} {v:.3f}" for k, v in recall.items())
        print(
            f"shipped regression on {len(subset)} claims the verifier was {'' if trained_on else 'not '}trained on: "
            f"accuracy {(predicted == labels_of(subset)).mean():.3f}, recall {recalls}"
        )
    fit_on_unseen_claims(runs, dev, x_dev, y_dev, j_dev)
    calibration_ceiling(shipped, x_dev, j_dev, y_dev)
    every_dev = dev_runs(FEVER_DEV_CLAIMS)
    calibration_ceiling(
        shipped,
        base_features(every_dev),
        cached(f"joint-dev-{FEVER_DEV_CLAIMS}", lambda: joint(every_dev)),
        labels_of(every_dev),
    )


def calibration_ceiling(
    shipped: LearnedAggregator, features: np.ndarray, joint_probabilities: np.ndarray, labels: np.ndarray
) -> None:
    """How far could the shipped models go on fever-dev by calibration alone? Searches the joint weight
    (0 .. 1 by 0.05) and log-prior shifts of SUPPORTS and REFUTES against NOT ENOUGH INFO (-1 .. 1 by 0.05)
    on the fever-dev claims themselves: an upper bound no weight or threshold chosen elsewhere can beat
    (and not a setting to ship, since it is chosen on the benchmark)."""
    shifts = np.round(np.arange(-1.0, 1.0001, 0.05), 2)
    regression = shipped.probabilities_of(features)
    best = (-1.0, 0.0, 0.0, 0.0)
    for weight in np.round(np.arange(0.0, 1.0001, 0.05), 2):
        log_mixed = np.log(mix(regression, joint_probabilities, float(weight)) + 1e-12)
        for shift_s in shifts:
            for shift_r in shifts:
                accuracy = float(((log_mixed + [shift_s, shift_r, 0.0]).argmax(1) == labels).mean())
                best = max(best, (accuracy, float(weight), float(shift_s), float(shift_r)))
    print(
        f"calibration ceiling on {len(labels)} fever-dev claims (weight and label shifts chosen on them): "
        f"{best[0]:.3f} at weight {best[1]:.2f}, shifts S {best[2]:+.2f} R {best[3]:+.2f}; "
        f"shipped weight, no shift: {(mix(regression, joint_probabilities, shipped.joint_weight).argmax(1) == labels).mean():.3f}"
    )


def shorter_joint_premises(
    held: list[dict], dev: list[dict], p_held: np.ndarray, p_dev: np.ndarray, j_held: np.ndarray, j_dev: np.ndarray
) -> None:
    """The joint verifier (trained on five-sentence premises) given only the top 2, 3 or 4 sentences, alone,
    mixed with the base regression (``p_held`` cross-validated, ``p_dev``), and averaged with its five-sentence
    output before mixing; weights chosen on the held-out claims."""
    y, y_dev = labels_of(held), labels_of(dev)
    print(
        "joint verifier on the top k sentences | held-out: alone  mixed (w)  averaged with top 5, mixed (w)"
        " | fever-dev: alone  mixed  averaged, mixed"
    )
    for top in (2, 3, 4):
        h = cached(f"joint-top{top}-held", lambda top=top: joint(held, top))
        d = cached(f"joint-top{top}-dev", lambda top=top: joint(dev, top))
        weight, mixed = choose_joint_weight(p_held, h, y)
        weight_averaged, mixed_averaged = choose_joint_weight(p_held, (h + j_held) / 2, y)
        dev_mixed = (mix(p_dev, d, weight).argmax(1) == y_dev).mean()
        dev_averaged = (mix(p_dev, (d + j_dev) / 2, weight_averaged).argmax(1) == y_dev).mean()
        print(
            f"  k = {top}{'':31s} | {(h.argmax(1) == y).mean():.3f}  {mixed:.3f} ({weight:.2f})  "
            f"{mixed_averaged:.3f} ({weight_averaged:.2f})              | {(d.argmax(1) == y_dev).mean():.3f}  "
            f"{dev_mixed:.3f}  {dev_averaged:.3f}"
        )


def fit_on_unseen_claims(
    runs: list[dict], dev: list[dict], x_dev: np.ndarray, y_dev: np.ndarray, j_dev: np.ndarray, draws: int = 20
) -> None:
    """Would a verdict fit on stances of claims the verifier never saw (as fever-dev's are) do better on fever-dev?
    Fits the regression on the verifier's 314 dev-split claims, and on ``draws`` random draws of as many claims it
    was trained on, and scores each on fever-dev, alone and mixed with the joint verifier at the shipped weight."""
    weight = LearnedAggregator.load(VERIFIER).joint_weight

    def score(subset: list[dict]) -> tuple[float, float]:
        _, p = cross_validated_regression(base_features(subset), labels_of(subset), x_dev)
        return float((p.argmax(1) == y_dev).mean()), float((mix(p, j_dev, weight).argmax(1) == y_dev).mean())

    unseen = [r for r in runs if in_dev_split(r["claim"], VERIFIER_DEV_FRACTION, VERIFIER_SEED)]
    seen = [r for r in runs if not in_dev_split(r["claim"], VERIFIER_DEV_FRACTION, VERIFIER_SEED)]
    rng = random.Random(0)
    seen_scores = np.array([score(rng.sample(seen, len(unseen))) for _ in range(draws)])
    alone, mixed = score(unseen)
    print(
        f"regression fit on the {len(unseen)} claims the verifier did not see, on fever-dev: {alone:.3f} alone, "
        f"{mixed:.3f} mixed; fit on {len(unseen)} it saw ({draws} draws): {seen_scores[:, 0].mean():.3f} "
        f"(sd {seen_scores[:, 0].std():.3f}) alone, {seen_scores[:, 1].mean():.3f} (sd {seen_scores[:, 1].std():.3f}) mixed"
    )


if __name__ == "__main__":
    main()
