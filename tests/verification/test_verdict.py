import json

import numpy as np

from fever_core.verification.decision import DecisionRule, decide, load_decision_rule
from fever_core.verification.verdict import NEI, Stance, aggregate


def test_no_trustworthy_evidence_means_not_enough_info():
    verdict = aggregate([None, None], None, ["a", "b"])
    assert verdict.label == NEI and verdict.probabilities[NEI] == 1.0 and "No trustworthy" in verdict.reason


def test_the_most_decisive_stance_decides():
    stances = [Stance(0.2, 0.1, 0.7), Stance(0.05, 0.9, 0.05), None]
    verdict = aggregate(stances, Stance(0.3, 0.6, 0.1), ["Page A, sentence 0", "Page B, sentence 3", "c"])
    assert verdict.label == "REFUTES" and verdict.deciding_evidence == [1]
    assert "Page B, sentence 3" in verdict.reason and verdict.probabilities["REFUTES"] == 0.9


def test_joint_evidence_can_decide_and_the_nei_threshold_applies():
    stances = [Stance(0.35, 0.1, 0.55), Stance(0.3, 0.1, 0.6)]
    joint = Stance(0.6, 0.1, 0.3)
    assert aggregate(stances, joint, ["a", "b"]).deciding_evidence == [0, 1]
    # with a threshold of 0.5 the single sentences are NEI, the joint premise decides
    assert aggregate(stances, joint, ["a", "b"], nei_threshold=0.5).label == "SUPPORTS"
    # a high threshold lets a stance decide although NEI is its argmax
    assert aggregate(stances, None, ["a", "b"], nei_threshold=0.9).deciding_evidence == [0]
    unsure = aggregate(stances, joint, ["a", "b"], nei_threshold=0.25)
    assert unsure.label == NEI and "neither supports nor refutes" in unsure.reason


def test_decide_applies_the_threshold_rule():
    probs = np.array([[0.5, 0.2, 0.3], [0.1, 0.3, 0.6], [0.2, 0.2, 0.6]])
    assert decide(probs).tolist() == [0, 2, 2]
    assert decide(probs, nei_threshold=0.7).tolist() == [0, 1, 0]


def test_decision_rule_travels_in_the_model_config(tmp_path):
    assert load_decision_rule(tmp_path) == DecisionRule()
    (tmp_path / "config.json").write_text(json.dumps({"nei_threshold": 0.77, "min_evidence_score": 0.3}))
    assert load_decision_rule(tmp_path) == DecisionRule(0.77, 0.3)
    assert load_decision_rule("some-org/hub-model") == DecisionRule()
