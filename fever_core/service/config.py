"""How the service batches, queues and limits requests (no web framework imported, so the command line reads the
defaults cheaply)."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

API_KEY_HEADER = "X-API-Key"


def _limit(default: float, flag: str, help: str, *, published: bool = True) -> Any:
    """A field of :class:`ServiceConfig` with its command-line flag and its help (``serve --help`` shows them, with
    the default): declared once, here. ``published``: ``GET /corpora`` tells clients its value, described by the
    same help (:func:`published_limits`)."""
    return field(default=default, metadata={"flag": flag, "help": help, "published": published})


@dataclass
class ServiceConfig:
    """How the service batches, queues and limits requests. Each field's meaning, unit and default are declared with
    it (its ``help``, which ``python -m fever_core serve --help`` shows, and its flag there: :func:`service_flags`);
    ``api_key`` is read from ``FEVER_API_KEY`` only (a secret never goes on a command line): when set, every request
    but ``/health`` and the docs needs the header ``X-API-Key: <key>``."""

    max_batch: int = _limit(32, "--max-batch", "claims verified together at most; 1 turns micro-batching off")
    batch_wait_ms: float = _limit(
        15.0,
        "--batch-wait-ms",
        "milliseconds a claim waits for others to join its batch when the worker is idle",
        published=False,
    )
    max_queue: int = _limit(
        256, "--max-queue", "claims waiting at most; a request whose claims don't fit gets 503 with Retry-After"
    )
    max_instances: int = _limit(128, "--max-instances", "instances per /predict request (at most --max-queue)")
    max_body_bytes: int = _limit(1 << 20, "--max-body-bytes", "request body size in bytes; larger gets 413")
    timeout_s: float = _limit(
        60.0, "--timeout", "seconds a request waits for its claims; longer gets 503 with Retry-After"
    )
    header_timeout_s: float = _limit(
        10.0,
        "--header-timeout",
        "seconds a connection has to send a request's "
        "headers, counted from when it opened or got its previous answer; then it is "
        "closed (408 if the request had begun)",
    )
    body_timeout_s: float = _limit(
        30.0,
        "--body-timeout",
        "seconds a request's body may take once its headers are in; longer gets 408 and the connection is closed",
    )
    max_connections: int = _limit(
        512,
        "--max-connections",
        "requests in progress (headers in, answer not yet sent) "
        "at most; beyond, 503 with Retry-After, except /health, which is always answered",
    )
    max_waiting_connections: int = _limit(
        1024,
        "--max-waiting-connections",
        "connections waiting for a request "
        "(idle between requests, or headers still arriving) at most; when one more "
        "opens, the one that has waited longest is closed, so half-open "
        "connections can't lock out clients that send whole requests",
        published=False,
    )
    max_text_sentences: int = _limit(
        1_000,
        "--max-text-sentences",
        "sentences a /check-text text may have: more, "
        "estimated before it is split or counted while it is, gets 413 text_too_large",
    )
    split_timeout_s: float = _limit(
        20.0,
        "--split-timeout",
        "seconds splitting a /check-text text into sentences may take; longer gets 413 text_too_large",
    )
    api_key: str = field(default_factory=lambda: os.environ.get("FEVER_API_KEY", ""), repr=False)

    def __post_init__(self) -> None:
        if (
            min(
                self.max_batch,
                self.max_queue,
                self.max_instances,
                self.max_body_bytes,
                self.max_connections,
                self.max_waiting_connections,
                self.max_text_sentences,
            )
            < 1
        ):
            raise ValueError(
                "The batch size, queue size, instance limit, body limit, connection limits and text "
                "sentences limit must each be at least 1."
            )
        if self.max_instances > self.max_queue:
            raise ValueError(
                f"max_instances ({self.max_instances}) can't exceed max_queue ({self.max_queue}): "
                "a /predict request that big could never be queued."
            )
        timeouts = (self.timeout_s, self.header_timeout_s, self.body_timeout_s, self.split_timeout_s)
        if min(timeouts) <= 0 or self.batch_wait_ms < 0:
            raise ValueError("The timeouts must be positive and the batch wait at least 0.")


def service_flags() -> list[dataclasses.Field[Any]]:
    """The fields of :class:`ServiceConfig` a command-line flag sets (all but ``api_key``), in order: each with its
    ``flag`` and ``help`` in ``metadata``."""
    return [f for f in dataclasses.fields(ServiceConfig) if "flag" in f.metadata]


def published_limits() -> list[dataclasses.Field[Any]]:
    """The limits of :class:`ServiceConfig` that ``GET /corpora`` tells clients (its ``limits``, whose model is made
    from these fields), in order."""
    return [f for f in service_flags() if f.metadata["published"]]
