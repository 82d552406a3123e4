"""The service served for real on 127.0.0.1: half-open and slow connections are timed out or closed to make room,
/health and /check keep answering under a flood of them, and the claims of clients that went away are dropped
unchecked."""

from __future__ import annotations

import http.client
import json
import resource
import socket
import threading
import time

import pytest

from tests.service.conftest import served

JAWS = "Jaws was directed by a man born in Ohio."
HALF_HEADERS = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def ask(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
    """One request on a new connection: status, headers, JSON body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=180)  # a claim is slow beside a training run
    try:
        connection.request(
            method, path, body=None if body is None else json.dumps(body), headers={"Content-Type": "application/json"}
        )
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(response.read())
    finally:
        connection.close()


def connect(port: int, sending: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if sending:
        sock.sendall(sending)
    return sock


def until_closed(sock: socket.socket, within_s: float) -> bytes:
    """What the server sends before it closes the connection (fails if it is still open after ``within_s``)."""
    sock.settimeout(within_s)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    finally:
        sock.close()
    return received


def json_error(answer: bytes) -> tuple[int, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), head
    return int(head.split()[1]), json.loads(body)["data"]


def wait_for(condition, within_s: float = 20) -> None:
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


@pytest.fixture
def files_for_a_flood():
    """Room for 1,200 connections at both ends in this process (the soft limit is often 1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = 4096
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"open files are limited to {hard}; the flood needs {needed}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, needed), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_1200_half_open_connections_leave_health_and_check_answering(checker, files_for_a_flood):
    # uvicorn's limit_concurrency (1,088 here before) counted these and answered every request a plain-text 503
    with served(checker) as (port, _):
        flood = [connect(port, HALF_HEADERS) for _ in range(1200)]
        try:
            started = time.monotonic()
            status, _headers, health = ask(port, "GET", "/health")
            assert status == 200 and health["status"] == "ready"
            assert time.monotonic() - started < 10  # 2 s with /check on an idle machine: benchmarks/service/flood.py
            status, _, checked = ask(port, "POST", "/check", {"claim": JAWS})
            assert status == 200 and checked["claim"] == JAWS
        finally:
            for sock in flood:
                sock.close()


def test_beyond_the_waiting_limit_the_longest_waiting_connection_is_closed(checker):
    with served(checker, max_waiting_connections=50) as (port, _):
        flood = [connect(port, HALF_HEADERS) for _ in range(80)]
        assert ask(port, "GET", "/health")[0] == 200
        assert until_closed(flood[0], 10) == b""  # the oldest made room, without an answer
        newest = flood[-1]
        newest.settimeout(0.3)
        try:
            newest.recv(1)
            raise AssertionError("the newest half-open connection was closed")
        except TimeoutError:
            pass
        for sock in flood:
            sock.close()


def test_headers_must_arrive_within_the_header_timeout_however_slowly_they_drip(checker):
    with served(checker, header_timeout_s=0.5) as (port, _):
        idle = connect(port)
        half = connect(port, HALF_HEADERS)
        drip = connect(port, b"G")
        stop = threading.Event()

        def keep_dripping():
            while not stop.wait(0.1):
                try:
                    drip.sendall(b"E")
                except OSError:
                    return

        dripper = threading.Thread(target=keep_dripping)
        dripper.start()
        try:
            started = time.monotonic()
            status, error = json_error(until_closed(half, 10))
            assert status == 408 and error["code"] == "header_timeout" and "0.5 s" in error["message"]
            assert json_error(until_closed(drip, 10))[0] == 408
            assert until_closed(idle, 10) == b""  # never began a request: closed without an answer
            assert time.monotonic() - started < 10
        finally:
            stop.set()
            dripper.join()
        assert ask(port, "GET", "/health")[0] == 200  # whole requests are not affected


def test_a_request_that_is_not_http_gets_a_json_400(checker):
    with served(checker) as (port, _):
        status, error = json_error(until_closed(connect(port, b"NOT HTTP AT ALL\r\n\r\n"), 10))
        assert status == 400 and error["code"] == "invalid_http"


def test_a_body_shorter_than_its_content_length_gets_408_after_the_body_timeout(checker):
    with served(checker, body_timeout_s=0.5) as (port, _):
        sock = connect(
            port,
            b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"claim": ',
        )
        started = time.monotonic()
        status, error = json_error(until_closed(sock, 10))
        assert status == 408 and error["code"] == "body_timeout" and "Content-Length" in error["message"]
        assert time.monotonic() - started < 10


class CountingChecker:
    """The fixture checker, counting the claims it checks; its first batch waits until released."""

    def __init__(self, checker):
        self.checker = checker
        self.workspace = checker.workspace
        self.settings = checker.settings
        self.claims = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def check_many(self, claims, options=None, cancelled=None):
        self.started.set()
        self.release.wait(20)
        self.claims += len(claims)
        return self.checker.check_many(claims, options, cancelled)


def test_the_claims_of_clients_that_went_away_are_dropped_unchecked(checker):
    counting = CountingChecker(checker)
    body = json.dumps({"claim": JAWS}).encode()
    request = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    with served(counting, max_batch=1) as (port, app):
        batcher = app.state.service.batcher
        clients = [connect(port, request) for _ in range(20)]
        assert counting.started.wait(20)  # one claim is being checked, the others wait
        wait_for(lambda: batcher.waiting == 19)
        for sock in clients:
            sock.close()
        wait_for(lambda: batcher.stats.dropped == 19)
        counting.release.set()
        status, _, checked = ask(port, "POST", "/check", {"claim": JAWS})
        assert status == 200 and checked["claim"] == JAWS
        assert counting.claims == 2  # the one under way when its client left, and the last request
        metrics = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        metrics.request("GET", "/metrics")
        text = metrics.getresponse().read().decode()
        metrics.close()
        assert "fever_claims_dropped_total 19" in text


class VerificationGate:
    """The fixture checker, whose next batch after :meth:`hold_next_batch` stops before verification until released:
    each claim retrieved, the verifier not yet called. Records the claims the verifier reads and each batch's
    outcomes."""

    def __init__(self, checker, monkeypatch):
        self.checker = checker
        self.workspace = checker.workspace
        self.settings = checker.settings
        self.reached = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self.cancelled = None
        self.read: list[str] = []
        self.outcomes: list = []
        predict = checker.verification.verifier.predict
        monkeypatch.setattr(
            checker.verification.verifier,
            "predict",
            lambda pairs, *args: self.read.extend(c for _, c in pairs) or predict(pairs, *args),
        )

    def check_many(self, claims, options=None, cancelled=None):
        asked = [0] * len(claims)

        def held_before_verification(i: int) -> bool:
            asked[i] += 1
            if asked[i] == 2 and not self.release.is_set():  # every claim retrieved: the verifier's call is next
                self.cancelled = cancelled
                self.reached.set()
                self.release.wait(60)
            return cancelled(i)

        self.outcomes.append(self.checker.check_many(claims, options, held_before_verification))
        return self.outcomes[-1]

    def hold_next_batch(self) -> None:
        """Hold the next batch before verification; forget what was read and checked so far."""
        self.read.clear()
        self.outcomes.clear()
        self.release.clear()


def posted(port: int, body: dict) -> socket.socket:
    """A connection that has posted ``body`` to ``/check`` and waits for its answer."""
    data = json.dumps(body).encode()
    return connect(
        port,
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(data), data),
    )


def test_a_claim_whose_client_leaves_mid_batch_stops_before_the_verifier_and_its_batch_mates_get_verdicts(
    checker, monkeypatch
):
    """Issue 51: a batch already taken ran to its end, minutes, for a client that had gone; the next requests
    waited for it."""
    alone = checker.check(JAWS).verdict
    gate = VerificationGate(checker, monkeypatch)
    with served(gate, max_batch=2, batch_wait_ms=20_000) as (port, app):  # the two claims make one batch
        service = app.state.service
        assert ask(port, "POST", "/check", {"claim": JAWS})[0] == 200  # the pace timed: batches may hold several
        gate.hold_next_batch()
        leaving = posted(port, {"claim": "Jaws is a film."})
        wait_for(lambda: service.batcher.waiting == 1)
        staying: list = []
        client = threading.Thread(target=lambda: staying.append(ask(port, "POST", "/check", {"claim": JAWS})))
        client.start()
        assert gate.reached.wait(60)
        leaving.close()
        wait_for(lambda: gate.cancelled(0))  # the server has seen the client go
        assert not gate.cancelled(1)
        gate.release.set()
        client.join(120)
        status, _, checked = staying[0]
        assert status == 200 and checked["verdict"]["label"] == alone.label
        assert checked["verdict"]["probabilities"] == pytest.approx(alone.probabilities, abs=1e-4)
        assert "Jaws is a film." not in gate.read and JAWS in gate.read  # the verifier never read the one left
        (batch,) = gate.outcomes
        assert type(batch[0]).__name__ == "ClaimCancelled" and service.claims_stopped == 1
        status, _, next_check = ask(port, "POST", "/check", {"claim": "Jaws is a film."})  # the worker takes the next
        assert status == 200 and next_check["claim"] == "Jaws is a film."
        metrics = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        metrics.request("GET", "/metrics")
        assert "fever_claims_stopped_total 1" in metrics.getresponse().read().decode()
        metrics.close()


class PacedChecker:
    """A checker whose every claim takes ``seconds`` (a loaded machine's pace, held steady whatever else the machine
    runs): each claim is checked once by the fixture checker, then its result is given again after the wait. Counts
    the claims it was asked to check."""

    def __init__(self, checker, seconds: float):
        self.checker = checker
        self.workspace = checker.workspace
        self.settings = checker.settings
        self.seconds = seconds
        self.claims = 0
        self.results = {}

    def check_many(self, claims, options=None, cancelled=None):
        for claim in claims:
            if claim not in self.results:
                self.results[claim] = self.checker.check_many([claim], options)[0]
        time.sleep(self.seconds * len(claims))
        self.claims += len(claims)
        return [self.results[claim] for claim in claims]


def test_a_flood_past_what_the_timeout_allows_gets_answers_and_immediate_503s_and_wastes_no_check(checker):
    paced = PacedChecker(checker, 0.1)
    paced.check_many([JAWS])  # the real check, before the server times its pace
    with served(paced, timeout_s=2.0) as (port, _app):
        for _ in range(3):  # the pace is timed
            assert ask(port, "POST", "/check", {"claim": JAWS})[0] == 200
        before = paced.claims
        answers: list[tuple[int, str, float]] = []

        def client() -> None:
            started = time.monotonic()
            status, headers, body = ask(port, "POST", "/check", {"claim": JAWS})
            code = body["data"]["code"] if status != 200 else ""
            answers.append((status, code, time.monotonic() - started, headers.get("retry-after")))

        threads = [threading.Thread(target=client) for _ in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        answered = [a for a in answers if a[0] == 200]
        shed = [a for a in answers if a[1] == "overloaded"]
        timed_out = [a for a in answers if a[1] == "timeout"]
        assert len(answers) == 40 and len(answered) + len(shed) + len(timed_out) == 40
        assert len(answered) >= 3 and len(shed) >= 10 and len(timed_out) <= 2, answers
        assert all(seconds < 1.0 and int(retry) >= 1 for _, _, seconds, retry in shed)  # at once, with Retry-After
        assert paced.claims - before <= len(answered) + 1  # what was checked was answered: no work for nobody
