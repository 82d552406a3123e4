"""Probe 8: the HTTP service under a flood of half-open connections, clients that give up on their claims, more
clients than its timeout allows, and bodies it must refuse.

``connections`` connections each send half a request's headers and hang; meanwhile ``GET /health`` must answer, in
JSON, within ``WITHIN_S``, and a normal ``POST /check`` within ``WITHIN_S`` more than the same claim took on the idle
server just before (so a loaded machine's slow claim is not taken for the flood's doing). Then ``abandoned`` clients
each post a claim to ``/check`` and close their connection: their claims must be dropped unchecked (the server's own
counters say how many it checked), and the next real ``/check`` must be answered (after the batch under way). Then
(:func:`goodput`) ``clients`` post a claim each at once to a server whose timeout lets only a few be checked: some
must be answered, the rest refused at once (503 with ``Retry-After``), not all left to time out while their claims
are checked for nobody. Last (:func:`refusals`), bodies in UTF-16 and UTF-32 must get 415 and a ``/predict`` with two
instances of one id 422. Only 127.0.0.1 is ever contacted.

:func:`run` serves the suite's checker in this process (:func:`fever_core.service.server.make_server`, the server
``serve`` runs); ``benchmarks/service/flood.py`` runs :func:`flood` and :func:`abandon` against a ``serve`` process.

One module over 400 lines: probe 8 is one probe, whose four parts ask one served checker and are judged as one result
(:class:`ServiceFloodResult`).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from benchmarks.reliability.common import CURIE_CLAIM, Row
from fever_core.pipeline import Checker
from fever_core.service.app import create_app
from fever_core.service.config import ServiceConfig
from fever_core.service.server import make_server

HOST = "127.0.0.1"
WITHIN_S = 2.0
"""Seconds ``/health`` may take under the flood, and a refusal at most; ``/check`` may take this more than alone."""
GOODPUT_CLAIMS = 4
"""Claims the goodput server's timeout gives time for, at the pace of one claim alone (timed first)."""
MAX_CONNECTIONS = 5000
"""The most half-open connections a probe opens (each is a file descriptor here and in the server)."""
HALF_HEADERS = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@dataclass
class Answer:
    """One request's answer: HTTP status (0: none), whether the body was JSON, seconds from connect to answer."""

    status: int
    json: bool
    seconds: float


def ask(
    port: int,
    method: str,
    path: str,
    body: dict | bytes | None = None,
    timeout_s: float = 60,
    answer: dict | None = None,
) -> Answer:
    """One request to 127.0.0.1:``port`` on a new connection; ``body`` as JSON, or as it is (bytes). ``answer``, when
    given, gets the answer's ``code`` (an error's) and ``retry_after``."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout_s)
    try:
        connection.request(
            method,
            path,
            body=None if body is None else body if isinstance(body, bytes) else json.dumps(body),
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        data = response.read()
        try:
            parsed = json.loads(data)
            is_json = True
        except ValueError:
            parsed, is_json = None, False
        if answer is not None:
            error = parsed.get("data") if isinstance(parsed, dict) and parsed.get("result") == "error" else None
            answer.update(
                code=error.get("code", "") if isinstance(error, dict) else "",
                retry_after=response.getheader("Retry-After"),
            )
        return Answer(response.status, is_json, round(time.monotonic() - started, 3))
    except OSError:
        return Answer(0, False, round(time.monotonic() - started, 3))
    finally:
        connection.close()


def counters(port: int) -> dict[str, float]:
    """The server's claim counters, and the claims waiting, from ``/metrics``."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
    finally:
        connection.close()
    return {
        name: float(value)
        for name, value in re.findall(
            r"^(fever_claims_(?:checked|dropped|stopped)_total|fever_queue_claims) (\S+)$", text, re.MULTILINE
        )
    }


