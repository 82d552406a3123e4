"""How much do a verifier's stances tell the claim verdict? (issue 4, session 10; nothing here ships)

On fever-dev the shipped verifier gives REFUTES 0.98 to almost any on-topic sentence that doesn't
support the claim ("A View to a Kill is a romance movie." against "The film was produced by Albert R.
Broccoli and Michael G. Wilson"), so its stances can't separate REFUTES from NOT ENOUGH INFO claims. A
verifier also trained on on-topic NOT ENOUGH INFO pairs (``finetune_same_page.sh``) might hand the
verdict more. This script compares verifiers by their stances alone, in one protocol:

1. every fever-dev claim (each text once) checked end to end with the verifier, joint verifier off
   (``collect_runs``, cached and resumable in ``data/experiments/``);
2. a logistic regression over :func:`claim_features` (C = 0.1, standardised), 5-fold cross-validated
   on those runs, alone and mixed with the shipped joint verifier (its weight chosen on the same
   cross-validated predictions).

Fitting on fever-dev makes this a diagnostic that compares stances, never a setting: nothing here
is used by the shipped verdict. For the shipped verifier it also prints the shipped verdict
(``aggregator.json``, fit on ``paper_test`` runs) on the same runs.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python experiments/same_page_nei/stance_cv.py \
        assets/models/verifier data/models/verifier-samepage      # log: stance_cv.log
    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python experiments/same_page_nei/stance_cv.py --errors
    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python experiments/same_page_nei/stance_cv.py assets/models/verifier \
        --joint data/models/joint-verifier-samepage --aggregator data/models/verifier-shipped-copy
                                                           # same_page_joint.sh's joint verifier, log stance_cv-joint.log

``--errors`` prints the sample read for ``verdict_errors.md``: 30 NOT ENOUGH INFO claims the shipped
verdict calls REFUTES and 30 REFUTES claims it calls NOT ENOUGH INFO, with their top five sentences.

About 9 minutes a verifier on 2 cores the first time, plus 4 minutes for the joint verifier.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fever_core.common.settings import Settings
from fever_core.common.types import LABELS
from fever_core.training.aggregator import ProxyClaim, collect_runs, verifier_fingerprint
from fever_core.verification.aggregator import (
    JOINT_EVIDENCE_K,
    EvidenceView,
    LearnedAggregator,
    claim_features,
    joint_premise,
    mix,
)
from fever_core.verification.nli import NliModel

CACHE = Path("data/experiments")
FEVER_DEV = Path("../shared/data/claims/fever-dev.jsonl")
JOINT = Path("assets/models/joint-verifier")


def fever_dev_claims() -> list[ProxyClaim]:
    """fever-dev's claims in file order, each text once (4,544 of 4,626 lines)."""
    claims, seen = [], set()
    for line in FEVER_DEV.open(encoding="utf-8"):
        record = json.loads(line)
        if record["claim"] not in seen:
            seen.add(record["claim"])
            claims.append(ProxyClaim(record["claim"], record["label"]))
    return claims


def dev_runs(verifier: Path) -> list[dict]:
    """End-to-end runs of every fever-dev claim with ``verifier``'s stances (no joint verifier), cached."""
    from fever_core.pipeline import Checker

    settings = replace(Settings.from_env(), joint_verifier_model="", verifier_model=str(verifier))
    checker = Checker.open("fever-dev", settings, progress=False)
    out = CACHE / f"fever-dev-runs-{verifier_fingerprint(verifier)}.jsonl"
    return collect_runs(checker, fever_dev_claims(), out, progress=True)


def joint_probabilities(
    runs: list[dict], joint: Path = JOINT, k: int = JOINT_EVIDENCE_K, runs_name: str = "fever-dev"
) -> np.ndarray:
    """A joint verifier (default: the shipped one) on each run's top ``k`` sentences, ``(n, 3)``,
    cached under ``runs_name`` (the name of the run set: other runs need another name)."""
    top = "" if k == JOINT_EVIDENCE_K else f"-top{k}"
    path = CACHE / f"{runs_name}-joint-{verifier_fingerprint(joint)}{top}.npy"
    if not path.is_file():
        model = NliModel.load(str(joint))
        path.parent.mkdir(parents=True, exist_ok=True)
        premises = [(joint_premise([e["text"] for e in r["evidence"]], k), r["claim"]) for r in runs]
        np.save(path, model.predict(premises))
    return np.load(path)


