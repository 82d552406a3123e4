"""The first visitor after the server starts: seconds from starting the app's server to that visitor's first verdict
(issue 48, item 5: the models loaded when the server starts).

Starts the app the way ``make run`` does (``streamlit run SCRIPT``, headless, on a free local port, on a temporary
data folder linking the built corpus, as :mod:`benchmarks.app.concurrent_sessions` does, and the project's encoders,
as a machine that has run the app before has them), waits ``--arrive-after``
seconds from the server's start (0: as soon as ``/_stcore/health`` answers), then opens Verify in a headless Chromium,
checks ``--claim`` and waits for its verdict. Prints one JSON line: seconds from the server's start to a healthy
server, to the visit, to the claim box, to the verdict, and from pressing Check to the verdict.

    .venv/bin/python -m benchmarks.app.first_visit --script app_server.py --arrive-after 0
    .venv/bin/python -m benchmarks.app.first_visit --script app.py --arrive-after 60   # the frame alone, no warm start
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

from benchmarks.app.concurrent_sessions import (
    ROOT,
    check_claim,
    data_folder,
    free_port,
    open_app,
    stop,
    wait_for_health,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", default="app_server.py", help="what `streamlit run` runs (default: make run's)")
    parser.add_argument("--corpus", default="embedded")
    parser.add_argument("--claim", default="Toronto is the capital of Canada.")
    parser.add_argument(
        "--arrive-after",
        type=float,
        default=0.0,
        help="seconds from the server's start to the visit (default 0: once it is healthy)",
    )
    args = parser.parse_args()
    temporary: list = []
    data_dir = data_folder(args.corpus, None, temporary)
    if (ROOT / "data" / "encoders").is_dir():  # exported once per machine, not at each start
        (data_dir / "encoders").symlink_to(ROOT / "data" / "encoders", target_is_directory=True)
    port, server, playwright = free_port(), None, None
    url = f"http://127.0.0.1:{port}"
    with tempfile.NamedTemporaryFile("wb", prefix="first-visit-", suffix=".log", delete=False) as log:
        env = {
            **os.environ,
            "FEVER_CORPUS": args.corpus,
            "FEVER_DATA_DIR": str(data_dir),
            "PYTHONPATH": str(ROOT),
            "HF_HUB_OFFLINE": "1",
        }
        started = time.perf_counter()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / args.script),
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_health(server, url, log.name)
        healthy = time.perf_counter() - started
        time.sleep(max(0.0, args.arrive_after - healthy))  # the visitor comes when the benchmark says
        visit = time.perf_counter() - started
        playwright, browser, page = open_app(url)
        claim_box = time.perf_counter() - started
        check = check_claim(page, args.claim)
        verdict = time.perf_counter() - started
        browser.close()
    finally:
        if playwright is not None:
            playwright.stop()
        stop(server)
    print(
        json.dumps(
            {
                "script": args.script,
                "corpus": args.corpus,
                "claim": args.claim,
                "verdict": check["verdict"],
                "server_start_to_healthy_s": round(healthy, 1),
                "server_start_to_visit_s": round(visit, 1),
                "server_start_to_claim_box_s": round(claim_box, 1),
                "server_start_to_verdict_s": round(verdict, 1),
                "check_to_verdict_s": check["seconds"],
                "cores": os.cpu_count(),
                "load_average_1min": os.getloadavg()[0],
                "machine": platform.machine(),
                "log": log.name,
            }
        )
    )


if __name__ == "__main__":
    main()
