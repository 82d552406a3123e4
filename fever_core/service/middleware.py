"""What every request passes through before an endpoint sees it, and every answer on its way out.

ASGI guards that hold under any server: :class:`GuardBody` answers a body over the size limit 413 and one slower than
the body timeout 408; :class:`Admit` caps the requests in progress (503 with ``Retry-After`` beyond, ``/health`` always
answered); :class:`Observe` counts every answer and its latency. :func:`add_guards` puts them on an app.

Bodies: an endpoint's JSON body is read through :class:`ServiceRequest` (the routes of :class:`ServiceRoute`), which
refuses a body nested too deeply, or not UTF-8, with a message that says so, and drops lone surrogates
(``"\\ud800"``, which UTF-8 can't encode) from its strings; :class:`CleanJSONResponse` drops any that reach an answer,
so no answer fails after its claims were checked. The header timeout and the bound on idle connections are the
server's (:mod:`fever_core.service.server`).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fever_core.common import clean_json_text
from fever_core.service.errors import BodyNotUtf8, BodyRefused
from fever_core.service.metrics import Metrics, route_of


def add_guards(
    app: FastAPI,
    metrics: Metrics,
    max_bytes: int,
    timeout_s: float,
    limit: int,
    refuse: Callable[[Scope], Response],
) -> None:
    """Put the guards on ``app``, outermost first: :class:`Observe` (into ``metrics``), :class:`Admit` (at most
    ``limit`` requests in progress, ``refuse(scope)`` answering the others) and :class:`GuardBody` (``max_bytes``
    within ``timeout_s`` seconds)."""
    app.add_middleware(GuardBody, max_bytes=max_bytes, timeout_s=timeout_s)
    app.add_middleware(Admit, limit=limit, refuse=refuse)
    app.add_middleware(Observe, metrics=metrics)


class Observe:
    """Counts every answer and its latency by route (pure ASGI, so it adds almost nothing)."""

    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            self.metrics.observe(route_of(scope), status, time.perf_counter() - started)


class Admit:
    """Answers at once ``refuse(scope)`` (a 503 with ``Retry-After``) to a request beyond ``limit`` in progress;
    ``/health`` is always let in, so a load balancer sees a busy replica as alive."""

    def __init__(self, app: ASGIApp, limit: int, refuse: Callable[[Scope], Response]):
        self.app = app
        self.limit = limit
        self.refuse = refuse
        self.in_progress = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] == "/health":
            return await self.app(scope, receive, send)
        if self.in_progress >= self.limit:
            return await self.refuse(scope)(scope, receive, send)
        self.in_progress += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_progress -= 1


class GuardBody:
    """Refuses a request body over ``max_bytes`` (by its Content-Length, or as it arrives) with a 413, and one that
    has not all arrived ``timeout_s`` after the headers with a 408 (and the connection closed), both worded by the
    app's error handler, whichever endpoint reads it."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float):
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", ())).get(b"content-length", b"")
        declared = int(length) if length.isdigit() else 0
        deadline = time.monotonic() + self.timeout_s
        received = 0
        complete = False

        async def receive_guarded() -> Message:
            nonlocal received, complete
            if complete:  # the body is in: what follows is the wait for a disconnect, which has no deadline
                return await receive()
            if declared > self.max_bytes:
                raise StarletteHTTPException(413)
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise StarletteHTTPException(408, headers={"Connection": "close"}) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise StarletteHTTPException(413)
                complete = not message.get("more_body", False)
            else:
                complete = True
            return message

        await self.app(scope, receive_guarded, send)


MAX_JSON_DEPTH = 64
"""Levels a request body's JSON may nest (a FEVER instance with its evidence sets needs 6)."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _utf8_text(body: bytes) -> str:
    """``body`` as UTF-8 text (a UTF-8 byte order mark dropped), or :class:`BodyNotUtf8` saying what it is."""
    if b"\x00" in body:  # UTF-8 JSON never has a NUL byte; every UTF-16 or UTF-32 body of JSON does
        raise BodyNotUtf8(
            "The body is not UTF-8: it has NUL bytes, so it is UTF-16 or UTF-32 (or not text). Send JSON in UTF-8."
        )
    try:
        return body.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BodyNotUtf8(f"The body is not UTF-8 (byte {exc.start}): send JSON in UTF-8.") from None


def _deeper_than(value: object, limit: int) -> bool:
    """Whether parsed JSON nests more than ``limit`` arrays and objects (walked without recursion)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


class ServiceRequest(Request):
    """A request whose JSON body is checked for depth and cleaned of lone surrogates as it is parsed."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            too_deep = (
                f"The body's JSON nests more than {MAX_JSON_DEPTH} levels of arrays and objects, more than "
                "any request here needs: send a flatter body."
            )
            try:
                value = json.loads(_utf8_text(body))
            except RecursionError:
                raise BodyRefused(too_deep) from None
            if body.count(b"[") + body.count(b"{") > MAX_JSON_DEPTH and _deeper_than(value, MAX_JSON_DEPTH):
                raise BodyRefused(too_deep)
            self._json = clean_json_text(value) if _SURROGATE_ESCAPE.search(body) else value
        return self._json


class ServiceRoute(APIRoute):
    """An endpoint that reads its body through :class:`ServiceRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            return await handler(ServiceRequest(request.scope, request.receive))

        return handle


class CleanJSONResponse(JSONResponse):
    """JSON that can't fail on text: a lone surrogate that reached an answer another way than through the request
    (a corpus, a model's files) is dropped, rather than the answer lost to a 500 after its claims were checked."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return super().render(clean_json_text(content))
