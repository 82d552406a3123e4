"""A text's sentences with their offsets, and which are worth checking, with why: clear cases of each rule."""

from __future__ import annotations

import threading
import time

import pytest

from fever_core.text_check import (
    MAX_TEXT_SENTENCES,
    NothingToCheck,
    TextTooLarge,
    estimate_sentences,
    find_sentences,
    plain_text,
    sentence_claims,
)
from fever_core.text_check.sentences import MAX_BLOCK_CHARS

ARTICLE = """Floods cut off villages

The River Severn burst its banks on Tuesday, flooding 300 homes in Shrewsbury. I think the defences failed.
Will the government act? Stanley Kubrick directed 2001: A Space Odyssey in 1968.

ALVAREZ: Under the current system, 26 million Americans have no health insurance.
HILL: We will cut taxes for every family.
- Oslo is the capital of Norway.
1/ The stadium was approved by the council on 14 March."""


def test_sentences_keep_their_offsets_into_the_text():
    sentences = find_sentences(ARTICLE)
    assert [s.text for s in sentences] == [
        "Floods cut off villages",
        "The River Severn burst its banks on Tuesday, flooding 300 homes in Shrewsbury.",
        "I think the defences failed.",
        "Will the government act?",
        "Stanley Kubrick directed 2001: A Space Odyssey in 1968.",  # not cut after the colon
        "Under the current system, 26 million Americans have no health insurance.",  # no speaker
        "We will cut taxes for every family.",
        "Oslo is the capital of Norway.",  # no list mark
        "The stadium was approved by the council on 14 March.",  # no thread number
    ]
    assert all(ARTICLE[s.start : s.end] == s.text for s in sentences)
    assert [s.index for s in sentences] == list(range(len(sentences)))


def test_a_line_ending_mid_sentence_is_joined_and_one_ending_a_sentence_is_not():
    text = "The river burst its banks on Tuesday,\nflooding 300 homes.\nShrewsbury opened two rest centres."
    assert [s.text for s in find_sentences(text)] == [
        "The river burst its banks on Tuesday,\nflooding 300 homes.",
        "Shrewsbury opened two rest centres.",
    ]


@pytest.mark.parametrize(
    "sentence, reason",
    [
        ("The River Severn burst its banks on Tuesday, flooding 300 homes in Shrewsbury.", "names"),
        ("Marie Curie won two Nobel Prizes.", "names Marie Curie"),
        ("Inflation peaked at 9.1 per cent in June 2022.", "gives 9.1 per cent, June 2022"),
        ("Millions of jobs were lost in 2009.", "gives Millions"),
        ("I was born in Leeds in 1975.", "names Leeds"),  # the writer's past is a fact
        ("The plant can produce 5,000 cars a year.", "gives 5,000"),
    ],
)
def test_a_fact_about_named_things_numbers_or_dates_is_worth_checking(sentence, reason):
    (found,) = find_sentences(sentence)
    assert found.worthy and found.reason.startswith(reason), found


@pytest.mark.parametrize(
    "sentence, reason",
    [
        ("Did Marie Curie win two Nobel Prizes?", "a question"),
        ("I think Tesla is overrated.", "an opinion (think)"),
        ("Critics believe the 2021 barriers failed.", "an opinion (believe)"),
        ("Spain is a wonderful country.", "an opinion (wonderful)"),
        ("Honestly, the Paris show was great.", "an opinion (Honestly)"),
        ("I like the way we did it in Massachusetts.", "an opinion (like)"),
        ("I'm proud of our work in Ohio.", "the writer's feelings (proud)"),
        ("We will open a store in Berlin next year.", "the writer's own plans"),
        ("I plan to visit Japan in May.", "the writer's own plans"),
        ("We're going to build 500 homes in Leeds.", "the writer's own plans"),
        ("The mayor of Paris should resign.", "a recommendation (should)"),
        ("The company needs to cut 2,000 jobs.", "a recommendation (needs to)"),
        ("Prices in Germany might rise in March.", "speculation (might)"),
        ("The Bank of England will raise rates in 2025.", "a prediction (will)"),
        ("Get out and vote on November 5th.", "an instruction"),
        ("Let me tell you about Lisbon.", "an instruction"),
        ("Thank you, Jim, and Mr. President.", "thanks or a greeting"),
        ("Good evening and welcome to Ohio.", "thanks or a greeting"),
        ("Three days in Lisbon", "a fragment (no verb)"),
        ("Lisbon, 2019.", "a fragment (under 4 words)"),
        ("Things have changed a lot since then.", "names no person"),
        ("He voted against it.", "names no person"),  # who is "he"? The sentence alone can't say
        ("That's just not true, John.", "names no person"),  # John is spoken to, not spoken of
    ],
)
def test_questions_opinions_plans_instructions_and_fragments_are_not(sentence, reason):
    (found,) = find_sentences(sentence)
    assert not found.worthy and found.reason.startswith(reason), found


@pytest.mark.parametrize(
    "sentence, reason",
    [
        ("On Monday, the mayor said the city had never looked better.", "a reported opinion (said: better)"),
        ('"The city has never looked better," the mayor said on Monday.', "a reported opinion (said: better)"),
        ("The minister told reporters in Leeds on Friday that the plan was a disaster.", "a reported opinion (told"),
    ],
)
def test_an_opinion_reported_is_not_worth_checking_though_the_saying_has_a_day(sentence, reason):
    (found,) = find_sentences(sentence)
    assert not found.worthy and found.reason.startswith(reason), found


def test_a_fact_reported_is_worth_checking():
    (found,) = find_sentences("The mayor said on Monday that the bridge had cost $40 million.")
    assert found.worthy and found.checked_as is None, found


