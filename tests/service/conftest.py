"""The service on the fixture corpus with the tiny verifier, through FastAPI's TestClient (no port, no network), or
served for real on 127.0.0.1 where the behaviour is about sockets."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from fever_core.common.device import limit_cpu_threads
from fever_core.service.app import create_app
from fever_core.service.config import ServiceConfig
from fever_core.service.server import make_server


@pytest.fixture(scope="package", autouse=True)
def one_cpu_thread():
    """PyTorch on one thread, as ``serve`` runs it by default (``FEVER_APP_CPU_THREADS``): where other work shares
    the cores, a claim takes 0.05 s on one thread and 1.3 s on two (measured beside a training run)."""
    import torch

    before = torch.get_num_threads()
    limit_cpu_threads(1)
    yield
    torch.set_num_threads(before)


@contextmanager
def serving(checker, **config):
    """A started app (its batcher running) over ``checker`` (anything with ``check_many``, ``workspace`` and
    ``settings``) for the ``fixture`` corpus, with ``config``'s limits and no API key unless one is given."""
    app = create_app(checker.settings, "fixture", ServiceConfig(**{"api_key": "", **config}), {"fixture": checker})
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def client(checker):
    with serving(checker) as client:
        yield client


@contextmanager
def served(checker, **config) -> Iterator[tuple[int, object]]:
    """The app over ``checker`` served by :func:`~fever_core.service.server.make_server` on 127.0.0.1 (a free port),
    in a thread; yields the port and the app."""
    service_config = ServiceConfig(**{"api_key": "", **config})
    app = create_app(checker.settings, "fixture", service_config, {"fixture": checker})
    server = make_server(app, service_config, "127.0.0.1", 0, log_config=None)
    thread = threading.Thread(target=server.run, name="test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield server.servers[0].sockets[0].getsockname()[1], app
    finally:
        server.should_exit = True
        thread.join(30)
