"""The deciders (fever_core/verification/deciders.py): which label each gives, with which probabilities, resting on
which sentences; and the invariants every verdict keeps (what it uses bears on the claim and agrees with it)."""

import numpy as np
import pytest

from fever_core.common.names import mentions_a_name
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence, HopLink
from fever_core.verification.deciders import best_sentence_rule, learned_verdict, page_rule
from fever_core.verification.decision import DecidedBy
from fever_core.verification.evidence import JudgedSentence, chain_premise
from fever_core.verification.features import FEATURE_NAMES
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.policy import LEARNED, RULE, stance_label


def always(label_index: int, page_rule_min: float | None = None) -> LearnedVerdict:
    """A learned verdict whose bias alone picks one label (with the page rule at ``page_rule_min``)."""
    n = len(FEATURE_NAMES)
    bias = np.full(3, -20.0)
    bias[label_index] = 20.0
    return LearnedVerdict(
        np.zeros((3, n)), bias, np.zeros(n), np.ones(n), list(FEATURE_NAMES), {}, subject_stance_min=page_rule_min
    )


def judge(claim: str, rows) -> list[JudgedSentence]:
    """Evidence as the verifier would hand it on: ``rows`` of ``(title, text, stance)`` or ``(title, text, stance,
    hop, via)``, best first, scored 0.8, 0.7 ...; each bears on the claim as its chain mentions the claim's names."""
    out = []
    for i, (title, text, stance, *more) in enumerate(rows):
        hop, via = (more + [1, None])[:2] if more else (1, None)
        sentence = EvidenceSentence(title, title, i, text, 0.8 - 0.1 * i, hop, via)
        premise = chain_premise(sentence)
        out.append(
            JudgedSentence(
                sentence, premise, stance, stance is not None, mentions_a_name(ClaimAnalysis(claim).names, premise)
            )
        )
    return out


def decide_learned(learned, claim, evidence):
    """The learned verdict's decision, overridden by the page rule where it has one (as the cascade decides)."""
    analysis = ClaimAnalysis(claim)
    decided = learned_verdict(learned, analysis, evidence)
    if learned.subject_stance_min is None:
        return decided
    return page_rule(analysis, evidence, learned.subject_stance_min, decided) or decided


def test_no_trustworthy_evidence_means_not_enough_info():
    decision = best_sentence_rule(judge("X is Y.", [("X", "X is Z.", None), ("X", "X is W.", None)]))
    assert (decision.label, decision.probabilities[NEI], decision.deciding_evidence, decision.decided_by) == (
        NEI,
        1.0,
        [],
        RULE,
    )


def test_the_best_trustworthy_sentence_decides():
    evidence = judge(
        "Page is something.",
        [
            ("Page A", "Page is a.", None),
            ("Page B", "Page is b.", Stance(0.05, 0.9, 0.05)),
            ("Page C", "Page is c.", Stance(0.95, 0.03, 0.02)),
        ],
    )
    decision = best_sentence_rule(evidence)
    assert decision.label == REFUTES and decision.deciding_evidence == [1] and decision.probabilities[REFUTES] == 0.9


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
    (
        "Mona Lisa",
        "The painting's novel qualities include the subject's enigmatic expression.",
        Stance(0.30, 0.05, 0.65),
    ),
    ("Leonardo da Vinci", "Leonardo was an Italian polymath of the High Renaissance.", Stance(0.08, 0.02, 0.90)),
    ("Mona Lisa", "The Mona Lisa is a half-length portrait painting by Leonardo da Vinci.", Stance(0.91, 0.03, 0.06)),
]


def test_a_sentence_that_mentions_none_of_the_claims_names_never_decides_nor_is_used():
    evidence = judge(ABBA, [(*ALIBABA, Stance(0.01, 0.976, 0.014)), (*ABBA_LEAD, Stance(0.05, 0.90, 0.05))])
    assert [item.bears_on_claim for item in evidence] == [False, True]
    ruled = best_sentence_rule(evidence)
    assert ruled.label == REFUTES and ruled.deciding_evidence == [1] and ruled.used_evidence == [1]
    learned = decide_learned(always(LABELS.index(REFUTES)), ABBA, evidence)
    assert learned.deciding_evidence == [1] and 0 not in learned.used_evidence
    alone = best_sentence_rule(evidence[:1])
    assert alone.label == NEI and alone.deciding_evidence == []


