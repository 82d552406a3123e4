import json

import numpy as np

from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.verification.verdict import (
    DecisionRule,
    EvidenceView,
    Verdict,
    bears_on_claim,
    claim_names,
    contrast,
    decide,
    load_decision_rule,
    rule_verdict,
    stance_label,
)

from .test_learned_verdict import always


def test_no_trustworthy_evidence_means_not_enough_info():
    verdict = rule_verdict([None, None], ["a", "b"])
    assert verdict.label == NEI and verdict.probabilities[NEI] == 1.0 and "No trustworthy" in verdict.reason


def test_the_best_trustworthy_sentence_decides():
    stances = [None, Stance(0.05, 0.9, 0.05), Stance(0.95, 0.03, 0.02)]
    verdict = rule_verdict(stances, ["Page A, sentence 0", "Page B, sentence 3", "Page C, sentence 1"])
    assert verdict.label == "REFUTES" and verdict.deciding_evidence == [1]
    assert "Page B, sentence 3" in verdict.reason and verdict.probabilities["REFUTES"] == 0.9


def test_the_nei_threshold_applies_to_the_deciding_stance():
    stances = [Stance(0.35, 0.1, 0.55)]
    assert rule_verdict(stances, ["a"]).label == NEI
    assert "neither supports nor refutes" in rule_verdict(stances, ["a"]).reason
    assert rule_verdict(stances, ["a"], nei_threshold=0.77).label == "SUPPORTS"
    assert rule_verdict(stances, ["a"], nei_threshold=0.5).label == NEI


def test_decide_applies_the_threshold_rule():
    probs = np.array([[0.5, 0.2, 0.3], [0.1, 0.3, 0.6], [0.2, 0.2, 0.6]])
    assert decide(probs).tolist() == [0, 2, 2]
    assert decide(probs, nei_threshold=0.7).tolist() == [0, 1, 0]


def test_decision_rule_travels_in_the_model_config(tmp_path):
    assert load_decision_rule(tmp_path) == DecisionRule()
    (tmp_path / "config.json").write_text(json.dumps({"nei_threshold": 0.77, "min_evidence_score": 0.3}))
    assert load_decision_rule(tmp_path) == DecisionRule(0.77, 0.3)
    assert load_decision_rule("some-org/hub-model") == DecisionRule()


# --- what the verdict rests on (issue 27): evidence that bears on the claim, stances that agree --------------------

ABBA = "ABBA was a pop group formed in Norway."
ALIBABA = ("Alibaba Group", "Alibaba Group: Alibaba Group Holding Limited was founded on 28 June 1999 in Hangzhou.")
ABBA_LEAD = ("ABBA", "ABBA: ABBA were a Swedish pop group formed in Stockholm in 1972.")
LEONARDO = "Leonardo da Vinci painted the Mona Lisa."
MONA_LISA_TEXTS = [
    ("Mona Lisa", "Mona Lisa: The painting's novel qualities include the subject's enigmatic expression."),
    ("Leonardo da Vinci", "Leonardo da Vinci: Leonardo was an Italian polymath of the High Renaissance."),
    ("Mona Lisa", "Mona Lisa: The Mona Lisa is a half-length portrait painting by Leonardo da Vinci."),
]
MONA_LISA_STANCES = [Stance(0.30, 0.05, 0.65), Stance(0.08, 0.02, 0.90), Stance(0.91, 0.03, 0.06)]


def views_of(stances, texts):
    return [EvidenceView(0.8 - 0.1 * i, 1, stance, premise) for i, (stance, (_, premise)) in enumerate(zip(stances, texts))]


def test_claim_names_are_its_capitalised_words_else_its_content_words():
    assert claim_names(ABBA) == ["ABBA", "Norway"]
    assert claim_names("The Great Wall of China is in Japan.") == ["Great Wall", "China", "Japan"]
    assert claim_names(LEONARDO) == ["Leonardo", "Vinci", "Mona Lisa"]
    assert claim_names("cats are mammals") == ["cats", "mammals"]
    assert bears_on_claim(["ABBA", "Norway"], ABBA_LEAD[1]) and not bears_on_claim(["ABBA", "Norway"], ALIBABA[1])


