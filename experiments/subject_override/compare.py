"""Compares verdict policies offline on the runs of run_checks.py: the learned verdict as shipped, and the
learned verdict overridden by a confident stance of a sentence from the claim's subject page.

    python experiments/subject_override/compare.py RUNS.jsonl [RUNS.jsonl ...]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter

from fever_core.common import NEI, REFUTES, SUPPORTS
from fever_core.evaluation import fever_score


def subject_title(title: str) -> str:
    """A page title without its disambiguation: "Soul Food (film)" -> "Soul Food"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


def names_the_page(claim: str, title: str) -> bool:
    name = subject_title(title)
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", claim, re.IGNORECASE) is not None


def override(row: dict, threshold: float) -> str:
    """The learned verdict, unless first-hop sentences of a page the claim names take a confident stance
    (P(S) or P(R) >= threshold) and all such agree: then theirs."""
    labels = set()
    for e in row["evidence"]:
        stance = e["stance"]
        if e["hop"] != 1 or not e["trusted"] or stance is None or not names_the_page(row["claim"], e["title"]):
            continue
        for label in (SUPPORTS, REFUTES):
            if stance[label] >= threshold:
                labels.add(label)
    return labels.pop() if len(labels) == 1 else row["verdict"]


def score(rows: list[dict], policy) -> dict:
    predicted = [policy(row) for row in rows]
    right = sum(p == row["label"] for p, row in zip(predicted, rows))
    by_label = Counter((row["label"], p) for p, row in zip(predicted, rows))
    predictions = [{**row["prediction"], "predicted_label": p} for p, row in zip(predicted, rows)]
    fever = fever_score(predictions, [row["gold"] for row in rows])
    return {"n": len(rows), "label_accuracy": round(right / len(rows), 3), "fever_score": round(fever.fever_score, 3),
            "right_by_label": {label: by_label[(label, label)] for label in (SUPPORTS, REFUTES, NEI)}}


def main() -> None:
    for path in sys.argv[1:]:
        rows = [json.loads(line) for line in open(path)]
        print(path)
        print("  learned              ", score(rows, lambda row: row["verdict"]))
        for threshold in (0.8, 0.9, 0.95):
            print(f"  subject override {threshold:.2f}", score(rows, lambda row, t=threshold: override(row, t)))


if __name__ == "__main__":
    main()
