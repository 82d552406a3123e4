"""Starting and stopping a ``python -m fever_core serve`` process for the service benchmarks."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    corpus: str, port: int, extra: list[str] | None = None, ready_within_s: float = 600
) -> subprocess.Popen:
    """Start the service on ``corpus`` at 127.0.0.1:``port`` (its log in a temporary file) and wait for /health."""
    command = [sys.executable, "-m", "fever_core", "serve", "--corpus", corpus, "--port", str(port), *(extra or [])]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    log = tempfile.NamedTemporaryFile("w+", prefix="fever-serve-", suffix=".log", delete=False)  # noqa: SIM115 - the server writes it while it runs
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, text=True)
    deadline = time.monotonic() + ready_within_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped: {Path(log.name).read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    stop_server(server)
    raise SystemExit(f"the server did not get ready in {ready_within_s:g} s; its log: {log.name}")


def stop_server(server: subprocess.Popen) -> None:
    """Stop it as Ctrl-C would (uvicorn finishes what it answers), or kill it after 30 s."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
