"""The HTTP API over the checker: :func:`create_app` makes the FastAPI app that ``python -m fever_core serve`` runs.

Endpoints (:mod:`~fever_core.service.routes`): ``POST /check`` (one claim, the JSON of ``check --json``), ``POST
/claimreview`` (the same check as a schema.org ClaimReview in JSON-LD, with its provenance), ``POST /predict`` (the
FEVER 2.0 builders' format), ``POST /check-text`` (a text's check-worthy sentences, each checked as ``/check`` checks
it), ``GET /corpora``, ``GET /health`` (200 once models and indexes are loaded, 503 before), ``GET /metrics``
(Prometheus text), and the OpenAPI document at ``/openapi.json`` with its docs at ``/docs`` (served from the install,
no CDN). What they share is the :class:`~fever_core.service.state.Service`
(the checkers, the micro-batcher, the metrics); every request passes the guards of
:mod:`~fever_core.service.middleware` first, and every error is answered as :mod:`~fever_core.service.errors` words it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI, Response
from fastapi_offline import FastAPIOffline
from starlette.types import Scope

from fever_core.common import Settings
from fever_core.pipeline import Checker
from fever_core.service.config import API_KEY_HEADER, ServiceConfig
from fever_core.service.errors import ServiceError, add_error_handlers, error_response
from fever_core.service.middleware import CleanJSONResponse, ServiceRoute, add_guards
from fever_core.service.routes import add_routes
from fever_core.service.startup import check_can_serve
from fever_core.service.state import Service

DESCRIPTION = (
    "Fact checking against Wikipedia: a claim in, a verdict (SUPPORTS, REFUTES or NOT ENOUGH INFO) with ranked and "
    "scored evidence out. `/predict` speaks the FEVER 2.0 builders' format. Claims of concurrent requests are "
    "verified together in small batches; when the queue is full the answer is 503 with Retry-After."
)


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
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.start()
        yield
        service.stop()

    key_note = f" Send the API key in the `{API_KEY_HEADER}` header." if config.api_key else ""
    app = FastAPIOffline(
        title="FEVER Workbench",
        version="1.0",
        description=DESCRIPTION + key_note,
        lifespan=lifespan,
        redoc_url=None,
        default_response_class=CleanJSONResponse,
    )
    app.router.route_class = ServiceRoute
    app.state.service = service
    add_guards(
        app,
        service.metrics,
        config.max_body_bytes,
        config.body_timeout_s,
        config.max_connections,
        refuse=lambda scope: _refuse_beyond_limit(service, scope),
    )
    add_error_handlers(app, service.metrics, config)
    add_routes(app, service)
    return app


def _refuse_beyond_limit(service: Service, scope: Scope) -> Response:
    """The answer to a request beyond the server's limit of requests in progress: 503, with when to try again."""
    retry = service.batcher.retry_after_s() if service.batcher is not None else 1
    return error_response(
        service.metrics,
        scope,
        ServiceError(
            503,
            "overloaded",
            f"The server is answering {service.config.max_connections:,} requests at once, its limit. "
            f"Try again in {retry} s.",
            retry_after_s=retry,
        ),
    )
