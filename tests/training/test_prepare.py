"""Prepared training files: guessed page titles for FEVER's training split, VitaminC split by page."""

from fever_core.common.formats import load_pairs
from fever_core.common.jsonl import read_jsonl
from fever_core.common.nlp import load_spacy
from fever_core.training.pairs import page_split
from fever_core.training.prepare import claim_subject, prepare, split_by_page, with_guessed_titles
from tests.conftest import write_jsonl


def test_the_claim_subject_is_the_title_guess():
    nlp = load_spacy()
    assert (
        claim_subject(nlp("Nikolaj Coster-Waldau worked with the Fox Broadcasting Company.")) == "Nikolaj Coster-Waldau"
    )
    assert claim_subject(nlp("History of art includes architecture and dance.")) == "History of art"
    assert claim_subject(nlp("The Smurfs (film) was released.")) == "The Smurfs (film)"
    # a relative clause is not part of the title; a pronoun is none: the first named entity stands in
    assert claim_subject(nlp("Tetris, which was made in Russia, has sold millions of copies.")) == "Tetris"
    assert claim_subject(nlp("He was born in Hawaii.")) == "Hawaii"
    assert claim_subject(nlp("It rained.")) is None


def test_guessed_titles_become_the_premise_title_and_untitled_records_stay_untitled():
    records = [
        {
            "premise": "He is best known for his vlogs .",
            "hypothesis": "Roman Atwood is a content creator.",
            "label": "SUPPORTS",
            "source": "fever-train",
        },
        {"premise": "It rained .", "hypothesis": "It rained.", "label": "SUPPORTS", "source": "fever-train"},
    ]
    titled, untitled = with_guessed_titles(records)
    assert titled["pages"] == ["Roman Atwood"] and titled["title_guessed"] is True
    assert "pages" not in untitled


def test_the_page_split_keeps_every_page_on_one_side(tmp_path):
    records = [
        {"premise": f"p{i} .", "hypothesis": f"h{i}", "label": "SUPPORTS", "pages": [f"Page {i % 40}"]}
        for i in range(400)
    ] + [{"premise": "x .", "hypothesis": "y", "label": "SUPPORTS"}]
    parts = split_by_page(records, 25)
    train_pages = {r["pages"][0] for r in parts["train"] if r.get("pages")}
    held_pages = {r["pages"][0] for r in parts["heldout"]}
    assert held_pages and not train_pages & held_pages
    assert all(page_split(p, 25) == "heldout" for p in held_pages)
    assert len(parts["train"]) + len(parts["heldout"]) == len(records)


def test_prepare_writes_pair_files_the_trainer_reads(tmp_path):
    nli = tmp_path / "nli"
    nli.mkdir()
    write_jsonl(
        nli / "fever-train.jsonl",
        [
            {
                "premise": "He then played John Amsterdam in the series New Amsterdam -LRB- 2008 -RRB- .",
                "hypothesis": "Nikolaj Coster-Waldau worked with Fox.",
                "label": "SUPPORTS",
                "source": "fever-train",
            },
        ],
    )
    write_jsonl(
        nli / "vitaminc-real.jsonl",
        [
            {
                "premise": f"Fact {i} .",
                "hypothesis": f"Claim {i}.",
                "label": "REFUTES",
                "source": "vitaminc-real",
                "pages": [f"Page {i}"],
            }
            for i in range(50)
        ],
    )
    counts = prepare(nli, tmp_path / "out")
    assert counts["fever-train-titled.jsonl"]["with a guessed title"] == 1
    pairs = load_pairs(tmp_path / "out" / "fever-train-titled.jsonl")
    assert (
        pairs[0].premise == "Nikolaj Coster-Waldau: He then played John Amsterdam in the series New Amsterdam (2008)."
    )
    held = [r for _, r in read_jsonl(tmp_path / "out" / "vitaminc-real-heldout.jsonl")]
    train = [r for _, r in read_jsonl(tmp_path / "out" / "vitaminc-real-train.jsonl")]
    assert len(held) + len(train) == 50 and held