def test_a_sentence_that_mentions_none_of_the_claims_names_never_decides_nor_is_used():
    stances = [Stance(0.01, 0.976, 0.014), Stance(0.05, 0.90, 0.05)]
    texts = [ALIBABA, ABBA_LEAD]
    ruled = rule_verdict(stances, ["alibaba", "abba"], None, ABBA, texts)
    assert ruled.label == REFUTES and ruled.deciding_evidence == [1] and ruled.used_evidence == [1]
    assert "names Swedish and Stockholm where the claim says Norway" in ruled.why  # what it says instead
    assert contrast("Jaws is a 1980 film.", "Jaws is a 1975 American film.") == "says 1975 where the claim says 1980"
    learned = always(LABELS.index(REFUTES)).verdict(ABBA, views_of(stances, texts), ["a", "b"], None, texts)
    assert learned.deciding_evidence == [1] and 0 not in learned.used_evidence
    alone = rule_verdict(stances[:1], ["alibaba"], None, ABBA, texts[:1])
    assert alone.label == NEI and alone.deciding_evidence == [] and "No evidence found mentions ABBA" in alone.why


def test_the_deciding_sentence_is_one_whose_own_stance_is_the_verdict():
    views = views_of(MONA_LISA_STANCES, MONA_LISA_TEXTS)
    verdict = always(LABELS.index(SUPPORTS)).verdict(LEONARDO, views, ["a", "b", "c"], None, MONA_LISA_TEXTS)
    assert verdict.label == SUPPORTS and verdict.deciding_evidence == [2] and verdict.used_evidence == [2]
    assert "states what the claim says" in verdict.why and "supports 0.91" in verdict.why
    leaning_only = always(LABELS.index(SUPPORTS)).verdict(LEONARDO, views[:2], ["a", "b"], None,
                                     MONA_LISA_TEXTS[:2])
    assert leaning_only.deciding_evidence == [] and leaning_only.used_evidence == []  # NEI rows never decide
    assert "No single sentence" in leaning_only.why


def test_no_sentence_marked_used_has_a_stance_against_the_verdict():
    rng = np.random.default_rng(27)
    texts = [ABBA_LEAD, ALIBABA, ABBA_LEAD, ABBA_LEAD, ALIBABA]
    for trial in range(300):
        stances = [Stance.from_row(rng.dirichlet([0.5, 0.5, 0.5])) if rng.random() > 0.2 else None for _ in texts]
        threshold = [None, 0.5, 0.8][trial % 3]
        verdicts = [rule_verdict(stances, ["x"] * len(texts), threshold, ABBA, texts)]
        views = views_of(stances, texts)
        verdicts += [always(i).verdict(ABBA, views, ["x"] * len(texts), None, texts) for i in range(3)]
        for verdict in verdicts:
            rule = threshold if verdict is verdicts[0] else None
            for i in verdict.used_evidence:
                assert stances[i] is not None and texts[i] is not ALIBABA
                assert stance_label(stances[i], rule) == verdict.label
            assert set(verdict.deciding_evidence) <= set(verdict.used_evidence)
            assert verdict.deciding_evidence == verdict.used_evidence[:len(verdict.deciding_evidence)]


def test_a_verdict_kept_before_used_evidence_existed_still_loads():
    old = {"label": "SUPPORTS", "probabilities": {"SUPPORTS": 0.9, "REFUTES": 0.05, NEI: 0.05},
           "reason": "Supported by X (P = 0.90).", "deciding_evidence": [0]}
    assert Verdict(**old).used_evidence == [] and Verdict(**old).why == ""


def test_a_second_deciding_sentence_names_the_claims_subject_in_its_own_words():
    texts = [("Jaws (film)", "Jaws (film): Jaws is a 1975 American thriller film directed by Steven Spielberg."),
             ("Jaws (film)", "Jaws (film): The film is about a giant man-eating great white shark."),
             ("Jaws (film)", "Jaws (film): Jaws was released in 1975.")]
    stances = [Stance(0.02, 0.97, 0.01), Stance(0.1, 0.8, 0.1), Stance(0.1, 0.7, 0.2)]
    verdict = always(LABELS.index(REFUTES)).verdict("Jaws is a 1980 film.", views_of(stances, texts),
                                ["a", "b", "c"], None, texts)
    assert verdict.used_evidence == [0, 1, 2] and verdict.deciding_evidence == [0, 2]
    assert "says 1975 where the claim says 1980" in verdict.why


