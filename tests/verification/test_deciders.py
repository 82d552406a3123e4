"""The deciders (fever_core/verification/deciders.py): which label each gives, with which probabilities, resting on
which sentences; and the invariants every verdict keeps (what it uses bears on the claim and agrees with it)."""

import numpy as np
import pytest

from fever_core.common.names import mentions_a_name
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.deciders import (
    PAGE_RULE,
    best_sentence_rule,
    learned_verdict,
    page_rule,
)
from fever_core.verification.evidence import JudgedSentence, chain_premise
from fever_core.verification.features import FEATURE_NAMES
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.policy import LEARNED, RULE, stance_label


def always(label_index: int, page_rule_min: float | None = None) -> LearnedVerdict:
    """A learned verdict whose bias alone picks one label (with the page rule at ``page_rule_min``)."""
    n = len(FEATURE_NAMES)
    bias = np.full(3, -20.0)
    bias[label_index] = 20.0
    return LearnedVerdict(np.zeros((3, n)), bias, np.zeros(n), np.ones(n), list(FEATURE_NAMES), {},
                          subject_stance_min=page_rule_min)


def judge(claim: str, rows) -> list[JudgedSentence]:
    """Evidence as the verifier would hand it on: ``rows`` of ``(title, text, stance)`` or ``(title, text, stance,
    hop, via)``, best first, scored 0.8, 0.7 ...; each bears on the claim as its chain mentions the claim's names."""
    out = []
    for i, (title, text, stance, *more) in enumerate(rows):
        hop, via = (more + [1, None])[:2] if more else (1, None)
        sentence = EvidenceSentence(title, title, i, text, 0.8 - 0.1 * i, hop, via)
        premise = chain_premise(sentence)
        out.append(JudgedSentence(sentence, premise, stance, stance is not None,
                                  mentions_a_name(ClaimAnalysis(claim).names, premise)))
    return out


def decide_learned(learned, claim, evidence):
    """The learned verdict's decision, overridden by the page rule (as the checker decides)."""
    analysis = ClaimAnalysis(claim)
    decided = learned_verdict(learned, analysis, evidence)
    return page_rule(analysis, evidence, learned.subject_stance_min, decided) or decided


def test_no_trustworthy_evidence_means_not_enough_info():
    decision = best_sentence_rule(judge("X is Y.", [("X", "X is Z.", None), ("X", "X is W.", None)]))
    assert (decision.label, decision.probabilities[NEI], decision.deciding, decision.decider) == (NEI, 1.0, [], RULE)


def test_the_best_trustworthy_sentence_decides():
    evidence = judge("Page is something.", [("Page A", "Page is a.", None), ("Page B", "Page is b.", Stance(0.05, 0.9, 0.05)),
                                            ("Page C", "Page is c.", Stance(0.95, 0.03, 0.02))])
    decision = best_sentence_rule(evidence)
    assert decision.label == REFUTES and decision.deciding == [1] and decision.probabilities[REFUTES] == 0.9


def test_the_nei_threshold_applies_to_the_deciding_stance():
    evidence = judge("Alpha is beta.", [("Alpha", "Alpha is gamma.", Stance(0.35, 0.1, 0.55))])
    assert best_sentence_rule(evidence).label == NEI
    assert best_sentence_rule(evidence, nei_threshold=0.77).label == SUPPORTS
    assert best_sentence_rule(evidence, nei_threshold=0.5).label == NEI


ABBA = "ABBA was a pop group formed in Norway."
ALIBABA = ("Alibaba Group", "Alibaba Group Holding Limited was founded on 28 June 1999 in Hangzhou.")
ABBA_LEAD = ("ABBA", "ABBA were a Swedish pop group formed in Stockholm in 1972.")
LEONARDO = "Leonardo da Vinci painted the Mona Lisa."
MONA_LISA = [
    ("Mona Lisa", "The painting's novel qualities include the subject's enigmatic expression.", Stance(0.30, 0.05, 0.65)),
    ("Leonardo da Vinci", "Leonardo was an Italian polymath of the High Renaissance.", Stance(0.08, 0.02, 0.90)),
    ("Mona Lisa", "The Mona Lisa is a half-length portrait painting by Leonardo da Vinci.", Stance(0.91, 0.03, 0.06)),
]


def test_a_sentence_that_mentions_none_of_the_claims_names_never_decides_nor_is_used():
    evidence = judge(ABBA, [(*ALIBABA, Stance(0.01, 0.976, 0.014)), (*ABBA_LEAD, Stance(0.05, 0.90, 0.05))])
    assert [item.bears_on_claim for item in evidence] == [False, True]
    ruled = best_sentence_rule(evidence)
    assert ruled.label == REFUTES and ruled.deciding == [1] and ruled.used == [1]
    learned = decide_learned(always(LABELS.index(REFUTES)), ABBA, evidence)
    assert learned.deciding == [1] and 0 not in learned.used
    alone = best_sentence_rule(evidence[:1])
    assert alone.label == NEI and alone.deciding == []


