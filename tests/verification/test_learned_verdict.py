"""The learned verdict (fever_core/verification/learned.py, features.py): features, the joint verifier's weight,
saving, loading, and its use by the checker. Fitting it: tests/training/test_verdict.py."""

import json
import shutil

import numpy as np
import pytest

from fever_core.common.types import Stance
from fever_core.pipeline import Checker, CheckOptions
from fever_core.retrieval.results import EvidenceSentence
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.features import FEATURE_NAMES, claim_features, joint_premise
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import VerdictPolicy

from .test_deciders import always


def judged(score, hop, stance, title="Page", text="Sentence."):
    return JudgedSentence(
        EvidenceSentence(title, title, 0, text, score, hop), f"{title}: {text}", stance, stance is not None
    )


def test_features_describe_the_top_evidence_and_pad_missing_positions():
    views = [
        judged(0.8, 1, Stance(0.7, 0.2, 0.1), "Jaws", "Jaws is a 1975 film directed by Steven Spielberg."),
        judged(0.4, 2, None, "Steven Spielberg", "He was born in Cincinnati."),
    ]
    claim = "Jaws was not directed by Steven Spielberg in 1974."
    values = claim_features(claim, views)
    assert len(values) == len(FEATURE_NAMES)
    features = dict(zip(FEATURE_NAMES, values))
    assert features["score@1"] == pytest.approx(0.8) and features["p_supports@1"] == pytest.approx(0.7)
    assert features["judged@1"] == 1 and features["judged@2"] == 0 and features["p_nei@2"] == 0
    assert features["score@3"] == 0 and features["judged@3"] == 0
    assert features["max_p_refutes"] == pytest.approx(0.2) and features["min_p_nei"] == pytest.approx(0.1)
    assert features["second_hop_share"] == pytest.approx(0.5) and features["judged_share"] == pytest.approx(0.5)
    # content words jaws, directed, steven, spielberg, 1974: all but the year are in the first premise
    assert features["coverage@1"] == pytest.approx(4 / 5) and features["coverage@5"] == pytest.approx(4 / 5)
    assert features["numbers_missing"] == 1 and features["negation"] == 1
    assert features["coverage@1*p_supports@1"] == pytest.approx(0.8 * 0.7)
    empty = dict(zip(FEATURE_NAMES, claim_features("Anything.", [])))
    assert empty["min_p_nei"] == 1 and empty["max_score"] == 0 and empty["coverage@1"] == 0