def test_the_deciding_sentence_is_one_whose_own_stance_is_the_verdict():
    evidence = judge(LEONARDO, MONA_LISA)
    decision = decide_learned(always(LABELS.index(SUPPORTS)), LEONARDO, evidence)
    assert (decision.label, decision.deciding_evidence, decision.used_evidence, decision.decided_by) == (
        SUPPORTS,
        [2],
        [2],
        LEARNED,
    )
    leaning_only = decide_learned(always(LABELS.index(SUPPORTS)), LEONARDO, evidence[:2])
    assert leaning_only.deciding_evidence == [] and leaning_only.used_evidence == []  # NEI rows never decide


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
            for i in decision.used_evidence:
                assert stances[i] is not None and rows[i] is not ALIBABA
                assert stance_label(stances[i], rule) == decision.label
            assert decision.deciding_evidence == decision.used_evidence[: len(decision.deciding_evidence)]


JAWS = ("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg.")


def test_a_second_deciding_sentence_names_the_claims_subject_in_its_own_words():
    evidence = judge(
        "Jaws is a 1980 film.",
        [
            (*JAWS, Stance(0.02, 0.97, 0.01)),
            ("Jaws (film)", "The film is about a giant shark.", Stance(0.1, 0.8, 0.1)),
            ("Jaws (film)", "Jaws was released in 1975.", Stance(0.1, 0.7, 0.2)),
        ],
    )
    decision = decide_learned(always(LABELS.index(REFUTES)), "Jaws is a 1980 film.", evidence)
    assert decision.used_evidence == [0, 1, 2] and decision.deciding_evidence == [0, 2]


def test_a_second_hop_sentence_whose_own_words_do_not_name_the_subject_is_no_second_deciding_sentence():
    via = HopLink("Jaws_(film)", 0, "Steven Spielberg", *JAWS)
    evidence = judge(
        "Jaws is a 1980 film.",
        [
            (*JAWS, Stance(0.0, 1.0, 0.0)),
            ("Steven Spielberg", "Steven Spielberg is an American filmmaker.", Stance(0.0, 0.99, 0.01), 2, via),
        ],
    )
    decision = decide_learned(always(LABELS.index(REFUTES)), "Jaws is a 1980 film.", evidence)
    assert decision.used_evidence == [0, 1]  # the chain, read whole, leans the verdict's way
    assert decision.deciding_evidence == [0]  # but the filmmaker sentence says nothing of Jaws itself


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
    assert (decision.label, decision.decided_by, decision.deciding_evidence, decision.used_evidence[0]) == (
        REFUTES,
        DecidedBy.PAGE_RULE,
        [0],
        0,
    )
    assert decision.probabilities == DERRIDA_STANCES[0].to_dict()


@pytest.mark.parametrize(
    "stances, hops, why",
    [
        ([Stance(0.0, 0.85, 0.15), None, None], (1, 1, 1), "not sure enough"),
        ([None, None, Stance(0.0, 0.99, 0.01)], (1, 1, 1), "a page the claim does not name"),
        ([Stance(0.0, 1.0, 0.0), None, None], (2, 1, 1), "reached through a link"),
        ([Stance(0.0, 1.0, 0.0), Stance(0.95, 0.0, 0.05), None], (1, 1, 1), "its page's sentences disagree"),
    ],
)
def test_the_page_rule_keeps_out_of_the_way(stances, hops, why):
    evidence = judge(DERRIDA, [(*row, stance, hop, None) for row, stance, hop in zip(DERRIDA_ROWS, stances, hops)])
    assert decide_learned(always(LABELS.index(NEI), 0.9), DERRIDA, evidence).label == NEI, why


def test_the_page_rule_reads_a_title_without_its_disambiguation():
    evidence = judge(
        "Soul Food is a film.",
        [("Soul Food (film)", "Soul Food is a 1997 American comedy-drama film.", Stance(0.97, 0.01, 0.02))],
    )
    assert decide_learned(always(LABELS.index(NEI), 0.9), "Soul Food is a film.", evidence).label == SUPPORTS


