import json

import numpy as np

from fever_core.types import NEI, Stance
from fever_core.verification.decision import DecisionRule, decide, load_decision_rule
from fever_core.verification.verdict import aggregate


def test_no_trustworthy_evidence_means_not_enough_info():
    verdict = aggregate([None, None], ["a", "b"])
    assert verdict.label == NEI and verdict.probabilities[NEI] == 1.0 and "No trustworthy" in verdict.reason


def test_the_best_trustworthy_sentence_decides():
    stances = [None, Stance(0.05, 0.9, 0.05), Stance(0.95, 0.03, 0.02)]
    verdict = aggregate(stances, ["Page A, sentence 0", "Page B, sentence 3", "Page C, sentence 1"])
    assert verdict.label == "REFUTES" and verdict.deciding_evidence == [1]
    assert "Page B, sentence 3" in verdict.reason and verdict.probabilities["REFUTES"] == 0.9


def test_the_nei_threshold_applies_to_the_deciding_stance():
    stances = [Stance(0.35, 0.1, 0.55)]
    assert aggregate(stances, ["a"]).label == NEI
    assert "neither supports nor refutes" in aggregate(stances, ["a"]).reason
    assert aggregate(stances, ["a"], nei_threshold=0.77).label == "SUPPORTS"
    assert aggregate(stances, ["a"], nei_threshold=0.5).label == NEI


def test_decide_applies_the_threshold_rule():
    probs = np.array([[0.5, 0.2, 0.3], [0.1, 0.3, 0.6], [0.2, 0.2, 0.6]])
    assert decide(probs).tolist() == [0, 2, 2]
    assert decide(probs, nei_threshold=0.7).tolist() == [0, 1, 0]


def test_decision_rule_travels_in_the_model_config(tmp_path):
    assert load_decision_rule(tmp_path) == DecisionRule()
    (tmp_path / "config.json").write_text(json.dumps({"nei_threshold": 0.77, "min_evidence_score": 0.3}))
    assert load_decision_rule(tmp_path) == DecisionRule(0.77, 0.3)
    assert load_decision_rule("some-org/hub-model") == DecisionRule()
