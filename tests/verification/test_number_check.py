"""The number check: what a claim's numbers settle once the verifier has read the claim rewritten with a sentence's
number (no model here: its P(SUPPORTS) is given)."""

import pytest

from fever_core.common.types import REFUTES, SUPPORTS
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.number_check import MAX_CLAIM_NUMBERS, MAX_REWRITINGS, number_trial, settle


def trial_of(claim, sentences):
    return number_trial(ClaimAnalysis(claim), sentences)


def test_the_claim_is_rewritten_with_each_comparable_number_of_each_sentence():
    trial = trial_of(
        "Barack Obama was the 45th president of the United States.",
        [
            "Barack Obama served as the 44th president of the United States from 2009 to 2017.",
            "He won the Nobel Peace Prize in 2009.",
        ],
    )
    assert [c.rewritten_claim for c in trial.candidates] == [
        "Barack Obama was the 44th president of the United States."
    ]
    assert trial.candidates[0].evidence == 0


def test_counts_of_another_magnitude_are_not_tried():
    trial = trial_of(
        "Russia has a population of more than 140 million.",
        [
            "With a population of over 140 million, Russia is the most populous country in Europe.",
            "Sixteen of its urban areas have more than 1 million inhabitants.",
        ],
    )
    assert [c.sentence_number.text for c in trial.candidates] == ["over 140 million"]


def test_a_different_number_in_a_sentence_that_states_the_rest_of_the_claim_refutes_it():
    trial = trial_of(
        "Barack Obama was the 45th president of the United States.",
        ["Barack Obama served as the 44th president of the United States."],
    )
    check = settle(trial, [0.97])
    assert (check.label, check.claim_says, check.sentence_says) == (REFUTES, "45th", "44th")


def test_a_number_that_fits_the_qualifier_supports_the_claim():
    trial = trial_of(
        "The Nile is more than 7,000 kilometres long.", ["At 7,088 kilometres long, it is the longest river in Africa."]
    )
    check = settle(trial, [0.99])
    assert (check.label, check.sentence_says, check.p_settled) == (SUPPORTS, "7,088 kilometres", 0.99)


def test_numbers_decide_nothing_when_the_verifier_is_unsure_the_sentence_states_the_claim():
    trial = trial_of("Albert Einstein was born in 1905.", ["He received the 1921 Nobel Prize in Physics."])
    assert settle(trial, [0.5]) is None


def test_a_claim_with_a_number_no_sentence_states_is_not_supported_by_its_other_numbers():
    trial = trial_of(
        "The Beatles formed in 1960 and had four members.",
        ["The Beatles were an English rock band formed in Liverpool in 1960."],
    )
    assert [c.claim_number.text for c in trial.candidates] == ["1960"]
    assert settle(trial, [0.95]) is None


@pytest.mark.parametrize(
    "claim, sentence, holds",
    [
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
    ],
)
def test_eras_centuries_decades_durations_and_shares_are_compared_as_values(claim, sentence, holds):
    trial = trial_of(claim, [sentence])
    relations = {
        (c.claim_number.contains(c.sentence_number), c.claim_number.apart_from(c.sentence_number))
        for c in trial.candidates
    }
    assert ((True, False) if holds else (False, True)) in relations, trial


def test_each_claim_number_is_read_against_the_best_ranked_sentence_that_states_the_claim():
    trial = trial_of(
        "Barack Obama was the 45th president of the United States.",
        [
            "Barack Obama served as the 44th president of the United States.",
            "He was the first African American to serve as president.",
        ],
    )
    assert [c.sentence_number.text for c in trial.candidates] == ["44th", "first"]
    check = settle(trial, [0.9, 0.99])
    assert (check.evidence, check.sentence_says) == (0, "44th")


def test_a_claim_listing_many_numbers_costs_what_one_number_does_and_says_what_was_not_tried():
    """Issue 51: a claim listing 190 numbers made 233 long model inputs and held the service for minutes."""
    claim = "Oslo had " + ", ".join(f"{1000 * i:,}" for i in range(1, 60)) + " people in 1900."
    sentences = ["Oslo had 2,000 people in 1900, 3,000 in 1910 and 4,000 in 1920."] * 3
    trial = number_trial(ClaimAnalysis(claim), sentences)
    assert len(trial.candidates) <= MAX_REWRITINGS
    assert len({c.claim_number for c in trial.candidates}) <= MAX_CLAIM_NUMBERS
    assert len(trial.untried) == len(trial.claim_numbers) - MAX_CLAIM_NUMBERS
    assert trial.untried_note().startswith(
        f"The claim states {len(trial.claim_numbers)} numbers: the number check tried the first {MAX_CLAIM_NUMBERS}"
    )
    # every candidate read as stated: the numbers apart refute, but the untried ones can't make it SUPPORTS
    settled = settle(trial, [0.95] * len(trial.candidates))
    assert settled is not None and settled.label == "REFUTES"
    one = number_trial(ClaimAnalysis("Oslo had 2,000 people in 1900."), sentences)
    assert one.untried == () and one.untried_note() is None


def test_a_sentence_that_states_the_claim_s_own_number_never_has_it_apart():
    """Run 5 read "... built between 1887 and 1887." as stated by "constructed from 1887 to 1889" (0.83), and the
    number check refuted a claim for 1889 with the same sentence's 1887."""
    trial = number_trial(
        ClaimAnalysis("The Eiffel Tower was built between 1887 and 1889."),
        ["It was constructed from 1887 to 1889 as the centerpiece of the 1889 World's Fair."],
    )
    assert any(c.claim_number.apart_from(c.sentence_number) for c in trial.candidates)
    settled = settle(trial, [0.95] * len(trial.candidates))
    assert settled is not None and settled.label == "SUPPORTS", settled
