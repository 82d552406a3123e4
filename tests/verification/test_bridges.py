"""Two-hop claims bridged (fever_core/verification/bridges.py, deciders.bridge_decision): a claim that reaches a second
page through a description, read as the two facts it states."""

from fever_core.common.types import NEI, REFUTES, SUPPORTS, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.bridges import bridge_trial, descriptions, names
from fever_core.verification.deciders import bridge_decision, counted_readings, grounded
from fever_core.verification.decision import DecidedBy, Decision
from fever_core.verification.evidence import JudgedSentence, chain_premise

CLAIM = "Riga is the capital of a country in southern Europe."
RIGA = ("Riga", "Riga is the capital and largest city of Latvia.")


def chain(title: str, text: str, first=RIGA) -> JudgedSentence:
    sentence = EvidenceSentence(title, title, 0, text, 0.6, 2, HopLink(first[0], 0, title, *first))
    return JudgedSentence(sentence, chain_premise(sentence), Stance(0.1, 0.1, 0.8), True, True)


def evidence() -> list[JudgedSentence]:
    first = EvidenceSentence("Riga", "Riga", 0, RIGA[1], 0.8)
    return [
        JudgedSentence(first, chain_premise(first), Stance(0.1, 0.2, 0.7), True, True),
        chain("Latvia", "Latvia is a country in the Baltic region of Northern Europe."),
    ]


def test_descriptions_are_noun_phrases_of_a_common_noun_with_a_modifier_the_innermost_last():
    spans = [CLAIM[a:b] for a, b in descriptions(CLAIM)]
    assert spans == ["the capital of a country in southern Europe", "a country in southern Europe"]
    assert descriptions("Riga is in Latvia.") == []


def test_each_description_is_tried_through_each_linked_page_the_claim_does_not_name():
    candidates = bridge_trial(CLAIM, evidence())
    inner = next(c for c in candidates if c.description == "a country in southern Europe")
    assert (inner.evidence, inner.bridge, inner.definite) == (1, "Latvia", False)
    assert inner.linked_claim == "Riga is the capital of Latvia."
    assert inner.described_claim == "Latvia is a country in southern Europe."
    assert bridge_trial("Riga is the capital of Latvia, a country in southern Europe.", evidence()) == []  # named
    assert names("American Samoa lies near Samoa.", "Samoa") and not names("American Samoa lies near it.", "Samoa")


def test_a_bridge_supports_when_both_facts_are_sure_and_refutes_when_one_is_refuted():
    candidates = [c for c in bridge_trial(CLAIM, evidence()) if c.description.startswith("a country")]
    undecided = Decision(NEI, {SUPPORTS: 0.2, REFUTES: 0.2, NEI: 0.6}, "learned")
    sure, refuted = Stance(0.97, 0.01, 0.02), Stance(0.01, 0.96, 0.03)
    refutes = bridge_decision(candidates, [sure], [refuted], 0.9, undecided)
    assert (refutes.label, refutes.decided_by, refutes.deciding_evidence) == (REFUTES, DecidedBy.BRIDGE, [1])
    assert [p.label for p in refutes.parts] == [SUPPORTS, REFUTES]
    assert bridge_decision(candidates, [sure], [sure], 0.9, undecided).label == SUPPORTS
    assert bridge_decision(candidates, [sure], [Stance(0.5, 0.3, 0.2)], 0.9, undecided) is None  # not sure
    # "a country in southern Europe" is not only Latvia: Riga not being Latvia's capital would refute nothing
    assert bridge_decision(candidates, [refuted], [sure], 0.9, undecided) is None
    assert bridge_decision(candidates, [sure], [sure], 0.9, refutes) is None  # only where nothing else settled it


def test_the_chain_is_shown_with_the_fact_that_decided():
    items = evidence()
    candidates = [c for c in bridge_trial(CLAIM, items) if c.description.startswith("a country")]
    undecided = Decision(NEI, {SUPPORTS: 0.2, REFUTES: 0.2, NEI: 0.6}, "learned")
    decision = bridge_decision(candidates, [Stance(0.97, 0.01, 0.02)], [Stance(0.01, 0.96, 0.03)], 0.9, undecided)
    read = counted_readings(decision, items)
    assert grounded(decision, read, items) == decision
    assert (read[1].label, read[1].claim_read) == (REFUTES, "Latvia is a country in southern Europe.")
    assert ClaimAnalysis(CLAIM).claim == CLAIM