@pytest.mark.parametrize(
    "sentence, checked_as, reason",
    [
        (
            "Shakespeare wrote Hamlet, and the festival will stage it next summer.",
            "Shakespeare wrote Hamlet.",
            "names Shakespeare, Hamlet; checked without a prediction (will)",
        ),
        (
            "The company cut 500 jobs last year and will cut 300 more.",
            "The company cut 500 jobs last year.",
            "gives 500; checked without a prediction (will)",
        ),
        (
            "The festival should stage Hamlet next summer, and Shakespeare wrote it in 1600.",
            "Shakespeare wrote it in 1600.",
            "names Shakespeare; gives 1600; checked without a recommendation (should)",
        ),
    ],
)
def test_a_sentence_joining_a_fact_and_a_prediction_has_its_fact_checked(sentence, checked_as, reason):
    (found,) = find_sentences(sentence)
    assert found.worthy and found.reason == reason and found.text == sentence, found
    assert found.checked_as == checked_as and found.claim == checked_as


@pytest.mark.parametrize(
    "sentence, reason",
    [
        ("The Bank of England will raise rates in 2025 and will cut them in 2026.", "a prediction (will)"),
        ("The festival will stage Hamlet, and it was written by Shakespeare.", "a prediction (will)"),  # "it" alone
        ("Rates rose, and the Bank of England might raise them again in 2025.", "speculation (might)"),  # no anchor
    ],
)
def test_a_prediction_without_a_fact_that_stands_alone_is_not_split(sentence, reason):
    (found,) = find_sentences(sentence)
    assert not found.worthy and found.reason == reason and found.checked_as is None, found


def test_the_fact_of_a_sentence_with_a_prediction_gets_the_name_its_pronoun_stands_for():
    sentences = find_sentences(
        "Marie Curie was a Polish physicist. She won two Nobel Prizes, and she will be honoured in Paris next year."
    )
    assert sentences[1].checked_as == "Marie Curie won two Nobel Prizes." and sentences[1].worthy


def test_a_text_with_no_check_worthy_sentence_says_so():
    sentences = find_sentences("Thank you all so much! I think we should do better. Will it rain?")
    assert not any(s.worthy for s in sentences)
    with pytest.raises(NothingToCheck, match="None of the text's 3 sentences looks worth checking: none states a fact"):
        sentence_claims(sentences)
    assert [c.claim for c in sentence_claims(sentences, [2])] == ["Will it rain?"]  # chosen by hand: checked
    with pytest.raises(NothingToCheck, match="No sentence is chosen"):
        sentence_claims(sentences, [])


def test_an_empty_text_has_no_sentences():
    assert find_sentences("") == [] and find_sentences("\n\n  \n") == []


def test_a_paragraph_of_many_pieces_is_split_whole(monkeypatch):
    # ten times the piece spaCy reads at once, in one paragraph (a 1 MB text is the same, a hundred times over; its
    # time and memory are the check-worthiness benchmark's to measure)
    sentence = "Marie Curie won two Nobel Prizes, in 1903 and 1911. I think she was brilliant. "
    size = 10 * MAX_BLOCK_CHARS + 123
    text = plain_text((sentence * (size // len(sentence) + 1))[:size])
    sentences = find_sentences(text, max_sentences=len(text), max_seconds=3600)  # more than a text may have by default
    assert len(sentences) == text.count(". ") + 1
    assert all(text[s.start : s.end] == s.text for s in sentences)
    assert sum(s.worthy for s in sentences) == text.count("Marie Curie")


# --- issue 44, item 3: limits before splitting, and a time budget for it ---------------------------------------------


def test_the_sentence_estimate_counts_end_marks_and_blank_lines_without_parsing():
    assert estimate_sentences("Paris is in France. Is Rome in Italy?! Yes… “Quite.”\n\nA heading\n\nmore") == 6
    assert estimate_sentences("") == 1 and estimate_sentences("3.14 and e.g.the end") == 1
    started = time.perf_counter()
    assert estimate_sentences("Yes.\n\n" * 160_000) == 160_001  # 1 MB
    assert time.perf_counter() - started < 5.0  # parsing it would take a minute; room for a busy machine


@pytest.mark.parametrize(
    "text, limit, says",
    [
        ("Yes.\n\n" * 20_000, MAX_TEXT_SENTENCES, "about 20,001 sentences; at most 5,000"),  # the 20,000
        ("Marie Curie won two Nobel Prizes, in 1903 and 1911. " * 4_000, 3_000, "about 4,001 sentences; at most 3,000"),
    ],
)
def test_a_text_of_too_many_sentences_is_refused_before_it_is_parsed(text, limit, says):
    started = time.perf_counter()
    with pytest.raises(TextTooLarge, match=f"{says} are split and checked at once. Check it in parts"):
        find_sentences(text, max_sentences=limit)
    assert time.perf_counter() - started < 10.0  # parsing first took 36 s; room for a busy machine


def test_splitting_that_takes_longer_than_its_budget_is_refused_saying_how_far_it_got():
    text = "\n\n".join(f"Paris is the capital of France and city number {n}" for n in range(100))
    with pytest.raises(TextTooLarge, match=r"took over 0.01 s \(0 of its 5,\d{3} characters read\)"):
        find_sentences(text, max_seconds=0.01)


def test_stopped_splitting_ends_with_the_sentences_found_so_far():
    text = "\n\n".join(f"Paris is the capital of France and city number {n}." for n in range(200))
    stop = threading.Event()
    stop.set()
    assert find_sentences(text, stop=stop) == []
    assert len(find_sentences(text)) == 200
