"""The verdict policy (fever_core/verification/policy.py): the NEI rule, the values read from a verifier's folder, a
check's own values, and the one place that says which decider a check gets."""

import json

import numpy as np
import pytest

from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.policy import LEARNED, RULE, VerdictPolicy, decide

from .test_deciders import always


def test_decide_applies_the_threshold_rule():
    probs = np.array([[0.5, 0.2, 0.3], [0.1, 0.3, 0.6], [0.2, 0.2, 0.6]])
    assert decide(probs).tolist() == [0, 2, 2]
    assert decide(probs, nei_threshold=0.7).tolist() == [0, 1, 0]


def test_the_policy_travels_in_the_model_folder(tmp_path):
    defaults = VerdictPolicy.load(tmp_path)
    assert (defaults.nei_threshold, defaults.min_evidence_score, defaults.learned) == (None, 0.25, None)
    (tmp_path / "config.json").write_text(json.dumps({"nei_threshold": 0.77, "min_evidence_score": 0.3}))
    always(0, 0.9).save(tmp_path)
    policy = VerdictPolicy.load(tmp_path)
    assert (policy.nei_threshold, policy.min_evidence_score, policy.page_rule_min) == (0.77, 0.3, 0.9)
    assert policy.learned is not None and VerdictPolicy.from_config(tmp_path).learned is None
    assert VerdictPolicy.load("some-org/hub-model").learned is None


def test_the_page_rule_threshold_travels_in_the_verdict_file_and_a_bad_value_is_refused(tmp_path):
    always(0).save(tmp_path)
    assert VerdictPolicy.load(tmp_path).page_rule_min is None
    always(0, 1.5).save(tmp_path)
    with pytest.raises(ModelDamaged, match="subject_stance_min"):
        VerdictPolicy.load(tmp_path)


def test_a_check_changes_values_never_the_decider():
    policy = VerdictPolicy(0.6, 0.25, always(0))
    checked = policy.for_check(min_evidence_score=0.4, nei_threshold=0.9, number_check=False)
    assert (checked.min_evidence_score, checked.nei_threshold, checked.number_check) == (0.4, 0.9, False)
    assert (policy.min_evidence_score, policy.nei_threshold, policy.number_check) == (0.25, 0.6, True)
    assert checked.learned is policy.learned and checked.decider() == policy.decider() == LEARNED


def test_the_learned_verdict_decides_only_where_it_was_fit():
    learned, plain = VerdictPolicy(learned=always(0)), VerdictPolicy()
    assert learned.decider() == LEARNED and learned.decider(RULE) == RULE
    assert learned.decider(retriever="bm25") == RULE  # fit on the fused retriever's scores
    assert learned.decider(one_premise=True) == RULE  # the oracle mode reads gold evidence as one premise
    assert plain.decider() == RULE  # a verifier without a learned verdict
    with pytest.raises(ValueError, match="learned, rule"):
        learned.decider("majority")
