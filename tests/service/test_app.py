"""The endpoints on the fixture corpus with the tiny verifier: shapes, the FEVER score of /predict, limits, errors,
the API key, overload and timeouts."""

from __future__ import annotations

import json
import threading
import time

import pytest

from fever_core.common.formats import load_claims
from fever_core.evaluation.run import evaluate
from fever_core.evaluation.scorer import fever_score
from fever_core.pipeline import MAX_CLAIM_CHARS
from fever_core.service.state import ClaimRequest, claim_cost
from tests.conftest import CLAIMS
from tests.service.conftest import serving
from tests.service.test_check_many import without_timings

JAWS = "Jaws was directed by a man born in Ohio."


def error_of(response) -> dict:
    body = response.json()
    assert body["result"] == "error" and set(body["data"]) == {"code", "message"}, body
    return body["data"]


def test_check_answers_the_json_of_check_json(client, checker):
    response = client.post("/check", json={"claim": JAWS})
    assert response.status_code == 200
    data = response.json()
    expected = without_timings(checker.check(JAWS))
    assert {k: v for k, v in data.items() if k != "timings"} == json.loads(json.dumps(expected))
    assert set(data["timings"]) >= {"analysis", "documents", "sentences", "verification", "total"}
    assert data["evidence"][0]["stance"] is not None and data["pages"][0]["signals"]


def test_check_takes_the_corpus_and_options(client, checker):
    from fever_core.pipeline import CheckOptions

    body = {"claim": JAWS, "corpus": "fixture", "options": {"two_hop": False, "sentences_k": 2, "verdict": "rule"}}
    data = client.post("/check", json=body).json()
    expected = without_timings(checker.check(JAWS, CheckOptions(two_hop=False, sentences_k=2, verdict="rule")))
    assert {k: v for k, v in data.items() if k != "timings"} == json.loads(json.dumps(expected))
    assert len(data["evidence"]) == 2


