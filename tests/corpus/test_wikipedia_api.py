"""The live Wikipedia source and its cache, against recorded API answers served on localhost: no test
touches the internet."""

import socket
import threading
import time

import pytest

from fever_core.corpus.sources.wikipedia_api import LiveWikipediaSource, WikipediaUnavailable
from fever_core.corpus.store import CorpusStore
from fever_core.corpus.wikipedia_cache import WikipediaCache


@pytest.fixture
def cache(recorded_wikipedia, tmp_path):
    return WikipediaCache(CorpusStore.create(tmp_path / "live.sqlite"), LiveWikipediaSource(api_url=recorded_wikipedia.url))


def test_fetch_splits_the_lead_and_anchors_its_links(recorded_wikipedia):
    page = LiveWikipediaSource(api_url=recorded_wikipedia.url).fetch_page("Ada Lovelace")
    assert page.page_id == "Ada_Lovelace" and page.source == "wikipedia"
    assert len(page.sentences) == 2
    assert page.sentences[0].text.startswith("Augusta Ada King")
    assert [l.target for l in page.sentences[1].links] == ["Charles_Babbage", "Analytical_Engine"]
    assert [(r.get("prop"), r.get("exintro"), r.get("plnamespace")) for r in recorded_wikipedia.requests] == [
        ("extracts", "1", None), ("links", None, "0")]  # the lead only, and links to articles only


def test_search_and_missing_pages(recorded_wikipedia):
    source = LiveWikipediaSource(api_url=recorded_wikipedia.url)
    assert source.search_titles("lovelace")[:1] == ["Ada Lovelace"]
    assert source.search_titles("lovelace", limit=1) == ["Ada Lovelace"]
    assert source.search_titles("   ") == []
    assert source.fetch_page("No Such Page Anywhere") is None


def test_pages_and_searches_are_fetched_once(cache, recorded_wikipedia):
    assert not cache.is_known("Ada Lovelace")
    first = cache.fetch("Ada Lovelace")
    assert cache.search("lovelace", 2) == ["Ada Lovelace", "Lovelace (film)"]
    count = len(recorded_wikipedia.requests)
    assert cache.is_known("Ada Lovelace") and cache.store.page("Ada_Lovelace") == first
    assert cache.search("lovelace", 2) == ["Ada Lovelace", "Lovelace (film)"]
    assert len(recorded_wikipedia.requests) == count  # both came from the store
    assert cache.store.search_sentences("Analytical Engine", 1)[0].sentence.page_id == "Ada_Lovelace"


def test_redirects_and_missing_titles_are_remembered(cache, recorded_wikipedia):
    page = cache.fetch("Jacquard loom")
    assert page.page_id == "Jacquard_machine" and page.title == "Jacquard machine"
    assert cache.fetch("No Such Page Anywhere") is None
    count = len(recorded_wikipedia.requests)
    assert cache.is_known("Jacquard loom") and cache.is_known("Jacquard machine")
    assert cache.is_known("No Such Page Anywhere")
    assert len(recorded_wikipedia.requests) == count
    assert cache.store.stats().pages == 1


def test_offline_gives_a_clear_error_and_stores_nothing(tmp_path, offline_wikipedia_url):
    cache = WikipediaCache(CorpusStore.create(tmp_path / "live.sqlite"),
                           LiveWikipediaSource(api_url=offline_wikipedia_url, timeout_s=2))
    with pytest.raises(WikipediaUnavailable, match="offline"):
        cache.fetch("Ada Lovelace")
    with pytest.raises(WikipediaUnavailable, match="local corpora"):
        cache.search("anything", 3)
    assert cache.store.stats().pages == 0 and not cache.is_known("Ada Lovelace")


def test_a_server_that_trickles_its_answer_is_given_up_on_at_the_deadline():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def trickle():
        conn, _ = server.accept()
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
        for _ in range(60):  # a byte every 0.2 s: no single read ever times out
            time.sleep(0.2)
            try:
                conn.sendall(b" ")
            except OSError:
                break
        conn.close()

    threading.Thread(target=trickle, daemon=True).start()
    source = LiveWikipediaSource(timeout_s=1.0, api_url=f"http://127.0.0.1:{server.getsockname()[1]}/w/api.php")
    started = time.monotonic()
    with pytest.raises(WikipediaUnavailable, match="did not answer within 1 s"):
        source.search_titles("Kraftwerk")
    assert time.monotonic() - started < 2.0
    server.close()
