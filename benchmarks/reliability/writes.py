"""Probes 2 and 3: annotations saved by child processes (:mod:`benchmarks.reliability.saver`) that are killed with
SIGKILL mid-save, or that write to one database at the same time. A save the child reported as returned must be in
the database when it is opened again, and the database must pass SQLite's ``integrity_check``."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.reliability.common import PROJECT_ROOT, Row
from fever_core.workbench.annotation import AnnotationStore

READY_TIMEOUT_S = 60.0


@dataclass
class _Child:
    process: subprocess.Popen
    log: Path

    def lines(self) -> list[str]:
        """The complete lines it printed so far (a line cut short by a kill is left out)."""
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return text.split("\n")[:-1]

    def saved(self) -> set[int]:
        return {int(line.split()[1]) for line in self.lines() if line.startswith("saved ")}

    def errors(self) -> list[str]:
        return [line[len("error ") :] for line in self.lines() if line.startswith("error ")]


def _start(db: Path, annotator: str, seconds: float) -> _Child:
    """A saver child, its output going to a file beside ``db`` (a file, not a pipe: a kill loses nothing of it and a
    busy child never blocks on it). Returns once it printed ``ready``."""
    log = db.with_name(f"{annotator}.log")
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.reliability.saver", str(db), annotator, str(seconds)],
            cwd=PROJECT_ROOT,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
    child = _Child(process, log)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while "ready" not in child.lines():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"The saver child did not start (exit code {process.poll()}).")
        time.sleep(0.01)
    return child


def _reopen(db: Path) -> tuple[set[int], str]:
    """The annotation ids in ``db`` as :class:`AnnotationStore` opens it, and SQLite's ``integrity_check`` verdict
    (``"ok"``, or the problems; an error opening it counts as one)."""
    try:
        store = AnnotationStore(db)
        present = {a.annotation_id for a in store.annotations()}
        with sqlite3.connect(db) as conn:
            integrity = "; ".join(row[0] for row in conn.execute("PRAGMA integrity_check"))
        return present, integrity
    except Exception as exc:  # noqa: BLE001 - a database that does not open is what the probe reports
        return set(), f"{type(exc).__name__}: {exc}"


@dataclass
class KillResult:
    """Savers killed with SIGKILL at a random moment, the database reopened after each.

    Attributes:
        trials: kills.
        committed: saves the children reported as returned, over all trials.
        lost: of those, the most missing at any reopening of the database (must be 0).
        damaged_opens: reopenings where the database did not open or failed ``integrity_check`` (must be 0).
        integrity: the last ``integrity_check`` verdict.
        max_delay_s: the kill came up to this many seconds after the child was ready.
    """

    trials: int
    committed: int
    lost: int
    damaged_opens: int
    integrity: str
    max_delay_s: float

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.damaged_opens == 0

    def rows(self) -> list[Row]:
        happened = "ok" if self.ok else f"FAIL: {self.lost} committed writes lost, {self.damaged_opens} bad opens"
        figures = (
            f"{self.trials} kills: {self.committed} saves committed, {self.lost} lost; reopened cleanly "
            f"{self.trials - self.damaged_opens}/{self.trials} (integrity_check: {self.integrity})"
        )
        return [("2 kill -9 mid-save", happened, figures)]


def kill_mid_save(trials: int, folder: Path, max_delay_s: float = 0.5, seed: int = 0) -> KillResult:
    """Start a saver on ``folder/annotations.sqlite`` ``trials`` times, SIGKILL it after a random 0 to
    ``max_delay_s`` seconds, and count the committed saves missing from the reopened database."""
    rng = random.Random(seed)
    db = Path(folder) / "annotations.sqlite"
    committed: set[int] = set()
    lost = damaged = 0
    integrity = ""
    for trial in range(trials):
        child = _start(db, f"killed-{trial}", float("inf"))
        time.sleep(rng.uniform(0, max_delay_s))
        os.kill(child.process.pid, signal.SIGKILL)
        child.process.wait()
        saved = child.saved()
        present, integrity = _reopen(db)
        committed |= saved
        lost = max(lost, len(committed - present))
        damaged += integrity != "ok"
    return KillResult(trials, len(committed), lost, damaged, integrity, max_delay_s)


@dataclass
class WritersResult:
    """Two saver processes writing to one database at the same time.

    Attributes:
        seconds: how long each wrote.
        saves: saves each reported as returned.
        lock_errors: saves that failed with "database is locked" (SQLite waits up to 30 s for the lock first).
        other_errors: saves that failed otherwise, as ``"Type: message"``.
        lost: reported saves missing from the database afterwards (must be 0).
        integrity: SQLite's ``integrity_check`` verdict afterwards.
    """

    seconds: float
    saves: list[int]
    lock_errors: int
    other_errors: list[str]
    lost: int
    integrity: str

    @property
    def ok(self) -> bool:
        return self.lost == 0 and not self.other_errors and self.integrity == "ok"

    def rows(self) -> list[Row]:
        happened = "ok" if self.ok else f"FAIL: {self.lost} lost, {len(self.other_errors)} errors"
        figures = (
            f"{self.seconds:g} s: {' + '.join(map(str, self.saves))} saves, {self.lock_errors} lock errors, "
            f"{len(self.other_errors)} other errors, {self.lost} lost; integrity_check: {self.integrity}"
        )
        return [("3 two writers", happened, figures)]


def two_writers(seconds: float, folder: Path) -> WritersResult:
    """Two savers on ``folder/shared.sqlite`` for ``seconds`` each, started together."""
    db = Path(folder) / "shared.sqlite"
    AnnotationStore(db)  # created first, so that the children race on saves, not on creation
    children = [_start(db, name, seconds) for name in ("writer-a", "writer-b")]
    for child in children:
        child.process.wait(timeout=seconds + READY_TIMEOUT_S)
    errors = [error for child in children for error in child.errors()]
    locked = [error for error in errors if "locked" in error]
    present, integrity = _reopen(db)
    saved = [child.saved() for child in children]
    return WritersResult(
        seconds,
        [len(s) for s in saved],
        len(locked),
        [e for e in errors if e not in locked],
        len(set().union(*saved) - present),
        integrity,
    )
