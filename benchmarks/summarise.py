"""Print a Markdown table of every evaluation report in a folder: python benchmarks/summarise.py DIR."""

from __future__ import annotations

import json
import sys
from pathlib import Path

KEYS = [
    "n_claims",
    "fever_score",
    "label_accuracy",
    "evidence_precision",
    "evidence_recall",
    "evidence_f1",
    "doc_recall_at_1",
    "doc_recall_at_5",
    "doc_recall_at_10",
    "sentence_recall_at_5",
    "latency_p50_s",
    "latency_p95_s",
    "claims_per_s",
]


def main(folder: str) -> None:
    reports = sorted(Path(folder).glob("*.json"))
    rows = [(p.stem, json.loads(p.read_text())) for p in reports]
    claim_rows = [(n, r) for n, r in rows if "fever_score" in r]
    print("| run | " + " | ".join(KEYS) + " | verification_p50_s | multi-page sentence recall@5 (n) |")
    print("|---" * (len(KEYS) + 3) + "|")
    for name, r in claim_rows:
        cells = [f"{r[k]:.3f}" if isinstance(r[k], float) else str(r[k]) for k in KEYS]
        multi = r.get("multi_page", {})
        verification = r.get("stage_latency_p50_s", {}).get("verification")
        cells.append(f"{verification:.3f}" if verification is not None else "-")  # older reports lack it
        print(
            f"| {name} | "
            + " | ".join(cells)
            + f" | {multi.get('sentence_recall_at_5', 0):.3f} ({multi.get('n', 0)}) |"
        )
    for name, r in rows:
        if "accuracy" in r and "fever_score" not in r:
            print(f"\n{name}: accuracy {r['accuracy']:.3f}, macro-F1 {r['macro_f1']:.3f}, {r.get('n', '')} pairs")


if __name__ == "__main__":
    main(sys.argv[1])
