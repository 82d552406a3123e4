"""Load benchmark of the HTTP service: N concurrent clients post /check for T seconds, with micro-batching on and
then off (``--max-batch 1``: one claim at a time), on the same machine in one run.

Each mode starts its own server (``python -m fever_core serve``) on the corpus, waits for /health, lets the clients
warm up for a few seconds, measures, reads /metrics, and stops the server. Or, with ``--url``, one mode against a
server already running.

    .venv/bin/python benchmarks/service/load.py --corpus embedded --clients 20 --seconds 60 \\
        --report benchmarks/service/load-embedded.json

Claims: ``assets/claims/hand-claims.jsonl`` on the embedded corpus, else the first 500 of
``../shared/data/claims/fever-dev.jsonl`` (or ``--claims FILE``), posted in turn by every client. Reports per mode:
requests, claims checked per second, latency p50 / p95 / max (seconds, from send to answer), answers by status
(server errors are 5xx other than the overload 503), and the mean batch size from the server's own counters.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import numpy as np
from server import ROOT, free_port, start_server, stop_server

sys.path.insert(0, str(ROOT))

from fever_core.common.formats import load_claims
from fever_core.common.settings import HAND_CLAIMS, SHARED_DATA_DIR

WARM_UP_S = 5.0


def default_claims(corpus: str) -> Path:
    if corpus == "embedded":
        return HAND_CLAIMS
    return SHARED_DATA_DIR / "claims" / "fever-dev.jsonl"


def server_counters(base: str, headers: dict) -> dict[str, float]:
    text = httpx.get(f"{base}/metrics", headers=headers, timeout=10).text
    return {
        name: float(value)
        for name, value in re.findall(r"^(fever_batches_total|fever_claims_checked_total) (\S+)$", text, re.MULTILINE)
    }


def run_clients(base: str, claims: list[str], clients: int, seconds: float, headers: dict) -> dict:
    """``clients`` threads post /check in a loop: ``WARM_UP_S`` unmeasured, then ``seconds`` measured."""
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    lock = threading.Lock()
    start_at = time.monotonic() + WARM_UP_S
    stop_at = start_at + seconds

    def client(number: int) -> None:
        with httpx.Client(base_url=base, headers=headers, timeout=120) as http:
            turn = number
            while (now := time.monotonic()) < stop_at:
                claim = claims[turn % len(claims)]
                turn += clients
                try:
                    status = str(http.post("/check", json={"claim": claim}).status_code)
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                took = time.monotonic() - now
                if now >= start_at:  # sent after the warm-up (and before the end, by the loop)
                    with lock:
                        statuses[status] += 1
                        if status == "200":
                            latencies.append(took)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ok = statuses.get("200", 0)
    server_errors = sum(n for s, n in statuses.items() if not s.isdigit() or (s.startswith("5") and s != "503"))
    return {
        "requests": sum(statuses.values()),
        "claims_per_s": round(ok / seconds, 2),
        "latency_p50_s": round(float(np.percentile(latencies, 50)), 3) if latencies else None,
        "latency_p95_s": round(float(np.percentile(latencies, 95)), 3) if latencies else None,
        "latency_max_s": round(max(latencies), 3) if latencies else None,
        "statuses": dict(statuses),
        "server_errors": server_errors,
        "overloaded_503": statuses.get("503", 0),
    }


def measure(mode: str, base: str, claims: list[str], args: argparse.Namespace, headers: dict) -> dict:
    before = server_counters(base, headers)
    result = run_clients(base, claims, args.clients, args.seconds, headers)
    after = server_counters(base, headers)
    batches = after.get("fever_batches_total", 0) - before.get("fever_batches_total", 0)
    checked = after.get("fever_claims_checked_total", 0) - before.get("fever_claims_checked_total", 0)
    result["mean_batch_size"] = round(checked / batches, 2) if batches else None
    print(f"{mode}: {json.dumps(result)}", file=sys.stderr)
    return {"mode": mode, **result}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument("--claims", help="a FEVER claims file (default: see above)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--modes", default="batched,single", help="batched, single, or both (the default)")
    parser.add_argument("--max-batch", type=int, default=32, help="the batched mode's --max-batch")
    parser.add_argument("--threads", type=int, default=None, help="the server's PyTorch threads (default: its own)")
    parser.add_argument("--url", help="measure a server already running (one mode, named by --modes)")
    parser.add_argument("--report", help="write the results here (json)")
    args = parser.parse_args()

    claims = [c.claim for c in load_claims(args.claims or default_claims(args.corpus), limit=500)]
    headers = {"X-API-Key": os.environ["FEVER_API_KEY"]} if os.environ.get("FEVER_API_KEY") else {}
    modes = args.modes.split(",")
    results = []
    for mode in modes:
        if args.url:
            results.append(measure(mode, args.url.rstrip("/"), claims, args, headers))
            continue
        port = free_port()
        extra = ["--max-batch", str(args.max_batch if mode == "batched" else 1)]
        extra += ["--threads", str(args.threads)] if args.threads is not None else []
        server = start_server(args.corpus, port, extra)
        try:
            results.append(measure(mode, f"http://127.0.0.1:{port}", claims, args, headers))
        finally:
            stop_server(server)
    report = {
        "corpus": args.corpus,
        "claims_file": os.path.relpath(args.claims or default_claims(args.corpus), ROOT),
        "distinct_claims": len(claims),
        "clients": args.clients,
        "seconds": args.seconds,
        "warm_up_s": WARM_UP_S,
        "machine": {"cpus": os.cpu_count(), "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
        "results": results,
    }
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 1 if any(r["server_errors"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
