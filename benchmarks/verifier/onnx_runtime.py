"""The verifier's runtimes side by side (issue 49, item 1): PyTorch fp32 and bf16 autocast, and ONNX Runtime (fp32),
on this machine's CPU. ONNX Runtime's int8 forms: ``experiments/onnx_verifier``.

    PYTHONPATH=. .venv/bin/python -m benchmarks.verifier.onnx_runtime [--claims 100] [--pairs 600] \
        [--runtimes torch-fp32 torch-bf16 onnx] [--report benchmarks/verifier/onnx-runtime.json]

The runtimes loaded side by side in one process, warm, each claim checked by each in turn:

- **claims**: the first ``--claims`` claims of the plain-language yardstick (embedded corpus) and of a seeded sample
  of fever-dev (its corpus; skipped without ``../shared``), checked one at a time as Verify checks them: the
  verification's seconds per claim (p50, p95, from the check's own timings), the accuracy, and the share of claims
  whose verdict label differs from PyTorch fp32's;
- **pairs**: the first ``--pairs`` FEVER-Symmetric pairs (``../shared/data/nli``) read by the verifier alone: the share
  whose argmax label differs from PyTorch fp32's and the mean absolute change of a probability.

``torch-fp32`` runs with ``FEVER_CPU_BF16=0`` (the arithmetic of CPUs without native bf16); ``torch-bf16`` only on a
CPU that has it. ``--avx2`` limits PyTorch's kernels to AVX2 (``ATEN_CPU_CAPABILITY``, ``DNNL_MAX_CPU_ISA``,
``MKL_ENABLE_INSTRUCTIONS``; set before the process starts, so the script re-runs itself with them): the nearest this
machine comes to a CPU without AVX-512 (ONNX Runtime has no such switch: its rows stay this CPU's).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ROOT / "benchmarks" / "embedded" / "plain-claims.jsonl"
FEVER_DEV = ROOT.parent / "shared" / "data" / "claims" / "fever-dev.jsonl"
SYMMETRIC = ROOT.parent / "shared" / "data" / "nli" / "fever-symmetric-dev.jsonl"
AVX2_ONLY = {"ATEN_CPU_CAPABILITY": "avx2", "DNNL_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}


def _claims(path: Path, n: int, seeded: bool) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return random.Random(1).sample(rows, min(n, len(rows))) if seeded else rows[:n]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[int(share * (len(ordered) - 1))], 3)


def _settings(runtime: str):
    from fever_core.common.settings import Settings

    os.environ["FEVER_CPU_BF16"] = "1" if runtime == "torch-bf16" else "0"
    return Settings.from_env(verifier_runtime="torch" if runtime.startswith("torch") else runtime)


def measure(runtimes: list[str], claims: dict[str, tuple[str, list[dict]]], pairs: list[tuple[str, str]]) -> dict:
    """Each runtime's figures: per claim set its verification p50/p95 (s), accuracy and labels; the pairs' readings.
    The runtimes take each claim in turn (loaded side by side), so a change of the machine's load falls on all."""
    from fever_core.pipeline import Checker
    from fever_core.verification.claim_verifier import ClaimVerifier
    from fever_core.workspace import open_workspace

    verifications = {runtime: ClaimVerifier.load(_settings(runtime)) for runtime in runtimes}
    rows: dict = {
        runtime: {"runtime": v.verifier.runtime, "bf16": v.verifier.bf16, "sets": {}}
        for runtime, v in verifications.items()
    }
    for name, (corpus, items) in claims.items():
        workspace = open_workspace(corpus, _settings("torch-fp32"), progress=False)
        checkers = {runtime: Checker(workspace, v) for runtime, v in verifications.items()}
        for checker in checkers.values():
            checker.check(items[0]["claim"])  # warm
        results: dict[str, list] = {runtime: [] for runtime in runtimes}
        for item in items:
            for runtime, checker in checkers.items():
                results[runtime].append(checker.check(item["claim"]))
        for runtime in runtimes:
            seconds = [result.timings["verification"] for result in results[runtime]]
            labels = [result.verdict.label for result in results[runtime]]
            right = sum(label == item["label"] for label, item in zip(labels, items))
            rows[runtime]["sets"][name] = {
                "claims": len(items),
                "verification_p50_s": round(statistics.median(seconds), 3),
                "verification_p95_s": _percentile(seconds, 0.95),
                "accuracy": round(right / len(items), 3),
                "labels": labels,
            }
            print(runtime, name, {k: v for k, v in rows[runtime]["sets"][name].items() if k != "labels"}, flush=True)
    for runtime, verification in verifications.items():
        if pairs:
            rows[runtime]["pair_probabilities"] = verification.verifier.predict(pairs).tolist()
    return rows


def compare(rows: dict[str, dict], reference: str) -> dict:
    """Each runtime against ``reference``: the share of claims per set and of pairs whose label changed."""
    import numpy as np

    base = rows[reference]
    for row in rows.values():
        for name, figures in row["sets"].items():
            before = base["sets"][name]["labels"]
            figures["label_changed_share"] = round(
                sum(a != b for a, b in zip(figures["labels"], before)) / len(before), 4
            )
        if "pair_probabilities" in row:
            now, then = np.array(row["pair_probabilities"]), np.array(base["pair_probabilities"])
            row["pairs"] = {
                "pairs": len(now),
                "label_changed_share": round(float((now.argmax(1) != then.argmax(1)).mean()), 4),
                "mean_abs_change": round(float(np.abs(now - then).mean()), 5),
            }
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=100, help="claims a set, checked one at a time")
    parser.add_argument("--pairs", type=int, default=600, help="FEVER-Symmetric pairs (0: none)")
    parser.add_argument("--runtimes", nargs="+", default=["torch-fp32", "torch-bf16", "onnx"])
    parser.add_argument("--avx2", action="store_true", help="PyTorch's kernels limited to AVX2")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    if args.avx2 and any(os.environ.get(k) != v for k, v in AVX2_ONLY.items()):
        sys.exit(
            subprocess.call(
                [sys.executable, "-m", "benchmarks.verifier.onnx_runtime", *sys.argv[1:]],
                env={**os.environ, **AVX2_ONLY},
            )
        )
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from fever_core.common.device import cpu_supports_bf16

    has_bf16 = os.environ.get("FEVER_CPU_BF16") is None and cpu_supports_bf16()
    runtimes = [r for r in args.runtimes if r != "torch-bf16" or has_bf16]
    claims = {"plain": ("embedded", _claims(PLAIN, args.claims, seeded=False))}
    if FEVER_DEV.exists():
        claims["fever-dev"] = ("fever-dev", _claims(FEVER_DEV, args.claims, seeded=True))
    pairs = []
    if SYMMETRIC.exists() and args.pairs:
        pairs = [(r["premise"], r["hypothesis"]) for r in _claims(SYMMETRIC, args.pairs, seeded=False)]
    rows = compare(measure(runtimes, claims, pairs), runtimes[0])
    report = {
        "cpu_avx2_only": args.avx2,
        "cpu_has_bf16": has_bf16,
        "cpu_threads": __import__("torch").get_num_threads(),
        "runtimes": {name: {k: v for k, v in row.items() if k != "pair_probabilities"} for name, row in rows.items()},
    }
    for row in report["runtimes"].values():
        for figures in row["sets"].values():
            figures.pop("labels")
    print(json.dumps(report, indent=1))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
