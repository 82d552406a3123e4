"""Label accuracy on fever-dev's two-page claims from a predictions file, by `evaluate`'s rule (every gold group
spans two pages or more): `PYTHONPATH=. python benchmarks/yardsticks/two_page_accuracy.py CLAIMS PREDICTIONS`.
For reports made before `evaluate` reported it (the shipped models' baseline, README.md beside this file)."""

from __future__ import annotations

import json
import sys

from fever_core.common.formats import load_claims
from fever_core.common.types import NEI
from fever_core.evaluation.scorer import gold_groups


def main(claims_file: str, predictions_file: str) -> dict:
    predictions = {}
    with open(predictions_file, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            predictions[record["id"]] = record
    n = right = 0
    for claim in load_claims(claims_file):
        if claim.label == NEI:
            continue
        groups = [g for g in gold_groups(claim.evidence) if g and all(p[0] is not None for p in g)]
        if groups and all(len({p[0] for p in g}) > 1 for g in groups):
            n += 1
            right += predictions[claim.id]["predicted_label"] == claim.label
    return {"n": n, "label_accuracy": right / n if n else 0.0}


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:3])))
