"""The endpoints: ``POST /check``, ``POST /claimreview``, ``POST /predict``, ``POST /check-text``, ``GET /corpora``,
``GET /health`` and ``GET /metrics``.

Each is a small function over the :class:`~fever_core.service.state.Service`: it reads its body (a schema of
:mod:`~fever_core.service.schemas`), hands claims to :meth:`~fever_core.service.state.Service.check` and answers, or
raises a :class:`~fever_core.service.errors.ServiceError`. An endpoint is added in the ``add_*_routes`` function of its
tag (``checking`` or ``service``); one that takes claims lists :data:`~fever_core.service.errors.ERRORS` as its
error answers and depends on ``guarded`` (the API key, when the server has one).
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import threading
from typing import Any

from fastapi import Depends, FastAPI, Request, Response
from fastapi.params import Depends as Dependency
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import APIKeyHeader
from starlette.concurrency import run_in_threadpool

from fever_core.common import Claim, clean_json_text
from fever_core.corpus import list_corpora
from fever_core.evaluation import BatchRow
from fever_core.pipeline import MAX_CLAIM_CHARS, CheckResult, ClaimError
from fever_core.service.config import API_KEY_HEADER, ServiceConfig
from fever_core.service.errors import ERRORS, NOT_READY, ServiceError
from fever_core.service.metrics import CONTENT_TYPE
from fever_core.service.middleware import CleanJSONResponse
from fever_core.service.schemas import (
    CheckRequest,
    CheckResponse,
    CheckTextRequest,
    CheckTextResponse,
    ClaimReviewRequest,
    CorporaResponse,
    CorpusOut,
    HealthResponse,
    LimitsOut,
    PredictInstance,
    PredictRequest,
    PredictResponse,
)
from fever_core.service.state import ClaimRequest, Service
from fever_core.text_check import (
    NothingToCheck,
    TextCheck,
    TextReadError,
    TextTooLarge,
    find_sentences,
    plain_text,
    sentence_claims,
)
from fever_core.workbench import JSONLD_MEDIA_TYPE, Author, checker_provenance, claim_review, review_url, to_jsonld

CLAIMREVIEW: dict[str, Any] = {
    "description": "the check as a schema.org ClaimReview (https://schema.org/ClaimReview)",
    "content": {JSONLD_MEDIA_TYPE: {"schema": {"type": "object"}}},
}


class JSONLDResponse(CleanJSONResponse):
    """A JSON-LD document as :func:`~fever_core.workbench.to_jsonld` writes it: safe to paste into a web page's
    ``<script>`` (``<``, ``>`` and ``&`` escaped)."""

    media_type = JSONLD_MEDIA_TYPE

    def render(self, content: Any) -> bytes:
        try:
            return to_jsonld(content).encode("utf-8")
        except UnicodeEncodeError:
            return to_jsonld(clean_json_text(content)).encode("utf-8")


def add_routes(app: FastAPI, service: Service) -> None:
    """Every endpoint of the service, on ``app``."""
    guarded = api_key_guard(service.config)
    add_checking_routes(app, service, guarded)
    add_service_routes(app, service, guarded)


def api_key_guard(config: ServiceConfig) -> list[Dependency]:
    """The dependencies of an endpoint that needs the server's API key (none when it has no key): a request without
    it, or with another, is answered 401."""
    if not config.api_key:
        return []
    key_header = APIKeyHeader(name=API_KEY_HEADER, auto_error=False, description="the server's FEVER_API_KEY")

    async def require_key(key: str | None = Depends(key_header)) -> None:
        if not (key and hmac.compare_digest(key.encode(), config.api_key.encode())):
            raise ServiceError(401, "unauthorized", f"Send the server's API key in the {API_KEY_HEADER} header.")

    return [Depends(require_key)]


async def until_disconnected(request: Request) -> None:
    """Returns once the client has closed its connection (called after the body was read: nothing else arrives)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def sentences_while_connected(request: Request, text: str, config: ServiceConfig) -> list[Any]:
    """The text's sentences (:func:`~fever_core.text_check.find_sentences`, in a thread, within the server's
    ``max_text_sentences`` and ``split_timeout_s``); when the client closes its connection first, the splitting is
    stopped at its next paragraphs and the request ends (499).

    Raises:
        TextTooLarge: beyond the limits (the estimate before any parsing, then the count and the time).
        ServiceError: 499, the client left.
    """
    stop = threading.Event()
    splitting = asyncio.ensure_future(
        run_in_threadpool(find_sentences, text, config.max_text_sentences, config.split_timeout_s, stop)
    )
    gone = asyncio.ensure_future(until_disconnected(request))
    try:
        await asyncio.wait([splitting, gone], return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not splitting.done():
        stop.set()  # the thread ends at its next paragraphs; nobody waits for it
        splitting.add_done_callback(lambda task: task.exception())  # (its outcome, read: never "never retrieved")
        raise ServiceError(
            499,
            "client_closed_request",
            "The client closed the connection before the text's sentences were found; the splitting was stopped.",
        )
    return splitting.result()


def add_checking_routes(app: FastAPI, service: Service, guarded: list[Dependency]) -> None:
    """``POST /check``, ``POST /claimreview``, ``POST /predict`` and ``POST /check-text``: claims in, verdicts out."""
    config = service.config

    async def check_one(body: CheckRequest, request: Request) -> CheckResult:
        """The check of a request's claim; one that can't be checked is a 422 ``bad_claim``."""
        options = body.options.to_options() if body.options else None
        claims = [ClaimRequest(service.corpus(body.corpus), body.claim, options)]
        outcome = (await service.check(claims, functools.partial(until_disconnected, request)))[0]
        if isinstance(outcome, ClaimError):
            raise ServiceError(422, "bad_claim", str(outcome))
        return outcome

    @app.post(
        "/check",
        response_model=CheckResponse,
        responses=ERRORS,
        dependencies=guarded,
        summary="Check one claim",
        tags=["checking"],
    )
    async def check(body: CheckRequest, request: Request) -> JSONResponse:
        """The claim's verdict, probabilities and reason, its evidence with stances and links, the pages with why
        they were retrieved, timings and warnings: the JSON of `python -m fever_core check --json`."""
        return CleanJSONResponse((await check_one(body, request)).to_dict())

    @app.post(
        "/claimreview",
        responses={200: CLAIMREVIEW, **ERRORS},
        dependencies=guarded,
        summary="Check one claim: a schema.org ClaimReview",
        tags=["checking"],
    )
    async def claimreview(body: ClaimReviewRequest, request: Request) -> Response:
        """The check `/check` makes, as a schema.org ClaimReview in JSON-LD (`application/ld+json`): the claim, the
        verdict as a rating (1 Refuted, 2 Not enough info, 3 Supported), the Wikipedia pages of the evidence it used,
        the author, today's date, and the verifier's and the corpus's checksums and the settings as
        `additionalProperty` (docs/service.md)."""
        try:
            author = Author(body.author if body.author is not None else Author.name, body.author_type)
            if body.url is not None:
                review_url(body.url)
        except ValueError as exc:
            raise ServiceError(422, "invalid_request", str(exc)) from None
        result = await check_one(body, request)
        options = body.options.to_options() if body.options else None
        provenance = await asyncio.to_thread(checker_provenance, service.checkers[result.corpus], options)
        return JSONLDResponse(claim_review(result, provenance, author, url=body.url))

    @app.post(
        "/predict",
        response_model=PredictResponse,
        responses=ERRORS,
        dependencies=guarded,
        summary="Check claims in the FEVER 2.0 builders' format",
        tags=["checking"],
    )
    async def predict(body: PredictRequest, request: Request) -> JSONResponse:
        """A prediction per instance, in order: `predicted_label` and `predicted_evidence` (`[page, line]` pairs),
        with the instance echoed as `request_instance`; scoreable by the FEVER scorer. A claim that can't be checked
        (empty, too long) is predicted NOT ENOUGH INFO with no evidence and an `error`, as `evaluate` counts it;
        the other claims are checked all the same. When the server's timeout passes with some claims checked, those
        are answered and the others predicted the same way, their `error` saying they were not checked in time."""
        if len(body.instances) > config.max_instances:
            raise ServiceError(
                422,
                "too_many_instances",
                f"The request has {len(body.instances):,} instances; this server takes at most "
                f"{config.max_instances:,} per request. Send them in several requests.",
            )
        instances: list[dict[str, Any]] = [
            i.model_dump() if isinstance(i, PredictInstance) else {"id": n, "claim": i}
            for n, i in enumerate(body.instances)
        ]
        corpus = service.corpus(body.corpus)
        options = body.options.to_options() if body.options else None
        claims = [ClaimRequest(corpus, i["claim"], options) for i in instances]
        outcomes = (
            await service.check(claims, functools.partial(until_disconnected, request), partial=True) if claims else []
        )
        predictions = [
            {
                **BatchRow.of(Claim(instance["id"], instance["claim"], None), outcome).fever_prediction(),
                "request_instance": instance,
            }
            for instance, outcome in zip(instances, outcomes)
        ]
        return CleanJSONResponse({"result": "success", "data": {"predictions": predictions}})

    @app.post(
        "/check-text",
        response_model=CheckTextResponse,
        responses=ERRORS,
        dependencies=guarded,
        summary="Check the check-worthy sentences of a text",
        tags=["checking"],
    )
    async def check_text(body: CheckTextRequest, request: Request) -> JSONResponse:
        """The text's sentences with their offsets, whether each is worth checking and why, and for each
        check-worthy one its check (the JSON of `/check`), as `/check` gives it for that sentence alone; a summary
        of the verdicts. A text with no check-worthy sentence, or more than the instance limit, is refused (422); one
        with more sentences than the server splits, estimated before splitting or counted while, or that takes longer
        to split than its limit, is refused (413 `text_too_large`). A client that leaves stops the splitting."""
        corpus = service.corpus(body.corpus)
        try:
            text = plain_text(body.text)
            sentences = await sentences_while_connected(request, text, config)
            claims = sentence_claims(sentences)
        except TextTooLarge as exc:
            raise ServiceError(413, "text_too_large", str(exc)) from None
        except TextReadError as exc:
            raise ServiceError(422, "bad_text", str(exc)) from None
        except NothingToCheck as exc:
            raise ServiceError(422, "nothing_to_check", str(exc)) from None
        if len(claims) > config.max_instances:
            raise ServiceError(
                422,
                "too_many_sentences",
                f"The text has {len(claims):,} check-worthy sentences; this server checks at most "
                f"{config.max_instances:,} per request. Send the text in parts.",
            )
        options = body.options.to_options() if body.options else None
        outcomes = await service.check(
            [ClaimRequest(corpus, c.claim, options) for c in claims], functools.partial(until_disconnected, request)
        )
        rows = [BatchRow.of(claim, outcome) for claim, outcome in zip(claims, outcomes)]
        return CleanJSONResponse(TextCheck.of(text, sentences, rows).to_dict())


def add_service_routes(app: FastAPI, service: Service, guarded: list[Dependency]) -> None:
    """``GET /corpora``, ``GET /health`` and ``GET /metrics``: what the server serves and how it is doing."""
    config = service.config

    @app.get(
        "/corpora",
        response_model=CorporaResponse,
        responses={401: ERRORS[401]},
        dependencies=guarded,
        summary="The corpora, which this server serves, and its limits",
        tags=["service"],
    )
    async def corpora() -> CorporaResponse:
        served: dict[str, dict[str, int]] = {}
        for name, checker in service.checkers.items():
            stats = checker.store.stats()
            served[name] = {"pages": stats.pages, "sentences": stats.sentences}
        names = list(dict.fromkeys([*service.corpora, *list_corpora(service.settings.data_dir)]))
        limits = {name: getattr(config, name) for name in LimitsOut.model_fields if name != "max_claim_chars"}
        return CorporaResponse(
            default=service.corpora[0],
            corpora=[CorpusOut(name=name, served=name in service.corpora, **served.get(name, {})) for name in names],
            limits=LimitsOut(max_claim_chars=MAX_CLAIM_CHARS, **limits),
        )

    @app.get(
        "/health",
        response_model=HealthResponse,
        responses=NOT_READY,
        summary="Ready to check claims?",
        tags=["service"],
    )
    async def health() -> JSONResponse:
        """200 once the models and indexes are loaded; 503 while loading (or if loading failed)."""
        body = HealthResponse(status=service.status, corpora=service.corpora, message=service.message)
        return CleanJSONResponse(body.model_dump(), status_code=200 if service.status == "ready" else 503)

    @app.get(
        "/metrics",
        response_class=PlainTextResponse,
        responses={401: ERRORS[401]},
        dependencies=guarded,
        summary="Prometheus metrics",
        tags=["service"],
    )
    async def metrics() -> PlainTextResponse:
        """Requests by route and status, errors by code, latency histograms, the queue and the batches."""
        return PlainTextResponse(service.metrics.render(service.gauges()), media_type=CONTENT_TYPE)