def ground(decision, evidence, nei_threshold=None):
    """``decision`` as the checker concludes it: each sentence's counted reading, then held to it."""
    from fever_core.verification.deciders import counted_readings, grounded

    read = counted_readings(decision, evidence, nei_threshold)
    return grounded(decision, read, evidence), read


def test_a_learned_verdict_that_no_sentence_states_is_undecided_and_names_the_sentences_to_read():
    claim = "Marie Curie died in 1934."
    evidence = judge(
        claim,
        [
            ("Marie Curie", "Marie Curie was a physicist.", Stance(0.2, 0.3, 0.5)),
            ("Marie Curie", "Marie Curie won two Nobel Prizes.", Stance(0.45, 0.1, 0.45)),
            ("Pierre Curie", "Pierre Curie married Marie Curie.", Stance(0.1, 0.1, 0.8)),
        ],
    )
    decision = learned_verdict(always(LABELS.index(REFUTES)), ClaimAnalysis(claim), evidence)
    assert (decision.label, decision.deciding_evidence) == (REFUTES, [])  # the mix leans to refutes, no sentence does
    grounded_decision, read = ground(decision, evidence)
    assert grounded_decision.label == NEI and grounded_decision.undecided
    assert grounded_decision.deciding_evidence == [1]  # the one sentence that leans (to supports), to be read
    assert read[1].label == SUPPORTS and read[0].label == NEI


def test_a_verdict_on_its_own_sentence_stands_and_the_table_shows_that_sentences_reading():
    claim = "The Eiffel Tower is in Berlin."
    evidence = judge(claim, [("Eiffel Tower", "The Eiffel Tower is in Paris.", Stance(0.01, 0.98, 0.01))])
    decision = learned_verdict(always(LABELS.index(REFUTES)), ClaimAnalysis(claim), evidence)
    grounded_decision, read = ground(decision, evidence)
    assert grounded_decision == decision
    assert (read[0].label, read[0].probability, read[0].claim_read) == (REFUTES, 0.98, "")


def test_the_number_checks_sentence_is_shown_with_the_number_checks_reading():
    from fever_core.verification.deciders import number_check
    from fever_core.verification.number_check import NumberCheck

    claim = "Barack Obama was the 45th president of the United States."
    evidence = judge(
        claim, [("Barack Obama", "Barack Obama was the 44th president of the United States.", Stance(0.46, 0.30, 0.24))]
    )
    rewritten = "Barack Obama was the 44th president of the United States."
    decision = number_check(NumberCheck(REFUTES, 0, 0.97, "45th", "44th", rewritten), [0])
    grounded_decision, read = ground(decision, evidence)
    assert grounded_decision.label == REFUTES and not grounded_decision.undecided
    assert (read[0].label, read[0].probability, read[0].claim_read) == (REFUTES, 0.97, rewritten)


def test_a_not_enough_info_verdict_with_no_leaning_sentence_is_plain_not_enough_info():
    claim = "Oslo has a famous opera house."
    evidence = judge(claim, [("Oslo", "Oslo is the capital of Norway.", Stance(0.1, 0.1, 0.8))])
    decision = learned_verdict(always(LABELS.index(NEI)), ClaimAnalysis(claim), evidence)
    grounded_decision, _ = ground(decision, evidence)
    assert grounded_decision == decision and not grounded_decision.undecided


@pytest.mark.parametrize("rule_threshold", [None, 0.5, 0.94])
def test_no_grounded_verdict_contradicts_its_deciding_sentences(rule_threshold):
    """Over many random stances, every decider's grounded SUPPORTS or REFUTES rests on deciding sentences whose
    shown reading is that label, and none is without one."""
    rng = np.random.default_rng(7)
    claim = "Page is something."
    for trial in range(300):
        rows = []
        for i in range(5):
            p = rng.dirichlet([0.6, 0.6, 0.6])
            rows.append((f"Page {i}", f"Page is {i}.", Stance(*map(float, p)) if rng.random() > 0.2 else None))
        evidence = judge(claim, rows)
        for decision in (
            learned_verdict(always(trial % 3), ClaimAnalysis(claim), evidence),
            best_sentence_rule(evidence, rule_threshold),
        ):
            grounded_decision, read = ground(decision, evidence, rule_threshold)
            if grounded_decision.label != NEI:
                assert grounded_decision.deciding_evidence
                assert all(read[i].label == grounded_decision.label for i in grounded_decision.deciding_evidence)


