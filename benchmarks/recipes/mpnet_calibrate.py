"""The default (MPNet) verifier's verdict policy for the claims people write (issue 42): the sure-sentence rule's
threshold and the calibration of the verdict's probability, written into its ``verdict.json``.

    .venv/bin/python -m benchmarks.recipes.mpnet_calibrate [--verifier assets/models/verifier-mpnet]

1. ``sure_sentence_min`` = 0.9 (:func:`fever_core.verification.deciders.sure_sentence`): chosen on the plain-language
   yardstick and 600 fever-dev claims (``benchmarks/yardsticks/verdict-grounded/README.md``: lower thresholds gain
   on hand-written claims and cost fever-dev more than its noise). The parts' and the bridges' thresholds
   (``claim_parts_min``, ``bridge_min``) are the same 0.9: they shipped reading the sure-sentence rule's.
2. The calibration (:class:`fever_core.verification.calibration.Calibration`): the checker (with that threshold, no
   calibration yet) checks the 240 calibration claims (less those on a reserved page: ``benchmarks/calibration/calibration-claims.jsonl``: written
   blind about training-split pages no yardstick uses) on the embedded corpus; a logistic regression (C = 1) of
   "the verdict is right" on the calibration's features is fit and saved with the claims' count, accuracy and its
   expected calibration error before and after. About 4 minutes on 2 cores.

The folder's ``checksums.json`` is written again for ``verdict.json``.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from pathlib import Path

from benchmarks.calibration import expected_calibration_error

CLAIMS = Path(__file__).resolve().parents[1] / "calibration" / "calibration-claims.jsonl"
SURE_SENTENCE_MIN = 0.9


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verifier", default="assets/models/verifier-mpnet")
    args = parser.parse_args()
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from fever_core.common import Settings
    from fever_core.pipeline import Checker
    from fever_core.training.reserved import reserved_titles
    from fever_core.training.verdict import named_titles
    from fever_core.verification.calibration import FEATURES, Calibration
    from fever_core.verification.learned import VERDICT_FILE, LearnedVerdict
    from fever_core.verification.model_integrity import record_checksums

    folder = Path(args.verifier)
    learned = LearnedVerdict.load(folder)
    learned.sure_sentence_min = learned.claim_parts_min = learned.bridge_min = SURE_SENTENCE_MIN
    learned.save(folder)  # without a calibration: the decisions below are the uncalibrated ones
    checker = Checker.open("embedded", replace(Settings.from_env(), verifier_model=str(folder)))
    claims = [json.loads(line) for line in CLAIMS.read_text(encoding="utf-8").splitlines() if line.strip()]
    reserved = reserved_titles()
    claims = [claim for claim in claims if not named_titles(claim) & reserved]  # no fit on a reserved page
    results = checker.check_many([claim["claim"] for claim in claims])
    verdicts = [result.verdict for result in results]
    features = np.array(
        [
            Calibration.features(v.probabilities[v.label], v.label, v.decided_by != "learned", v.undecided)
            for v in verdicts
        ]
    )
    right = np.array([v.label == claim["label"] for v, claim in zip(verdicts, claims)], dtype=int)
    fit = LogisticRegression(C=1.0).fit(features, right)
    calibration = Calibration(tuple(float(w) for w in fit.coef_[0]), float(fit.intercept_[0]), {})
    said = [v.probabilities[v.label] for v in verdicts]
    fitted = [
        calibration.probability(v.probabilities[v.label], v.label, v.decided_by != "learned", v.undecided)
        for v in verdicts
    ]
    report = {
        "claims": str(CLAIMS.relative_to(Path.cwd())) if CLAIMS.is_relative_to(Path.cwd()) else str(CLAIMS),
        "n": len(claims),
        "accuracy": round(float(right.mean()), 4),
        "features": list(FEATURES),
        "C": 1.0,
        "ece_before": round(expected_calibration_error(said, right.tolist()), 4),
        "ece_after_on_these_claims": round(expected_calibration_error(fitted, right.tolist()), 4),
    }
    calibration = Calibration(calibration.weights, calibration.bias, report)
    path = folder / VERDICT_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["calibration"] = calibration.to_dict()
    path.write_text(json.dumps(data, indent=1) + "\n")
    record_checksums(folder, [VERDICT_FILE])
    print(json.dumps(calibration.to_dict(), indent=1))


if __name__ == "__main__":
    main()
