"""``POST /check-text`` on the fixture corpus with the tiny verifier: the text's check-worthy sentences, each with
the verdict ``/check`` gives it alone; a text it can't check refused with a message."""

from __future__ import annotations

import pytest

from tests.service.conftest import serving

TEXT = """Films and their makers

Jaws is a 1975 thriller film directed by Steven Spielberg. I think it is wonderful. Spielberg was born in Cincinnati.
Who could forget the shark? Soul Food was released by Fox 2000 Pictures in 1997."""


def test_check_text_gives_each_check_worthy_sentence_the_verdict_check_gives_it(client):
    options = {"two_hop": False, "sentences_k": 3}
    response = client.post("/check-text", json={"text": TEXT, "corpus": "fixture", "options": options})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["text"] == TEXT and len(data["sentences"]) == 6
    checked = [s for s in data["sentences"] if s["checked"]]
    assert [s["text"] for s in checked] == ["Jaws is a 1975 thriller film directed by Steven Spielberg.",
                                            "Spielberg was born in Cincinnati.",
                                            "Soul Food was released by Fox 2000 Pictures in 1997."]
    assert data["sentences"][2]["reason"] == "an opinion (think)" and data["sentences"][2]["result"] is None
    for sentence in checked:
        alone = client.post("/check", json={"claim": sentence["text"], "options": options}).json()
        assert sentence["verdict"] == alone["verdict"]["label"]
        assert sentence["result"]["verdict"]["probabilities"] == pytest.approx(alone["verdict"]["probabilities"])
        assert [e["text"] for e in sentence["result"]["evidence"]] == [e["text"] for e in alone["evidence"]]
        assert TEXT[sentence["start"]:sentence["end"]] == sentence["text"]
    assert data["summary"]["checked"] == 3
    assert sum(data["summary"][label] for label in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")) == 3


@pytest.mark.parametrize("text, code, words", [
    ("Thank you all so much! I think we should do better. Will it rain?", "nothing_to_check",
     "None of the text's 3 sentences looks worth checking"),
    ("  \n\n ", "bad_text", "The text is empty"),
])
def test_a_text_it_can_t_check_is_refused_with_why(client, text, code, words):
    response = client.post("/check-text", json={"text": text})
    assert response.status_code == 422
    assert response.json()["data"]["code"] == code and words in response.json()["data"]["message"]


def test_a_text_with_more_check_worthy_sentences_than_a_request_may_check_is_refused(checker):
    with serving(checker, max_instances=2, max_queue=2) as client:
        response = client.post("/check-text", json={"text": TEXT})
    assert response.status_code == 422
    error = response.json()["data"]
    assert error["code"] == "too_many_sentences" and "3 check-worthy sentences" in error["message"]


def test_a_sentence_that_opens_with_a_pronoun_is_checked_as_the_name_it_stands_for(client):
    text = "Steven Spielberg directed Jaws in 1975. He was born in Cincinnati in 1946."
    options = {"two_hop": False, "sentences_k": 3}
    data = client.post("/check-text", json={"text": text, "corpus": "fixture", "options": options}).json()
    second = data["sentences"][1]
    assert second["text"] == "He was born in Cincinnati in 1946." and text[second["start"]:second["end"]] == second["text"]
    assert second["checked_as"] == "Steven Spielberg was born in Cincinnati in 1946." and second["checked"]
    alone = client.post("/check", json={"claim": second["checked_as"], "options": options}).json()
    assert second["result"]["claim"] == second["checked_as"] and second["verdict"] == alone["verdict"]["label"]