DERRIDA = "Jacques Derrida was a German philosopher."
DERRIDA_TEXTS = [
    ("Jacques Derrida", "Jacques Derrida: Jacques Derrida was a French philosopher."),
    ("Jacques Derrida", "Jacques Derrida: He developed the philosophy of deconstruction."),
    ("Ferdinand de Saussure", "Ferdinand de Saussure: Ferdinand de Saussure was a Swiss linguist and philosopher."),
]
DERRIDA_STANCES = [Stance(0.0, 1.0, 0.0), Stance(0.0, 0.0, 1.0), Stance(0.0, 0.99, 0.01)]


def with_subject_rule(learned, minimum=0.9):
    learned.subject_stance_min = minimum
    return learned


def test_a_sure_sentence_of_the_page_the_claim_names_decides_over_the_regression():
    views = views_of(DERRIDA_STANCES, DERRIDA_TEXTS)
    alone = always(LABELS.index(NEI)).verdict(DERRIDA, views, ["a", "b", "c"], None, DERRIDA_TEXTS)
    assert alone.label == NEI  # the regression alone, as the verdicts shipped before it
    verdict = with_subject_rule(always(LABELS.index(NEI))).verdict(DERRIDA, views, ["a", "b", "c"], None, DERRIDA_TEXTS)
    assert verdict.label == REFUTES and verdict.deciding_evidence == [0] and verdict.used_evidence[0] == 0
    assert verdict.probabilities == DERRIDA_STANCES[0].to_dict()
    assert "names French where the claim says German" in verdict.why and "a page the claim names" in verdict.reason


def test_the_page_rule_keeps_out_of_the_way_when_unsure_other_pages_second_hops_or_disagreeing():
    nei = LABELS.index(NEI)
    def label(stances, texts=DERRIDA_TEXTS, hops=(1, 1, 1)):
        views = [EvidenceView(0.8, hop, stance, premise) for stance, (_, premise), hop in zip(stances, texts, hops)]
        return with_subject_rule(always(nei)).verdict(DERRIDA, views, ["a"] * len(views), None, texts).label

    assert label([Stance(0.0, 0.85, 0.15), None, None]) == NEI  # not sure enough
    assert label([None, None, Stance(0.0, 0.99, 0.01)]) == NEI  # a page the claim does not name
    assert label([Stance(0.0, 1.0, 0.0), None, None], hops=(2, 1, 1)) == NEI  # reached through a link
    assert label([Stance(0.0, 1.0, 0.0), Stance(0.95, 0.0, 0.05), None]) == NEI  # its page's sentences disagree
    soul_food = [("Soul Food (film)", "Soul Food (film): Soul Food is a 1997 American comedy-drama film.")]
    views = [EvidenceView(0.8, 1, Stance(0.97, 0.01, 0.02), soul_food[0][1])]
    assert with_subject_rule(always(nei)).verdict("Soul Food is a film.", views, ["a"], None, soul_food).label == SUPPORTS


def test_the_page_rule_travels_in_the_verdict_file_and_a_bad_value_is_refused(tmp_path):
    import pytest

    from fever_core.verification.model_integrity import ModelDamaged
    from fever_core.verification.verdict import LearnedVerdict

    with_subject_rule(always(0), 0.9).save(tmp_path)
    assert LearnedVerdict.load(tmp_path).subject_stance_min == 0.9
    always(0).save(tmp_path)
    assert LearnedVerdict.load(tmp_path).subject_stance_min is None
    with_subject_rule(always(0), 1.5).save(tmp_path)
    with pytest.raises(ModelDamaged, match="subject_stance_min"):
        LearnedVerdict.load(tmp_path)


def test_a_second_hop_sentence_whose_own_words_do_not_name_the_subject_is_no_second_deciding_sentence():
    jaws = "Jaws (film): Jaws is a 1975 American thriller film directed by Steven Spielberg."
    texts = [("Jaws (film)", jaws),
             ("Steven Spielberg", f"{jaws} Steven Spielberg: Steven Spielberg is an American filmmaker.")]
    views = [EvidenceView(0.8, 1, Stance(0.0, 1.0, 0.0), jaws),
             EvidenceView(0.6, 2, Stance(0.0, 0.99, 0.01), "Steven Spielberg: Steven Spielberg is an American filmmaker.")]
    verdict = always(LABELS.index(REFUTES)).verdict("Jaws is a 1980 film.", views, ["a", "b"], None, texts)
    assert verdict.used_evidence == [0, 1]  # the chain, read whole, leans the verdict's way
    assert verdict.deciding_evidence == [0]  # but the filmmaker sentence says nothing of Jaws itself
