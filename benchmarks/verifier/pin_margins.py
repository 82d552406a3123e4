"""How far each label the tests expect of the shipped MPNet verifier is from changing: the pinned pairs of
``tests/regression/test_mpnet_verifier.py`` read with bf16 autocast (CPUs with AVX512-BF16 or AMX) and in fp32 (every
other CPU), each with its label under the verifier's NOT ENOUGH INFO rule and its margin: the least change of one
probability that would change that label (issue 49: a test waited on a verdict at 0.49 that another CPU read above
0.5). A pin whose margin is under ``--min-margin`` in either arithmetic is a test that can fail on another CPU.

    PYTHONPATH=. .venv/bin/python -m benchmarks.verifier.pin_margins [--model DIR] [--min-margin 0.05] \
        [--report benchmarks/verifier/pin-margins.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from fever_core.common.settings import DEFAULT_VERIFIER
from fever_core.common.types import LABELS, NEI
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import VerdictPolicy, decide


def margin(row: np.ndarray, nei_threshold: float | None) -> float:
    """The least change of one probability that changes the label :func:`decide` gives ``row``: under argmax, half
    the gap to the runner-up; under the NEI rule, the distance of P(NOT ENOUGH INFO) from its threshold, and for a
    SUPPORTS or REFUTES label also half the gap between those two."""
    if nei_threshold is None:
        top, second = sorted(row, reverse=True)[:2]
        return float(top - second) / 2
    p_supports, p_refutes, p_nei = (float(row[LABELS.index(label)]) for label in (*LABELS[:2], NEI))
    if p_nei >= nei_threshold:
        return p_nei - nei_threshold
    return min(nei_threshold - p_nei, abs(p_supports - p_refutes) / 2)


def main() -> None:
    from tests.regression.test_mpnet_verifier import ALIBABA, PAIRS, STOCKHOLM

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=DEFAULT_VERIFIER)
    parser.add_argument("--min-margin", type=float, default=0.05)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    pins = [*PAIRS, (*ALIBABA, NEI), (STOCKHOLM, "Oslo is the capital of Norway.", "REFUTES")]
    rule = VerdictPolicy.from_config(args.model).nei_threshold
    model = NliModel.load(args.model, device="cpu")
    rows = []
    readings = {}
    for arithmetic in ("bf16", "fp32"):
        if arithmetic == "bf16" and not model.bf16:
            continue
        model.bf16 = arithmetic == "bf16"
        readings[arithmetic] = model.predict([(premise, claim) for premise, claim, _ in pins])
    for i, (premise, claim, expected) in enumerate(pins):
        row = {"claim": claim, "premise": premise[:60], "expected": expected}
        for arithmetic, probs in readings.items():
            label = LABELS[int(decide(probs[i : i + 1], rule)[0])]
            row[arithmetic] = {
                "label": label,
                "margin": round(margin(probs[i], rule), 3),
                "probabilities": [round(float(p), 3) for p in probs[i]],
            }
        row["thin"] = any(
            r["margin"] < args.min_margin or r["label"] != expected for k, r in row.items() if k in readings
        )
        rows.append(row)
        print(
            f"{'THIN ' if row['thin'] else '     '}{expected:<16}"
            + "  ".join(f"{k} {row[k]['label']:<16} margin {row[k]['margin']:.3f}" for k in readings)
            + f"  {claim}"
        )
    report = {
        "model": args.model,
        "nei_threshold": rule,
        "arithmetics": list(readings),
        "pins": rows,
        "thin": sum(r["thin"] for r in rows),
    }
    print(f"{report['thin']} of {len(rows)} pins thin (margin under {args.min_margin} or another label)")
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
