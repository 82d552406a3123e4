"""The service under hostile load, on 127.0.0.1 only: a flood of half-open connections, clients that give up, and
an overload of refused requests, against a ``python -m fever_core serve`` process started for the run.

1. ``--connections`` half-open connections (half-sent headers, at most 5,000): ``/health`` and a normal ``/check``
   must each answer meanwhile: /health within 2 s, /check within 2 s more than the same claim alone just before.
2. ``--abandoned`` clients post ``/check`` and close their connections (at most 1,000): the server's counters say how
   many of their claims it checked anyway, and how long the next real ``/check`` took.
3. ``--overload-clients`` threads post ``/predict`` with the most instances a request may carry, again and again,
   for ``--overload-seconds`` (at most 64 threads, 300 s), ignoring ``Retry-After``: answers by status, and the
   server's resident memory before, right after the queue drained, and ``--settle-seconds`` later.

    .venv/bin/python benchmarks/service/flood.py --corpus embedded --report benchmarks/service/flood-embedded.json

Exit status 1 when ``/health`` or ``/check`` did not answer 200 in JSON in time (as above) under the flood, or a request got a
server error (a 5xx other than the overload 503, or no answer).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from server import ROOT, free_port, start_server, stop_server

sys.path.insert(0, str(ROOT))

from benchmarks.reliability.common import CURIE_CLAIM, rss_mb
from benchmarks.reliability.service_flood import MAX_CONNECTIONS, abandon, flood

MAX_OVERLOAD_CLIENTS = 64
MAX_OVERLOAD_S = 300.0


def queue_claims(base: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=60).text
    return float(re.search(r"^fever_queue_claims (\S+)$", text, re.MULTILINE).group(1))


def overload(base: str, clients: int, seconds: float, instances: int, claim: str) -> dict:
    """``clients`` threads post ``/predict`` with ``instances`` claims for ``seconds``, retrying at once."""
    statuses: Counter[str] = Counter()
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    body = {"instances": [claim] * instances}

    def client() -> None:
        with httpx.Client(base_url=base, timeout=180) as http:
            while time.monotonic() < stop_at:
                try:
                    status = str(http.post("/predict", json=body).status_code)
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                with lock:
                    statuses[status] += 1

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return dict(statuses)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument("--claim", default=CURIE_CLAIM)
    parser.add_argument(
        "--connections",
        type=int,
        default=1000,
        help=f"half-open connections (at most {MAX_CONNECTIONS:,}; default %(default)s)",
    )
    parser.add_argument(
        "--abandoned",
        type=int,
        default=100,
        help="clients that post /check and leave (at most 1,000; default %(default)s)",
    )
    parser.add_argument(
        "--overload-clients",
        type=int,
        default=16,
        help=f"at most {MAX_OVERLOAD_CLIENTS}; 0 skips the overload (default %(default)s)",
    )
    parser.add_argument("--overload-seconds", type=float, default=30.0)
    parser.add_argument("--settle-seconds", type=float, default=30.0)
    parser.add_argument("--report", help="write the figures here (json)")
    args = parser.parse_args()
    connections = min(args.connections, MAX_CONNECTIONS)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # this process holds the flood's client ends
    wanted = connections + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard)
        )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.corpus, port)
    try:
        ready_mb = rss_mb(server.pid)
        flooded = flood(port, connections, args.claim)
        print(f"flood: {flooded}", file=sys.stderr)
        abandoned = abandon(port, args.abandoned, args.claim)
        print(f"abandoned: {abandoned}", file=sys.stderr)
        memory = {"ready_mb": round(ready_mb, 1), "before_overload_mb": round(rss_mb(server.pid), 1)}
        overloaded = None
        if args.overload_clients > 0:
            instances = httpx.get(f"{base}/corpora", timeout=60).json()["limits"]["max_instances"]
            overloaded = overload(
                base,
                min(args.overload_clients, MAX_OVERLOAD_CLIENTS),
                min(args.overload_seconds, MAX_OVERLOAD_S),
                instances,
                args.claim,
            )
            deadline = time.monotonic() + 300
            while queue_claims(base) > 0 and time.monotonic() < deadline:
                time.sleep(1)
            memory["after_overload_mb"] = round(rss_mb(server.pid), 1)
            time.sleep(args.settle_seconds)
            memory["settled_mb"] = round(rss_mb(server.pid), 1)
            print(f"overload: {overloaded}, memory: {memory}", file=sys.stderr)
    finally:
        stop_server(server)

    flood_ok = flooded.ok  # /check judged against the same claim alone, just before the flood
    server_errors = sum(n for s, n in (overloaded or {}).items() if not s.isdigit() or (s[0] == "5" and s != "503"))
    server_errors += abandoned.next_check.status != 200
    report = {
        "corpus": args.corpus,
        "flood": flooded,
        "abandoned": abandoned,
        "overload": {
            "clients": args.overload_clients,
            "seconds": args.overload_seconds,
            "statuses": overloaded,
            "server_errors": server_errors,
        },
        "memory_mib": memory,
        "ok": flood_ok and not server_errors,
        "machine": {"cpus": os.cpu_count(), "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
    }
    text = json.dumps(report, indent=2, default=lambda o: o.__dict__)
    if args.report:
        Path(args.report).write_text(text + "\n")
    print(text)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
