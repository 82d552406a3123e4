"""The HTTP server under the service: uvicorn (its h11 protocol) with guards against slow and idle connections.

Uvicorn alone has no timeout on reading a request's headers (its keep-alive timeout stops at the first byte), and
its ``limit_concurrency`` counts every open connection, half-sent ones included, then answers plain text: about a
thousand connections that never finish their headers made every request fail, ``/health`` included. Here:

- a connection must send a request's headers within ``header_timeout_s`` of opening (or of its previous answer),
  or it is closed, with a JSON 408 if the request had begun;
- at most ``max_waiting_connections`` connections wait for a request (idle, or headers still arriving); one more
  closes the one that has waited longest, so a flood of half-open connections can't crowd out whole requests;
- the body timeout and the cap on requests in progress (JSON 503 with ``Retry-After``, ``/health`` always
  answered) are the app's (:mod:`fever_core.service.middleware`), so they hold under any server.
"""

from __future__ import annotations

import asyncio
import logging
import math
import resource
import time
from typing import Any

import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from fever_core.service.config import ServiceConfig
from fever_core.service.schemas import error_body

log = logging.getLogger(__name__)

WARN_EVERY_S = 60.0
"""Seconds between two warnings that connections were closed to make room."""
SPARE_FILES = 256
"""File descriptors kept for what is not a connection (models, the corpus store, logs) when the limit is raised."""


class _Waiting:
    """The connections of one server that wait for a request, longest-waiting first."""

    def __init__(self, limit: int):
        self.limit = limit
        self.connections: dict[GuardedH11Protocol, None] = {}  # insertion-ordered: the oldest first
        self.closed = 0
        """Connections closed to make room, since the last warning."""
        self._warned_at = -math.inf

    def add(self, connection: GuardedH11Protocol) -> None:
        self.connections[connection] = None
        while len(self.connections) > self.limit:
            next(iter(self.connections)).close_waiting()
            self.closed += 1
        if self.closed and time.monotonic() - self._warned_at >= WARN_EVERY_S:  # a flood warns once a minute
            log.warning(
                "More than %d connections waited for a request: %d closed to make room, the longest-waiting "
                "first (--max-waiting-connections).",
                self.limit,
                self.closed,
            )
            self.closed, self._warned_at = 0, time.monotonic()

    def discard(self, connection: GuardedH11Protocol) -> None:
        self.connections.pop(connection, None)


class GuardedH11Protocol(H11Protocol):
    """Uvicorn's h11 protocol with a header timeout and a bound on connections waiting for a request."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        header_timeout_s: float,
        waiting: _Waiting,
    ):
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout_s = header_timeout_s
        self.waiting = waiting
        self._header_timer: asyncio.TimerHandle | None = None
        self._request_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own
        super().connection_made(transport)
        self._wait_for_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._header_timer is not None:
            self._request_begun = True
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # the headers are in: the request is being answered
            self._stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._wait_for_request()  # kept alive for the next request (unless one was pipelined)

    def send_400_response(self, msg: str) -> None:
        """A request h11 can't parse (or headers over its size limit) is answered in JSON, like every error."""
        self._close_with(
            400, "invalid_http", f"{msg} The request line or headers are malformed, or larger than the server takes."
        )

    def close_waiting(self) -> None:
        """Close this connection, which is waiting for a request, to make room for another."""
        self._stop_waiting()
        self.transport.close()

    def _wait_for_request(self) -> None:
        self._stop_waiting()
        self._request_begun = False
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._on_header_timeout)
        self.waiting.add(self)

    def _stop_waiting(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        self.waiting.discard(self)

    def _on_header_timeout(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if not self._request_begun:  # idle: closed as a keep-alive timeout would
            self.close_waiting()
            return
        self._close_with(
            408,
            "header_timeout",
            f"The request's headers did not arrive within {self.header_timeout_s:g} s. Send the whole request at once.",
        )

    def _close_with(self, status: int, code: str, message: str) -> None:
        """Answer ``status`` with a JSON error and close (the request was never parsed, so h11 is bypassed)."""
        self._stop_waiting()
        body = error_body(code, message)
        reason = {400: b"Bad Request", 408: b"Request Timeout"}[status]
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n%s" % (status, reason, len(body), body)
        )
        self.transport.close()


def raise_file_limit(config: ServiceConfig) -> None:
    """Raise this process's soft limit on open files, if it is lower, to what the connection limits need (at most
    the hard limit), so that a flood meets the limits above instead of failing ``accept``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = config.max_connections + config.max_waiting_connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < needed:
            log.warning(
                "Open files are limited to %d, fewer than the %d the connection limits need: lower "
                "--max-connections or --max-waiting-connections, or raise the limit (ulimit -n).",
                target,
                needed,
            )


def make_server(
    app: ASGIApp,
    config: ServiceConfig,
    host: str = "127.0.0.1",
    port: int = 8000,
    verbose: bool = False,
    **uvicorn_options: Any,
) -> uvicorn.Server:
    """A uvicorn server for ``app`` with the guards of ``config`` (header timeout, waiting connections); not started.

    Args:
        app: the service's app (:func:`fever_core.service.app.create_app`).
        config: the service's limits.
        host, port: where to listen.
        verbose: log at info level, with an access log (default: warnings only).
        uvicorn_options: more :class:`uvicorn.Config` options.
    """
    waiting = _Waiting(config.max_waiting_connections)

    class Protocol(GuardedH11Protocol):
        """The guarded protocol with this server's header timeout and its one count of waiting connections."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, header_timeout_s=config.header_timeout_s, waiting=waiting, **kwargs)

    return uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            http=Protocol,
            ws="none",
            log_level="info" if verbose else "warning",
            access_log=verbose,
            limit_concurrency=None,  # it counts half-open connections too and answers plain text: the app caps instead
            **uvicorn_options,
        )
    )
