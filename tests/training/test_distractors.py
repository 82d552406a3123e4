"""Distractors for NOT ENOUGH INFO pairs (fever_core/training/distractors.py): on-topic text that does not settle the claim."""

import random

import pytest

from fever_core.common.formats import Pair
from fever_core.common.types import NEI
from fever_core.training.distractors import (
    DistractorIndex,
    PoolSentence,
    evidence_pool,
    load_embedded_pool,
    nei_pairs,
    same_page_nei_pairs,
)
from tests.conftest import write_jsonl
from tests.training.conftest import POOL


def test_the_index_ranks_the_claims_subject_first_and_leaves_out_unrelated_sentences():
    nearest = DistractorIndex(POOL).nearest(["Berlin river", "zebra", "tiger cat"], k=3)
    assert nearest == [[3, 2], [], [4, 5]]  # Berlin's river sentence, then Berlin's other; nothing shares "zebra"


def test_an_empty_pool_is_refused():
    with pytest.raises(ValueError, match="pool is empty"):
        DistractorIndex([])


def test_nei_pairs_pick_same_subject_non_evidence_sentences():
    index = DistractorIndex(POOL)
    [pair] = nei_pairs(["Paris has the biggest tiger zoo in France."], index, "x", max_sentences=1)
    assert pair.label == NEI and pair.premise.startswith(("Paris:", "Tiger:"))

    # the gold evidence of a supported claim is never handed back as its NEI distractor
    evidence = ["Paris is the capital and most populous city of France."]
    [pair] = nei_pairs(["Paris is the capital of France."], index, "x", evidence=evidence, max_sentences=1)
    assert "most populous" not in pair.premise


def test_an_nei_distractor_never_holds_most_of_the_claim():
    """FEVER's unverifiable claims are often settled by some other sentence; such a sentence is no NEI premise."""
    pool = [
        PoolSentence("Steve Coogan", "It stars Steve Coogan as Raymond."),
        PoolSentence("Steve Coogan", "Stephen John Coogan is an English comedian."),
    ]
    [pair] = nei_pairs(["Steve Coogan starred in a movie."], DistractorIndex(pool), "x", max_sentences=2)
    assert pair.premise == "Steve Coogan: Stephen John Coogan is an English comedian."


def test_the_evidence_pool_holds_single_page_evidence_sentences_once_titled_with_their_page():
    records = [
        {
            "premise": "Paris is the capital of France . It is big . Paris is the capital of France .",
            "pages": ["Paris"],
        },
        {"premise": "Berlin -LRB- city -RRB- is in Germany .", "pages": ["Berlin_-LRB-city-RRB-"]},
        {"premise": "Rome is in Italy and Europe .", "pages": ["Rome", "Italy"]},  # two pages: whose sentence?
        {"premise": "A premise without its pages ."},
    ]
    assert evidence_pool(records) == [
        PoolSentence("Paris", "Paris is the capital of France."),
        PoolSentence("Berlin (city)", "Berlin (city) is in Germany."),
    ]


SAME_PAGE = [
    {
        "premise": "Paris is the capital of France .",
        "hypothesis": "Paris is the capital of France.",
        "label": "SUPPORTS",
        "pages": ["Paris"],
    },
    {
        "premise": "Paris hosts the Louvre museum .",
        "hypothesis": "Paris has the Louvre.",
        "label": "SUPPORTS",
        "pages": ["Paris"],
    },
    # a mutation of the first claim: it shares the first claim's evidence, so it is never that claim's distractor
    {
        "premise": "Paris is the capital of France .",
        "hypothesis": "Paris is in Spain.",
        "label": "REFUTES",
        "pages": ["Paris"],
    },
    {"premise": "Berlin is in Germany .", "hypothesis": "Berlin is German.", "label": "SUPPORTS", "pages": ["Berlin"]},
]


def test_a_supported_claim_is_paired_with_another_claims_evidence_about_the_same_page():
    pairs = same_page_nei_pairs(SAME_PAGE, 1.0, random.Random(0), "s")
    assert sorted(pairs, key=lambda p: p.hypothesis) == [
        Pair("Paris: Paris is the capital of France.", "Paris has the Louvre.", NEI, "s"),
        Pair("Paris: Paris hosts the Louvre museum.", "Paris is the capital of France.", NEI, "s"),
    ]  # Berlin has no other claim; the REFUTES claim gets no pair of its own
    assert same_page_nei_pairs(SAME_PAGE, 0.0, random.Random(0), "s") == []


def test_no_same_page_pair_when_the_other_evidence_bears_on_the_claim():
    records = [
        {
            "premise": "The Louvre is a museum .",
            "hypothesis": "Paris hosts a famous museum.",
            "label": "SUPPORTS",
            "pages": ["Paris"],
        },
        {
            "premise": "Paris hosts the Louvre museum .",
            "hypothesis": "Paris has the Louvre.",
            "label": "SUPPORTS",
            "pages": ["Paris"],
        },
    ]
    assert same_page_nei_pairs(records, 1.0, random.Random(0), "s") == []


def test_the_embedded_pool_is_read_from_its_cache_when_there_is_one(tmp_path):
    write_jsonl(tmp_path / "pool-embedded.jsonl", [{"title": "Paris", "text": "Paris is the capital of France."}])
    assert load_embedded_pool(tmp_path) == [PoolSentence("Paris", "Paris is the capital of France.")]
