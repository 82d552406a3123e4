"""Probe 12: work cancelled with its client (issue 51). The checker, served on 127.0.0.1 with the default limits, gets
long work from a client that hangs up :data:`LEAVE_AFTER_S` after sending it, while it is being checked: a claim of
under 1,000 characters listing as many numbers as fit (probe 1's kind), then a ``/check-text`` of
:data:`TEXT_SENTENCES` such sentences (a batch of long claims under way). Right after each hang-up a plain ``/check``
must be answered within :data:`WITHIN_S`, and the server's counters must show the work stopped or dropped, not
checked to its end for nobody. Before issue 51, the claim kept the only worker busy for minutes after its client left
and the next ``/check``s timed out.
"""

from __future__ import annotations

import json
import random
import socket
import time
from dataclasses import dataclass, field

from benchmarks.reliability.common import CURIE_CLAIM, Row
from benchmarks.reliability.hostile import many_numbers
from benchmarks.reliability.service_flood import HOST, Answer, ask, counters, serving
from fever_core.pipeline import Checker
from fever_core.service.config import ServiceConfig

WITHIN_S = 5.0
"""Seconds a plain ``/check`` may take when sent right after a client hung up on long work (issue 51)."""
LEAVE_AFTER_S = 1.0
"""Seconds after sending its work that the client hangs up (the work takes longer than that alone)."""
TEXT_SENTENCES = 12
"""Long sentences in the ``/check-text`` case."""
SETTLE_S = 120.0
"""Seconds the probe waits at most for the server to count the work it stopped."""


@dataclass
class HangUp:
    """A client that hung up on long work, and the plain ``/check`` sent right after.

    Attributes:
        case: what the client sent.
        chars: the characters it sent (the claim's, or the text's).
        alone_s: seconds the same work took answered, on the idle server just before.
        next_check: the plain ``/check``'s answer.
        stopped: claims the server stopped before their verdict meanwhile (``fever_claims_stopped_total``).
        dropped: claims it dropped unchecked from its queue meanwhile (``fever_claims_dropped_total``).
    """

    case: str
    chars: int
    alone_s: float
    next_check: Answer
    stopped: int
    dropped: int

    @property
    def ok(self) -> bool:
        """The next ``/check`` answered 200 within :data:`WITHIN_S`, and some of the work stopped or dropped."""
        return self.next_check.status == 200 and self.next_check.seconds <= WITHIN_S and self.stopped + self.dropped > 0


@dataclass
class CancelledResult:
    """Probe 12's figures: a plain claim's seconds alone, and each hang-up (:class:`HangUp`)."""

    plain_alone_s: float
    hang_ups: list[HangUp] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(h.ok for h in self.hang_ups)

    def rows(self) -> list[Row]:
        return [
            (
                f"12 hang-up: {h.case}",
                "ok" if h.ok else "FAIL",
                (
                    f"{h.chars:,} characters, {h.alone_s:.1f} s answered alone; the client left after "
                    f"{LEAVE_AFTER_S:g} s: {h.stopped} claims stopped, {h.dropped} dropped; the next /check "
                    f"{h.next_check.status} in {h.next_check.seconds:.2f} s (at most {WITHIN_S:g} s; "
                    f"{self.plain_alone_s:.2f} s alone)"
                ),
            )
            for h in self.hang_ups
        ]


def hang_up(port: int, case: str, path: str, body: dict) -> HangUp:
    """``body`` posted to ``path`` once answered (timed), then again from a client that hangs up
    :data:`LEAVE_AFTER_S` later; then a plain ``/check``, and the server's counts of claims stopped and dropped."""
    alone_s = ask(port, "POST", path, body, timeout_s=300).seconds
    before = counters(port)
    data = json.dumps(body).encode()
    sock = socket.create_connection((HOST, port), timeout=10)
    sock.sendall(
        b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        % (path.encode(), len(data), data)
    )
    time.sleep(LEAVE_AFTER_S)
    sock.close()
    next_check = ask(port, "POST", "/check", {"claim": CURIE_CLAIM})
    deadline = time.monotonic() + SETTLE_S
    while True:  # the claims stopped are counted once their batch returns
        after = counters(port)
        cut = {
            name: int(after.get(name, 0) - before.get(name, 0))
            for name in ("fever_claims_stopped_total", "fever_claims_dropped_total")
        }
        if sum(cut.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    return HangUp(
        case,
        sum(len(v) for v in body.values()),
        alone_s,
        next_check,
        cut["fever_claims_stopped_total"],
        cut["fever_claims_dropped_total"],
    )


def run(checker: Checker, corpus: str, seed: int = 0) -> CancelledResult:
    """Serve ``checker`` (its corpus ``corpus``) with the default limits and hang up on a long claim and on a text of
    long sentences."""
    rng = random.Random(seed)
    claim = many_numbers(rng, "Oslo")
    titles = ["Oslo", "Paris", "Berlin", "Rome"]
    text = "\n\n".join(many_numbers(rng, titles[n % len(titles)]) for n in range(TEXT_SENTENCES))
    with serving(checker, corpus, ServiceConfig(api_key="")) as port:
        plain_alone_s = ask(port, "POST", "/check", {"claim": CURIE_CLAIM}).seconds
        result = CancelledResult(plain_alone_s)
        result.hang_ups.append(hang_up(port, "a claim listing many numbers", "/check", {"claim": claim}))
        result.hang_ups.append(
            hang_up(port, f"/check-text of {TEXT_SENTENCES} such sentences", "/check-text", {"text": text})
        )
    return result
