"""The live Wikipedia source and its cache, against recorded API answers served on localhost: no test
touches the internet."""

import gzip
import json
import socket
import threading
import time
import tracemalloc

import pytest

from benchmarks.reliability.live_api import gzip_bomb
from fever_core.corpus.sources.wikipedia_api import (
    DECODE_STEP,
    MAX_ANSWER_BYTES,
    MAX_LEAD_CHARS,
    DecodedBody,
    LiveWikipediaSource,
    MalformedAnswer,
    WikipediaUnavailable,
)
from fever_core.corpus.store import CorpusStore
from fever_core.corpus.wikipedia_cache import WikipediaCache
from tests.conftest import RECORDED_WIKIPEDIA, local_api, recorded_answer

ADA_LEAD = RECORDED_WIKIPEDIA["pages"]["Ada Lovelace"]["extracts"]


def calls_still_running(before: set[threading.Thread], wait_s: float = 3.0) -> list[threading.Thread]:
    """The Wikipedia call threads started since ``before`` that are still running after at most ``wait_s``."""
    give_up = time.monotonic() + wait_s
    while True:
        running = [t for t in threading.enumerate() if t.name == "wikipedia-call" and t not in before]
        if not running or time.monotonic() > give_up:
            return running
        time.sleep(0.05)


@pytest.fixture
def cache(recorded_wikipedia, tmp_path):
    return WikipediaCache(
        CorpusStore.create(tmp_path / "live.sqlite"), LiveWikipediaSource(api_url=recorded_wikipedia.url)
    )


def test_fetch_splits_the_lead_and_anchors_its_links(recorded_wikipedia):
    page = LiveWikipediaSource(api_url=recorded_wikipedia.url).fetch_page("Ada Lovelace")
    assert page.page_id == "Ada_Lovelace" and page.source == "wikipedia"
    assert len(page.sentences) == 2
    assert page.sentences[0].text.startswith("Augusta Ada King")
    assert [l.target for l in page.sentences[1].links] == ["Charles_Babbage", "Analytical_Engine"]
    assert [(r.get("prop"), r.get("exintro"), r.get("plnamespace")) for r in recorded_wikipedia.requests] == [
        ("extracts", "1", None),
        ("links", None, "0"),
    ]  # the lead only, and links to articles only


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
    cache = WikipediaCache(
        CorpusStore.create(tmp_path / "live.sqlite"), LiveWikipediaSource(api_url=offline_wikipedia_url, timeout_s=2)
    )
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
    before = set(threading.enumerate())
    started = time.monotonic()
    with pytest.raises(WikipediaUnavailable, match="did not answer within 1 s"):
        source.search_titles("Kraftwerk")
    assert time.monotonic() - started < 2.0
    assert calls_still_running(before) == []  # the thread reading the trickle stopped at the deadline too
    server.close()


def test_a_server_that_never_stops_answering_continue_keeps_no_thread_past_the_deadline():
    asked = []

    def answer(query):
        asked.append(query)
        if query.get("prop") == "links":  # one more page of links, always
            page = {"pageid": 974, "ns": 0, "title": "Ada Lovelace", "links": [{"ns": 0, "title": "Charles Babbage"}]}
            return json.dumps(
                {"continue": {"plcontinue": f"974|0|{len(asked)}", "continue": "||"}, "query": {"pages": {"974": page}}}
            ).encode()
        return json.dumps(ADA_LEAD).encode()

    before = set(threading.enumerate())
    with local_api(answer) as url:
        with pytest.raises(WikipediaUnavailable, match="did not answer within 1 s"):
            LiveWikipediaSource(timeout_s=1.0, api_url=url).fetch_page("Ada Lovelace")
        assert calls_still_running(before) == []
        so_far = len(asked)
        time.sleep(0.5)
        assert len(asked) == so_far  # nothing asks any more


def test_a_10_mb_lead_is_cut_to_its_first_sentences():
    lead = ("Ada Lovelace was an English mathematician. " * 250_000)[:10_000_000]
    answer = json.loads(json.dumps(ADA_LEAD))
    answer["query"]["pages"]["974"]["extract"] = lead
    body, links = json.dumps(answer).encode(), json.dumps(RECORDED_WIKIPEDIA["pages"]["Ada Lovelace"]["links"]).encode()
    with local_api(lambda query: body if query.get("prop") == "extracts" else links) as url:
        page = LiveWikipediaSource(timeout_s=30.0, api_url=url).fetch_page("Ada Lovelace")
    assert page.sentences and sum(len(s.text) for s in page.sentences) <= MAX_LEAD_CHARS
    assert page.sentences[-1].text == "Ada Lovelace was an English mathematician."