@dataclass
class FloodFigures:
    """Half-open connections held while ``/health`` and ``/check`` were asked.

    Attributes:
        connections: half-open connections opened (each sent half a request's headers).
        open_s: seconds to open them.
        health, check: the answers meanwhile.
        still_open: how many of the flood the server had not closed when the answers came.
        alone_s: seconds the same ``/check`` took on the idle server, just before.
    """

    connections: int
    open_s: float
    health: Answer
    check: Answer
    still_open: int
    alone_s: float

    @property
    def ok(self) -> bool:
        """Both answered in JSON with 200: ``/health`` within :data:`WITHIN_S`, ``/check`` within that more than
        alone."""
        return (
            all(a.status == 200 and a.json for a in (self.health, self.check))
            and self.health.seconds <= WITHIN_S
            and self.check.seconds <= self.alone_s + WITHIN_S
        )


def flood(port: int, connections: int, claim: str = CURIE_CLAIM) -> FloodFigures:
    """Open ``connections`` (at most :data:`MAX_CONNECTIONS`) half-open connections to 127.0.0.1:``port``, ask
    ``/health`` and ``/check`` while they hang, then close them."""
    count = min(connections, MAX_CONNECTIONS)
    alone_s = ask(port, "POST", "/check", {"claim": claim}).seconds
    started = time.monotonic()
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection((HOST, port), timeout=10)
            sock.sendall(HALF_HEADERS)
            held.append(sock)
        open_s = round(time.monotonic() - started, 2)
        health = ask(port, "GET", "/health")
        check = ask(port, "POST", "/check", {"claim": claim})
        still_open = 0
        for sock in held:
            sock.setblocking(False)
            try:
                still_open += sock.recv(1) != b""
            except BlockingIOError:
                still_open += 1
            except OSError:
                pass
    finally:
        for sock in held:
            sock.close()
    return FloodFigures(count, open_s, health, check, still_open, alone_s)


@dataclass
class AbandonFigures:
    """Clients that posted a claim and closed their connection before its answer.

    Attributes:
        clients: how many.
        checked, dropped: the server's counts of claims checked and dropped unchecked meanwhile (the next real
            request's claim included in ``checked``).
        next_check: the answer to a real ``/check`` sent right after them.
        alone_s: seconds the same ``/check`` takes on an idle server (asked first).
    """

    clients: int
    checked: int
    dropped: int
    next_check: Answer
    alone_s: float


def abandon(port: int, clients: int, claim: str = CURIE_CLAIM, linger_s: float = 0.3) -> AbandonFigures:
    """``clients`` (at most 1,000) connections each post ``claim`` to ``/check`` and close ``linger_s`` later (its
    claim queued by then, not yet checked); then a real ``/check``."""
    alone_s = ask(port, "POST", "/check", {"claim": claim}).seconds
    before = counters(port)
    body = json.dumps({"claim": claim}).encode()
    request = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d"
        b"\r\n\r\n%s" % (len(body), body)
    )
    gone: list[socket.socket] = []
    try:
        for _ in range(min(clients, 1000)):
            sock = socket.create_connection((HOST, port), timeout=10)
            sock.sendall(request)
            gone.append(sock)
        time.sleep(linger_s)
    finally:
        for sock in gone:
            sock.close()
    next_check = ask(port, "POST", "/check", {"claim": claim})
    after, deadline = counters(port), time.monotonic() + 120
    while time.monotonic() < deadline:  # let the batch under way when the clients left finish
        time.sleep(1.0)
        settled = after.get("fever_queue_claims") == 0 and counters(port) == after
        if settled:
            break
        after = counters(port)
    return AbandonFigures(
        len(gone),
        int(after.get("fever_claims_checked_total", 0) - before.get("fever_claims_checked_total", 0)),
        int(after.get("fever_claims_dropped_total", 0) - before.get("fever_claims_dropped_total", 0)),
        next_check,
        alone_s,
    )


