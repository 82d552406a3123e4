"""Long jobs run as processes of their own, whose progress any page (or a later page load) can read.

A job is a ``python -m fever_core ...`` command started by :func:`start_job`; it reports to a status file
(:class:`JobStatus`, written atomically by the job with :func:`write_status`) and logs to a file beside it.
Whoever shows it reads the file (:func:`read_status`): a reload, another browser tab or a restarted app sees
the same job. A job that ended without saying so (killed, crashed) reads as failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fever_core.common.jsonl import write_json
from fever_core.common.settings import PROJECT_ROOT

RUNNING, DONE, FAILED = "running", "done", "failed"


@dataclass(frozen=True)
class JobStatus:
    """Where a job is.

    Attributes:
        state: ``running``, ``done`` or ``failed``.
        stage: what it is doing (or did last).
        progress: how far along, in [0, 1].
        message: the error, for a failed job; a summary for a finished one.
        pid: the job's process id.
        started_at / updated_at: Unix seconds.
        result: what a finished job made (job-specific, JSON).
    """

    state: str
    stage: str = ""
    progress: float = 0.0
    message: str = ""
    pid: int = 0
    started_at: float = 0.0
    updated_at: float = 0.0
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.state in (DONE, FAILED)


def write_status(path: Path, status: JobStatus) -> None:
    write_json(path, {**asdict(status), "updated_at": time.time()})


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)  # reaps the job when this process started it
        if waited == pid:
            return False
    except ChildProcessError:
        pass  # not this process's child: ask the system
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_status(path: Path) -> JobStatus | None:
    """The job's status, or None when there has been none (or its file can't be read). A job that says it is
    running but whose process has gone reads as failed, with its log's last line as the message."""
    try:
        status = JobStatus(**json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None
    if status.state == RUNNING and not _alive(status.pid):
        last = (
            [line for line in log_path(path).read_text(errors="replace").splitlines() if line.strip()][-1:]
            if log_path(path).is_file()
            else []
        )
        return JobStatus(
            FAILED,
            status.stage,
            status.progress,
            "The job stopped without finishing" + (f": {last[0]}" if last else "."),
            status.pid,
            status.started_at,
            status.updated_at,
        )
    return status


def log_path(status_path: Path) -> Path:
    return Path(status_path).with_suffix(".log")


def start_job(args: list[str], status_path: Path, env: dict[str, str] | None = None) -> JobStatus:
    """Start ``python -m fever_core ARGS --status STATUS_PATH`` as a process of its own (it outlives the caller's
    page and session), logging to ``status_path``'s ``.log``; returns its first status.

    Raises:
        RuntimeError: when a job with this status file is still running.
    """
    status_path = Path(status_path)
    current = read_status(status_path)
    if current is not None and current.state == RUNNING:
        raise RuntimeError(f"A job is already running (since {time.ctime(current.started_at)}): wait for it.")
    status_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path(status_path).open("w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "fever_core", *args, "--status", str(status_path)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=PROJECT_ROOT,
            env={**os.environ, **(env or {})},
        )
    status = JobStatus(RUNNING, "starting", 0.0, "", process.pid, time.time())
    write_status(status_path, status)
    return status
