"""Whether two ``evaluate --predictions`` files predict the same, claim by claim: the label, the evidence and the
probability (to 1e-6). Used to show that a restructuring changed no prediction (issue 35):

    .venv/bin/python benchmarks/yardsticks/compare_predictions.py BEFORE.predictions.jsonl AFTER.predictions.jsonl

Prints one JSON line: the number of claims and how many have the same label, evidence and probability; exits 1
when any differs (the differing ids are printed to stderr).
"""

from __future__ import annotations

import argparse
import json
import sys

PROBABILITY_TOLERANCE = 1e-6


def read_predictions(path: str) -> dict:
    """A predictions file's records by claim id."""
    with open(path, encoding="utf-8") as lines:
        return {record["id"]: record for record in map(json.loads, lines)}


def same_probability(before: float | None, after: float | None) -> bool:
    """Both missing, or both within :data:`PROBABILITY_TOLERANCE`."""
    if before is None or after is None:
        return before is None and after is None
    return abs(before - after) <= PROBABILITY_TOLERANCE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    args = parser.parse_args()
    before, after = read_predictions(args.before), read_predictions(args.after)
    if before.keys() != after.keys():
        print(f"different claims: {len(before)} before, {len(after)} after", file=sys.stderr)
        return 1
    differing = [
        claim_id
        for claim_id, old in before.items()
        if old["predicted_label"] != after[claim_id]["predicted_label"]
        or old["predicted_evidence"] != after[claim_id]["predicted_evidence"]
        or not same_probability(old.get("probability"), after[claim_id].get("probability"))
    ]
    counts = {
        "claims": len(before),
        "same_label": sum(before[i]["predicted_label"] == after[i]["predicted_label"] for i in before),
        "same_evidence": sum(before[i]["predicted_evidence"] == after[i]["predicted_evidence"] for i in before),
        "same_probability": sum(
            same_probability(before[i].get("probability"), after[i].get("probability")) for i in before
        ),
    }
    print(json.dumps(counts))
    if differing:
        print(f"differing claims: {differing[:50]}", file=sys.stderr)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
