"""The verifier alone on pairs labelled by hand, blind (issue 52): the reader probe set and the plain-language pairs.

    .venv/bin/python -m benchmarks.reader_pairs FILE... [--verifier DIR ...] --report OUT.json

Each FILE is a pair file whose lines carry ``kind`` (``benchmarks/reader_probe/probe-pairs.jsonl``,
``benchmarks/recipes/plain-pairs/plain-pairs-heldout.jsonl``). Every verifier reads every pair as the checker
formats it (``"Title: sentence"``) and decides by its own rule (``config.json``'s NOT ENOUGH INFO threshold). Per
file and kind, and per gold label: accuracy, opposite-label errors (SUPPORTS for REFUTES or the reverse), and the
share of SUPPORTS / REFUTES pairs read right *and sure* (probability of the gold label at least 0.9, the probe set's
bar). Verifiers are loaded one at a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
SURE = 0.9


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def tally(rows: list[dict], probabilities, predicted: list[str]) -> dict:
    """Per kind and per gold label, and ``all``: n, accuracy, opposite-label share, sure share of S/R pairs."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        for group in ("all", f"kind:{row.get('kind', '?')}", f"label:{row['label']}"):
            groups[group].append(i)
    out = {}
    for group, indices in sorted(groups.items()):
        right = [predicted[i] == rows[i]["label"] for i in indices]
        opposite = [{predicted[i], rows[i]["label"]} == {"SUPPORTS", "REFUTES"} for i in indices]
        decided = [i for i in indices if rows[i]["label"] != "NOT ENOUGH INFO"]
        sure = [
            predicted[i] == rows[i]["label"] and probabilities[i][LABELS.index(rows[i]["label"])] >= SURE
            for i in decided
        ]
        out[group] = {
            "n": len(indices),
            "accuracy": round(sum(right) / len(indices), 4),
            "opposite": round(sum(opposite) / len(indices), 4),
            "sr_sure": round(sum(sure) / len(decided), 4) if decided else None,
        }
    return out


def score(verifier: str, files: list[Path]) -> dict:
    from fever_core.common.types import LABELS as MODEL_LABELS
    from fever_core.verification.nli import NliModel
    from fever_core.verification.policy import VerdictPolicy, decide

    assert tuple(MODEL_LABELS) == LABELS
    model = NliModel.load(verifier, device="cpu")
    threshold = VerdictPolicy.from_config(verifier).nei_threshold
    report = {"verifier": verifier, "nei_threshold": threshold, "files": {}}
    for path in files:
        rows = load(path)
        probabilities = model.predict([(r["premise"], r["hypothesis"]) for r in rows])
        predicted = [LABELS[i] for i in decide(probabilities, threshold)]
        report["files"][path.name] = {
            "table": tally(rows, probabilities.tolist(), predicted),
            "pairs": [
                {
                    "id": r.get("id") or r.get("claim_id"),
                    "gold": r["label"],
                    "predicted": p,
                    "probabilities": [round(x, 4) for x in probs],
                }
                for r, p, probs in zip(rows, predicted, probabilities.tolist())
            ],
        }
    return report


def print_table(reports: list[dict]) -> None:
    for name in reports[0]["files"]:
        print(f"\n{name}  (accuracy / opposite / S-R right and sure >= {SURE})")
        groups = reports[0]["files"][name]["table"]
        print(f"  {'group':34}" + "".join(f"{Path(r['verifier']).name[-22:]:>26}" for r in reports))
        for group, row in groups.items():
            cells = []
            for report in reports:
                cell = report["files"][name]["table"][group]
                sure = "  -  " if cell["sr_sure"] is None else f"{cell['sr_sure']:.3f}"
                cells.append(f"{cell['accuracy']:.3f} / {cell['opposite']:.3f} / {sure}")
            print(f"  {group[:28]:28} n={row['n']:4}" + "".join(f"{c:>26}" for c in cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reader_pairs", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--verifier", nargs="+", default=["assets/models/verifier-mpnet"])
    parser.add_argument("--report", type=Path, required=True)
    args = parser.parse_args(argv)
    reports = [score(verifier, args.files) for verifier in args.verifier]
    print_table(reports)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