def feature_matrix(runs: list[dict]) -> np.ndarray:
    """:func:`claim_features` of each run, ``(n, n_features)``."""
    return np.stack([claim_features(r["claim"], [EvidenceView.from_dict(e) for e in r["evidence"]]) for r in runs])


def accuracy(probabilities: np.ndarray, labels: np.ndarray) -> float:
    return float((probabilities.argmax(axis=1) == labels).mean())


def print_error_sample(n: int = 30, seed: int = 7) -> None:
    """The shipped verdict's R/NEI confusions on fever-dev: ``n`` of each, seeded, with top-5 evidence."""
    verifier = Path("assets/models/verifier")
    runs = dev_runs(verifier)
    shipped = LearnedAggregator.load(verifier)
    features = feature_matrix(runs)
    predicted = mix(shipped.probabilities_of(features), joint_probabilities(runs), shipped.joint_weight).argmax(axis=1)
    rng = random.Random(seed)
    for true, wrong in (("NOT ENOUGH INFO", "REFUTES"), ("REFUTES", "NOT ENOUGH INFO")):
        confused = [r for r, p in zip(runs, predicted) if r["label"] == true and LABELS[p] == wrong]
        print(f"===== {true} called {wrong}: {len(confused)} claims")
        for k, run in enumerate(rng.sample(confused, n)):
            print(f"\n{k}. {run['claim']}")
            for evidence in run["evidence"][:5]:
                print(f"   - {evidence['text'][:170]}")


def main(verifiers: list[str], joint_dir: Path = JOINT, aggregator_dir: Path | None = None) -> None:
    """Scores each verifier's stances; ``aggregator_dir`` is where ``aggregator.json`` is read
    (default: the verifier's own directory). Retrieval doesn't depend on the verifier, so every
    verifier's runs hold the same evidence and the joint verifier's outputs are computed once."""
    joint = None
    for name in verifiers:
        verifier = Path(name)
        runs = dev_runs(verifier)
        if joint is None:
            joint = joint_probabilities(runs, joint_dir)
        features = feature_matrix(runs)
        labels = np.array([LABELS.index(r["label"]) for r in runs])
        model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000))
        folds = StratifiedKFold(5, shuffle=True, random_state=0)
        regression = cross_val_predict(model, features, labels, cv=folds, method="predict_proba")
        best, weight = max((accuracy(mix(regression, joint, w), labels), w) for w in np.arange(0, 1.0001, 0.05))
        print(
            f"{name}: {len(runs)} claims; cross-validated regression {accuracy(regression, labels):.3f}, "
            f"mixed with the joint verifier {best:.3f} (w = {weight:.2f})"
        )
        fitted = LearnedAggregator.load(aggregator_dir or verifier)
        if fitted is not None:
            own = fitted.probabilities_of(features)
            print(
                f"  its aggregator.json on the same runs: regression {accuracy(own, labels):.3f}, "
                f"mixed {accuracy(mix(own, joint, fitted.joint_weight), labels):.3f} (w = {fitted.joint_weight:.2f})"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("verifiers", nargs="*", default=["assets/models/verifier"])
    parser.add_argument("--joint", type=Path, default=JOINT, help="joint verifier to mix in (default: the shipped one)")
    parser.add_argument(
        "--aggregator",
        type=Path,
        default=None,
        help="directory of the aggregator.json to score (default: each verifier's own)",
    )
    parser.add_argument("--errors", action="store_true", help="print the error sample of verdict_errors.md instead")
    args = parser.parse_args()
    if args.errors:
        print_error_sample()
    else:
        main(args.verifiers, args.joint, args.aggregator)
