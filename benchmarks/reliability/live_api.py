"""Probe 5: a trickling or malformed Wikipedia API. A local HTTP server stands in for ``api.php`` (the only fake in
the suite); the live ``wikipedia`` corpus is pointed at it and one claim is checked. The answer must come within
about the timeout, with a warning, and nothing of a malformed answer should be cached; a gzip bomb must be given up
on before it is unpacked much past the answer limit."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from benchmarks.reliability.common import CURIE_CLAIM, Row, finite_scores
from fever_core.common.settings import Settings
from fever_core.corpus.build import LIVE_CORPUS
from fever_core.corpus.sources.wikipedia_api import MAX_ANSWER_BYTES
from fever_core.pipeline import Checker
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.workspace import open_workspace

NO_RESULTS = json.dumps({"batchcomplete": "", "query": {"searchinfo": {"totalhits": 0}, "search": []}}).encode()
BOMB_MIB = 300
"""What the gzip bomb unpacks to (MiB of zeros, about 300 KB sent)."""


@dataclass(frozen=True)
class ApiCase:
    """What the fake server answers every request with: ``body()`` (made when the case runs), sent with
    ``content_type`` and, when set, ``content_encoding``."""

    content_type: str
    body: Callable[[], bytes]
    content_encoding: str = ""


CASES = {
    "trickle, 1 byte/s": ApiCase("application/json", lambda: NO_RESULTS),
    "answers {}": ApiCase("application/json", lambda: b"{}"),
    "answers non-JSON": ApiCase("text/html", lambda: b"<html><body>502 Bad Gateway</body></html>"),
    'answers {"batchcomplete": "", "query": null}': ApiCase(
        "application/json", lambda: b'{"batchcomplete": "", "query": null}'
    ),
    "answers JSON nested 200,000 deep": ApiCase("application/json", lambda: b"[" * 200_000 + b"]" * 200_000),
    f"answers a gzip bomb ({BOMB_MIB} MiB unpacked)": ApiCase("application/json", lambda: gzip_bomb(BOMB_MIB), "gzip"),
}
"""Each case's name and what the server answers with."""
TRICKLE = "trickle, 1 byte/s"
BOMB = f"answers a gzip bomb ({BOMB_MIB} MiB unpacked)"
MARGIN_S = 5.0
"""Seconds beyond the timeout a trickled answer may take before the probe calls it unbounded."""
MEMORY_MARGIN = 16 << 20
"""Bytes beyond :data:`MAX_ANSWER_BYTES` the bomb's check may hold at its peak (Python's allocations, as traced)
before the probe calls it unbounded."""


@contextmanager
def fake_api(case: ApiCase, trickle: bool) -> Iterator[str]:
    """A local ``api.php`` answering every GET as ``case`` says, one byte per second if ``trickle``; yields its
    address. The trickling stops when the server is shut down."""
    stopping = threading.Event()
    body = case.body()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", case.content_type)
            if case.content_encoding:
                self.send_header("Content-Encoding", case.content_encoding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                if not trickle:
                    self.wfile.write(body)
                    return
                for byte in body:
                    if stopping.wait(1.0):
                        return
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):  # the client gave up on the answer
                pass

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/w/api.php"
    finally:
        stopping.set()
        server.shutdown()
        server.server_close()


@dataclass
class ApiOutcome:
    """One check of a claim on the live corpus against one kind of server.

    Attributes:
        case: the server's behaviour.
        seconds: wall-clock seconds of :meth:`Checker.check` (the answer, or the error).
        fetch_s: of those, the seconds the check spent fetching (its ``fetch`` timing; ``None`` when it raised).
        label: the verdict, or ``None`` when the check raised.
        warnings: the result's warnings (or the error, as ``"Type: message"``).
        cached: pages and remembered lookups (searches, titles) the live cache held afterwards.
        non_finite: whether the verdict rested on a non-finite score.
        peak_mib: for the gzip bomb, the most memory Python's allocations held during the check (MiB, traced);
            ``None`` for the other cases.
    """

    case: str
    seconds: float
    fetch_s: float | None
    label: str | None
    warnings: list[str]
    cached: int
    non_finite: bool
    peak_mib: float | None = None


