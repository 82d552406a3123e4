"""A claim split into the facts it states (fever_core/verification/claim_parts.py), on spaCy's parse."""

import pytest

from fever_core.verification.claim_parts import claim_parts


@pytest.mark.parametrize(
    "claim, parts",
    [
        (
            "Marie Curie was born in Warsaw and died in France.",
            ["Marie Curie was born in Warsaw.", "Marie Curie died in France."],
        ),
        (
            "The Eiffel Tower is in Paris and was built between 1887 and 1889.",
            ["The Eiffel Tower is in Paris.", "The Eiffel Tower was built between 1887 and 1889."],
        ),
        (
            "Ada Lovelace, the daughter of Lord Byron, wrote the first published algorithm.",
            ["Ada Lovelace wrote the first published algorithm.", "Ada Lovelace was the daughter of Lord Byron."],
        ),
        (
            "Botticelli painted The Birth of Venus, which hangs in Florence.",
            ["Botticelli painted The Birth of Venus.", "The Birth of Venus hangs in Florence."],
        ),
        (
            "Ali Akbar Khan, who was trained by his father, founded a music college.",
            ["Ali Akbar Khan founded a music college.", "Ali Akbar Khan was trained by his father."],
        ),
        (
            "The Pap test was invented by a Greek doctor and later simplified by a Canadian obstetrician.",
            [
                "The Pap test was invented by a Greek doctor.",
                "The Pap test was later simplified by a Canadian obstetrician.",
            ],
        ),
    ],
)
def test_a_claim_of_several_facts_is_split_into_sentences_of_one_fact(claim, parts):
    assert claim_parts(claim) == parts


@pytest.mark.parametrize(
    "claim",
    [
        "Toronto is the capital of Canada.",
        "Simon and Garfunkel were a folk duo.",  # coordinated subjects are one fact
        "Audrey Hepburn won an Oscar, an Emmy, a Grammy and a Tony.",  # so are coordinated objects
        "Ingmar Bergman wrote and directed The Seventh Seal.",  # the verbs share their object
        "George Orwell wrote the novel Animal Farm.",  # an appositive without commas is a name
        "Gregory the Great was pope at the turn of the 7th century.",
        "Is Paris in France?  Yes.",  # more than one sentence is not split
    ],
)
def test_a_claim_of_one_fact_is_untouched(claim):
    assert claim_parts(claim) == []
