"""Batch against Verify, per claim (issue 49, item 5): the same plain-language claims checked one at a time as Verify
checks them (``Checker.check``), then as the Batch page and ``check-batch`` do (``run_batch``), on the embedded corpus
with the shipped checker, warm.

    PYTHONPATH=. .venv/bin/python -m benchmarks.pipeline.batch_vs_verify [--claims 50] \
        [--report benchmarks/pipeline/batch-vs-verify.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from fever_core.common.formats import load_claims
from fever_core.evaluation import run_batch
from fever_core.pipeline import Checker

PLAIN = Path("benchmarks/embedded/plain-claims.jsonl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=50)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    claims = load_claims(PLAIN, args.claims)
    checker = Checker.open("embedded", progress=False)
    checker.check(claims[0].claim)  # warm
    verify = []
    for claim in claims:
        started = time.perf_counter()
        checker.check(claim.claim)
        verify.append(time.perf_counter() - started)
    report = run_batch(checker, claims)
    batch_per_claim = report.seconds / len(claims)
    out = {
        "claims": len(claims),
        "verify_mean_s": round(statistics.mean(verify), 3),
        "verify_p50_s": round(statistics.median(verify), 3),
        "batch_per_claim_s": round(batch_per_claim, 3),
        "batch_claims_per_s": round(len(claims) / report.seconds, 2),
    }
    print(json.dumps(out))
    if args.report:
        args.report.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
