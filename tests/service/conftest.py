"""The service on the fixture corpus with the tiny verifier, through FastAPI's TestClient (no port, no network)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from fever_core.device import limit_cpu_threads
from fever_core.service.app import create_app
from fever_core.service.config import ServiceConfig


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