def test_a_sure_sentence_decides_where_the_learned_verdict_says_not_enough_info():
    from fever_core.verification.deciders import sure_sentence

    claim = "Jacques Derrida was a German philosopher."
    evidence = judge(
        claim,
        [
            ("Jacques Derrida", "Jacques Derrida was a French philosopher.", Stance(0.02, 0.83, 0.15)),
            ("Jacques Derrida", "Jacques Derrida wrote on deconstruction.", Stance(0.1, 0.1, 0.8)),
        ],
    )
    cautious = learned_verdict(always(LABELS.index(NEI)), ClaimAnalysis(claim), evidence)
    decision = sure_sentence(evidence, 0.7, cautious)
    assert (decision.label, decision.decided_by, decision.deciding_evidence) == (REFUTES, DecidedBy.SURE_SENTENCE, [0])
    assert sure_sentence(evidence, 0.9, cautious) is None  # not sure enough
    supported = learned_verdict(always(LABELS.index(SUPPORTS)), ClaimAnalysis(claim), evidence)
    assert sure_sentence(evidence, 0.7, supported) is None  # it only speaks where the verdict says nothing


def test_sure_sentences_of_both_labels_decide_nothing():
    from fever_core.verification.deciders import sure_sentence

    claim = "Jacques Derrida was a German philosopher."
    evidence = judge(
        claim,
        [
            ("Jacques Derrida", "Jacques Derrida was a French philosopher.", Stance(0.02, 0.9, 0.08)),
            ("Jacques Derrida", "Jacques Derrida lived in Germany.", Stance(0.9, 0.02, 0.08)),
        ],
    )
    assert sure_sentence(evidence, 0.7, learned_verdict(always(2), ClaimAnalysis(claim), evidence)) is None


def test_a_compound_claim_is_supported_only_when_every_part_is_and_refuted_when_one_part_is():
    from fever_core.verification.deciders import part_of, parts_decision

    claim = "Marie Curie was born in Warsaw and died in Paris."
    evidence = judge(
        claim,
        [
            ("Marie Curie", "Marie Curie was born in Warsaw.", Stance(0.3, 0.1, 0.6)),
            ("Marie Curie", "Marie Curie died in Passy, France.", Stance(0.2, 0.2, 0.6)),
        ],
    )
    undecided = learned_verdict(always(LABELS.index(NEI)), ClaimAnalysis(claim), evidence)
    born = part_of("Marie Curie was born in Warsaw.", [Stance(0.97, 0.01, 0.02), Stance(0.1, 0.1, 0.8)], evidence, 0.7)
    died_paris = part_of("Marie Curie died in Paris.", [Stance(0.1, 0.1, 0.8), Stance(0.92, 0.03, 0.05)], evidence, 0.7)
    died_rome = part_of("Marie Curie died in Rome.", [Stance(0.1, 0.1, 0.8), Stance(0.02, 0.95, 0.03)], evidence, 0.7)
    unknown = part_of("Marie Curie liked tea.", [Stance(0.1, 0.1, 0.8), Stance(0.2, 0.1, 0.7)], evidence, 0.7)
    assert (born.label, born.deciding, died_paris.deciding, unknown.label) == (SUPPORTS, 0, 1, NEI)

    supported = parts_decision([born, died_paris], undecided)
    assert (supported.label, supported.decided_by, supported.deciding_evidence) == (
        SUPPORTS,
        DecidedBy.CLAIM_PARTS,
        [0, 1],
    )
    assert supported.probabilities[SUPPORTS] == pytest.approx(0.92)  # the least sure part
    refuted = parts_decision([born, died_rome], undecided)
    assert (refuted.label, refuted.deciding_evidence) == (REFUTES, [1])
    open_part = parts_decision([born, unknown], undecided)
    assert open_part.label == NEI and open_part.decided_by == LEARNED and len(open_part.parts) == 2

    grounded_decision, read = ground(refuted, evidence)
    assert grounded_decision.label == REFUTES  # its deciding sentence is shown with the part it refutes
    assert (read[1].label, read[1].claim_read) == (REFUTES, "Marie Curie died in Rome.")