@dataclass
class ApiResult:
    """Probe 5: one outcome per case of :data:`CASES`, with the timeout the live corpus was given."""

    timeout_s: float
    outcomes: list[ApiOutcome]

    @property
    def ok(self) -> bool:
        return (
            all(o.label is not None and not o.non_finite and o.cached == 0 for o in self.outcomes)
            and all(o.seconds <= self.timeout_s + MARGIN_S for o in self.outcomes if o.case == TRICKLE)
            and all(
                o.peak_mib is not None and o.peak_mib * 2**20 <= MAX_ANSWER_BYTES + MEMORY_MARGIN
                for o in self.outcomes
                if o.case == BOMB
            )
        )

    def rows(self) -> list[Row]:
        rows = []
        for o in self.outcomes:
            happened = f"verdict {o.label}" if o.label else "ERROR"
            said = f"; warning: {o.warnings[0].split(' when ')[0][:60]}" if o.warnings else "; no warning"
            reason = re.search(r" \(([^()]*)\): check that", o.warnings[0]) if o.warnings else None
            said += f" ({reason.group(1)[:60]})" if reason else ""
            fetch = f", {o.fetch_s:.1f} s fetching" if o.fetch_s is not None else ""
            peak = f", peak {o.peak_mib:.0f} MiB" if o.peak_mib is not None else ""
            rows.append(
                (
                    f"5 Wikipedia API: {o.case}",
                    happened,
                    f"{o.seconds:.1f} s{fetch}{peak} (timeout {self.timeout_s:g} s); {o.cached} cached{said}",
                )
            )
        return rows


def _cached(checker: Checker) -> int:
    conn = checker.workspace.store.connection
    pages = conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0]
    return pages + conn.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'wikipedia.%'").fetchone()[0]


def run(
    verifier: ClaimVerifier, template: Settings, workdir: Path, timeout_s: float = 3.0, claim: str = CURIE_CLAIM
) -> ApiResult:
    """For each case of :data:`CASES`, a fresh live corpus in a data folder under ``workdir`` (``template``'s
    settings otherwise) pointed at the fake server, and one check of ``claim`` with ``verifier``."""
    outcomes = []
    for number, (case, answer) in enumerate(CASES.items()):
        with fake_api(answer, trickle=case == TRICKLE) as url:
            settings = dataclasses.replace(
                template,
                data_dir=Path(workdir) / f"live-{number}",
                wikipedia_api_url=url,
                wikipedia_timeout_s=timeout_s,
            )
            checker = Checker(open_workspace(LIVE_CORPUS, settings, progress=False), verifier)
            if case == BOMB:
                tracemalloc.start()
            started = time.perf_counter()
            try:
                result = checker.check(claim)
                label, warnings, fetch_s = result.verdict.label, result.warnings, result.timings.get("fetch")
                non_finite = not finite_scores(result)
            except Exception as exc:  # noqa: BLE001 - reported: the check should answer with a warning instead
                label, warnings, fetch_s, non_finite = None, [f"{type(exc).__name__}: {exc}"], None, False
            seconds = time.perf_counter() - started
            peak_mib = None
            if case == BOMB:
                peak_mib = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
                tracemalloc.stop()
        outcomes.append(
            ApiOutcome(case, round(seconds, 2), fetch_s, label, warnings, _cached(checker), non_finite, peak_mib)
        )
    return ApiResult(timeout_s, outcomes)


def gzip_bomb(mib: int) -> bytes:
    """Gzip of ``mib`` MiB of zeros: about 1 KB for each MiB it unpacks to."""
    pack = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(1 << 20)
    return b"".join(pack.compress(zeros) for _ in range(mib)) + pack.flush()