@dataclass
class GoodputFigures:
    """Clients that each posted a claim at once to a server whose timeout lets only a few be checked.

    Attributes:
        clients: how many.
        timeout_s: the server's timeout (:data:`GOODPUT_CLAIMS` times a claim's seconds alone, and 1 s).
        answered: 200s.
        shed: 503 ``overloaded`` answers; ``shed_max_s`` the slowest of them (seconds), ``retry_after`` whether each
            said when to retry, ``retry_after_s`` the least and the most seconds they said (from the measured queue:
            its claims' cost at the seconds a claim has been taking).
        timed_out: 503 ``timeout`` answers.
        other: any other answer (status: count).
        checked: claims the server checked meanwhile (its counter): more than ``answered`` is work done for nobody.
    """

    clients: int
    timeout_s: float
    answered: int
    shed: int
    shed_max_s: float
    retry_after: bool
    retry_after_s: tuple[int, int]
    timed_out: int
    other: dict[str, int]
    checked: int

    @property
    def ok(self) -> bool:
        """Some answered, the rest (if any) refused at once with a ``Retry-After`` of 1 to 60 s; at most a quarter
        timed out, and nothing else."""
        return (
            self.answered >= 1
            and self.shed_max_s <= WITHIN_S
            and self.retry_after
            and (not self.shed or 1 <= self.retry_after_s[0] <= self.retry_after_s[1] <= 60)
            and self.timed_out <= self.clients // 4
            and not self.other
        )


def goodput(port: int, clients: int, timeout_s: float, claim: str = CURIE_CLAIM) -> GoodputFigures:
    """``clients`` (at most 256) threads each post ``claim`` to ``/check`` at once, to a server with ``timeout_s``."""
    before = counters(port)
    answers: list[tuple[Answer, dict]] = []
    start = threading.Event()

    def client() -> None:
        start.wait()
        said: dict = {}
        answers.append((ask(port, "POST", "/check", {"claim": claim}, timeout_s + 60, said), said))

    threads = [threading.Thread(target=client, daemon=True) for _ in range(min(clients, 256))]
    for thread in threads:
        thread.start()
    start.set()
    for thread in threads:
        thread.join(timeout_s + 120)
    checked = int(counters(port).get("fever_claims_checked_total", 0) - before.get("fever_claims_checked_total", 0))
    shed = [(a, said) for a, said in answers if a.status == 503 and said["code"] == "overloaded"]
    other: dict[str, int] = {}
    for a, said in answers:
        if a.status != 200 and said["code"] not in ("overloaded", "timeout"):
            other[f"{a.status} {said['code']}"] = other.get(f"{a.status} {said['code']}", 0) + 1
    return GoodputFigures(
        len(threads),
        round(timeout_s, 1),
        sum(a.status == 200 for a, _ in answers),
        len(shed),
        max((a.seconds for a, _ in shed), default=0.0),
        all(said["retry_after"] for _, said in shed),
        _least_and_most([int(said["retry_after"]) for _, said in shed if said["retry_after"]]),
        sum(said["code"] == "timeout" for _, said in answers),
        other,
        checked,
    )


def _least_and_most(values: list[int]) -> tuple[int, int]:
    """The least and the most of ``values`` (0, 0 for none)."""
    return (min(values), max(values)) if values else (0, 0)


REFUSED_BODIES = {
    "UTF-16": (b'{"claim": "Oslo is in Norway."}'.decode().encode("utf-16"), "/check", 415),
    "UTF-32": (b'{"claim": "Oslo is in Norway."}'.decode().encode("utf-32"), "/check", 415),
    "two /predict instances with one id": (
        json.dumps({"instances": ["Oslo is in Norway.", {"id": 0, "claim": "Paris is in France."}]}).encode(),
        "/predict",
        422,
    ),
}
"""Bodies the service must refuse, with the endpoint and the status it must answer."""


def refusals(port: int) -> dict[str, int]:
    """The status each of :data:`REFUSED_BODIES` got."""
    return {case: ask(port, "POST", path, body).status for case, (body, path, _) in REFUSED_BODIES.items()}