def test_a_lone_surrogate_in_an_answer_is_dropped_before_it_is_kept(tmp_path):
    search = {
        "batchcomplete": "",
        "query": {"searchinfo": {"totalhits": 1}, "search": [{"ns": 0, "title": "Ada\ud800 Lovelace", "pageid": 974}]},
    }
    with local_api(lambda query: json.dumps(search).encode()) as url:  # JSON's escape: "Ada\\ud800 Lovelace"
        cache = WikipediaCache(CorpusStore.create(tmp_path / "live.sqlite"), LiveWikipediaSource(api_url=url))
        assert cache.search("Ada Lovelace", 1) == ["Ada Lovelace"]
        assert cache.search("Ada Lovelace", 1) == ["Ada Lovelace"]  # kept, and read back from the store


def test_a_gzip_bomb_is_given_up_on_as_it_unpacks_with_memory_bounded():
    """Issue 38, item 2.2: 300 KB of gzip that unpacks to 300 MiB grew memory by 610 MB (the limit counted bytes as
    sent). It is decoded as it streams in and refused past MAX_ANSWER_BYTES decoded."""
    bomb = gzip_bomb(300)
    assert len(bomb) < 400_000
    with local_api(lambda query: bomb, headers={"Content-Encoding": "gzip"}) as url:
        source = LiveWikipediaSource(timeout_s=30.0, api_url=url)
        tracemalloc.start()
        try:
            with pytest.raises(WikipediaUnavailable, match=f"more than {MAX_ANSWER_BYTES >> 20} MiB once decoded"):
                source.search_titles("Ada Lovelace")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < MAX_ANSWER_BYTES + 3 * DECODE_STEP + (4 << 20), f"{peak / 2**20:.0f} MiB held at the peak"


def test_a_bomb_is_decoded_no_further_than_the_limit_however_it_is_cut():
    limit = 1 << 20
    for piece_size in (1, 4096, 1 << 20):
        body, bomb = DecodedBody("gzip", limit=limit), gzip_bomb(8)
        with pytest.raises(MalformedAnswer, match="more than 1 MiB once decoded"):
            for start in range(0, len(bomb), piece_size):
                body.add(bomb[start : start + piece_size])
            body.finish()
        assert len(body.body) <= limit + 1


def test_a_compressed_answer_within_the_limit_is_read_and_an_unknown_encoding_is_refused(recorded_wikipedia):
    answer = json.dumps(recorded_answer({"list": "search", "srsearch": "lovelace"})).encode()
    with local_api(lambda query: gzip.compress(answer), headers={"Content-Encoding": "gzip"}) as url:
        assert LiveWikipediaSource(api_url=url).search_titles("lovelace")[:1] == ["Ada Lovelace"]
    with (
        local_api(lambda query: answer, headers={"Content-Encoding": "br"}) as url,
        pytest.raises(WikipediaUnavailable, match="compressed as 'br', which is not read"),
    ):
        LiveWikipediaSource(api_url=url).search_titles("lovelace")
    with (
        local_api(lambda query: b"\x1f\x8b not gzip at all", headers={"Content-Encoding": "gzip"}) as url,
        pytest.raises(WikipediaUnavailable, match="compressed body can't be decoded"),
    ):
        LiveWikipediaSource(api_url=url).search_titles("lovelace")


def _nested(depth: int, leaf: str = "1") -> str:
    return '{"a": ' * depth + leaf + "}" * depth


MALFORMED = {
    "query null": '{"batchcomplete": "", "query": null}',
    "query a list": '{"batchcomplete": "", "query": []}',
    "continue a number": '{"continue": 5, "query": {}}',
    "search null": '{"batchcomplete": "", "query": {"search": null}}',
    "search of strings": '{"batchcomplete": "", "query": {"search": ["Ada Lovelace"]}}',
    "a title that is a number": '{"batchcomplete": "", "query": {"search": [{"ns": 0, "title": 5, "pageid": 1}]}}',
    "pages a list": '{"batchcomplete": "", "query": {"pages": [1, 2]}}',
    "a page null": '{"batchcomplete": "", "query": {"pages": {"974": null}}}',
    "an extract that is a number": '{"batchcomplete": "", "query": {"pages": {"974": {"pageid": 974, "ns": 0, '
    '"title": "Ada Lovelace", "extract": 5}}}}',
    "a page title that is an object": '{"batchcomplete": "", "query": {"pages": {"974": {"pageid": 974, "ns": 0, '
    '"title": {"a": 1}, "extract": "Ada was."}}}}',
    "JSON nested 200,000 deep": "[" * 200_000 + "]" * 200_000,
    "a query nested 900 deep": '{"batchcomplete": "", "query": ' + _nested(900) + "}",
}
"""Answers of the wrong shape at each level (issue 38, item 2.3), each given to every request."""


@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_answer_at_any_level_is_unavailable_with_a_message_never_a_crash_nor_no_results(body):
    with local_api(lambda query: body.encode()) as url:
        source = LiveWikipediaSource(timeout_s=5.0, api_url=url)
        with pytest.raises(WikipediaUnavailable, match="answered in an unexpected form .* Nothing of that answer"):
            source.search_titles("Ada Lovelace")
        with pytest.raises(WikipediaUnavailable, match="answered in an unexpected form .* Nothing of that answer"):
            source.fetch_page("Ada Lovelace")
