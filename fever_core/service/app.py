"""The HTTP API over the checker: :func:`create_app` makes the FastAPI app that ``python -m fever_core serve`` runs.

Endpoints: ``POST /check`` (one claim, the JSON of ``check --json``), ``POST /claimreview`` (the same check as a
schema.org ClaimReview in JSON-LD, with its provenance), ``POST /predict`` (the FEVER 2.0 builders' format),
``POST /check-text`` (a text's check-worthy sentences, each checked as ``/check`` checks it), ``GET /corpora``,
``GET /health`` (200 once models and indexes are loaded, 503 before), ``GET /metrics`` (Prometheus text), and the
OpenAPI document at ``/openapi.json`` with its docs at ``/docs`` (served from the install, no CDN).

Every claim goes through one :class:`~fever_core.service.batching.MicroBatcher`: claims of concurrent requests, and the
instances of a ``/predict``, are verified together in batches (:meth:`~fever_core.pipeline.Checker.check_many`) on
one worker thread, while the event loop stays free to answer. The queue is bounded, in claims and in time: a request
whose claims don't fit, or that the claims ahead of it (at the seconds a claim has been taking) would keep from being
checked within the timeout, is answered 503 with ``Retry-After`` at once; one whose claims can no longer be checked
in time is answered likewise as soon as that is known, and its claims are not checked; the claims of a client that
goes away while they wait are dropped from the queue unchecked.

Guards that hold under any server: a body over the size limit gets 413 and one slower than the body timeout 408;
requests in progress are capped (503 with ``Retry-After`` beyond, ``/health`` always answered); a body nested too
deeply is refused with a message that says so; lone surrogates (``"\\ud800"``, which UTF-8 can't encode) are dropped
from every string of a request body, so no answer fails after its claims were checked. The header timeout and the
bound on idle connections are the server's (:mod:`fever_core.service.server`).
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import hmac
import json
import logging
import re
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader
from fastapi_offline import FastAPIOffline
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from fever_core.common import Claim, Settings, clean_json_text
from fever_core.corpus import list_corpora
from fever_core.evaluation import BatchRow
from fever_core.pipeline import MAX_CLAIM_CHARS, Checker, CheckOptions, CheckResult, ClaimError
from fever_core.service.batching import MicroBatcher, QueueFull, TooLate
from fever_core.service.config import API_KEY_HEADER, ServiceConfig
from fever_core.service.metrics import CONTENT_TYPE, Gauge, Metrics
from fever_core.service.schemas import (
    CheckRequest,
    CheckResponse,
    CheckTextRequest,
    CheckTextResponse,
    ClaimReviewRequest,
    CorporaResponse,
    ErrorResponse,
    HealthResponse,
    LimitsOut,
    PredictInstance,
    PredictRequest,
    PredictResponse,
    error_body,
)
from fever_core.service.startup import check_can_serve, load_checkers
from fever_core.text_check import NothingToCheck, TextCheck, TextReadError, find_sentences, plain_text, sentence_claims
from fever_core.workbench import JSONLD_MEDIA_TYPE, Author, checker_provenance, claim_review

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClaimRequest:
    """One claim to check, as the batcher carries it."""

    corpus: str
    claim: str
    options: CheckOptions | None = None


class ServiceError(Exception):
    """An answer other than success: HTTP status, error code, a message for people, and when to retry (seconds)."""

    def __init__(self, status: int, code: str, message: str, retry_after_s: int | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_s = retry_after_s


class Service:
    """What the endpoints share: the checkers once loaded, the batcher, the metrics.

    Args:
        settings: the workbench settings (models, data folder).
        corpora: the corpora served; the first is the default.
        config: batching, queue and limits.
        checkers: ready checkers by corpus (tests); ``None`` loads them in the background when the app starts.
    """

    def __init__(self, settings: Settings, corpora: Sequence[str], config: ServiceConfig,
                 checkers: dict[str, Checker] | None = None):
        self.settings = settings
        self.corpora = list(corpora)
        self.config = config
        self.checkers = checkers or {}
        self.metrics = Metrics()
        self.status = "loading"
        self.message = "Loading the models and indexes."
        self.on_load_failure: Callable[[str], None] | None = None
        """Called with the message when loading fails (``serve`` stops the server with it)."""
        self.batcher: MicroBatcher[ClaimRequest, CheckResult | ClaimError] | None = None
        self._preloaded = checkers is not None

    def start(self) -> None:
        """Start the batcher, and load the checkers in the background unless they were given."""
        self.batcher = MicroBatcher(self._check_batch, self.config.max_batch, self.config.batch_wait_ms / 1000,
                                    self.config.max_queue, name="fever-batcher", on_idle=_return_freed_memory,
                                    deadline_s=self.config.timeout_s)
        if self._preloaded:
            self._ready()
        else:
            threading.Thread(target=self._load, name="fever-loader", daemon=True).start()

    def stop(self) -> None:
        if self.batcher is not None:
            self.batcher.close()

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            self.checkers = load_checkers(self.settings, self.corpora)
        except Exception as exc:  # whatever it is, the service can't answer: say so and stop
            log.exception("Loading failed")
            self.status, self.message = "failed", f"Loading failed: {exc}"
            if self.on_load_failure is not None:
                self.on_load_failure(self.message)
            return
        log.info("Loaded %s in %.1f s", ", ".join(self.corpora), time.perf_counter() - started)
        self._ready()

    def _ready(self) -> None:
        self.status, self.message = "ready", ""

    def _check_batch(self, requests: list[ClaimRequest]) -> list[CheckResult | ClaimError]:
        """Check a batch: the claims of each corpus together."""
        outcomes: list[CheckResult | ClaimError | None] = [None] * len(requests)
        by_corpus: dict[str, list[int]] = {}
        for i, request in enumerate(requests):
            by_corpus.setdefault(request.corpus, []).append(i)
        for corpus, indexes in by_corpus.items():
            checked = self.checkers[corpus].check_many([requests[i].claim for i in indexes],
                                                       [requests[i].options for i in indexes])
            for i, outcome in zip(indexes, checked):
                outcomes[i] = outcome
        return outcomes  # type: ignore[return-value]

    def corpus(self, name: str | None) -> str:
        """The corpus a request asks for (the default when ``None``), if this server serves it."""
        if name is None:
            return self.corpora[0]
        if name not in self.corpora:
            raise ServiceError(422, "corpus_not_served",
                               f"This server does not serve the corpus {name!r}; it serves {', '.join(self.corpora)}. "
                               "Leave corpus out for the default, or start a server with --corpus NAME.")
        return name

    async def check(self, requests: list[ClaimRequest],
                    client_gone: Callable[[], Awaitable[None]] | None = None) -> list[CheckResult | ClaimError]:
        """Queue the claims together and wait for them: at most the timeout, and only while ``client_gone`` (which
        returns when the client has closed its connection) has not returned; the claims not started then are
        dropped from the queue."""
        if self.status != "ready" or self.batcher is None:
            raise ServiceError(503, "loading", f"The service is not ready: {self.message}", retry_after_s=5)
        try:
            futures = self.batcher.submit(requests)
        except QueueFull as exc:
            if exc.backlog_s is None:
                why = f"{exc.waiting} claims are waiting (at most {self.config.max_queue})"
            else:
                why = (f"the {exc.waiting} claims waiting take about {exc.backlog_s:.0f} s, so {exc.asked} more would "
                       f"not be checked within the {self.config.timeout_s:g} s timeout")
            raise ServiceError(503, "overloaded", f"The server is busy: {why}. Try again in {exc.retry_after_s} s.",
                               retry_after_s=exc.retry_after_s) from None
        async def all_checked() -> list[CheckResult | ClaimError]:
            return list(await asyncio.gather(*[asyncio.wrap_future(future) for future in futures]))

        checked = asyncio.ensure_future(all_checked())  # a task: cancelled, it takes its gather's error with it
        gone = asyncio.ensure_future(client_gone()) if client_gone is not None else None
        try:
            done, _ = await asyncio.wait([checked] + ([gone] if gone else []), timeout=self.config.timeout_s,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            if gone is not None:
                gone.cancel()
        if checked in done and not isinstance(checked.exception(), TooLate):
            return checked.result()
        checked.cancel()
        for future in futures:
            future.cancel()  # claims not started yet leave the queue unchecked
        if gone is not None and gone in done:
            raise ServiceError(499, "client_closed_request", "The client closed the connection before its claims "
                               "were checked; they were dropped.")
        retry = self.batcher.retry_after_s()
        raise ServiceError(503, "timeout", f"The claims could not be checked within {self.config.timeout_s:g} s: the "
                           f"server is busy. Try again in {retry} s, or send fewer claims per request.",
                           retry_after_s=retry)

    def gauges(self) -> list[Gauge]:
        batcher = self.batcher
        stats = batcher.stats if batcher is not None else None
        return [
            Gauge("fever_ready", "1 once the models and indexes are loaded.", float(self.status == "ready")),
            Gauge("fever_queue_claims", "Claims waiting to be checked.", batcher.waiting if batcher else 0),
            Gauge("fever_queue_capacity_claims", "Claims that may wait at most.", self.config.max_queue),
            Gauge("fever_claims_checked_total", "Claims checked (including those that could not be).",
                  stats.items if stats else 0, "counter"),
            Gauge("fever_claims_failed_total", "Claims whose check raised an error.", stats.failed if stats else 0,
                  "counter"),
            Gauge("fever_claims_dropped_total", "Claims dropped unchecked: their request timed out, its client went "
                  "away, or too little of its timeout was left to check them.", stats.dropped if stats else 0,
                  "counter"),
            Gauge("fever_batches_total", "Batches checked.", stats.batches if stats else 0, "counter"),
            Gauge("fever_batch_busy_seconds_total", "Seconds spent checking batches.",
                  round(stats.busy_s, 6) if stats else 0, "counter"),
        ]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` under another C library."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def _return_freed_memory() -> None:
    """Ask the C allocator to give back to the system the free memory it holds, once a burst of claims is over: glibc
    keeps what batches and requests freed (after an overload, resident memory stayed 50-100 MB up until asked).
    Takes milliseconds, without the GIL."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _route(scope: dict) -> str:
    """The route template a request matched (``/check``), so odd URLs don't each make a metrics series."""
    return getattr(scope.get("route"), "path", "unmatched")


