"""The FEVER baseline's TF-IDF retrieval (fever_core/retrieval/tfidf.py): ranking, and its index kept beside
the store, reloaded while the store is unchanged."""

import json

import pytest

from fever_core.common.types import Page, Sentence
from fever_core.corpus.store import CorpusStore
from fever_core.retrieval.claim_analysis import analyse_claim
from fever_core.retrieval.tfidf import META_FILE, TfidfRetriever


@pytest.fixture(scope="module")
def tfidf(workspace, tmp_path_factory):
    return TfidfRetriever.build_or_load(workspace.store, tmp_path_factory.mktemp("tfidf"))


@pytest.mark.parametrize(
    "claim, page_id",
    [
        ("Sherlock Holmes was created by Charles Dickens.", "Sherlock_Holmes"),
        ("Steven Spielberg was born in Ohio.", "Steven_Spielberg"),
        ("Fox 2000 Pictures released the film Soul Food.", "Soul_Food_-LRB-film-RRB-"),
        ("Telemundo is a television network.", "Telemundo"),
    ],
)
def test_the_page_a_claim_names_ranks_first(tfidf, claim, page_id):
    pages = tfidf.retrieve(analyse_claim(claim), None, k=3)
    assert pages[0].page_id == page_id
    assert [p.score for p in pages] == sorted((p.score for p in pages), reverse=True)
    assert all(p.signals == {"tfidf": p.score} and p.score > 0 for p in pages)


def test_a_claim_sharing_no_word_with_the_corpus_finds_no_page(tfidf):
    assert tfidf.retrieve(analyse_claim("Zyxqv plorbs."), None) == []


def test_sentences_are_ranked_within_the_given_pages(tfidf):
    ranked = tfidf.select("Steven Spielberg was born in Ohio.", None, ["Steven_Spielberg", "Edinburgh"])
    assert ranked[0].key == ("Steven_Spielberg", 1)
    assert {e.page_id for e in ranked} == {"Steven_Spielberg", "Edinburgh"} and len(ranked) == 4
    assert [e.score for e in ranked] == sorted((e.score for e in ranked), reverse=True)
    assert tfidf.select("Steven Spielberg was born in Ohio.", None, ["No_Such_Page"]) == []


def test_the_index_is_saved_and_reloaded_while_the_store_is_unchanged(workspace, tmp_path):
    built = TfidfRetriever.build_or_load(workspace.store, tmp_path)
    saved = {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()}
    assert set(saved) == {"tfidf.json", "tfidf_pages.npz", "tfidf_idf.npy"}
    assert json.loads((tmp_path / META_FILE).read_text())["store_fingerprint"] == workspace.store.get_meta(
        "fingerprint"
    )

    reloaded = TfidfRetriever.build_or_load(workspace.store, tmp_path)
    assert {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()} == saved  # nothing written again
    assert reloaded.page_ids == built.page_ids
    assert (reloaded.matrix != built.matrix).nnz == 0 and (reloaded.idf == built.idf).all()


def test_the_index_is_rebuilt_when_the_store_fingerprint_changes(tmp_path):
    store = CorpusStore.create(tmp_path / "store.sqlite")
    store.add_pages(
        [
            Page("Apple", "Apple", [Sentence("Apple", 0, "Apples are red fruit.")]),
            Page("Cherry", "Cherry", [Sentence("Cherry", 0, "Cherries are small red fruit.")]),
        ]
    )
    store.set_meta("fingerprint", "two pages")
    first = TfidfRetriever.build_or_load(store, tmp_path)
    assert first.retrieve(analyse_claim("Bananas are yellow."), None) == []

    store.add_pages([Page("Banana", "Banana", [Sentence("Banana", 0, "Bananas are long yellow fruit.")])])
    store.set_meta("fingerprint", "three pages")
    rebuilt = TfidfRetriever.build_or_load(store, tmp_path)
    assert rebuilt.retrieve(analyse_claim("Bananas are yellow."), None)[0].page_id == "Banana"
    meta = json.loads((tmp_path / META_FILE).read_text())
    assert meta["store_fingerprint"] == "three pages" and sorted(meta["page_ids"]) == ["Apple", "Banana", "Cherry"]


def test_an_empty_store_gives_an_index_that_finds_nothing(tmp_path):
    store = CorpusStore.create(tmp_path / "store.sqlite")
    store.set_meta("fingerprint", "empty")
    assert TfidfRetriever.build_or_load(store, tmp_path).retrieve(analyse_claim("Bananas are yellow."), None) == []


def test_an_index_in_use_follows_a_store_that_grows(tmp_path):
    """The live Wikipedia cache gains pages while a checker holds its retriever."""
    store = CorpusStore.create(tmp_path / "store.sqlite")
    store.add_pages(
        [Page(name, name, [Sentence(name, 0, f"{name} trees grow in orchards.")]) for name in ("Apple", "Cherry")]
    )
    store.set_meta("fingerprint", "two pages")
    in_use = TfidfRetriever.build_or_load(store, tmp_path)
    assert in_use.retrieve(analyse_claim("Bananas are yellow."), None) == []
    store.add_pages([Page("Banana", "Banana", [Sentence("Banana", 0, "Bananas are long yellow fruit.")])])
    store.set_meta("fingerprint", "three pages")
    assert [p.page_id for p in in_use.retrieve(analyse_claim("Bananas are yellow."), None)] == ["Banana"]
