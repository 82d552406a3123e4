"""The yardsticks table from the reports of ``benchmarks/yardsticks.sh``, and its change against a baseline.

    python benchmarks/yardsticks.py OUT [BASELINE_OUT]
    python benchmarks/yardsticks.py by-label PREDICTIONS.jsonl OUT/hand-claims-2-by-label.json

The second form scores ``evaluate``'s predictions on ``benchmarks/embedded/hand-claims-2.jsonl`` per gold label
(single-hop claims), two-hop claims apart, into a small report beside the others (``yardsticks.sh`` runs it), so the
table is printed from committed reports while the predictions stay in the data folder.

Each row is a share of claims or pairs right, so its noise is one binomial standard error, sqrt(p(1-p)/n).
With a baseline, a row counts as worse when it drops by more than its noise (the larger of the two); the
candidate ships only if no row is worse and the mean of the rows rises (issue 17).
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


@dataclass(frozen=True)
class Row:
    name: str
    value: float
    n: int

    @property
    def noise(self) -> float:
        return math.sqrt(self.value * (1 - self.value) / self.n) if self.n else 0.0


def _label_accuracy(report: dict, label: str, name: str = "hand claims") -> Row:
    row = report["confusion_matrix"][label]
    n = sum(row.values())
    return Row(f"{name} {label}", row[label] / n if n else 0.0, n)


HAND_CLAIMS_2 = Path(__file__).parent / "embedded" / "hand-claims-2.jsonl"


def hand_claims_2_by_label(predictions: Path, claims_file: Path = HAND_CLAIMS_2) -> dict:
    """``evaluate``'s predictions on the second hand-written set, right per gold label (single-hop claims) and for
    the two-hop claims apart: ``{"predictions": path, "by_label": {group: {"n", "right", "accuracy"}}}``."""
    gold = {r["id"]: r for r in map(json.loads, claims_file.read_text(encoding="utf-8").splitlines()) if r}
    right: dict[str, list[bool]] = {}
    for line in predictions.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        claim = gold.get(record["id"])
        if claim is None:
            continue
        key = "two-hop" if claim.get("kind") == "two-hop" else claim["label"]
        right.setdefault(key, []).append(record["predicted_label"] == claim["label"])
    return {
        "predictions": str(predictions),
        "by_label": {
            key: {"n": len(v), "right": sum(v), "accuracy": round(sum(v) / len(v), 4)}
            for key in (*LABELS, "two-hop")
            if (v := right.get(key))
        },
    }


def rows_of(folder: Path) -> list[Row]:
    """The table's rows from the reports in ``folder`` (a missing report leaves its rows out)."""

    def load(name: str) -> dict | None:
        path = folder / f"{name}.json"
        return json.loads(path.read_text()) if path.is_file() else None

    rows = []
    if (r := load("plain-claims-pairs")) is not None:
        table = r["with_number_check"]
        rows += [
            Row("plain claims, verifier on the settling sentences", table["all"]["accuracy"], table["all"]["n"]),
            Row(
                "plain claims, settling sentences, not opposite-label", 1 - table["all"]["opposite"], table["all"]["n"]
            ),
        ]
        rows += [
            Row(f"plain claims, settling sentences: {kind}", row["accuracy"], row["n"])
            for kind, row in table.items()
            if kind != "all"
        ]
    if (r := load("plain-claims-e2e")) is not None:
        rows += [
            Row(f"plain claims end to end {group}", r["by_label"][group]["accuracy"], r["by_label"][group]["n"])
            for group in (*LABELS, "two-hop")
            if group in r["by_label"]
        ]
    if (r := load("fever-dev")) is not None:
        rows += [
            Row("fever-dev FEVER score", r["fever_score"], r["n_claims"]),
            Row("fever-dev label accuracy", r["label_accuracy"], r["n_claims"]),
            Row(
                "fever-dev two-page claims, label accuracy",
                r["multi_page"].get("label_accuracy", 0.0),
                r["multi_page"]["n"],
            ),
        ]
    if (r := load("fm2-dev")) is not None:
        rows.append(Row("fm2-dev label accuracy", r["label_accuracy"], r["n_claims"]))
    if (r := load("fever-dev-oracle")) is not None:
        rows.append(Row("verifier, gold evidence, fever-dev S/R", r["label_accuracy"], r["n_claims"]))
    for name, title in [
        ("fever-symmetric", "FeverSymmetric dev"),
        ("vitaminc-heldout", "VitaminC held-out pages"),
        ("generated-heldout", "embedded generated pairs, held-out pages"),
    ]:
        if (r := load(name)) is not None:
            rows.append(Row(title, r["accuracy"], r["n"]))  # with the model's NEI rule
    if (r := load("hand-claims")) is not None:
        rows += [_label_accuracy(r, label) for label in LABELS]
    if (r := load("hand-claims-2-by-label")) is not None:
        rows += [
            Row(f"hand claims 2 {group}", row["right"] / row["n"], row["n"]) for group, row in r["by_label"].items()
        ]
    return rows


def latency(folder: Path) -> str:
    """Verification and total p50 latency (seconds per claim) of the end-to-end runs, for the table's footer."""
    parts = []
    for name in ("fever-dev", "hand-claims", "plain-claims"):
        path = folder / f"{name}.json"
        if path.is_file():
            stages = json.loads(path.read_text())["stage_latency_p50_s"]
            parts.append(f"{name}: verification p50 {stages['verification']:.3f} s, total p50 {stages['total']:.3f} s")
    return "; ".join(parts)


def table(rows: list[Row], baseline: list[Row] | None = None) -> str:
    lines = ["| yardstick | value | n | ± noise |" + (" baseline | change | verdict |" if baseline else "")]
    lines.append("|---|---|---|---|" + ("---|---|---|" if baseline else ""))
    before = {r.name: r for r in baseline or []}
    worse = []
    for row in rows:
        cells = f"| {row.name} | {row.value:.3f} | {row.n} | {row.noise:.3f} |"
        if baseline is not None and row.name in before:
            old = before[row.name]
            change = row.value - old.value
            verdict = (
                "worse"
                if change < -max(row.noise, old.noise)
                else ("better" if change > max(row.noise, old.noise) else "same")
            )
            worse += [row.name] if verdict == "worse" else []
            cells += f" {old.value:.3f} | {change:+.3f} | {verdict} |"
        lines.append(cells)
    mean = sum(r.value for r in rows) / len(rows) if rows else 0.0
    lines.append(f"\nmean of the rows: {mean:.3f}")
    if baseline is not None:
        shared = [r for r in rows if r.name in before]
        old_mean = sum(before[r.name].value for r in shared) / len(shared) if shared else 0.0
        new_mean = sum(r.value for r in shared) / len(shared) if shared else 0.0
        ships = not worse and new_mean > old_mean
        lines.append(
            f"mean over the rows both have: {new_mean:.3f} vs {old_mean:.3f} baseline; "
            f"rows worse by more than their noise: {', '.join(worse) or 'none'}; ships: {'yes' if ships else 'no'}"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "by-label":
        if len(argv) != 3:
            print(__doc__)
            return 2
        report = hand_claims_2_by_label(Path(argv[1]))
        Path(argv[2]).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        return 0
    baseline = rows_of(Path(argv[1])) if len(argv) > 1 else None
    print(table(rows_of(Path(argv[0])), baseline))
    if text := latency(Path(argv[0])):
        print(f"latency: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
