"""``POST /check-text`` on the fixture corpus with the tiny verifier: the text's check-worthy sentences, each with
the verdict ``/check`` gives it alone; a text it can't check refused with a message."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from fever_core.text_check import find_sentences
from tests.service.conftest import served, serving

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
    assert [s["text"] for s in checked] == [
        "Jaws is a 1975 thriller film directed by Steven Spielberg.",
        "Spielberg was born in Cincinnati.",
        "Soul Food was released by Fox 2000 Pictures in 1997.",
    ]
    assert data["sentences"][2]["reason"] == "an opinion (think)" and data["sentences"][2]["result"] is None
    for sentence in checked:
        alone = client.post("/check", json={"claim": sentence["text"], "options": options}).json()
        assert sentence["verdict"] == alone["verdict"]["label"]
        assert sentence["result"]["verdict"]["probabilities"] == pytest.approx(alone["verdict"]["probabilities"])
        assert [e["text"] for e in sentence["result"]["evidence"]] == [e["text"] for e in alone["evidence"]]
        assert TEXT[sentence["start"] : sentence["end"]] == sentence["text"]
    assert data["summary"]["checked"] == 3
    assert sum(data["summary"][label] for label in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")) == 3


@pytest.mark.parametrize(
    "text, code, words",
    [
        (
            "Thank you all so much! I think we should do better. Will it rain?",
            "nothing_to_check",
            "None of the text's 3 sentences looks worth checking",
        ),
        ("  \n\n ", "bad_text", "The text is empty"),
    ],
)
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
    assert (
        second["text"] == "He was born in Cincinnati in 1946."
        and text[second["start"] : second["end"]] == second["text"]
    )
    assert second["checked_as"] == "Steven Spielberg was born in Cincinnati in 1946." and second["checked"]
    alone = client.post("/check", json={"claim": second["checked_as"], "options": options}).json()
    assert second["result"]["claim"] == second["checked_as"] and second["verdict"] == alone["verdict"]["label"]


# --- issue 44, item 3: limits before splitting, a time budget for it, and a client that leaves stops it -------------


def test_a_text_of_too_many_sentences_is_refused_at_once_before_it_is_split(client):
    for text, about in [
        ("Yes.\n\n" * 20_000, "20,001"),  # the 20,000 tiny sentences: 69 s before
        ("Marie Curie won two Nobel Prizes, in 1903 and 1911. " * 3_900, "3,901"),
    ]:  # 200 KB: 36 s
        started = time.perf_counter()
        response = client.post("/check-text", json={"text": text})
        assert time.perf_counter() - started < 10.0  # splitting first took 36-69 s; room for a busy machine
        assert response.status_code == 413, response.text
        error = response.json()["data"]
        assert error["code"] == "text_too_large" and f"about {about} sentences; at most 1,000" in error["message"]


def test_a_text_that_takes_longer_to_split_than_the_server_allows_is_refused(checker):
    text = "\n\n".join(f"Paris is the capital of France and city number {n}" for n in range(200))
    with serving(checker, split_timeout_s=0.01) as client:
        response = client.post("/check-text", json={"text": text})
        limits = client.get("/corpora").json()["limits"]
    assert response.status_code == 413 and response.json()["data"]["code"] == "text_too_large"
    assert "took over 0.01 s" in response.json()["data"]["message"]
    assert (limits["max_text_sentences"], limits["split_timeout_s"]) == (1_000, 0.01)


def test_a_client_that_leaves_while_its_text_is_split_stops_the_splitting(checker):
    find_sentences("Paris is in France.")  # spaCy loaded, as on a server that has split a text before
    text = "\n\n".join(f"Paris Berlin Rome Madrid Vienna number {n} and some more words to parse" for n in range(3_000))
    body = json.dumps({"text": text}).encode()
    with served(checker, max_text_sentences=10_000, split_timeout_s=600) as (port, _app):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(
            b"POST /check-text HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        assert cpu_used_within(0.5, timeout_s=120), "the text was not being split"  # however busy the machine
        sock.close()
        counted = until_counted(port, 'code="client_closed_request"', timeout_s=120)
        time.sleep(1.0)  # the paragraphs being parsed when it left (the thread stops at its next ones)
        after = cpu_seconds(2.0)
    assert after < 0.3, f"the splitting went on after the client left: {after:.2f} CPU s in 2 s"
    assert 'code="client_closed_request"' in counted


def cpu_used_within(cpu_s: float, timeout_s: float) -> bool:
    """Whether this process (the server's threads included) uses ``cpu_s`` CPU seconds within ``timeout_s`` wall
    seconds: work going on, waited for rather than timed (a busy machine gives it fewer seconds of each)."""
    began, deadline = time.process_time(), time.monotonic() + timeout_s
    while time.process_time() - began < cpu_s:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def until_counted(port: int, line: str, timeout_s: float) -> str:
    """``/metrics`` once it holds ``line`` (asked every 0.1 s, at most ``timeout_s`` seconds; then as it is)."""
    deadline = time.monotonic() + timeout_s
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/metrics")
        counted = connection.getresponse().read().decode()
        if line in counted or time.monotonic() > deadline:
            return counted
        time.sleep(0.1)


def cpu_seconds(wall_s: float) -> float:
    """The CPU seconds this process (the server's threads included) uses in the next ``wall_s`` seconds."""
    before = time.process_time()
    time.sleep(wall_s)
    return time.process_time() - before