class _Observe:
    """Counts every answer and its latency by route (pure ASGI, so it adds almost nothing)."""

    def __init__(self, app, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status = 500

        async def send_and_note(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            self.metrics.observe(_route(scope), status, time.perf_counter() - started)


class _Admit:
    """Answers at once ``refuse(scope)`` (a 503 with ``Retry-After``) to a request beyond ``limit`` in progress;
    ``/health`` is always let in, so a load balancer sees a busy replica as alive."""

    def __init__(self, app, limit: int, refuse: Callable[[dict], Response]):
        self.app = app
        self.limit = limit
        self.refuse = refuse
        self.in_progress = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] == "/health":
            return await self.app(scope, receive, send)
        if self.in_progress >= self.limit:
            return await self.refuse(scope)(scope, receive, send)
        self.in_progress += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_progress -= 1


class _GuardBody:
    """Refuses a request body over ``max_bytes`` (by its Content-Length, or as it arrives) with a 413, and one that
    has not all arrived ``timeout_s`` after the headers with a 408 (and the connection closed), both worded by the
    app's error handler, whichever endpoint reads it."""

    def __init__(self, app, max_bytes: int, timeout_s: float):
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", ())).get(b"content-length", b"")
        declared = int(length) if length.isdigit() else 0
        deadline = time.monotonic() + self.timeout_s
        received = 0
        complete = False

        async def receive_guarded():
            nonlocal received, complete
            if complete:  # the body is in: what follows is the wait for a disconnect, which has no deadline
                return await receive()
            if declared > self.max_bytes:
                raise StarletteHTTPException(413)
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
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


class BodyRefused(ValueError):
    """A body that is JSON but one the service won't read (nested too deeply); the message says why."""


class BodyNotUtf8(BodyRefused):
    """A body that is not UTF-8 (another encoding, UTF-16 and UTF-32 included, which JSON parsers may guess and
    take); answered 415, the message says where."""


def _utf8_text(body: bytes) -> str:
    """``body`` as UTF-8 text (a UTF-8 byte order mark dropped), or :class:`BodyNotUtf8` saying what it is."""
    if b"\x00" in body:  # UTF-8 JSON never has a NUL byte; every UTF-16 or UTF-32 body of JSON does
        raise BodyNotUtf8("The body is not UTF-8: it has NUL bytes, so it is UTF-16 or UTF-32 (or not text). Send "
                          "JSON in UTF-8.")
    try:
        return body.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BodyNotUtf8(f"The body is not UTF-8 (byte {exc.start}): send JSON in UTF-8.") from None


def _deeper_than(value, limit: int) -> bool:
    """Whether parsed JSON nests more than ``limit`` arrays and objects (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


class _ServiceRequest(Request):
    """A request whose JSON body is checked for depth and cleaned of lone surrogates as it is parsed."""

    async def json(self):
        if not hasattr(self, "_json"):
            body = await self.body()
            too_deep = (f"The body's JSON nests more than {MAX_JSON_DEPTH} levels of arrays and objects, more than "
                        "any request here needs: send a flatter body.")
            try:
                value = json.loads(_utf8_text(body))
            except RecursionError:
                raise BodyRefused(too_deep) from None
            if body.count(b"[") + body.count(b"{") > MAX_JSON_DEPTH and _deeper_than(value, MAX_JSON_DEPTH):
                raise BodyRefused(too_deep)
            self._json = clean_json_text(value) if _SURROGATE_ESCAPE.search(body) else value
        return self._json


class _ServiceRoute(APIRoute):
    """An endpoint that reads its body through :class:`_ServiceRequest`."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            return await handler(_ServiceRequest(request.scope, request.receive))

        return handle


class _CleanJSONResponse(JSONResponse):
    """JSON that can't fail on text: a lone surrogate that reached an answer another way than through the request
    (a corpus, a model's files) is dropped, rather than the answer lost to a 500 after its claims were checked."""

    def render(self, content) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return super().render(clean_json_text(content))


class _JSONLDResponse(_CleanJSONResponse):
    media_type = JSONLD_MEDIA_TYPE


async def _until_disconnected(request: Request) -> None:
    """Returns once the client has closed its connection (called after the body was read: nothing else arrives)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _error_response(metrics: Metrics, scope: dict, error: ServiceError) -> Response:
    """``error`` as every endpoint answers one (:func:`~fever_core.service.schemas.error_body`), counted."""
    metrics.error(_route(scope), error.code)
    headers = {"Retry-After": str(error.retry_after_s)} if error.retry_after_s is not None else None
    if error.status == 401:
        headers = {"WWW-Authenticate": API_KEY_HEADER}
    return Response(error_body(error.code, error.message), status_code=error.status, headers=headers,
                    media_type="application/json")


ERRORS = {
    401: {"model": ErrorResponse, "description": "no API key, or the wrong one (when the server has one)"},
    408: {"model": ErrorResponse, "description": "the body did not all arrive within the server's body timeout"},
    413: {"model": ErrorResponse, "description": "the body is larger than the server's limit"},
    415: {"model": ErrorResponse, "description": "the body is not UTF-8 (UTF-16 and UTF-32 included)"},
    422: {"model": ErrorResponse, "description": "the body is not what the endpoint takes, or the claim can't be "
          "checked (empty, too long, no words); the message says which"},
    503: {"model": ErrorResponse, "description": "loading, overloaded, or timed out: try again after Retry-After "
          "seconds", "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}}},
}
CLAIMREVIEW = {"description": "the check as a schema.org ClaimReview (https://schema.org/ClaimReview)",
               "content": {JSONLD_MEDIA_TYPE: {"schema": {"type": "object"}}}}
NOT_READY = {503: {"model": HealthResponse, "description": "loading, or loading failed"}}


def create_app(
    settings: Settings,
    corpus: str | Sequence[str],
    config: ServiceConfig | None = None,
    checkers: dict[str, Checker] | None = None,
) -> FastAPI:
    """The service's app.

    Args:
        settings: the workbench settings (data folder, models, device).
        corpus: the corpus to serve, or several (the first is the default for requests that name none).
        config: batching, queue, limits and API key; default :class:`ServiceConfig` (``FEVER_API_KEY``).
        checkers: ready checkers by corpus name (tests); by default they are loaded in the background when the app
            starts, and ``/health`` says ``loading`` until they are.

    Raises:
        ServiceStartError: a corpus is not built or is out of date, or a model is missing (checked before anything
            loads, so the server does not start).
    """
    corpora = [corpus] if isinstance(corpus, str) else list(corpus)
    config = config or ServiceConfig()
    if checkers is None:
        check_can_serve(settings, corpora)
    service = Service(settings, corpora, config, checkers)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        service.start()
        yield
        service.stop()

    app = FastAPIOffline(
        title="FEVER Workbench",
        version="1.0",
        description="Fact checking against Wikipedia: a claim in, a verdict (SUPPORTS, REFUTES or NOT ENOUGH "
        "INFO) with ranked and scored evidence out. `/predict` speaks the FEVER 2.0 builders' format. Claims of "
        "concurrent requests are verified together in small batches; when the queue is full the answer is 503 with "
        "Retry-After." + (f" Send the API key in the `{API_KEY_HEADER}` header." if config.api_key else ""),
        lifespan=lifespan,
        redoc_url=None,
        default_response_class=_CleanJSONResponse,
    )
    app.router.route_class = _ServiceRoute
    app.state.service = service

    def refuse_beyond_limit(scope: dict) -> Response:
        retry = service.batcher.retry_after_s() if service.batcher is not None else 1
        return _error_response(service.metrics, scope, ServiceError(
            503, "overloaded", f"The server is answering {config.max_connections:,} requests at once, its limit. "
            f"Try again in {retry} s.", retry_after_s=retry))

    app.add_middleware(_GuardBody, max_bytes=config.max_body_bytes, timeout_s=config.body_timeout_s)
    app.add_middleware(_Admit, limit=config.max_connections, refuse=refuse_beyond_limit)
    app.add_middleware(_Observe, metrics=service.metrics)

    def error_response(request: Request, error: ServiceError) -> Response:
        return _error_response(service.metrics, request.scope, error)

    @app.exception_handler(ServiceError)
    async def on_service_error(request: Request, error: ServiceError) -> Response:
        return error_response(request, error)

    @app.exception_handler(RequestValidationError)
    async def on_invalid_request(request: Request, error: RequestValidationError) -> Response:
        return error_response(request, ServiceError(422, "invalid_request", _describe(error.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 413:
            message = (f"The request body is larger than this server's limit of {config.max_body_bytes:,} bytes: "
                       "send fewer or shorter claims per request.")
            return error_response(request, ServiceError(413, "body_too_large", message))
        if error.status_code == 408:
            message = (f"The request body did not all arrive within {config.body_timeout_s:g} s of its headers (or "
                       "was shorter than its Content-Length): send the whole body at once.")
            response = error_response(request, ServiceError(408, "body_timeout", message))
            response.headers.update(error.headers or {})
            return response
        if error.status_code == 400:  # FastAPI's answer to a body it can't decode
            cause = error.__cause__
            if isinstance(cause, BodyNotUtf8):
                return error_response(request, ServiceError(415, "unsupported_encoding", str(cause)))
            message = str(cause) if isinstance(cause, BodyRefused) else "The body is not JSON in UTF-8."
            return error_response(request, ServiceError(422, "invalid_request", message))
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, f"http_{error.status_code}")
        message = {404: "No such endpoint: see /docs for the endpoints.",
                   405: "This endpoint does not take that method: see /docs."}.get(error.status_code, str(error.detail))
        response = error_response(request, ServiceError(error.status_code, code, message))
        if error.headers:
            response.headers.update(error.headers)
        return response

    @app.exception_handler(Exception)
    async def on_failure(request: Request, error: Exception) -> Response:
        log.exception("Request failed")
        message = f"The check failed on the server ({error.__class__.__name__}); the server log has the details."
        return error_response(request, ServiceError(500, "internal_error", message))

    key_header = APIKeyHeader(name=API_KEY_HEADER, auto_error=False, description="the server's FEVER_API_KEY")

    async def require_key(key: str | None = Depends(key_header)) -> None:
        if not (key and hmac.compare_digest(key.encode(), config.api_key.encode())):
            raise ServiceError(401, "unauthorized", f"Send the server's API key in the {API_KEY_HEADER} header.")

    guarded = [Depends(require_key)] if config.api_key else []

    async def check_one(body: CheckRequest, request: Request) -> CheckResult:
        """The check of a request's claim; one that can't be checked is a 422 ``bad_claim``."""
        options = body.options.to_options() if body.options else None
        claims = [ClaimRequest(service.corpus(body.corpus), body.claim, options)]
        outcome = (await service.check(claims, functools.partial(_until_disconnected, request)))[0]
        if isinstance(outcome, ClaimError):
            raise ServiceError(422, "bad_claim", str(outcome))
        return outcome

    @app.post("/check", response_model=CheckResponse, responses=ERRORS, dependencies=guarded,
              summary="Check one claim", tags=["checking"])
    async def check(body: CheckRequest, request: Request) -> JSONResponse:
        """The claim's verdict, probabilities and reason, its evidence with stances and links, the pages with why
        they were retrieved, timings and warnings: the JSON of `python -m fever_core check --json`."""
        return _CleanJSONResponse((await check_one(body, request)).to_dict())

    @app.post("/claimreview", responses={200: CLAIMREVIEW, **ERRORS}, dependencies=guarded,
              summary="Check one claim: a schema.org ClaimReview", tags=["checking"])
    async def claimreview(body: ClaimReviewRequest, request: Request) -> Response:
        """The check `/check` makes, as a schema.org ClaimReview in JSON-LD (`application/ld+json`): the claim, the
        verdict as a rating (1 Refuted, 2 Not enough info, 3 Supported), the Wikipedia pages of the evidence it used,
        the author, today's date, and the verifier's and the corpus's checksums and the settings as
        `additionalProperty` (docs/service.md)."""
        try:
            author = Author(body.author if body.author is not None else Author.name, body.author_type)
        except ValueError as exc:
            raise ServiceError(422, "invalid_request", str(exc)) from None
        result = await check_one(body, request)
        options = body.options.to_options() if body.options else None
        provenance = await asyncio.to_thread(checker_provenance, service.checkers[result.corpus], options)
        return _JSONLDResponse(claim_review(result, provenance, author, url=body.url))

    @app.post("/predict", response_model=PredictResponse, responses=ERRORS, dependencies=guarded,
              summary="Check claims in the FEVER 2.0 builders' format", tags=["checking"])
    async def predict(body: PredictRequest, request: Request) -> JSONResponse:
        """A prediction per instance, in order: `predicted_label` and `predicted_evidence` (`[page, line]` pairs),
        with the instance echoed as `request_instance`; scoreable by the FEVER scorer. A claim that can't be checked
        (empty, too long) is predicted NOT ENOUGH INFO with no evidence and an `error`, as `evaluate` counts it;
        the other claims are checked all the same."""
        if len(body.instances) > config.max_instances:
            raise ServiceError(422, "too_many_instances",
                               f"The request has {len(body.instances):,} instances; this server takes at most "
                               f"{config.max_instances:,} per request. Send them in several requests.")
        instances = [i.model_dump() if isinstance(i, PredictInstance) else {"id": n, "claim": i}
                     for n, i in enumerate(body.instances)]
        corpus = service.corpus(body.corpus)
        options = body.options.to_options() if body.options else None
        claims = [ClaimRequest(corpus, i["claim"], options) for i in instances]
        outcomes = await service.check(claims, functools.partial(_until_disconnected, request)) if claims else []
        predictions = [{**BatchRow.of(Claim(instance["id"], instance["claim"], None), outcome).fever_prediction(),
                        "request_instance": instance} for instance, outcome in zip(instances, outcomes)]
        return _CleanJSONResponse({"result": "success", "data": {"predictions": predictions}})

    @app.post("/check-text", response_model=CheckTextResponse, responses=ERRORS, dependencies=guarded,
              summary="Check the check-worthy sentences of a text", tags=["checking"])
    async def check_text(body: CheckTextRequest, request: Request) -> JSONResponse:
        """The text's sentences with their offsets, whether each is worth checking and why, and for each
        check-worthy one its check (the JSON of `/check`), as `/check` gives it for that sentence alone; a summary
        of the verdicts. A text with no check-worthy sentence, or more than the instance limit, is refused (422)."""
        corpus = service.corpus(body.corpus)
        try:
            text = plain_text(body.text)
            sentences = await run_in_threadpool(find_sentences, text)
            claims = sentence_claims(sentences)
        except TextReadError as exc:
            raise ServiceError(422, "bad_text", str(exc)) from None
        except NothingToCheck as exc:
            raise ServiceError(422, "nothing_to_check", str(exc)) from None
        if len(claims) > config.max_instances:
            raise ServiceError(422, "too_many_sentences",
                               f"The text has {len(claims):,} check-worthy sentences; this server checks at most "
                               f"{config.max_instances:,} per request. Send the text in parts.")
        options = body.options.to_options() if body.options else None
        outcomes = await service.check([ClaimRequest(corpus, c.claim, options) for c in claims],
                                       functools.partial(_until_disconnected, request))
        rows = [BatchRow.of(claim, outcome) for claim, outcome in zip(claims, outcomes)]
        return _CleanJSONResponse(TextCheck.of(text, sentences, rows).to_dict())

    @app.get("/corpora", response_model=CorporaResponse, responses={401: ERRORS[401]}, dependencies=guarded,
             summary="The corpora, which this server serves, and its limits", tags=["service"])
    async def corpora() -> CorporaResponse:
        served = {}
        for name, checker in service.checkers.items():
            stats = checker.workspace.store.stats()
            served[name] = {"pages": stats.pages, "sentences": stats.sentences}
        names = list(dict.fromkeys([*service.corpora, *list_corpora(settings.data_dir)]))
        limits = {name: getattr(config, name) for name in LimitsOut.model_fields if name != "max_claim_chars"}
        return CorporaResponse(
            default=service.corpora[0],
            corpora=[{"name": name, "served": name in service.corpora, **served.get(name, {})} for name in names],
            limits=LimitsOut(max_claim_chars=MAX_CLAIM_CHARS, **limits),
        )

    @app.get("/health", response_model=HealthResponse, responses=NOT_READY, summary="Ready to check claims?",
             tags=["service"])
    async def health() -> JSONResponse:
        """200 once the models and indexes are loaded; 503 while loading (or if loading failed)."""
        body = HealthResponse(status=service.status, corpora=service.corpora, message=service.message)
        return _CleanJSONResponse(body.model_dump(), status_code=200 if service.status == "ready" else 503)

    @app.get("/metrics", response_class=PlainTextResponse, responses={401: ERRORS[401]}, dependencies=guarded,
             summary="Prometheus metrics", tags=["service"])
    async def metrics() -> PlainTextResponse:
        """Requests by route and status, errors by code, latency histograms, the queue and the batches."""
        return PlainTextResponse(service.metrics.render(service.gauges()), media_type=CONTENT_TYPE)

    return app


def _describe(errors: Sequence[dict]) -> str:
    """Pydantic's validation errors as one line: ``claim: Field required; options.pages_k: ...``."""
    parts = []
    for error in errors:
        if error.get("type") == "json_invalid":
            parts.append(f"the body is not valid JSON ({error.get('ctx', {}).get('error', 'decode error')})")
            continue
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        parts.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) + "."