def test_predict_answers_in_the_fever_api_format(client):
    instances = [
        {"id": 7, "claim": JAWS, "label": "SUPPORTS"},
        "Edinburgh has a famous castle.",
        {"id": "x", "claim": ""},
    ]
    response = client.post("/predict", json={"instances": instances})
    assert response.status_code == 200
    body = response.json()
    assert body["result"] == "success"
    first, second, bad = body["data"]["predictions"]
    assert first["id"] == 7 and first["request_instance"] == instances[0]
    assert first["predicted_label"] in {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
    assert all(isinstance(page, str) and isinstance(line, int) for page, line in first["predicted_evidence"])
    assert second["id"] == 1 and second["request_instance"] == {"id": 1, "claim": instances[1]}
    assert bad == {
        "id": "x",
        "predicted_label": "NOT ENOUGH INFO",
        "predicted_evidence": [],
        "error": bad["error"],
        "request_instance": {"id": "x", "claim": ""},
    }
    assert "empty" in bad["error"]


def test_predict_scores_as_evaluate_does_on_the_same_claims(client, checker, claims_file):
    claims = load_claims(claims_file)
    response = client.post("/predict", json={"instances": [{"id": c.id, "claim": c.claim} for c in claims]})
    predictions = response.json()["data"]["predictions"]
    served = fever_score(predictions, [c.to_fever() for c in claims])
    evaluated = evaluate(checker, claims, progress=False).scores
    assert served == evaluated
    assert [p["id"] for p in predictions] == [c["id"] for c in CLAIMS]


def test_an_empty_predict_answers_no_predictions(client):
    assert client.post("/predict", json={"instances": []}).json() == {"result": "success", "data": {"predictions": []}}


@pytest.mark.parametrize(
    "body, code, words",
    [
        ({"claim": "x" * (MAX_CLAIM_CHARS + 1)}, "bad_claim", "limit is 1,000"),
        ({"claim": "  "}, "bad_claim", "claim is empty"),
        ({"claim": "?!"}, "bad_claim", "no words or numbers"),
        ({}, "invalid_request", "claim: Field required"),
        ({"claim": 3}, "invalid_request", "claim: Input should be a valid string"),
        ({"claim": JAWS, "options": {"pages_k": 0}}, "invalid_request", "options.pages_k"),
        ({"claim": JAWS, "options": {"speed": "fast"}}, "invalid_request", "options.speed: Extra inputs"),
        ({"claim": JAWS, "options": {"nei_threshold": False}}, "invalid_request", "options.nei_threshold"),
        ({"claim": JAWS, "corpus": "fever-dev"}, "corpus_not_served", "serves fixture"),
    ],
)
def test_bad_input_to_check_gets_a_clear_422(client, body, code, words):
    response = client.post("/check", json=body)
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == code and words in error["message"], error


def test_a_body_of_many_unknown_keys_gets_a_short_422_naming_a_few(client):
    body = {"claim": JAWS, "options": {f"key{i}" + "x" * 100: 1 for i in range(5_000)}}
    response = client.post("/check", json=body)
    assert response.status_code == 422 and len(response.content) < 4_000  # not 5,000 keys echoed (issue 51)
    message = error_of(response)["message"]
    assert message.count("Extra inputs are not permitted") == 10 and "and 4,990 more problems" in message


def test_a_number_of_5_000_digits_is_refused_as_such(client):
    body = b'{"claim": "Jaws is a film.", "options": {"pages_k": ' + b"9" * 5_000 + b"}}"
    response = client.post("/check", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert "more digits than JSON numbers here may have" in error_of(response)["message"]


def test_malformed_json_gets_a_clear_422(client):
    response = client.post("/check", content=b'{"claim": ', headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert "not valid JSON" in error_of(response)["message"]


def test_the_limits_on_instances_and_body_size(checker):
    with serving(checker, max_instances=3, max_queue=8, max_body_bytes=2000) as client:
        response = client.post("/predict", json={"instances": ["a claim"] * 4})
        assert response.status_code == 422
        error = error_of(response)
        assert error["code"] == "too_many_instances" and "at most 3 per request" in error["message"]
        response = client.post("/check", json={"claim": "y" * 3000})
        assert response.status_code == 413
        error = error_of(response)
        assert error["code"] == "body_too_large" and "2,000 bytes" in error["message"]
        limits = client.get("/corpora").json()["limits"]
        assert limits["max_instances"] == 3 and limits["max_body_bytes"] == 2000


def test_unknown_paths_and_methods_get_json_errors(client):
    assert error_of(client.get("/nothing"))["code"] == "not_found"
    response = client.get("/check")
    assert response.status_code == 405 and error_of(response)["code"] == "method_not_allowed"


def test_corpora_health_and_metrics(client):
    corpora = client.get("/corpora").json()
    assert corpora["default"] == "fixture"
    assert {"name": "fixture", "served": True, "pages": 9, "sentences": corpora["corpora"][0]["sentences"]} in corpora[
        "corpora"
    ]
    assert {c["name"] for c in corpora["corpora"] if not c["served"]} >= {"embedded", "fever-dev"}
    assert client.get("/health").json() == {"status": "ready", "corpora": ["fixture"], "message": ""}
    client.post("/check", json={"claim": JAWS})
    client.post("/check", json={"claim": ""})
    metrics = client.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert 'fever_http_requests_total{route="/check",status="200"}' in text
    assert 'fever_http_errors_total{route="/check",code="bad_claim"} ' in text
    assert 'fever_http_request_duration_seconds_bucket{route="/check",le="+Inf"}' in text
    assert "fever_queue_claims 0" in text and "fever_ready 1" in text and "fever_batches_total" in text


def test_openapi_and_docs_are_served(client):
    spec = client.get("/openapi.json").json()
    assert {"/check", "/predict", "/corpora", "/health", "/metrics"} <= set(spec["paths"])
    assert "503" in spec["paths"]["/check"]["post"]["responses"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger-ui" in docs.text and "cdn" not in docs.text
    assert client.get("/static-offline-docs/swagger-ui-bundle.js").status_code == 200


def test_the_api_key_guards_everything_but_health_and_docs(checker):
    with serving(checker, api_key="s3cret") as client:
        response = client.post("/check", json={"claim": JAWS})
        assert response.status_code == 401 and error_of(response)["code"] == "unauthorized"
        assert "X-API-Key" in error_of(response)["message"]
        assert client.post("/check", json={"claim": JAWS}, headers={"X-API-Key": "wrong"}).status_code == 401
        assert client.post("/check", json={"claim": JAWS}, headers={"X-API-Key": "s3cret"}).status_code == 200
        assert client.get("/metrics").status_code == 401
        assert client.get("/health").status_code == 200 and client.get("/openapi.json").status_code == 200


class HeldChecker:
    """The fixture checker, but each batch waits until released: a slow server on demand."""

    def __init__(self, checker):
        self.checker = checker
        self.workspace = checker.workspace
        self.settings = checker.settings
        self.started = threading.Event()
        self.release = threading.Event()

    def check_many(self, claims, options=None, cancelled=None):
        self.started.set()
        self.release.wait(20)
        return self.checker.check_many(claims, options, cancelled)


def post_in_background(client, path: str, body: dict) -> tuple[threading.Thread, list]:
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(client.post(path, json=body)))
    thread.start()
    return thread, answers


def test_a_full_queue_answers_503_with_retry_after_at_once(checker):
    held = HeldChecker(checker)
    with serving(held, max_batch=1, max_queue=1, max_instances=1) as client:
        first, first_answer = post_in_background(client, "/check", {"claim": JAWS})
        assert held.started.wait(10)  # the first claim is being checked; the queue is empty
        second, second_answer = post_in_background(client, "/check", {"claim": JAWS})
        batcher = client.app.state.service.batcher
        deadline = time.monotonic() + 10
        while batcher.waiting < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        started = time.monotonic()
        refused = client.post("/check", json={"claim": JAWS})
        assert time.monotonic() - started < 2
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
        error = error_of(refused)
        assert error["code"] == "overloaded" and "Try again in" in error["message"]
        held.release.set()
        first.join(20)
        second.join(20)
        assert first_answer[0].status_code == 200 and second_answer[0].status_code == 200
        assert 'fever_http_errors_total{route="/check",code="overloaded"} 1' in client.get("/metrics").text


def test_a_request_that_waits_too_long_answers_503_with_retry_after(checker):
    checker.check(JAWS)  # warm: the check after the timeout must fit in it
    held = HeldChecker(checker)
    with serving(held, timeout_s=0.5) as client:
        started = time.monotonic()
        response = client.post("/predict", json={"instances": [JAWS, JAWS]})
        assert time.monotonic() - started < 5
        assert response.status_code == 503 and response.headers["Retry-After"]
        assert error_of(response)["code"] == "timeout"
        held.release.set()
        service = client.app.state.service
        deadline = time.monotonic() + 20
        while service.claims_stopped < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert service.claims_stopped == 1  # the claim taken when time ran out was not checked on
        assert client.post("/check", json={"claim": JAWS}).status_code == 200


class FirstBatchOnlyChecker(HeldChecker):
    """The fixture checker, checking its first batch at once and holding the others until released."""

    def check_many(self, claims, options=None, cancelled=None):
        if self.started.is_set():
            self.release.wait(20)
        self.started.set()
        return self.checker.check_many(claims, options, cancelled)


def test_a_predict_that_runs_out_of_time_answers_what_it_checked_and_marks_the_rest(checker):
    held = FirstBatchOnlyChecker(checker)
    with serving(held, timeout_s=8.0, max_batch=1) as client:
        response = client.post("/predict", json={"instances": ["Jaws is a film.", JAWS, "Soul Food is a film."]})
        held.release.set()
        assert response.status_code == 200  # not a bare 503 that throws the checked claim away (issue 51)
        first, *rest = response.json()["data"]["predictions"]
        assert "error" not in first and first["request_instance"]["claim"] == "Jaws is a film."
        assert all(p["predicted_label"] == "NOT ENOUGH INFO" and p["predicted_evidence"] == [] for p in rest)
        assert all(p["error"].startswith("Not checked within the 8 s timeout") for p in rest)


def test_requests_beyond_the_connection_limit_get_a_json_503_but_health_is_answered(checker):
    held = HeldChecker(checker)
    with serving(held, max_connections=2, max_batch=1) as client:
        first, first_answer = post_in_background(client, "/check", {"claim": JAWS})
        assert held.started.wait(10)
        second, second_answer = post_in_background(client, "/check", {"claim": JAWS})
        batcher = client.app.state.service.batcher
        deadline = time.monotonic() + 10
        while batcher.waiting < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        refused = client.post("/check", json={"claim": JAWS})
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
        error = error_of(refused)
        assert error["code"] == "overloaded" and "2 requests at once" in error["message"]
        assert client.get("/health").status_code == 200
        held.release.set()
        first.join(20)
        second.join(20)
        assert first_answer[0].status_code == 200 and second_answer[0].status_code == 200


def test_lone_surrogates_are_dropped_from_requests_and_every_instance_is_answered(client):
    body = (
        '{"instances": ["Jaws is a film.", "\\ud800", {"id": "a\\udfff", "claim": "Jaws \\ud800is a film.", '
        '"note\\ud800": ["x\\udc00y"]}]}'
    )
    response = client.post("/predict", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text
    plain, lone, instance = response.json()["data"]["predictions"]
    assert plain["predicted_label"] in {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
    assert lone["request_instance"] == {"id": 1, "claim": ""} and "empty" in lone["error"]
    assert instance["id"] == "a" and instance["request_instance"] == {
        "id": "a",
        "claim": "Jaws is a film.",
        "note": ["xy"],
    }
    assert instance["predicted_evidence"] == plain["predicted_evidence"]
    response = client.post(
        "/check", content='{"claim": "Jaws\\ud800 is a film."}', headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200 and response.json()["claim"] == "Jaws is a film."


class SurrogateChecker:
    """The fixture checker, whose results carry a lone surrogate (as text from a damaged corpus could)."""

    def __init__(self, checker):
        self.checker = checker
        self.workspace = checker.workspace
        self.settings = checker.settings

    def check_many(self, claims, options=None, cancelled=None):
        import dataclasses

        return [
            dataclasses.replace(result, claim=result.claim + "\ud800")
            for result in self.checker.check_many(claims, options, cancelled)
        ]


def test_an_answer_with_a_lone_surrogate_is_still_sent(checker):
    with serving(SurrogateChecker(checker)) as client:
        response = client.post("/check", json={"claim": JAWS})
        assert response.status_code == 200 and response.json()["claim"] == JAWS


@pytest.mark.parametrize("depth", [65, 100_000])
def test_json_nested_too_deeply_is_refused_as_such(client, depth):
    response = client.post("/check", content="[" * depth + "]" * depth, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == "invalid_request" and "nests more than 64 levels" in error["message"]


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_a_body_that_is_not_utf8_is_refused_415_even_in_an_encoding_json_could_guess(client, encoding):
    body = json.dumps({"claim": "Zürich is in Switzerland."}, ensure_ascii=False).encode(encoding)
    response = client.post("/check", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 415
    error = error_of(response)
    assert error["code"] == "unsupported_encoding" and "not UTF-8" in error["message"] and "UTF-8" in error["message"]
    bom = client.post(
        "/check",
        content=b"\xef\xbb\xbf" + json.dumps({"claim": JAWS}).encode(),
        headers={"Content-Type": "application/json"},
    )
    assert bom.status_code == 200  # UTF-8 with a byte order mark is UTF-8


@pytest.mark.parametrize(
    "instances, same",
    [
        ([JAWS, {"id": 0, "claim": JAWS}], "instances 0 and 1 have the same id 0"),
        ([{"id": "a", "claim": JAWS}, {"id": "a", "claim": JAWS}], "id 'a'"),
    ],
)
def test_predict_refuses_two_instances_with_one_id(client, instances, same):
    response = client.post("/predict", json={"instances": instances})
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == "invalid_request" and same in error["message"] and "an id of its own" in error["message"]
    fine = client.post("/predict", json={"instances": [JAWS, {"id": 5, "claim": JAWS}, {"id": "0", "claim": JAWS}]})
    assert [p["id"] for p in fine.json()["data"]["predictions"]] == [0, 5, "0"]


def test_a_long_claim_weighs_more_in_the_queue_and_one_over_the_limit_no_more_than_the_limit():
    assert claim_cost(ClaimRequest("fixture", "Marie Curie won two Nobel Prizes.")) == 1.0
    longest = claim_cost(ClaimRequest("fixture", "x" * MAX_CLAIM_CHARS))
    assert 5 <= longest <= 7  # measured: a 957-character claim took 6.0 plain claims' time
    assert claim_cost(ClaimRequest("fixture", "x" * 1_000_000)) == longest  # refused before any model reads it
