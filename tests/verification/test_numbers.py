"""The number check: the numbers, dates and ordinals a text states, as intervals with their qualifiers honoured, and
what they settle once the verifier has read the claim rewritten with a sentence's number (no model here: its
P(SUPPORTS) is given)."""

import math

import pytest

from fever_core.common.types import REFUTES, SUPPORTS
from fever_core.verification.numbers import (
    COUNT,
    ORDINAL,
    QUANTITY,
    YEAR,
    number_check,
    number_mentions,
    number_trial,
)


def one(text, as_written=False):
    found = number_mentions(text, as_written)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("text, kind, low, high, written", [
    ("Barack Obama was the 45th president.", ORDINAL, 45, 45, "45th"),
    ("Jupiter is the fifth planet from the Sun.", ORDINAL, 5, 5, "fifth"),
    ("The band formed in the 1990s.", YEAR, 1990, 1999, "1990s"),
    ("He lived in the 19th century.", YEAR, 1800, 1900, "the 19th century"),
    ("She was born on 4 August 1961 in Honolulu.", YEAR, 1961, 1961, "1961"),  # the day is not a count
    ("It has four moons.", COUNT, 4, 4, "four"),
    ("The Nile is more than 7,000 kilometres long.", QUANTITY, 7000, math.inf, "more than 7,000 kilometres"),
    ("Fewer than 200 people live there.", COUNT, -math.inf, 200, "Fewer than 200"),
    ("More than a quarter of a million people live there.", COUNT, 250_000, math.inf,
     "More than a quarter of a million"),
    ("The company was founded after 1950.", YEAR, 1950, math.inf, "after 1950"),
])
def test_a_number_is_the_interval_its_words_assert(text, kind, low, high, written):
    number = one(text)
    assert (number.kind, number.low, number.high, number.text) == (kind, low, high, written)
    assert text[number.start:number.end] == written


def test_an_unqualified_large_number_in_a_claim_means_what_rounds_to_it_and_in_a_sentence_itself():
    claim = one("The Nile is 7,000 kilometres long.")
    assert (claim.low, claim.high) == (6500, 7500)
    sentence = one("The Nile is 7,088 kilometres long.", as_written=True)
    assert (sentence.low, sentence.high) == (7088, 7088)
    assert claim.contains(sentence)
    assert one("It has about 2.1 million inhabitants.").contains(one("It has 2,148,271 inhabitants.", True))


def test_qualifiers_bound_the_value():
    stated = one("At 7,088 kilometres long, it is the longest river.", as_written=True)
    assert one("It is more than 7,000 kilometres long.").contains(stated)
    assert one("It is less than 5,000 kilometres long.").apart_from(stated)
    assert one("It is nearly 7,100 kilometres long.").contains(stated)
    over = one("Over 1,000 people died.", as_written=True)
    assert not one("About 1,200 people died.").contains(over)
    assert not one("About 1,200 people died.").apart_from(over)  # overlapping: settles nothing


def test_a_non_breaking_space_between_a_number_and_its_unit_is_read():
    number = one("It was measured as 8,848.86\xa0m.", as_written=True)
    assert (number.kind, number.unit, number.low) == (QUANTITY, "metre", 8848.86)


def test_the_claim_is_rewritten_with_each_comparable_number_of_each_sentence():
    trial = number_trial("Barack Obama was the 45th president of the United States.",
                         ["Barack Obama served as the 44th president of the United States from 2009 to 2017.",
                          "He won the Nobel Peace Prize in 2009."])
    assert [c.rewritten_claim for c in trial.candidates] == ["Barack Obama was the 44th president of the United States."]
    assert trial.candidates[0].evidence == 0


def test_counts_of_another_magnitude_are_not_tried():
    trial = number_trial("Russia has a population of more than 140 million.",
                         ["With a population of over 140 million, Russia is the most populous country in Europe.",
                          "Sixteen of its urban areas have more than 1 million inhabitants."])
    assert [c.sentence_number.text for c in trial.candidates] == ["over 140 million"]


def test_a_different_number_in_a_sentence_that_states_the_rest_of_the_claim_refutes_it():
    trial = number_trial("Barack Obama was the 45th president of the United States.",
                         ["Barack Obama served as the 44th president of the United States."])
    check = number_check(trial, [0.97])
    assert (check.label, check.claim_says, check.sentence_says) == (REFUTES, "45th", "44th")
    assert check.why("Barack Obama") == "The claim says 45th; the sentence from Barack Obama says 44th."


def test_a_number_that_fits_the_qualifier_supports_the_claim():
    trial = number_trial("The Nile is more than 7,000 kilometres long.",
                         ["At 7,088 kilometres long, it is the longest river in Africa."])
    check = number_check(trial, [0.99])
    assert (check.label, check.sentence_says, check.p_settled) == (SUPPORTS, "7,088 kilometres", 0.99)


def test_numbers_decide_nothing_when_the_verifier_is_unsure_the_sentence_states_the_claim():
    trial = number_trial("Albert Einstein was born in 1905.",
                         ["He received the 1921 Nobel Prize in Physics."])
    assert number_check(trial, [0.5]) is None


def test_a_claim_with_a_number_no_sentence_states_is_not_supported_by_its_other_numbers():
    trial = number_trial("The Beatles formed in 1960 and had four members.",
                         ["The Beatles were an English rock band formed in Liverpool in 1960."])
    assert [c.claim_number.text for c in trial.candidates] == ["1960"]
    assert number_check(trial, [0.95]) is None


@pytest.mark.parametrize("claim, sentence, holds", [
    ("The expedition took place around 400 BC.", "It happened in 401 BC.", True),
    ("Rome was founded in the 8th century BC.", "Rome was founded in 753 BC.", True),
    ("Rome was founded in the 7th century BC.", "Rome was founded in 753 BC.", False),
    ("The alphabet was created in the 5th century AD.", "It was introduced in 405 AD.", True),
    ("The tower was finished in the late 1880s.", "It was built from 1887 to 1889.", True),
    ("The tower was finished in the early 1880s.", "It was completed in 1889.", False),
    ("It was built in less than five years.", "It was built over a period of about 26 years.", False),
    ("Building it took roughly a quarter of a century.", "It was built over a period of about 26 years.", True),
    ("Earth has more than half a million kilometres of coastline.", "Earth has 620,000 km of coastline.", True),
    ("The Atlantic covers roughly a sixth of the Earth's surface.", "It covers approximately 17% of it.", True),
    ("The Atlantic covers about half of the Earth's surface.", "It covers approximately 17% of it.", False),
])
def test_eras_centuries_decades_durations_and_shares_are_compared_as_values(claim, sentence, holds):
    trial = number_trial(claim, [sentence])
    relations = {(c.claim_number.contains(c.sentence_number), c.claim_number.apart_from(c.sentence_number))
                 for c in trial.candidates}
    assert ((True, False) if holds else (False, True)) in relations, trial


def test_a_number_inside_a_name_is_no_value():
    assert number_mentions("The expedition of the Ten Thousand crossed Anatolia.") == []


def test_each_claim_number_is_read_against_the_best_ranked_sentence_that_states_the_claim():
    trial = number_trial("Barack Obama was the 45th president of the United States.",
                         ["Barack Obama served as the 44th president of the United States.",
                          "He was the first African American to serve as president."])
    assert [c.sentence_number.text for c in trial.candidates] == ["44th", "first"]
    check = number_check(trial, [0.9, 0.99])
    assert (check.evidence, check.sentence_says) == (0, "44th")
