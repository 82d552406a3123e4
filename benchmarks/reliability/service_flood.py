"""Probe 8: the HTTP service under a flood of half-open connections, and clients that give up on their claims.

``connections`` connections each send half a request's headers and hang; meanwhile ``GET /health`` and a normal
``POST /check`` must each answer, in JSON, within ``WITHIN_S``. Then ``abandoned`` clients each post a claim to
``/check`` and close their connection: their claims must be dropped unchecked (the server's own counters say how
many it checked), and the next real ``/check`` must be answered (after the batch under way). Only 127.0.0.1 is ever
contacted.

:func:`run` serves the suite's checker in this process (:func:`fever_core.service.server.make_server`, the server
``serve`` runs); ``benchmarks/service/flood.py`` runs :func:`flood` and :func:`abandon` against a ``serve`` process.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from dataclasses import dataclass

from benchmarks.reliability.common import CURIE_CLAIM, Row
from fever_core.pipeline import Checker
from fever_core.service.app import create_app
from fever_core.service.config import ServiceConfig
from fever_core.service.server import make_server

HOST = "127.0.0.1"
WITHIN_S = 2.0
MAX_CONNECTIONS = 5000
"""The most half-open connections a probe opens (each is a file descriptor here and in the server)."""
HALF_HEADERS = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@dataclass
class Answer:
    """One request's answer: HTTP status (0: none), whether the body was JSON, seconds from connect to answer."""

    status: int
    json: bool
    seconds: float


def ask(port: int, method: str, path: str, body: dict | None = None, timeout_s: float = 60) -> Answer:
    """One request to 127.0.0.1:``port`` on a new connection."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout_s)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        try:
            json.loads(data)
            is_json = True
        except ValueError:
            is_json = False
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
    return {name: float(value) for name, value in
            re.findall(r"^(fever_claims_(?:checked|dropped)_total|fever_queue_claims) (\S+)$", text, re.MULTILINE)}


@dataclass
class FloodFigures:
    """Half-open connections held while ``/health`` and ``/check`` were asked.

    Attributes:
        connections: half-open connections opened (each sent half a request's headers).
        open_s: seconds to open them.
        health, check: the answers meanwhile.
        still_open: how many of the flood the server had not closed when the answers came.
    """

    connections: int
    open_s: float
    health: Answer
    check: Answer
    still_open: int


def flood(port: int, connections: int, claim: str = CURIE_CLAIM) -> FloodFigures:
    """Open ``connections`` (at most :data:`MAX_CONNECTIONS`) half-open connections to 127.0.0.1:``port``, ask
    ``/health`` and ``/check`` while they hang, then close them."""
    count = min(connections, MAX_CONNECTIONS)
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
    return FloodFigures(count, open_s, health, check, still_open)


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
    request = (b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d"
               b"\r\n\r\n%s" % (len(body), body))
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
    return AbandonFigures(len(gone), int(after.get("fever_claims_checked_total", 0) - before.get(
        "fever_claims_checked_total", 0)), int(after.get("fever_claims_dropped_total", 0) - before.get(
            "fever_claims_dropped_total", 0)), next_check, alone_s)


@dataclass
class ServiceFloodResult:
    """Probe 8's figures (see :func:`flood` and :func:`abandon`); ``ok`` when both answers under the flood were
    JSON 200s within :data:`WITHIN_S`, and the abandoned clients' claims were dropped: at most the batch under way
    when they left and the one taken before their departure was seen were checked (and the next request's claim),
    and the next ``/check`` was answered. It waits for the batch under way: its time is a figure, not judged."""

    flood: FloodFigures
    abandoned: AbandonFigures
    max_batch: int

    @property
    def ok(self) -> bool:
        under = [self.flood.health, self.flood.check]
        flood_ok = all(a.status == 200 and a.json and a.seconds <= WITHIN_S for a in under)
        abandon_ok = self.abandoned.checked <= 2 * self.max_batch + 1 and self.abandoned.next_check.status == 200
        return flood_ok and abandon_ok

    def rows(self) -> list[Row]:
        f, a = self.flood, self.abandoned
        return [
            ("8 service under a flood", "ok" if self.ok else "FAIL",
             f"{f.connections} half-open connections (opened in {f.open_s} s, {f.still_open} still open): /health "
             f"{f.health.status} in {f.health.seconds} s, /check {f.check.status} in {f.check.seconds} s"),
            ("", "", f"{a.clients} clients posted /check and left: {a.dropped} claims dropped, {a.checked} checked "
             f"(with the next /check: {a.next_check.status} in {a.next_check.seconds} s, {a.alone_s} s alone)"),
        ]


def run(checker: Checker, corpus: str, connections: int, abandoned: int) -> ServiceFloodResult:
    """Serve ``checker`` on 127.0.0.1 (a free port) in this process with the default limits, and probe it."""
    config = ServiceConfig(api_key="")
    app = create_app(checker.settings, corpus, config, {corpus: checker})
    server = make_server(app, config, HOST, 0, log_config=None)
    thread = threading.Thread(target=server.run, name="probe-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("The probe's server did not start.")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        return ServiceFloodResult(flood(port, connections), abandon(port, abandoned), config.max_batch)
    finally:
        server.should_exit = True
        thread.join(30)