def test_the_deciding_sentence_is_one_whose_own_stance_is_the_verdict():
    evidence = judge(LEONARDO, MONA_LISA)
    decision = decide_learned(always(LABELS.index(SUPPORTS)), LEONARDO, evidence)
    assert (decision.label, decision.deciding, decision.used, decision.decider) == (SUPPORTS, [2], [2], LEARNED)
    leaning_only = decide_learned(always(LABELS.index(SUPPORTS)), LEONARDO, evidence[:2])
    assert leaning_only.deciding == [] and leaning_only.used == []  # NEI rows never decide


def test_no_sentence_marked_used_has_a_stance_against_the_verdict():
    rng = np.random.default_rng(27)
    rows = [ABBA_LEAD, ALIBABA, ABBA_LEAD, ABBA_LEAD, ALIBABA]
    for trial in range(300):
        stances = [Stance.from_row(rng.dirichlet([0.5, 0.5, 0.5])) if rng.random() > 0.2 else None for _ in rows]
        evidence = judge(ABBA, [(*row, stance) for row, stance in zip(rows, stances)])
        threshold = [None, 0.5, 0.8][trial % 3]
        decisions = [best_sentence_rule(evidence, threshold)]
        decisions += [decide_learned(always(i), ABBA, evidence) for i in range(3)]
        for decision in decisions:
            rule = threshold if decision is decisions[0] else None
            for i in decision.used:
                assert stances[i] is not None and rows[i] is not ALIBABA
                assert stance_label(stances[i], rule) == decision.label
            assert decision.deciding == decision.used[:len(decision.deciding)]


JAWS = ("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg.")


def test_a_second_deciding_sentence_names_the_claims_subject_in_its_own_words():
    evidence = judge("Jaws is a 1980 film.", [(*JAWS, Stance(0.02, 0.97, 0.01)),
                                              ("Jaws (film)", "The film is about a giant shark.", Stance(0.1, 0.8, 0.1)),
                                              ("Jaws (film)", "Jaws was released in 1975.", Stance(0.1, 0.7, 0.2))])
    decision = decide_learned(always(LABELS.index(REFUTES)), "Jaws is a 1980 film.", evidence)
    assert decision.used == [0, 1, 2] and decision.deciding == [0, 2]


def test_a_second_hop_sentence_whose_own_words_do_not_name_the_subject_is_no_second_deciding_sentence():
    via = HopLink("Jaws_(film)", 0, "Steven Spielberg", *JAWS)
    evidence = judge("Jaws is a 1980 film.", [
        (*JAWS, Stance(0.0, 1.0, 0.0)),
        ("Steven Spielberg", "Steven Spielberg is an American filmmaker.", Stance(0.0, 0.99, 0.01), 2, via)])
    decision = decide_learned(always(LABELS.index(REFUTES)), "Jaws is a 1980 film.", evidence)
    assert decision.used == [0, 1]  # the chain, read whole, leans the verdict's way
    assert decision.deciding == [0]  # but the filmmaker sentence says nothing of Jaws itself


DERRIDA = "Jacques Derrida was a German philosopher."
DERRIDA_ROWS = [
    ("Jacques Derrida", "Jacques Derrida was a French philosopher."),
    ("Jacques Derrida", "He developed the philosophy of deconstruction."),
    ("Ferdinand de Saussure", "Ferdinand de Saussure was a Swiss linguist and philosopher."),
]
DERRIDA_STANCES = [Stance(0.0, 1.0, 0.0), Stance(0.0, 0.0, 1.0), Stance(0.0, 0.99, 0.01)]


def test_a_sure_sentence_of_the_page_the_claim_names_decides_over_the_learned_verdict():
    evidence = judge(DERRIDA, [(*row, stance) for row, stance in zip(DERRIDA_ROWS, DERRIDA_STANCES)])
    assert decide_learned(always(LABELS.index(NEI)), DERRIDA, evidence).label == NEI  # no page rule
    decision = decide_learned(always(LABELS.index(NEI), 0.9), DERRIDA, evidence)
    assert (decision.label, decision.decider, decision.deciding, decision.used[0]) == (REFUTES, PAGE_RULE, [0], 0)
    assert decision.probabilities == DERRIDA_STANCES[0].to_dict()


@pytest.mark.parametrize("stances, hops, why", [
    ([Stance(0.0, 0.85, 0.15), None, None], (1, 1, 1), "not sure enough"),
    ([None, None, Stance(0.0, 0.99, 0.01)], (1, 1, 1), "a page the claim does not name"),
    ([Stance(0.0, 1.0, 0.0), None, None], (2, 1, 1), "reached through a link"),
    ([Stance(0.0, 1.0, 0.0), Stance(0.95, 0.0, 0.05), None], (1, 1, 1), "its page's sentences disagree"),
])
def test_the_page_rule_keeps_out_of_the_way(stances, hops, why):
    evidence = judge(DERRIDA, [(*row, stance, hop, None) for row, stance, hop in zip(DERRIDA_ROWS, stances, hops)])
    assert decide_learned(always(LABELS.index(NEI), 0.9), DERRIDA, evidence).label == NEI, why


def test_the_page_rule_reads_a_title_without_its_disambiguation():
    evidence = judge("Soul Food is a film.", [("Soul Food (film)", "Soul Food is a 1997 American comedy-drama film.",
                                               Stance(0.97, 0.01, 0.02))])
    assert decide_learned(always(LABELS.index(NEI), 0.9), "Soul Food is a film.", evidence).label == SUPPORTS
