import json

from fever_core.verification.decision import DecisionRule, load_decision_rule, save_decision_rule
from fever_core.verification.verdict import NEI, Stance, aggregate


def test_no_trustworthy_evidence_means_not_enough_info():
    verdict = aggregate([None, None], None, ["a", "b"])
    assert verdict.label == NEI and verdict.probabilities[NEI] == 1.0 and "No trustworthy" in verdict.reason


def test_the_most_decisive_stance_decides():
    stances = [Stance(0.2, 0.1, 0.7), Stance(0.05, 0.9, 0.05), None]
    verdict = aggregate(stances, Stance(0.3, 0.6, 0.1), ["Page A, sentence 0", "Page B, sentence 3", "c"])
    assert verdict.label == "REFUTES" and verdict.deciding_evidence == [1]
    assert "Page B, sentence 3" in verdict.reason and verdict.probabilities["REFUTES"] == 0.9


def test_joint_evidence_can_decide_and_threshold_gives_nei():
    stances = [Stance(0.4, 0.1, 0.5), Stance(0.3, 0.1, 0.6)]
    joint = Stance(0.8, 0.1, 0.1)
    assert aggregate(stances, joint, ["a", "b"]).deciding_evidence == [0, 1]
    unsure = aggregate(stances, joint, ["a", "b"], decision_threshold=0.85)
    assert unsure.label == NEI and "neither supports nor refutes" in unsure.reason


def test_decision_rule_travels_with_the_model(tmp_path):
    assert load_decision_rule(tmp_path) == DecisionRule()
    save_decision_rule(tmp_path, DecisionRule(0.7, 0.3), chosen_on="dev split")
    assert load_decision_rule(tmp_path) == DecisionRule(0.7, 0.3)
    assert json.loads((tmp_path / "decision.json").read_text())["chosen_on"] == "dev split"
