"""The OpenAPI document describes what the service answers, field for field: live answers of /check and /check-text
validate against ``/openapi.json``'s schemas, which allow no field they do not describe (so a field the library adds
and the document leaves out fails here, as does one the document describes and the answers lack)."""

from __future__ import annotations

import jsonschema
import pytest

CLAIMS = [
    "Jaws was directed by a man born in Ohio.",
    "Edinburgh is the capital of Scotland and has a famous castle.",
    "Steven Spielberg directed 2001: A Space Odyssey.",
]


@pytest.fixture(scope="module")
def spec(client) -> dict:
    return client.get("/openapi.json").json()


def validator(spec: dict, name: str) -> jsonschema.Draft202012Validator:
    """A validator of the document's schema ``name``, its references resolved within the document."""
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]})


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_live_check_answer_is_what_the_document_says(client, spec, claim):
    answer = client.post("/check", json={"claim": claim}).json()
    errors = sorted(validator(spec, "CheckResponse").iter_errors(answer), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    assert answer["settings"]["verifier"] and answer["settings"]["decider"] in {"learned", "rule"}


def test_a_live_check_text_answer_is_what_the_document_says(client, spec):
    answer = client.post("/check-text", json={"text": " ".join(CLAIMS)}).json()
    assert any(sentence["result"] for sentence in answer["sentences"])
    errors = sorted(validator(spec, "CheckTextResponse").iter_errors(answer), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_document_refuses_a_field_it_does_not_describe(client, spec):
    answer = client.post("/check", json={"claim": CLAIMS[0]}).json()
    answer["verdict"]["confidence_words"] = "very likely"
    assert not validator(spec, "CheckResponse").is_valid(answer)


def test_each_answer_model_is_its_record_field_for_field(spec):
    import dataclasses

    from fever_core.pipeline import CheckResult
    from fever_core.verification import DecidedBy, Verdict

    schemas = spec["components"]["schemas"]
    assert list(schemas["VerdictOut"]["properties"]) == [f.name for f in dataclasses.fields(Verdict)]
    assert "numbers" in schemas["VerdictOut"]["properties"]
    fields = [f.name for f in dataclasses.fields(CheckResult) if f.name != "claim_vector"]
    assert list(schemas["CheckResponse"]["properties"]) == [{"applied": "settings"}.get(f, f) for f in fields]
    assert schemas["DecidedBy"]["enum"] == [stage.value for stage in DecidedBy]
    assert schemas["VerdictOut"]["properties"]["decided_by"]["$ref"] == "#/components/schemas/DecidedBy"
    assert schemas["VerdictOut"]["properties"]["label"]["enum"] == ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
