"""schemathesis against the service's own OpenAPI document: generated requests to every endpoint, those the document
allows and those it does not; none may get a 5xx, and every answer must be one the document lists, in its shape.

(schemathesis's pytest plugin does not run under this pytest, so the cases are drawn with Hypothesis directly.)"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from fever_core.service.app import create_app
from fever_core.service.config import ServiceConfig

EXAMPLES = {"POST /check": 100, "POST /claimreview": 30, "POST /predict": 60}
"""Cases per operation and mode; 10 for the others (each /check case checks a claim, about 20 ms here)."""
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
OPERATIONS = [
    "POST /check",
    "POST /claimreview",
    "POST /predict",
    "POST /check-text",
    "GET /corpora",
    "GET /health",
    "GET /metrics",
]


@pytest.fixture(scope="module")
def service_schema(checker):
    app = create_app(
        checker.settings, "fixture", ServiceConfig(api_key="", max_instances=16, max_queue=64), {"fixture": checker}
    )
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def test_the_document_lists_every_endpoint(service_schema):
    listed = {f"{op.ok().method.upper()} {op.ok().path}" for op in service_schema.get_all_operations()}
    assert listed == set(OPERATIONS)


# every operation with the inputs its document allows; those that take input with inputs it does not allow, too
RUNS = [(operation, GenerationMode.POSITIVE) for operation in OPERATIONS] + [
    (operation, GenerationMode.NEGATIVE) for operation in OPERATIONS if operation.startswith("POST")
]


@pytest.mark.parametrize("operation, mode", RUNS, ids=[f"{op}-{mode.value}" for op, mode in RUNS])
def test_no_generated_request_gets_a_server_error(service_schema, operation, mode):
    method, path = operation.split()
    endpoint = service_schema[path][method]

    @settings(
        max_examples=EXAMPLES.get(operation, 10),
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=endpoint.as_strategy(generation_mode=mode))
    def call(case):
        case.call_and_validate(checks=CHECKS)

    call()
