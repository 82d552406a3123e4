"""How the service batches, queues and limits requests (no web framework imported, so the command line reads the
defaults cheaply)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

API_KEY_HEADER = "X-API-Key"


@dataclass
class ServiceConfig:
    """How the service batches, queues and limits requests.

    Attributes:
        max_batch: claims verified together at most; 1 turns micro-batching off (one claim at a time). Default 32.
        batch_wait_ms: how long a claim waits for others to join its batch when the worker is idle
            (milliseconds). Default 15.
        max_queue: claims waiting at most; a request whose claims don't fit gets 503 with ``Retry-After``.
            Default 256.
        max_instances: instances per ``/predict`` request (at most ``max_queue``). Default 128.
        max_body_bytes: request body size; larger gets 413. Default 1 MiB.
        timeout_s: seconds a request waits for its claims; longer gets 503 with ``Retry-After``. Default 60.
        header_timeout_s: seconds a connection has to send a request's headers, counted from when it opened or
            got its previous answer; then it is closed (with a 408 if the request had begun). Default 10.
        body_timeout_s: seconds a request's body may take to arrive once its headers are in; longer gets 408 and
            the connection is closed. Default 30.
        max_connections: connections with a request in progress (headers in, answer not yet sent) at most; a
            request beyond gets 503 with ``Retry-After``, except ``/health``, which is always answered. Default 512.
        max_waiting_connections: connections waiting for a request (idle between requests, or their headers
            still arriving) at most; when one more opens, the one that has waited longest is closed, so a flood
            of half-open connections can't lock out the clients that send whole requests. Default 1024.
        max_text_sentences: sentences a ``/check-text`` text may have: more, estimated before it is split or counted
            while it is, gets 413 ``text_too_large`` (the check-worthy ones are held to ``max_instances``).
            Default 1,000.
        split_timeout_s: seconds splitting a ``/check-text`` text into sentences may take; longer gets 413
            ``text_too_large``. Default 20.
        api_key: when set, every request but ``/health`` and the docs needs the header ``X-API-Key: <key>``.
            Default ``FEVER_API_KEY`` (unset: no key).
    """

    max_batch: int = 32
    batch_wait_ms: float = 15.0
    max_queue: int = 256
    max_instances: int = 128
    max_body_bytes: int = 1 << 20
    timeout_s: float = 60.0
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    max_connections: int = 512
    max_waiting_connections: int = 1024
    max_text_sentences: int = 1_000
    split_timeout_s: float = 20.0
    api_key: str = field(default_factory=lambda: os.environ.get("FEVER_API_KEY", ""), repr=False)

    def __post_init__(self) -> None:
        if min(self.max_batch, self.max_queue, self.max_instances, self.max_body_bytes, self.max_connections,
               self.max_waiting_connections, self.max_text_sentences) < 1:
            raise ValueError("The batch size, queue size, instance limit, body limit, connection limits and text "
                             "sentences limit must each be at least 1.")
        if self.max_instances > self.max_queue:
            raise ValueError(f"max_instances ({self.max_instances}) can't exceed max_queue ({self.max_queue}): "
                             "a /predict request that big could never be queued.")
        timeouts = (self.timeout_s, self.header_timeout_s, self.body_timeout_s, self.split_timeout_s)
        if min(timeouts) <= 0 or self.batch_wait_ms < 0:
            raise ValueError("The timeouts must be positive and the batch wait at least 0.")
