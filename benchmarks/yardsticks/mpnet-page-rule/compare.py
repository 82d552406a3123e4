"""Compares verdict policies offline on the runs of run_checks.py: the learned verdict as shipped, and the
learned verdict overridden by a confident stance of a sentence from the claim's subject page.

    PYTHONPATH=. python benchmarks/yardsticks/mpnet-page-rule/compare.py RUNS.jsonl [RUNS.jsonl ...]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from fever_core.common import NEI, REFUTES, SUPPORTS, Stance
from fever_core.evaluation import fever_score
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence
from fever_core.verification import LEARNED, Decision, JudgedSentence
from fever_core.verification.deciders import page_rule


def override(row: dict, threshold: float) -> str:
    """The recorded verdict, unless the page rule at ``threshold`` decides otherwise (the shipped
    :func:`~fever_core.verification.deciders.page_rule`, on the recorded stances)."""
    evidence = [
        JudgedSentence(
            EvidenceSentence(e["page_id"], e["title"], e["line"], e["text"], e["score"], e["hop"]),
            f"{e['title']}: {e['text']}",
            Stance.from_dict(e["stance"]) if e["stance"] else None,
            e["trusted"],
        )
        for e in row["evidence"]
    ]
    recorded = Decision(row["verdict"], row["probabilities"], LEARNED)
    overridden = page_rule(ClaimAnalysis(row["claim"]), evidence, threshold, recorded)
    return overridden.label if overridden else row["verdict"]


def score(rows: list[dict], policy) -> dict:
    predicted = [policy(row) for row in rows]
    right = sum(p == row["label"] for p, row in zip(predicted, rows))
    by_label = Counter((row["label"], p) for p, row in zip(predicted, rows))
    predictions = [{**row["prediction"], "predicted_label": p} for p, row in zip(predicted, rows)]
    fever = fever_score(predictions, [row["gold"] for row in rows])
    return {
        "n": len(rows),
        "label_accuracy": round(right / len(rows), 3),
        "fever_score": round(fever.fever_score, 3),
        "right_by_label": {label: by_label[(label, label)] for label in (SUPPORTS, REFUTES, NEI)},
    }


def main() -> None:
    for path in sys.argv[1:]:
        rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
        print(path)
        print("  learned              ", score(rows, lambda row: row["verdict"]))
        for threshold in (0.8, 0.9, 0.95):
            print(f"  subject override {threshold:.2f}", score(rows, lambda row, t=threshold: override(row, t)))


if __name__ == "__main__":
    main()
