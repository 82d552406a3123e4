"""The fact-checking service: an HTTP API over the checker, run with ``python -m fever_core serve``.

:mod:`~fever_core.service.app` makes the app (:func:`~fever_core.service.app.create_app`) from its parts:
:mod:`~fever_core.service.routes` (the endpoints), :mod:`~fever_core.service.state` (what they share: the checkers,
the micro-batcher of :mod:`~fever_core.service.batching` that verifies concurrent requests' claims together, the
metrics of :mod:`~fever_core.service.metrics`), :mod:`~fever_core.service.middleware` (the guards every request
passes, and JSON bodies read with a depth limit and cleaned of lone surrogates) and :mod:`~fever_core.service.errors`
(every error answered one way). :mod:`~fever_core.service.config` holds its limits
(:class:`~fever_core.service.config.ServiceConfig`), :mod:`~fever_core.service.schemas` the request and response
bodies (the OpenAPI document), :mod:`~fever_core.service.startup` checks what must be there before starting and
loads the checkers, and :mod:`~fever_core.service.server` makes the uvicorn server that ``serve`` runs, with its
guards against slow and idle connections.

The public names below are imported on first use (``from fever_core.service import ServiceConfig`` imports
``config.py`` only), so reading the limits does not import the web framework, and importing the package imports
nothing at all.
"""

from __future__ import annotations

import importlib
from typing import Any

# each public name -> the module of this package that defines it
_HOMES = {
    "create_app": "app",
    "API_KEY_HEADER": "config",
    "ServiceConfig": "config",
    "service_flags": "config",
    "ServiceStartError": "startup",
    "check_can_serve": "startup",
    "make_server": "server",
    "raise_file_limit": "server",
}

__all__ = [
    "API_KEY_HEADER",
    "ServiceConfig",
    "ServiceStartError",
    "check_can_serve",
    "create_app",
    "make_server",
    "raise_file_limit",
    "service_flags",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value  # imported once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
