"""Contrastive claims generated from one parsed sentence: true and false paraphrases of the same fact (superlatives
and ranks, capitals, roles), and a same-page sentence without the fact as NOT ENOUGH INFO."""

import pytest

from fever_core.common.nlp import load_spacy
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.training.contrast_claims import (
    capital_claims,
    comparative_of,
    contrast_pairs,
    role_claims,
    superlative_claims,
)
from fever_core.training.distractors import PoolSentence


def claims(generate, title, sentence):
    return [(claim, label) for claim, label, _ in generate(load_spacy()(sentence), title)]


def test_a_superlative_is_said_as_a_negation_and_a_rank_true_and_false():
    found = claims(
        superlative_claims,
        "Brazil",
        "Brazil, officially the Federative Republic of Brazil, is the largest country in South America.",
    )
    assert ("No country in South America is larger than Brazil.", SUPPORTS) in found
    assert ("Brazil is the second-largest country in South America.", REFUTES) in found
    assert ("Another country in South America is larger than Brazil.", REFUTES) in found


def test_a_second_rank_refutes_the_first():
    found = claims(superlative_claims, "Uttar Pradesh", "It is the fourth-largest Indian state by area.")
    assert ("Uttar Pradesh is the largest Indian state by area.", REFUTES) in found
    assert ("At least one Indian state by area is larger than Uttar Pradesh.", SUPPORTS) in found


@pytest.mark.parametrize(
    "superlative, comparative", [("largest", "larger"), ("heaviest", "heavier"), ("best", "better"), ("west", None)]
)
def test_comparatives_of_superlatives(superlative, comparative):
    assert comparative_of(superlative) == comparative


def test_another_city_of_the_sentence_is_not_the_capital():
    found = claims(capital_claims, "China", "Beijing is the capital, while Shanghai is the most populous city.")
    assert ("The capital of China is Beijing.", SUPPORTS) in found
    assert ("Shanghai is the capital of China.", REFUTES) in found


def test_a_provincial_capital_says_nothing_of_the_country():
    assert claims(capital_claims, "Toronto", "Toronto is the capital city of the province of Ontario.") == []


def test_a_passive_is_said_actively_the_right_and_the_wrong_way_round():
    found = claims(role_claims, "Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg.")
    assert found == [("Steven Spielberg directed Jaws.", SUPPORTS), ("Jaws directed Steven Spielberg.", REFUTES)]


def test_each_sentence_also_gives_a_same_page_sentence_without_the_fact_as_not_enough_info():
    pool = [
        PoolSentence("Oslo", "Oslo is the capital and most populous city of Norway."),
        PoolSentence("Oslo", "The Nobel Peace Prize ceremony is held there every December."),
    ]
    records = contrast_pairs(pool)
    assert {r["label"] for r in records} == {SUPPORTS, REFUTES, NEI}
    nei = [r for r in records if r["label"] == NEI]
    assert len(nei) == 1 and nei[0]["premise"] == "Oslo: The Nobel Peace Prize ceremony is held there every December."
    assert all(r["premise"].startswith("Oslo: ") and r["split"] in ("train", "heldout") for r in records)
