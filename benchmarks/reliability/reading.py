"""Probe 13: input read within its limit (issue 51). ``check-text`` is run as people run it (a child process of
``python -m fever_core``) on streams that say nothing true of their size: ``/dev/zero`` on stdin, a 200 MB pipe on
stdin, a symbolic link to ``/dev/zero`` named like a text file, and a named pipe fed 200 MB. Each must be refused with
one ``error:`` line (no traceback) once the text's limit is passed, its peak resident memory under
:data:`MAX_GROWTH_MB` more than the same command's at rest (a file with no words, refused after reading nothing
more), within :data:`WITHIN_S`. Before issue 51, ``/dev/zero`` grew to 20 GB and was killed, the pipe was read whole,
and the link and the named pipe passed the size check to end in ``MemoryError``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from benchmarks.reliability.common import PROJECT_ROOT, Row

MAX_GROWTH_MB = 100.0
"""The most a refused stream may raise ``check-text``'s peak resident memory above its peak at rest, in MiB."""
WITHIN_S = 60.0
"""Seconds a refusal may take (the command's start, a few seconds, included)."""
PIPE_BYTES = 200_000_000
"""Bytes the pipes offer (issue 51: 200 MB)."""
TOO_LONG = "more than 1,000,000 bytes"
PEAK_LINE = "peak resident KiB: "
SAYS_ITS_PEAK = f"""
import atexit, re, runpy, sys
def say_peak():  # VmHWM: this program's own peak (a forked child's rusage counts its parent's memory before exec)
    status = open("/proc/self/status").read()
    sys.stderr.write("{PEAK_LINE}" + re.search(r"VmHWM:\\s+(\\d+)", status).group(1) + "\\n")
atexit.register(say_peak)
sys.argv = ["fever_core", *sys.argv[1:]]
runpy.run_module("fever_core", run_name="__main__", alter_sys=True)
"""
"""``python -m fever_core`` that writes its peak resident memory on stderr as it exits."""


@dataclass
class Refusal:
    """How ``check-text`` answered one stream: exit status, its first ``error:`` line, whether a traceback was
    printed, its peak resident memory (MiB) and seconds."""

    case: str
    status: int
    error: str
    traceback: bool
    peak_mb: float
    seconds: float


@dataclass
class ReadingResult:
    """Probe 13's figures: ``check-text``'s peak memory at rest (MiB), and each stream's :class:`Refusal`."""

    rest_peak_mb: float
    refusals: list[Refusal] = field(default_factory=list)

    def refused_in_bounds(self, refusal: Refusal) -> bool:
        """Refused as over the limit, without a traceback, within :data:`WITHIN_S` and :data:`MAX_GROWTH_MB`."""
        return (
            refusal.status != 0
            and TOO_LONG in refusal.error
            and not refusal.traceback
            and refusal.peak_mb - self.rest_peak_mb <= MAX_GROWTH_MB
            and refusal.seconds <= WITHIN_S
        )

    @property
    def ok(self) -> bool:
        return all(self.refused_in_bounds(r) for r in self.refusals)

    def rows(self) -> list[Row]:
        return [
            (
                f"13 check-text reads {r.case}",
                "refused" if self.refused_in_bounds(r) else "FAIL",
                (
                    f"exit {r.status} in {r.seconds:.1f} s, peak {r.peak_mb:.0f} MiB "
                    f"(+{r.peak_mb - self.rest_peak_mb:.0f} over {self.rest_peak_mb:.0f} at rest, at most "
                    f"+{MAX_GROWTH_MB:g}); {'TRACEBACK; ' if r.traceback else ''}{r.error[:90]}"
                ),
            )
            for r in self.refusals
        ]


def check_text(
    case: str, argument: str, stdin: BinaryIO | int | None = None, feed: threading.Thread | None = None
) -> Refusal:
    """Run ``python -m fever_core check-text ARGUMENT`` with ``stdin`` (a file, a pipe's reading end, which is then
    closed here, or nothing) while ``feed``, when given, writes what a pipe holds, and measure it (its own peak
    memory: :data:`SAYS_ITS_PEAK`)."""
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-c", SAYS_ITS_PEAK, "check-text", argument],
        cwd=PROJECT_ROOT,
        stdin=subprocess.DEVNULL if stdin is None else stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if isinstance(stdin, int):
        os.close(stdin)  # the child's alone: when it exits, the writer gets a broken pipe
    if feed is not None:
        feed.start()
    stderr = child.stderr.read().decode("utf-8", "replace")  # until the child exits
    child.stderr.close()
    child.wait()
    if feed is not None:
        feed.join(30)
    lines = stderr.splitlines()
    error = next((line for line in lines if line.startswith("error:")), stderr.strip()[-200:])
    peak_kib = next((int(line.removeprefix(PEAK_LINE)) for line in lines if line.startswith(PEAK_LINE)), 0)
    return Refusal(
        case, child.returncode, error, "Traceback" in stderr, peak_kib / 1024, round(time.monotonic() - started, 2)
    )


def zeros_into(open_stream: Callable[[], BinaryIO]) -> threading.Thread:
    """A thread that writes :data:`PIPE_BYTES` zero bytes into the stream ``open_stream`` opens, stopping when the
    reader has gone."""

    def write() -> None:
        with contextlib.suppress(OSError), open_stream() as stream:
            chunk = bytes(1 << 20)
            for _ in range(PIPE_BYTES // len(chunk)):
                stream.write(chunk)

    return threading.Thread(target=write, daemon=True)


def run(work: Path) -> ReadingResult:
    """Each stream given to ``check-text`` in turn; the link and the named pipe made under ``work``."""
    work.mkdir(parents=True, exist_ok=True)
    empty = work / "empty.txt"
    empty.write_text("")
    result = ReadingResult(check_text("nothing (at rest)", str(empty)).peak_mb)
    with open("/dev/zero", "rb") as zeros:
        result.refusals.append(check_text("/dev/zero on stdin", "-", zeros))
    reader, writer = os.pipe()
    result.refusals.append(
        check_text("a 200 MB pipe on stdin", "-", reader, zeros_into(lambda: os.fdopen(writer, "wb")))
    )
    link = work / "zeros.txt"
    link.symlink_to("/dev/zero")
    result.refusals.append(check_text("a link to /dev/zero", str(link)))
    fifo = work / "pipe.txt"
    os.mkfifo(fifo)
    result.refusals.append(
        check_text("a named pipe of 200 MB", str(fifo), feed=zeros_into(functools.partial(open, fifo, "wb")))
    )
    return result
