"""The live Wikipedia source against recorded API answers served on localhost: no test touches
the internet."""

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from fever_core.corpus.sources.wikipedia_live import LiveWikipediaSource, WikipediaUnavailable
from fever_core.corpus.store import CorpusStore

RECORDED = json.loads((Path(__file__).parent.parent / "fixtures" / "wikipedia_recorded.json").read_text())


@pytest.fixture
def recorded_wikipedia():
    requests = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            query = {k: v[0] for k, v in parse_qs(urlparse(self.path).query).items()}
            requests.append(query)
            key = query.get("list") or query.get("prop")
            if query.get("titles") == "No Such Page Anywhere":
                key = "missing"
            body = json.dumps(RECORDED[key]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/w/api.php", requests
    server.shutdown()


def test_fetch_splits_the_lead_and_anchors_its_links(recorded_wikipedia):
    url, _ = recorded_wikipedia
    page = LiveWikipediaSource(api_url=url).fetch_page("Ada Lovelace")
    assert page.page_id == "Ada_Lovelace" and page.source == "wikipedia"
    assert len(page.sentences) == 2
    assert page.sentences[0].text.startswith("Augusta Ada King")
    assert [l.target for l in page.sentences[1].links] == ["Charles_Babbage", "Analytical_Engine"]


def test_search_and_missing_pages(recorded_wikipedia):
    url, _ = recorded_wikipedia
    source = LiveWikipediaSource(api_url=url)
    assert source.search_titles("lovelace")[:1] == ["Ada Lovelace"]
    assert source.search_titles("   ") == []
    assert source.fetch_page("No Such Page Anywhere") is None


def test_pages_are_cached_in_the_store(recorded_wikipedia, tmp_path):
    url, requests = recorded_wikipedia
    store = CorpusStore.create(tmp_path / "live.sqlite")
    source = LiveWikipediaSource(api_url=url)
    first = source.cached_page(store, "Ada Lovelace")
    count = len(requests)
    second = source.cached_page(store, "Ada Lovelace")
    assert len(requests) == count  # the second read came from the store
    assert first == second and store.stats().pages == 1
    assert store.search_sentences("Analytical Engine", 1)[0].sentence.page_id == "Ada_Lovelace"


def test_offline_gives_a_clear_error_and_stores_nothing(tmp_path):
    with socket.socket() as s:  # a port with nothing listening on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = CorpusStore.create(tmp_path / "live.sqlite")
    source = LiveWikipediaSource(api_url=f"http://127.0.0.1:{port}/w/api.php", timeout_s=2)
    with pytest.raises(WikipediaUnavailable, match="offline"):
        source.cached_page(store, "Ada Lovelace")
    with pytest.raises(WikipediaUnavailable, match="local corpora"):
        source.search_titles("anything")
    assert store.stats().pages == 0
