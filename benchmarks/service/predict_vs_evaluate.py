"""The FEVER score of the service's /predict against ``evaluate``'s on the same claims.

Starts the service on the corpus, posts the claims to /predict in requests of ``--per-request`` instances, scores the
predictions with the project's FEVER scorer, then checks the same claims in this process with ``evaluate`` and
compares: the five official numbers, and claim by claim the label and the evidence.

    .venv/bin/python benchmarks/service/predict_vs_evaluate.py --corpus fever-dev --sample 200 \\
        --report benchmarks/service/predict-vs-evaluate-fever-dev.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import httpx
from server import ROOT, free_port, start_server, stop_server

sys.path.insert(0, str(ROOT))

from fever_core.common.device import limit_cpu_threads
from fever_core.common.formats import load_claims
from fever_core.common.settings import SHARED_DATA_DIR, Settings
from fever_core.evaluation.run import evaluate
from fever_core.evaluation.scorer import fever_score
from fever_core.pipeline import Checker


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="fever-dev")
    parser.add_argument("--claims", default=str(SHARED_DATA_DIR / "claims" / "fever-dev.jsonl"))
    parser.add_argument("--sample", type=int, default=200, help="a random sample of N claims (seed 0)")
    parser.add_argument("--per-request", type=int, default=50, help="instances per /predict request")
    parser.add_argument("--report", help="write the comparison here (json)")
    args = parser.parse_args()

    claims = load_claims(args.claims, sample=args.sample, seed=0)
    gold = [claim.to_fever() for claim in claims]
    port = free_port()
    server = start_server(args.corpus, port)
    started = time.perf_counter()
    try:
        predictions = []
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as http:
            for start in range(0, len(claims), args.per_request):
                chunk = claims[start : start + args.per_request]
                response = http.post("/predict", json={"instances": [{"id": c.id, "claim": c.claim} for c in chunk]})
                response.raise_for_status()
                predictions += response.json()["data"]["predictions"]
    finally:
        stop_server(server)
    served_s = time.perf_counter() - started
    served = fever_score(predictions, gold)

    settings = Settings.from_env()
    limit_cpu_threads(settings.app_cpu_threads)  # as the server runs
    checker = Checker.open(args.corpus, settings, progress=False)
    rows: list[dict] = []
    started = time.perf_counter()
    evaluated = evaluate(checker, claims, args.claims, progress=False, rows=rows).scores
    evaluate_s = time.perf_counter() - started

    differing = [
        {
            "id": row["id"],
            "served": [p["predicted_label"], p["predicted_evidence"]],
            "evaluate": [row["predicted_label"], row["predicted_evidence"]],
        }
        for p, row in zip(predictions, rows)
        if p["predicted_label"] != row["predicted_label"]
        or [list(e) for e in p["predicted_evidence"]] != [list(e) for e in row["predicted_evidence"]]
    ]
    report = {
        "corpus": args.corpus,
        "claims_file": os.path.relpath(args.claims, ROOT),
        "n_claims": len(claims),
        "sample_seed": 0,
        "predict": {**served.to_dict(), "seconds": round(served_s, 1)},
        "evaluate": {**evaluated.to_dict(), "seconds": round(evaluate_s, 1)},
        "scores_equal": served == evaluated,
        "claims_differing": differing,
    }
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0 if report["scores_equal"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
