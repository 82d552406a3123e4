"""``POST /claimreview``: /check's body in, the check as schema.org ClaimReview JSON-LD out, with its provenance."""

from __future__ import annotations

import json

from fever_core.workbench.shown import verdict_shown
from tests.jsonld import expand, scripts_when_embedded, values

JAWS = "Jaws was directed by a man born in Ohio."


def test_claimreview_answers_the_check_as_json_ld_with_its_provenance(client, checker):
    body = {
        "claim": JAWS,
        "options": {"sentences_k": 2},
        "author": "Fact Desk",
        "author_type": "Person",
        "url": "https://example.org/checks/jaws",
    }
    response = client.post("/claimreview", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/ld+json")
    document = response.json()
    verdict = checker.check(JAWS).verdict  # the tiny verifier is deterministic
    label, shown = verdict.label, verdict_shown(verdict.label, verdict.label_withheld)  # as its card says it
    assert document["claimReviewed"] == JAWS and document["reviewRating"]["alternateName"] == shown
    assert document["author"] == {"@type": "Person", "name": "Fact Desk"}
    (review,), dropped = expand(document)
    assert not dropped and values(review, "url") == ["https://example.org/checks/jaws"]
    facts = {values(node, "propertyID")[0]: values(node, "value") for node in values(review, "additionalProperty")}
    assert facts["corpus"] == ["fixture"] and facts["sentences_k"] == [2] and facts["feverLabel"] == [label]
    assert facts["corpusChecksum"][0].startswith("sha256:") and facts["verifierChecksum"]


def test_claimreview_is_by_the_workbench_unless_an_author_is_named(client):
    document = client.post("/claimreview", json={"claim": JAWS}).json()
    assert document["author"] == {"@type": "Organization", "name": "FEVER Workbench"} and "url" not in document


def test_claimreview_refuses_an_author_or_a_claim_that_can_t_be_one_saying_why(client):
    for body, code, words in [
        ({"claim": JAWS, "author": "  "}, "invalid_request", "author's name is empty"),
        ({"claim": JAWS, "author_type": "Robot"}, "invalid_request", "author_type"),
        ({"claim": JAWS, "url": "./?claim=x"}, "invalid_request", "url"),
        ({"claim": JAWS, "url": 'https://example.org/"><script>'}, "invalid_request", "url"),
        ({"claim": JAWS, "url": "https://example.org/<b>"}, "invalid_request", "url"),
        ({"claim": "🙂"}, "bad_claim", "no words or numbers"),
    ]:
        response = client.post("/claimreview", json=body)
        assert response.status_code == 422 and response.json()["data"]["code"] == code, response.text
        assert words in response.json()["data"]["message"]


def test_the_openapi_document_says_claimreview_answers_json_ld(client):
    operation = client.get("/openapi.json").json()["paths"]["/claimreview"]["post"]
    assert "application/ld+json" in operation["responses"]["200"]["content"]
    assert {"claim", "corpus", "options", "author", "author_type", "url"} <= set(
        client.get("/openapi.json").json()["components"]["schemas"]["ClaimReviewRequest"]["properties"]
    )


def test_claimreview_pasted_into_a_page_s_script_is_one_script_whatever_the_claim_holds(client):
    claim = "Jaws is a film.</script><script>alert(1)</script>"
    response = client.post("/claimreview", json={"claim": claim, "author": "Desk </script>"})
    assert response.status_code == 200, response.text
    (script,) = scripts_when_embedded(response.text)  # issue 44, item 4
    assert json.loads(script) == response.json() and response.json()["claimReviewed"] == claim
    assert not {"<", ">", "&"} & set(response.text)
