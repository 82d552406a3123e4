"""The one form of a judged evidence sentence (fever_core/verification/evidence.py): what the verifier reads for it,
its own words, and its JSON (a check's, the verdict's training runs')."""

from fever_core.common.types import Stance
from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.evidence import JudgedSentence, Reading, chain_premise

KRAFTWERK = EvidenceSentence("Kraftwerk", "Kraftwerk", 0, "Kraftwerk was formed in Düsseldorf in 1970.", 0.7)
DUSSELDORF = EvidenceSentence(
    "Düsseldorf",
    "Düsseldorf",
    0,
    "Düsseldorf is the capital of North Rhine-Westphalia.",
    0.6,
    hop=2,
    via=HopLink("Kraftwerk", 0, "Düsseldorf", "Kraftwerk", "Kraftwerk was formed in Düsseldorf in 1970."),
)


def test_a_second_hop_sentence_is_read_after_the_sentence_that_links_to_it():
    assert chain_premise(DUSSELDORF) == (
        "Kraftwerk: Kraftwerk was formed in Düsseldorf in 1970. "
        "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia."
    )
    assert chain_premise(KRAFTWERK) == "Kraftwerk: Kraftwerk was formed in Düsseldorf in 1970."


def test_a_judged_sentence_reads_alone_with_its_title_and_its_own_words_lose_the_title():
    judged = JudgedSentence(DUSSELDORF, chain_premise(DUSSELDORF), Stance(0.1, 0.2, 0.7), True)
    assert judged.titled == "Düsseldorf: Düsseldorf is the capital of North Rhine-Westphalia."
    assert judged.own_words == "Düsseldorf is the capital of North Rhine-Westphalia."
    repeated = EvidenceSentence("Jaws", "Jaws", 3, "Jaws: The Revenge is a 1987 film.", 0.5)
    assert JudgedSentence(repeated, "", None, False).own_words == "The Revenge is a 1987 film."


def test_a_judged_sentence_survives_its_json_and_an_older_check_bears_on_its_claim():
    judged = JudgedSentence(
        DUSSELDORF,
        chain_premise(DUSSELDORF),
        Stance(0.1, 0.2, 0.7),
        True,
        False,
        Reading("REFUTES", 0.9, "Kraftwerk was formed in Bonn."),
    )
    record = judged.to_dict()
    assert record["title"] == "Düsseldorf" and record["via"]["anchor"] == "Düsseldorf"
    assert JudgedSentence.from_dict(record) == judged
    del record["bears_on_claim"], record["reading"]
    older = JudgedSentence.from_dict(record)
    assert older.bears_on_claim
    assert older.reading == Reading("NOT ENOUGH INFO", 0.7)  # kept before readings: its likeliest label
    unjudged = JudgedSentence(KRAFTWERK, chain_premise(KRAFTWERK), None, False)
    assert JudgedSentence.from_dict(unjudged.to_dict()) == unjudged
