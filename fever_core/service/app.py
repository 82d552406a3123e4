"""The HTTP API over the checker: :func:`create_app` makes the FastAPI app that ``python -m fever_core serve`` runs.

Endpoints: ``POST /check`` (one claim, the JSON of ``check --json``), ``POST /predict`` (the FEVER 2.0 builders'
format), ``GET /corpora``, ``GET /health`` (200 once models and indexes are loaded, 503 before), ``GET /metrics``
(Prometheus text), and the OpenAPI document at ``/openapi.json`` with its docs at ``/docs`` (served from the
install, no CDN).

Every claim goes through one :class:`~fever_core.batching.MicroBatcher`: claims of concurrent requests, and the
instances of a ``/predict``, are verified together in batches (:meth:`~fever_core.pipeline.Checker.check_many`) on
one worker thread, while the event loop stays free to answer. The queue is bounded: a request whose claims don't fit
is answered 503 with ``Retry-After`` at once, and one that waits longer than the timeout likewise.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import APIKeyHeader
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from fever_core.batching import MicroBatcher, QueueFull
from fever_core.corpus.build import list_corpora
from fever_core.pipeline import MAX_CLAIM_CHARS, Checker, CheckOptions, CheckResult, ClaimError
from fever_core.service.config import API_KEY_HEADER, ServiceConfig
from fever_core.service.metrics import CONTENT_TYPE, Gauge, Metrics
from fever_core.service.schemas import (
    CheckRequest,
    CheckResponse,
    CorporaResponse,
    ErrorResponse,
    HealthResponse,
    LimitsOut,
    PredictInstance,
    PredictRequest,
    PredictResponse,
)
from fever_core.service.startup import check_can_serve, load_checkers
from fever_core.settings import Settings
from fever_core.types import NEI

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
                                    self.config.max_queue, name="fever-batcher")
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

    async def check(self, requests: list[ClaimRequest]) -> list[CheckResult | ClaimError]:
        """Queue the claims together and wait for them (at most the timeout)."""
        if self.status != "ready" or self.batcher is None:
            raise ServiceError(503, "loading", f"The service is not ready: {self.message}", retry_after_s=5)
        try:
            futures = self.batcher.submit(requests)
        except QueueFull as exc:
            raise ServiceError(503, "overloaded",
                               f"The server is busy: {exc.waiting} claims are waiting (at most "
                               f"{self.config.max_queue}). Try again in {exc.retry_after_s} s.",
                               retry_after_s=exc.retry_after_s) from None
        waiting = [asyncio.wrap_future(future) for future in futures]
        try:
            return list(await asyncio.wait_for(asyncio.gather(*waiting), self.config.timeout_s))
        except asyncio.TimeoutError:
            for future in futures:
                future.cancel()  # claims not started yet are dropped
            retry = self.batcher.retry_after_s()
            raise ServiceError(503, "timeout", f"The claims were not checked within {self.config.timeout_s:g} s: the "
                               f"server is busy. Try again in {retry} s, or send fewer claims per request.",
                               retry_after_s=retry) from None

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
            Gauge("fever_batches_total", "Batches checked.", stats.batches if stats else 0, "counter"),
            Gauge("fever_batch_busy_seconds_total", "Seconds spent checking batches.",
                  round(stats.busy_s, 6) if stats else 0, "counter"),
        ]


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


class _LimitBody:
    """Refuses a request body over ``max_bytes`` (by its Content-Length, or as it arrives) with a 413 that the app's
    error handler words, whichever endpoint reads it."""

    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", ())).get(b"content-length", b"")
        declared = int(length) if length.isdigit() else 0
        received = 0

        async def receive_within_limit():
            nonlocal received
            if declared > self.max_bytes:
                raise StarletteHTTPException(413)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise StarletteHTTPException(413)
            return message

        await self.app(scope, receive_within_limit, send)


ERRORS = {
    401: {"model": ErrorResponse, "description": "no API key, or the wrong one (when the server has one)"},
    413: {"model": ErrorResponse, "description": "the body is larger than the server's limit"},
    422: {"model": ErrorResponse, "description": "the body is not what the endpoint takes, or the claim can't be "
          "checked (empty, too long, no words); the message says which"},
    503: {"model": ErrorResponse, "description": "loading, overloaded, or timed out: try again after Retry-After "
          "seconds", "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}}},
}
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
    )
    app.state.service = service
    app.add_middleware(_LimitBody, max_bytes=config.max_body_bytes)
    app.add_middleware(_Observe, metrics=service.metrics)

    def error_response(request: Request, error: ServiceError) -> JSONResponse:
        service.metrics.error(_route(request.scope), error.code)
        headers = {"Retry-After": str(error.retry_after_s)} if error.retry_after_s is not None else None
        if error.status == 401:
            headers = {"WWW-Authenticate": API_KEY_HEADER}
        body = ErrorResponse(data={"code": error.code, "message": error.message}).model_dump()
        return JSONResponse(body, status_code=error.status, headers=headers)

    @app.exception_handler(ServiceError)
    async def on_service_error(request: Request, error: ServiceError) -> JSONResponse:
        return error_response(request, error)

    @app.exception_handler(RequestValidationError)
    async def on_invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(request, ServiceError(422, "invalid_request", _describe(error.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 413:
            message = (f"The request body is larger than this server's limit of {config.max_body_bytes:,} bytes: "
                       "send fewer or shorter claims per request.")
            return error_response(request, ServiceError(413, "body_too_large", message))
        if error.status_code == 400:  # FastAPI's answer to a body it can't decode
            return error_response(request, ServiceError(422, "invalid_request", "The body is not JSON in UTF-8."))
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, f"http_{error.status_code}")
        message = {404: "No such endpoint: see /docs for the endpoints.",
                   405: "This endpoint does not take that method: see /docs."}.get(error.status_code, str(error.detail))
        response = error_response(request, ServiceError(error.status_code, code, message))
        if error.headers:
            response.headers.update(error.headers)
        return response

    @app.exception_handler(Exception)
    async def on_failure(request: Request, error: Exception) -> JSONResponse:
        log.exception("Request failed")
        message = f"The check failed on the server ({error.__class__.__name__}); the server log has the details."
        return error_response(request, ServiceError(500, "internal_error", message))

    key_header = APIKeyHeader(name=API_KEY_HEADER, auto_error=False, description="the server's FEVER_API_KEY")

    async def require_key(key: str | None = Depends(key_header)) -> None:
        if not (key and hmac.compare_digest(key.encode(), config.api_key.encode())):
            raise ServiceError(401, "unauthorized", f"Send the server's API key in the {API_KEY_HEADER} header.")

    guarded = [Depends(require_key)] if config.api_key else []

    @app.post("/check", response_model=CheckResponse, responses=ERRORS, dependencies=guarded,
              summary="Check one claim", tags=["checking"])
    async def check(body: CheckRequest) -> JSONResponse:
        """The claim's verdict, probabilities and reason, its evidence with stances and links, the pages with why
        they were retrieved, timings and warnings: the JSON of `python -m fever_core check --json`."""
        options = body.options.to_options() if body.options else None
        outcome = (await service.check([ClaimRequest(service.corpus(body.corpus), body.claim, options)]))[0]
        if isinstance(outcome, ClaimError):
            raise ServiceError(422, "bad_claim", str(outcome))
        return JSONResponse(outcome.to_dict())

    @app.post("/predict", response_model=PredictResponse, responses=ERRORS, dependencies=guarded,
              summary="Check claims in the FEVER 2.0 builders' format", tags=["checking"])
    async def predict(body: PredictRequest) -> JSONResponse:
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
        outcomes = await service.check([ClaimRequest(corpus, i["claim"], options) for i in instances]) if instances else []
        predictions = []
        for instance, outcome in zip(instances, outcomes):
            if isinstance(outcome, ClaimError):
                prediction = {"id": instance["id"], "predicted_label": NEI, "predicted_evidence": [],
                              "error": str(outcome)}
            else:
                prediction = outcome.fever_prediction(instance["id"])
            predictions.append({**prediction, "request_instance": instance})
        return JSONResponse({"result": "success", "data": {"predictions": predictions}})

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
        return JSONResponse(body.model_dump(), status_code=200 if service.status == "ready" else 503)

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