@dataclass
class ServiceFloodResult:
    """Probe 8's figures (see :func:`flood` and :func:`abandon`); ``ok`` when both answers under the flood were
    JSON 200s within :data:`WITHIN_S`, and the abandoned clients' claims were dropped: at most the batch under way
    when they left and the one taken before their departure was seen were checked (and the next request's claim),
    and the next ``/check`` was answered. It waits for the batch under way: its time is a figure, not judged."""

    flood: FloodFigures
    abandoned: AbandonFigures
    max_batch: int
    goodput: GoodputFigures | None = None
    refused: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        abandon_ok = self.abandoned.checked <= 2 * self.max_batch + 1 and self.abandoned.next_check.status == 200
        refused_ok = all(self.refused.get(case) == status for case, (_, _, status) in REFUSED_BODIES.items())
        return self.flood.ok and abandon_ok and (self.goodput is None or self.goodput.ok) and refused_ok

    def rows(self) -> list[Row]:
        f, a, g = self.flood, self.abandoned, self.goodput
        rows = [
            (
                "8 service under a flood",
                "ok" if self.ok else "FAIL",
                (
                    f"{f.connections} half-open connections (opened in {f.open_s} s, {f.still_open} still open): /health "
                    f"{f.health.status} in {f.health.seconds} s, /check {f.check.status} in {f.check.seconds} s "
                    f"({f.alone_s} s alone, just before)"
                ),
            ),
            (
                "",
                "",
                (
                    f"{a.clients} clients posted /check and left: {a.dropped} claims dropped, {a.checked} checked "
                    f"(with the next /check: {a.next_check.status} in {a.next_check.seconds} s, {a.alone_s} s alone)"
                ),
            ),
        ]
        if g is not None:
            rows.append(
                (
                    "",
                    "",
                    f"{g.clients} clients at once, timeout {g.timeout_s} s: {g.answered} answered, "
                    f"{g.shed} refused at once (slowest {g.shed_max_s} s, Retry-After "
                    f"{'always' if g.retry_after else 'MISSING'}, {g.retry_after_s[0]}-{g.retry_after_s[1]} s), "
                    f"{g.timed_out} timed out"
                    + (f", other {g.other}" if g.other else "")
                    + f"; {g.checked} claims checked",
                )
            )
        rows.append(("", "", "refused: " + ", ".join(f"{case} {status}" for case, status in self.refused.items())))
        return rows


@contextlib.contextmanager
def serving(checker: Checker, corpus: str, config: ServiceConfig) -> Iterator[int]:
    """``checker`` served on 127.0.0.1 (a free port) in this process with ``config``; yields the port."""
    app = create_app(checker.settings, corpus, config, {corpus: checker})
    server = make_server(app, config, HOST, 0, log_config=None)
    thread = threading.Thread(target=server.run, name="probe-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("The probe's server did not start.")
        time.sleep(0.05)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)


def run(checker: Checker, corpus: str, connections: int, abandoned: int, clients: int = 32) -> ServiceFloodResult:
    """Serve ``checker`` with the default limits and probe it; then, for :func:`goodput` (``clients``; 0: not run),
    again with a timeout of :data:`GOODPUT_CLAIMS` claims' time alone."""
    config = ServiceConfig(api_key="")
    with serving(checker, corpus, config) as port:
        flooded, left = flood(port, connections), abandon(port, abandoned)
        refused = refusals(port)
        alone_s = ask(port, "POST", "/check", {"claim": CURIE_CLAIM}).seconds
    result = ServiceFloodResult(flooded, left, config.max_batch, refused=refused)
    if clients:
        timeout_s = max(1.0, GOODPUT_CLAIMS * alone_s)
        with serving(checker, corpus, ServiceConfig(api_key="", timeout_s=timeout_s)) as port:
            for _ in range(3):  # the pace timed, the first (slower) check weighing less after others
                ask(port, "POST", "/check", {"claim": CURIE_CLAIM})
            result.goodput = goodput(port, clients, timeout_s)
    return result
