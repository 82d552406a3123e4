"""Where a verdict's label stops being worth showing: accuracy against coverage of the shown labels, and whether
"Read these" names the settling sentence (issue 48, item 2).

    .venv/bin/python -m benchmarks.read_these [--report benchmarks/read_these/report.json]

1. The calibration claims (``benchmarks/calibration/calibration-claims.jsonl``, less those on a reserved page: the
   225 the calibration was fit on) and the plain-language yardstick (``benchmarks/embedded/plain-claims.jsonl``, 360,
   held out: nothing is chosen on it) are checked with the default settings on the embedded corpus (about 25 minutes
   on two busy cores), the checks kept in ``data/benchmarks/read_these/`` and read back on later runs.
2. For each threshold on the verdict's probability (the calibrated one): the *coverage*, the share of claims whose
   label is shown (not undecided, probability at least the threshold), and the *accuracy* of those labels. The
   threshold, :data:`~fever_core.verification.read_these.SHOWN_LABEL_MIN`, is chosen on the calibration claims: the
   lowest at which the shown labels are right at least :data:`TARGET_ACCURACY` of the time.
3. For the claims whose settling sentence (the claims file's ``settling``) was read at all: how often "Read these"
   (:func:`~fever_core.verification.read_these.settling_sentences`) names it first, and among its three, against
   the first ones in the order they were read (judged, bearing on the claim), as a baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from benchmarks.read_these.checks import checked, load_claims
from fever_core.common.settings import PROJECT_ROOT
from fever_core.pipeline import CheckResult
from fever_core.training.reserved import reserved_titles
from fever_core.training.verdict import named_titles
from fever_core.verification.read_these import READ_THESE_K, settling_sentences, withholds_label

HERE = Path(__file__).parent
CALIBRATION_CLAIMS = PROJECT_ROOT / "benchmarks" / "calibration" / "calibration-claims.jsonl"
PLAIN_CLAIMS = PROJECT_ROOT / "benchmarks" / "embedded" / "plain-claims.jsonl"
KEPT = PROJECT_ROOT / "data" / "benchmarks" / "read_these"
THRESHOLDS = (0.0, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
TARGET_ACCURACY = 0.8
"""The shown labels must be right at least this often on the calibration claims (four in five)."""


def shown_labels(claims: list[dict], results: list[CheckResult], threshold: float) -> dict:
    """Coverage (share of claims whose label is shown at ``threshold``) and accuracy of the shown labels."""
    shown = [
        (claim, result)
        for claim, result in zip(claims, results)
        if not withholds_label(result.verdict.probability, result.verdict.undecided, threshold)
    ]
    right = sum(result.verdict.label == claim["label"] for claim, result in shown)
    return {
        "threshold": threshold,
        "shown": len(shown),
        "coverage": round(len(shown) / len(claims), 4),
        "accuracy": round(right / len(shown), 4) if shown else None,
    }


def settling_found(claims: list[dict], results: list[CheckResult]) -> dict:
    """Of the claims whose settling sentence (the claims file's ``settling``) was read: for how many the first one
    and the first :data:`READ_THESE_K` of "Read these" (:func:`settling_sentences`) name it, and the first ones read
    (judged, bearing on the claim, in the order read) as a baseline."""
    read_at_all = 0
    named = {"read_these@1": 0, f"read_these@{READ_THESE_K}": 0, "first_read@1": 0, f"first_read@{READ_THESE_K}": 0}
    for claim, result in zip(claims, results):
        settling = set(claim.get("settling") or [])
        read = {i for i, item in enumerate(result.evidence) if item.titled in settling}
        if not read:
            continue
        read_at_all += 1
        in_order = [i for i, item in enumerate(result.evidence) if item.judged and item.bears_on_claim]
        for k in (1, READ_THESE_K):
            named[f"read_these@{k}"] += bool(read & set(settling_sentences(result.claim, result.evidence, k)))
            named[f"first_read@{k}"] += bool(read & set(in_order[:k]))
    return {"settling_read": read_at_all, **named}


def measure(name: str, claims: list[dict], threshold_chosen: float | None = None) -> dict:
    """The figures of one claims file (see the module's docstring)."""
    results = checked(claims, KEPT / f"{name}.results.jsonl")
    curve = [shown_labels(claims, results, t) for t in THRESHOLDS]
    if threshold_chosen is None:
        threshold_chosen = next(
            row["threshold"] for row in curve if row["accuracy"] is not None and row["accuracy"] >= TARGET_ACCURACY
        )
    return {
        "claims": name,
        "n": len(claims),
        "curve": curve,
        "threshold": threshold_chosen,
        "at_threshold": shown_labels(claims, results, threshold_chosen),
        "read_these": settling_found(claims, results),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.read_these", description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", type=Path, default=HERE / "report.json")
    args = parser.parse_args(argv)
    reserved = reserved_titles()
    calibration = measure(
        "calibration-claims", [claim for claim in load_claims(CALIBRATION_CLAIMS) if not named_titles(claim) & reserved]
    )
    plain = measure("plain-claims", load_claims(PLAIN_CLAIMS), calibration["threshold"])
    for report in (calibration, plain):
        print(f"\n{report['claims']} ({report['n']} claims): shown labels by threshold")
        print(f"{'threshold':>9} {'coverage':>8} {'accuracy':>8}")
        for row in report["curve"]:
            accuracy = "-" if row["accuracy"] is None else f"{row['accuracy']:.3f}"
            print(f"{row['threshold']:9.2f} {row['coverage']:8.3f} {accuracy:>8}")
        at, found = report["at_threshold"], report["read_these"]
        print(f"at {report['threshold']:.2f}: coverage {at['coverage']:.3f}, accuracy {at['accuracy']:.3f}")
        print(
            f"the settling sentence, read for {found['settling_read']} claims, is named first by 'Read these' for "
            f"{found['read_these@1']} (first read: {found['first_read@1']}), among its {READ_THESE_K} for "
            f"{found[f'read_these@{READ_THESE_K}']} (first {READ_THESE_K} read: {found[f'first_read@{READ_THESE_K}']})"
        )
    args.report.write_text(
        json.dumps({"target_accuracy": TARGET_ACCURACY, "calibration": calibration, "plain": plain}, indent=1) + "\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