def test_a_learned_verdict_for_other_features_is_refused_saying_so(tmp_path):
    path = always(0).save(tmp_path)
    data = json.loads(path.read_text())
    data["feature_names"] = data["feature_names"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(ModelDamaged, match="fit on other features .* coverage@1\\*p_nei@1.*train the verdict again"):
        LearnedVerdict.load(tmp_path)
    assert LearnedVerdict.load(tmp_path / "missing") is None


def test_the_joint_verifier_counts_by_its_weight_and_the_weight_survives_saving(tmp_path):
    views = [judged(0.7, 1, Stance(0.1, 0.8, 0.1))]
    joint = np.array([0.9, 0.05, 0.05])
    refuting = always(1)
    assert refuting.probabilities("c", views, joint).argmax() == 1  # weight 0: the regression alone
    refuting.joint_weight = 0.6
    mixed = refuting.probabilities("c", views, joint)
    assert mixed == pytest.approx(0.4 * np.array([0.0, 1.0, 0.0]) + 0.6 * joint, abs=1e-6)
    assert mixed.argmax() == 0 and mixed.sum() == pytest.approx(1.0)
    assert refuting.probabilities("c", views).argmax() == 1  # no joint verifier: the regression alone

    refuting.save(tmp_path)
    assert LearnedVerdict.load(tmp_path).joint_weight == pytest.approx(0.6)


def test_the_checker_mixes_in_the_joint_verifier_reading_the_top_evidence_together(workspace, tiny_nli_model):
    model = NliModel.load(str(tiny_nli_model), "cpu")
    only_joint = always(1)
    only_joint.joint_weight = 1.0
    checker = Checker(workspace, ClaimVerifier(model, VerdictPolicy(learned=only_joint), model))
    claim = "Sherlock Holmes was created by Charles Dickens."
    result = checker.check(claim)
    texts = [f"{e.sentence.title}: {e.sentence.text}" for e in result.evidence]
    expected = model.predict([(joint_premise(texts), claim)])[0]
    assert [
        result.verdict.probabilities[label] for label in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    ] == pytest.approx(expected.tolist(), abs=1e-5)
    # the rule and the baselines' retrievers leave it out
    rule = checker.check(claim, CheckOptions(verdict="rule"))
    assert rule.verdict.probabilities == next(e.stance for e in rule.evidence if e.stance is not None).to_dict()
    baseline = Checker(workspace, ClaimVerifier(model, VerdictPolicy(learned=only_joint), model), retriever="bm25")
    bm25 = baseline.check(claim)
    assert bm25.verdict.probabilities == next(e.stance for e in bm25.evidence if e.stance is not None).to_dict()


def test_open_loads_the_joint_verifier_only_when_the_verdict_gives_it_weight(
    tmp_path, settings, workspace, tiny_nli_model
):
    from dataclasses import replace

    model = tmp_path / "verifier"
    shutil.copytree(tiny_nli_model, model)
    weighted = always(0)
    weighted.joint_weight = 0.5
    weighted.save(model)
    with_joint = replace(settings, verifier_model=str(model), joint_verifier_model=str(tiny_nli_model))
    assert Checker.open("fixture", with_joint, progress=False).verification.joint_verifier is not None
    assert (
        Checker.open(
            "fixture", replace(with_joint, joint_verifier_model=""), progress=False
        ).verification.joint_verifier
        is None
    )
    with pytest.raises(FileNotFoundError, match="FEVER_JOINT_VERIFIER_MODEL"):
        Checker.open("fixture", replace(with_joint, joint_verifier_model=str(tmp_path / "none")), progress=False)
    weighted.joint_weight = 0.0
    weighted.save(model)
    assert Checker.open("fixture", with_joint, progress=False).verification.joint_verifier is None


def test_the_checker_decides_with_the_learned_verdict_unless_the_rule_is_asked_for(workspace, tiny_nli_model):
    checker = Checker(
        workspace, ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu"), VerdictPolicy(learned=always(1)))
    )
    result = checker.check("Sherlock Holmes was created by Charles Dickens.")
    assert result.verdict.decided_by == "learned" and result.verdict.probabilities["REFUTES"] > 0.99
    refuting = [
        i
        for i, e in enumerate(result.evidence)
        if e.reading is not None and e.reading.label == "REFUTES" and e.bears_on_claim
    ]
    if refuting:  # the learned verdict refutes, resting on the best sentence that reads so
        assert result.verdict.label == "REFUTES" and result.verdict.deciding_evidence[0] == refuting[0]
    else:  # no sentence refutes it on its own: undecided, never a verdict without its sentence
        assert result.verdict.label == "NOT ENOUGH INFO" and result.verdict.undecided

    nei = Checker(workspace, ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu"), VerdictPolicy(learned=always(2))))
    assert nei.check("Sherlock Holmes was created by Charles Dickens.").verdict.label == "NOT ENOUGH INFO"
    # a threshold is a value of the best-sentence rule: it never makes the rule decide on its own
    threshold = nei.check("Sherlock Holmes was created by Charles Dickens.", CheckOptions(nei_threshold=1.01))
    assert (threshold.verdict.label, threshold.verdict.decided_by) == ("NOT ENOUGH INFO", "learned")
    ruled = nei.check(
        "Sherlock Holmes was created by Charles Dickens.", CheckOptions(verdict="rule", nei_threshold=1.01)
    )
    assert ruled.verdict.label in {"SUPPORTS", "REFUTES"} and ruled.verdict.decided_by == "rule"
    rule = nei.check("Sherlock Holmes was created by Charles Dickens.", CheckOptions(verdict="rule"))
    best = next(e.stance for e in rule.evidence if e.stance is not None)
    assert rule.verdict.probabilities == best.to_dict()


def test_the_shipped_verifier_carries_a_learned_verdict_for_these_features():
    from fever_core.common.settings import PROJECT_ROOT

    learned = LearnedVerdict.load(PROJECT_ROOT / "assets" / "models" / "verifier")
    assert learned is not None, "retrain it: ./benchmarks/recipes/4_joint_plain_style.sh"
    assert learned.weights.shape == (3, len(FEATURE_NAMES))
    assert learned.report["holdout_accuracy"] > learned.report["holdout_accuracy_best_sentence_rule"]
