"""How the service answers anything but success: :class:`ServiceError` (status, code, message, when to retry), the
one body every error has (:func:`~fever_core.service.schemas.error_body`), and the handlers that word FastAPI's and
Starlette's own errors (a body too large, too slow, not UTF-8, not what the endpoint takes) the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope

from fever_core.service.config import API_KEY_HEADER, ServiceConfig
from fever_core.service.metrics import Metrics, route_of
from fever_core.service.schemas import ErrorResponse, HealthResponse, error_body

log = logging.getLogger(__name__)


class ServiceError(Exception):
    """An answer other than success: HTTP status, error code, a message for people, and when to retry (seconds)."""

    def __init__(self, status: int, code: str, message: str, retry_after_s: int | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_s = retry_after_s


class BodyRefused(ValueError):
    """A body that is JSON but one the service won't read (nested too deeply); the message says why."""


class BodyNotUtf8(BodyRefused):
    """A body that is not UTF-8 (another encoding, UTF-16 and UTF-32 included, which JSON parsers may guess and
    take); answered 415, the message says where."""


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "no API key, or the wrong one (when the server has one)"},
    408: {"model": ErrorResponse, "description": "the body did not all arrive within the server's body timeout"},
    413: {
        "model": ErrorResponse,
        "description": "the body is larger than the server's limit, or (/check-text) its "
        "text has more sentences, or takes longer to split, than the server's limits",
    },
    415: {"model": ErrorResponse, "description": "the body is not UTF-8 (UTF-16 and UTF-32 included)"},
    422: {
        "model": ErrorResponse,
        "description": "the body is not what the endpoint takes, or the claim can't be "
        "checked (empty, too long, no words); the message says which",
    },
    503: {
        "model": ErrorResponse,
        "description": "loading, overloaded, or timed out: try again after Retry-After seconds",
        "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}},
    },
}
"""The error answers of an endpoint that checks claims, as the OpenAPI document lists them."""
NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {"model": HealthResponse, "description": "loading, or loading failed"}
}
"""``/health``'s answer while the service is not ready."""


def error_response(metrics: Metrics, scope: Scope, error: ServiceError) -> Response:
    """``error`` as every endpoint answers one (:func:`~fever_core.service.schemas.error_body`), counted."""
    metrics.error(route_of(scope), error.code)
    headers = {"Retry-After": str(error.retry_after_s)} if error.retry_after_s is not None else None
    if error.status == 401:
        headers = {"WWW-Authenticate": API_KEY_HEADER}
    return Response(
        error_body(error.code, error.message), status_code=error.status, headers=headers, media_type="application/json"
    )


def add_error_handlers(app: FastAPI, metrics: Metrics, config: ServiceConfig) -> None:
    """Make ``app`` answer every error as :func:`error_response` does, with a message that says what to do: a
    :class:`ServiceError` as raised, FastAPI's validation errors (422), Starlette's HTTP errors (a body over the
    limit 413, one too slow 408, one not UTF-8 415, no such endpoint 404...) and anything else (500, logged)."""

    def answer(request: Request, error: ServiceError) -> Response:
        return error_response(metrics, request.scope, error)

    @app.exception_handler(ServiceError)
    async def on_service_error(request: Request, error: ServiceError) -> Response:
        return answer(request, error)

    @app.exception_handler(RequestValidationError)
    async def on_invalid_request(request: Request, error: RequestValidationError) -> Response:
        return answer(request, ServiceError(422, "invalid_request", describe_invalid(error.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 413:
            message = (
                f"The request body is larger than this server's limit of {config.max_body_bytes:,} bytes: "
                "send fewer or shorter claims per request."
            )
            return answer(request, ServiceError(413, "body_too_large", message))
        if error.status_code == 408:
            message = (
                f"The request body did not all arrive within {config.body_timeout_s:g} s of its headers (or "
                "was shorter than its Content-Length): send the whole body at once."
            )
            response = answer(request, ServiceError(408, "body_timeout", message))
            response.headers.update(error.headers or {})
            return response
        if error.status_code == 400:  # FastAPI's answer to a body it can't decode
            cause = error.__cause__
            if isinstance(cause, BodyNotUtf8):
                return answer(request, ServiceError(415, "unsupported_encoding", str(cause)))
            if isinstance(cause, BodyRefused):
                message = str(cause)
            elif isinstance(cause, ValueError) and "digits" in str(cause):  # Python's limit on integer digits
                message = (
                    "A number in the body has more digits than JSON numbers here may have (4,300): no option "
                    "takes such a number."
                )
            else:
                message = "The body is not JSON in UTF-8."
            return answer(request, ServiceError(422, "invalid_request", message))
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, f"http_{error.status_code}")
        message = {
            404: "No such endpoint: see /docs for the endpoints.",
            405: "This endpoint does not take that method: see /docs.",
        }.get(error.status_code, str(error.detail))
        response = answer(request, ServiceError(error.status_code, code, message))
        if error.headers:
            response.headers.update(error.headers)
        return response

    @app.exception_handler(Exception)
    async def on_failure(request: Request, error: Exception) -> Response:
        log.exception("Request failed")
        message = f"The check failed on the server ({error.__class__.__name__}); the server log has the details."
        return answer(request, ServiceError(500, "internal_error", message))


MAX_PROBLEMS_SAID = 10
"""The most validation problems an error's message names (then how many more): a body of 90,000 unknown keys was
answered with 3.6 MB echoing them (issue 51)."""
MAX_PROBLEM_CHARS = 200
"""The most characters one problem's description takes in a message."""


def describe_invalid(errors: Sequence[dict[str, Any]]) -> str:
    """Pydantic's validation errors as one line: ``claim: Field required; options.pages_k: ...``, at most
    :data:`MAX_PROBLEMS_SAID` of them, each cut to :data:`MAX_PROBLEM_CHARS`."""
    parts = []
    for error in errors[:MAX_PROBLEMS_SAID]:
        if error.get("type") == "json_invalid":
            parts.append(f"the body is not valid JSON ({error.get('ctx', {}).get('error', 'decode error')})")
            continue
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        problem = f"{where or 'body'}: {error.get('msg', 'invalid')}"
        parts.append(problem if len(problem) <= MAX_PROBLEM_CHARS else problem[: MAX_PROBLEM_CHARS - 1] + "…")
    if len(errors) > MAX_PROBLEMS_SAID:
        parts.append(f"and {len(errors) - MAX_PROBLEMS_SAID:,} more problems")
    return "; ".join(parts) + "."
