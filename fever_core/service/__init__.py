"""The fact-checking service: an HTTP API over the checker, run with ``python -m fever_core serve``.

:mod:`~fever_core.service.app` makes the app (:func:`~fever_core.service.app.create_app`) and its endpoints,
:mod:`~fever_core.service.config` holds its limits (:class:`~fever_core.service.config.ServiceConfig`),
:mod:`~fever_core.service.schemas` the request and response bodies (the OpenAPI document),
:mod:`~fever_core.service.startup` checks what must be there before starting and loads the checkers,
:mod:`~fever_core.service.metrics` writes ``/metrics``, :mod:`~fever_core.service.batching` verifies the claims of
concurrent requests together in small batches, and :mod:`~fever_core.service.server` makes the uvicorn server
that ``serve`` runs, with its guards against slow and idle connections. Nothing is imported here, so reading the limits does not
import the web framework: the public names are the modules above.
"""
