"""An opening pronoun read as the name it stands for (fever_core/text_check/pronouns.py): what is checked for a
sentence of a text that says "She" or "It" for someone named before."""

from __future__ import annotations

import pytest

from fever_core.text_check import find_sentences, sentence_claims


@pytest.mark.parametrize(
    "text, checked_as",
    [
        (
            "Marie Curie was a Polish physicist. She won two Nobel Prizes. Her husband was Pierre Curie.",
            [None, "Marie Curie won two Nobel Prizes.", "Marie Curie's husband was Pierre Curie."],
        ),
        (
            "The Eiffel Tower is in Paris. It was completed in 1889. It takes two hours to climb it.",
            [None, "The Eiffel Tower was completed in 1889.", None],
        ),  # an "it" that stands for the clause after it
        (
            "Barack Obama met Angela Merkel in Berlin in 2013. He praised her record.",
            [None, "Barack Obama praised her record."],
        ),  # the subject before, not the last person named
        ("Apple was founded in 1976. They sold 200 million phones in 2020.", [None, None]),  # "They": left as written
        (
            "Steven Spielberg directed Jaws in 1975. The film was a hit. He was born in Cincinnati.",
            [None, None, "Steven Spielberg was born in Cincinnati."],
        ),  # a common-noun subject passed over for "He"
        (
            "Paris is the capital of France. The city of Lyon is smaller. It has 500,000 people.",
            [None, None, None],
        ),  # ...but not for "It": it stands for the city
        (
            "Marie Curie was born in Warsaw. She moved to Paris in 1891. She won two Nobel Prizes.",
            [None, "Marie Curie moved to Paris in 1891.", "Marie Curie won two Nobel Prizes."],
        ),
        ("Marie Curie moved to Paris in 1891. It is the capital of France.", [None, None]),  # a person, not a thing
        ("She was born in 1867 in Warsaw.", [None]),  # no one named before
        (
            "Marie Curie was born in 1867. Paris is the capital of France. The Nile is in Africa. Cats purr. She died in 1934.",
            [None, None, None, None, None],
        ),  # named more than three sentences before
    ],
)
def test_an_opening_pronoun_is_checked_as_the_name_it_stands_for(text, checked_as):
    sentences = find_sentences(text)
    assert [s.checked_as for s in sentences] == checked_as
    assert all(text[s.start : s.end] == s.text for s in sentences)  # the sentence itself is as written


def test_the_claims_checked_for_a_text_are_the_sentences_as_read():
    sentences = find_sentences("Marie Curie was a Polish physicist. She won two Nobel Prizes in 1903 and 1911.")
    claims = sentence_claims(sentences)
    assert [c.claim for c in claims] == [
        "Marie Curie was a Polish physicist.",
        "Marie Curie won two Nobel Prizes in 1903 and 1911.",
    ]
    assert sentences[1].checked_as == claims[1].claim and sentences[0].checked_as is None
