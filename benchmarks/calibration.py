"""Does the verdict's probability mean what it says? A reliability table from ``evaluate``'s predictions.

    .venv/bin/python -m benchmarks.calibration CLAIMS.jsonl PREDICTIONS.jsonl [...] --report OUT.json

Pairs of (claims file, its predictions file, as ``python -m fever_core evaluate --claims CLAIMS --predictions
PREDICTIONS`` writes them: each line with the verdict's ``probability``). The verdicts are put in bins by their
probability (0.33-0.5, 0.5-0.6, ..., 0.9-1.0); per bin: how many, the mean probability said, and the share right.
A well-calibrated verdict's two columns agree. Also the expected calibration error (the bins' |said - right|,
weighted by their size).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)
"""Bin edges of the verdict's probability (a calibrated probability may be below 1/3)."""


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def reliability(pairs: list[tuple[Path, Path]]) -> dict:
    """Per bin: n, mean probability, share right; and the expected calibration error."""
    said_right: list[tuple[float, bool]] = []
    for claims_file, predictions_file in pairs:
        gold = {c["id"]: c["label"] for c in _read(claims_file)}
        said_right += [
            (p["probability"], p["predicted_label"] == gold[p["id"]])
            for p in _read(predictions_file)
            if p.get("probability") is not None and p["id"] in gold
        ]
    rows = reliability_bins(said_right)
    return {
        "files": [[str(c), str(p)] for c, p in pairs],
        "n": len(said_right),
        "bins": rows,
        "ece": round(_ece(rows, len(said_right)), 4),
    }


def reliability_bins(said_right: list[tuple[float, bool]]) -> list[dict]:
    """Per bin of :data:`BINS` holding a verdict: n, the mean probability said, the share right."""
    rows = []
    for low, high in itertools.pairwise(BINS):
        inside = [(p, ok) for p, ok in said_right if low <= p < high]
        if inside:
            rows.append(
                {
                    "bin": f"{low:.1f}-{min(high, 1.0):.1f}",
                    "n": len(inside),
                    "said": round(sum(p for p, _ in inside) / len(inside), 3),
                    "right": round(sum(ok for _, ok in inside) / len(inside), 3),
                }
            )
    return rows


def expected_calibration_error(said: list[float], right: list[bool]) -> float:
    """The bins' |said - right|, weighted by their size (:func:`reliability_bins`)."""
    return _ece(reliability_bins(list(zip(said, right))), len(said))


def _ece(rows: list[dict], n: int) -> float:
    return sum(r["n"] * abs(r["said"] - r["right"]) for r in rows) / n if n else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibration", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="CLAIMS.jsonl PREDICTIONS.jsonl, one pair or more")
    parser.add_argument("--report", type=Path, required=True)
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give the files in pairs: a claims file, then its predictions file")
    report = reliability(list(zip(args.files[::2], args.files[1::2])))
    print(f"{'probability':12} {'n':>5} {'said':>6} {'right':>6}")
    for row in report["bins"]:
        print(f"{row['bin']:12} {row['n']:5} {row['said']:6.3f} {row['right']:6.3f}")
    print(f"expected calibration error: {report['ece']:.3f} over {report['n']} verdicts")
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
