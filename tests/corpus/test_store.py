import threading

import pytest

from fever_core.common.types import Link, Page, Sentence
from fever_core.corpus.store import CorpusStore, DiskFull, fts_query


def make_page(page_id, *texts, links=()):
    sentences = [Sentence(page_id, i, t) for i, t in enumerate(texts)]
    if links:
        sentences[0].links = list(links)
    return Page(page_id, page_id.replace("_", " "), sentences, source="test")


@pytest.fixture
def store(tmp_path):
    store = CorpusStore.create(tmp_path / "s.sqlite")
    store.add_pages(
        [
            make_page(
                "Red_Fox",
                "The red fox is the largest of the true foxes.",
                "It lives in Eurasia.",
                links=[Link("foxes", "Fox")],
            ),
            make_page("Grey_Wolf", "The grey wolf is a large canine native to Eurasia and North America."),
        ]
    )
    return store


def test_pages_come_back_with_sentences_and_links(store):
    page = store.page("Red_Fox")
    assert [s.text for s in page.sentences] == ["The red fox is the largest of the true foxes.", "It lives in Eurasia."]
    assert page.sentences[0].links == [Link("foxes", "Fox")]
    assert store.sentence("Grey_Wolf", 0).text.startswith("The grey wolf")
    assert store.page("Nope") is None and store.sentence("Red_Fox", 7) is None
    assert store.stats().pages == 2 and store.stats().sentences == 3 and store.stats().links == 1


def test_first_page_with_an_id_wins(store):
    assert store.add_pages([make_page("Red_Fox", "Something else entirely.")]) == 0
    assert store.sentence("Red_Fox", 0).text.startswith("The red fox")


def test_full_text_search_ranks_the_right_sentence(store):
    hits = store.search_sentences("largest fox", k=3)
    assert hits[0].sentence.page_id == "Red_Fox" and hits[0].sentence.line == 0
    assert next(h.page_id for h in store.search_pages("wolf canine", 2)) == "Grey_Wolf"
    assert [h.page_id for h in store.search_titles("wolf", 2)] == ["Grey_Wolf"]
    only_wolf = store.search_sentences("Eurasia", k=5, page_ids=["Grey_Wolf"])
    assert {h.sentence.page_id for h in only_wolf} == {"Grey_Wolf"}


@pytest.mark.parametrize(
    "query", ['"unbalanced', "NEAR(a b)", "x* OR", "'; DROP TABLE pages; --", "", "🙂 ✓", "<b>fox</b>"]
)
def test_any_text_is_a_safe_query(store, query):
    store.search_sentences(query, 5)
    store.search_pages(query, 5)
    store.search_titles(query, 5)
    assert store.stats().pages == 2


def test_fts_query_quotes_words():
    assert fts_query('The "fox" AND wolf* OR fox') == '"fox" OR "wolf"'


def test_readers_and_a_writer_at_once(store):
    errors = []

    def read():
        try:
            for _ in range(50):
                assert store.search_sentences("fox", 1)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(3)]
    for t in readers:
        t.start()
    store.add_pages([make_page(f"P{i}", f"Page number {i} about foxes.") for i in range(50)])
    for t in readers:
        t.join()
    assert not errors
    assert store.stats().pages == 52


def test_open_refuses_missing_and_broken_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="corpus build"):
        CorpusStore.open(tmp_path / "missing.sqlite")
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ValueError, match="rebuild"):
        CorpusStore.open(broken)


def test_bytes_changed_inside_a_sentence_of_a_built_store_are_caught(tmp_path):
    from fever_core.corpus.build import build_store
    from fever_core.corpus.sources.fever_jsonl import FeverJsonlSource

    from ..conftest import PAGES, write_jsonl

    path = build_store(
        tmp_path / "store.sqlite", [FeverJsonlSource(write_jsonl(tmp_path / "p.jsonl", PAGES))], progress=False
    ).path
    CorpusStore.open(path).close()
    data = path.read_bytes()
    at = data.index(b"born in Cincinnati")  # same length, same structure: SQLite's own checks see nothing
    path.write_bytes(data[:at] + b"born in Cleveland!" + data[at + len(b"born in Cincinnati") :])
    with pytest.raises(ValueError, match="damaged: its pages, sentences or links are not what was built"):
        CorpusStore.open(path)


def test_a_store_that_grows_keeps_no_checksum_and_an_old_built_one_gets_one(store, tmp_path):
    from fever_core.corpus.store import CHECKSUM_KEY

    store.set_meta(CHECKSUM_KEY, store.content_checksum())
    store.add_pages([make_page("Arctic_Fox", "The Arctic fox lives in the Arctic.")])
    assert store.get_meta(CHECKSUM_KEY) is None and CorpusStore.open(store.path).get_meta(CHECKSUM_KEY) is None
    store.set_meta("build_seconds", "1.0")  # as a store built before checksums were kept
    assert CorpusStore.open(store.path).get_meta(CHECKSUM_KEY) == store.content_checksum()


def test_a_damaged_full_text_index_is_caught(tmp_path):
    from fever_core.corpus.store import CHECKSUM_KEY

    store = CorpusStore.create(tmp_path / "s.sqlite")
    store.add_pages([make_page("Red_Fox", "The red fox is the largest of the true foxes.")])
    store.set_meta(CHECKSUM_KEY, store.content_checksum())  # as built
    with store.connection as conn:  # the index says something the text does not
        conn.execute("UPDATE sentences_fts_content SET c1 = 'The grey wolf howls.' WHERE id = 1")
    with pytest.raises(ValueError, match="full-text index does not match"):
        CorpusStore.open(store.path)


def test_a_full_disk_is_reported_as_such_and_loses_nothing(store):
    """SQLite's ``max_page_count`` stands in for a full disk: writes beyond it fail with SQLITE_FULL."""
    before = store.stats()
    pages = store.connection.execute("PRAGMA page_count").fetchone()[0]
    store.connection.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(DiskFull, match=rf"The disk holding {store.path.parent} is full, so adding pages .* stopped"):
        store.add_pages([make_page("Arctic_Fox", *["The Arctic fox lives in the Arctic tundra."] * 200)])
    with pytest.raises(DiskFull, match="writing to the corpus store"):
        store.set_meta("note", "x" * 100_000)
    assert store.stats() == before and not store.has_page("Arctic_Fox")  # rolled back
    store.connection.execute("PRAGMA max_page_count = 1073741823")
    store.add_pages([make_page("Arctic_Fox", "The Arctic fox lives in the Arctic.")])
    assert store.stats().pages == before.pages + 1


def test_a_folder_where_the_store_should_be_is_named_with_the_fix(tmp_path):
    (tmp_path / "s.sqlite").mkdir()
    for make in (CorpusStore.open, CorpusStore.create):
        with pytest.raises(ValueError, match=r"s\.sqlite is a folder, but a corpus store is a file: move that folder"):
            make(tmp_path / "s.sqlite")
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match=r"file is a file, but the corpus needs a folder there"):
        CorpusStore.create(tmp_path / "file" / "corpus" / "s.sqlite")
