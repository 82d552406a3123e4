"""The verdict in words (fever_core/verification/explanation.py): the card's why line for every decider, and what a
refuting sentence says instead of the claim."""

import pytest

from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence
from fever_core.verification.deciders import best_sentence_rule, number_check
from fever_core.verification.explanation import explain, says_instead
from fever_core.verification.number_check import NumberCheck
from fever_core.verification.verdict import Verdict

from .test_deciders import (
    ABBA,
    ABBA_LEAD,
    ALIBABA,
    DERRIDA,
    DERRIDA_ROWS,
    DERRIDA_STANCES,
    always,
    decide_learned,
    judge,
)


def words(claim, evidence, decision):
    return explain(decision, ClaimAnalysis(claim), evidence)


@pytest.mark.parametrize(
    "claim, title, sentence, instead",
    [
        (
            "The Eiffel Tower is in Berlin.",
            "Eiffel Tower",
            "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France.",
            "says Paris, France, where the claim says Berlin",
        ),
        (
            "Jaws is a 1980 film.",
            "Jaws (film)",
            "Jaws is a 1975 American thriller film directed by Steven Spielberg.",
            "says 1975, where the claim says 1980",
        ),
        (ABBA, *ABBA_LEAD, "says Stockholm, where the claim says Norway"),
        (DERRIDA, *DERRIDA_ROWS[0], "says French, where the claim says German"),
        ("Munich is the capital of Bavaria.", "Munich", "Munich is the capital of Bavaria.", ""),
        (
            "Blade Runner 2049 stars Keanu Reeves.",
            "Blade Runner 2049",
            "Blade Runner 2049 is a 2017 sequel to the 1982 film, starring Ryan Gosling.",
            "says Ryan Gosling, where the claim says Keanu Reeves",
        ),
        (
            "Vedam is a 2010 Indian action film by Karan Johar.",
            "Vedam (film)",
            "Vedam is a 2010 Indian action film written and directed by Krish, starring Allu Arjun, Manoj Manchu, Anushka Shetty.",
            "says Allu Arjun and Manoj Manchu, where the claim says Karan Johar",
        ),  # people listed: two, not one phrase
    ],
)
def test_a_refuting_sentence_is_read_for_what_it_says_instead(claim, title, sentence, instead):
    assert says_instead(ClaimAnalysis(claim), EvidenceSentence(title, title, 0, sentence, 0.8)) == instead


def test_the_best_sentence_rules_lines():
    nothing = judge("X is Y.", [("X", "X is Z.", None)])
    assert (
        words("X is Y.", nothing, best_sentence_rule(nothing))
        == ("No trustworthy evidence was found in the corpus.",) * 2
    )
    evidence = judge(ABBA, [(*ALIBABA, Stance(0.01, 0.976, 0.014)), (*ABBA_LEAD, Stance(0.05, 0.90, 0.05))])
    reason, why = words(ABBA, evidence, best_sentence_rule(evidence))
    assert (
        why == "The sentence from ABBA says Stockholm, where the claim says Norway (this sentence alone: refutes 0.90)."
    )
    assert reason.startswith('Refuted by ABBA: "ABBA were a Swedish pop group') and reason.endswith(why)
    alone = words(ABBA, evidence[:1], best_sentence_rule(evidence[:1]))[1]
    assert alone.startswith("No evidence found mentions ABBA or Norway")
    unsure = judge(ABBA, [(*ABBA_LEAD, Stance(0.2, 0.1, 0.7))])
    assert words(ABBA, unsure, best_sentence_rule(unsure))[1] == (
        "The best evidence, from ABBA, neither supports nor refutes the claim (this sentence alone: not enough info 0.70)."
    )


def test_the_learned_verdicts_lines():
    evidence = judge(ABBA, [(*ABBA_LEAD, Stance(0.9, 0.05, 0.05))])
    reason, why = words(ABBA, evidence, decide_learned(always(LABELS.index(SUPPORTS)), ABBA, evidence))
    assert why == "The sentence from ABBA states what the claim says (this sentence alone: supports 0.90)."
    assert "(P = 1.00)" in reason
    nei = words(ABBA, evidence, decide_learned(always(LABELS.index(NEI)), ABBA, evidence))[1]
    assert nei == "The sentences found about ABBA and Norway neither state nor contradict what the claim says."


def test_the_page_rules_line_says_the_page_is_the_claims():
    evidence = judge(DERRIDA, [(*row, stance) for row, stance in zip(DERRIDA_ROWS, DERRIDA_STANCES)])
    reason, why = words(DERRIDA, evidence, decide_learned(always(LABELS.index(NEI), 0.9), DERRIDA, evidence))
    assert why == (
        "The sentence from Jacques Derrida, a page the claim names, says French, where the claim says "
        "German (this sentence alone: refutes 1.00)."
    )
    assert "a sentence of a page the claim names" in reason


def test_the_number_checks_lines_compare_the_numbers():
    claim = "Barack Obama was the 45th president of the United States."
    evidence = judge(claim, [("Barack Obama", "Barack Obama served as the 44th president.", Stance(0.9, 0.05, 0.05))])
    refuted = number_check(NumberCheck(REFUTES, 0, 0.97, "45th", "44th"), [0])
    assert words(claim, evidence, refuted)[1] == "The sentence from Barack Obama says 44th, where the claim says 45th."
    fits = number_check(NumberCheck(SUPPORTS, 0, 0.99, "more than 7,000 kilometres", "7,088 kilometres"), [0])
    assert words(claim, evidence, fits)[1] == (
        "The sentence from Barack Obama says 7,088 kilometres, which fits the claim's more than 7,000 kilometres."
    )
    same = number_check(NumberCheck(SUPPORTS, 0, 0.99, "seventh", "seventh"), [0])
    assert words(claim, evidence, same)[1] == "The sentence from Barack Obama says seventh, as the claim does."
    assert refuted.probabilities == {SUPPORTS: 0.0, REFUTES: 0.97, NEI: 0.03}


def test_a_verdict_carries_its_decider_and_one_kept_before_it_did_still_loads():
    evidence = judge(ABBA, [(*ABBA_LEAD, Stance(0.05, 0.90, 0.05))])
    decision = best_sentence_rule(evidence)
    verdict = Verdict.of(decision, *words(ABBA, evidence, decision))
    assert verdict.to_dict()["decided_by"] == "rule" and verdict.deciding_evidence == [0]
    old = {
        "label": "SUPPORTS",
        "probabilities": {"SUPPORTS": 0.9, "REFUTES": 0.05, NEI: 0.05},
        "reason": "Supported by X (P = 0.90).",
        "deciding_evidence": [0],
    }
    assert Verdict(**old).used_evidence == [] and Verdict(**old).decided_by == ""
