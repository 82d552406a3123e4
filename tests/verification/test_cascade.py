"""The verdict's cascade (fever_core/verification/cascade.py): its one order, and each stage on or off by its own
setting, deciding where it is on and never where it is off."""

import numpy as np
import pytest

from fever_core.common.types import REFUTES, SUPPORTS
from fever_core.verification.cascade import CASCADE
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.decision import DecidedBy
from fever_core.verification.features import FEATURE_NAMES
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.policy import VerdictPolicy

from .test_claim_verifier import DUSSELDORF, KRAFTWERK, SURE, ScriptedVerifier

REFUTED = [0.01, 0.97, 0.02]
OFF = {
    "learned": True,
    "page_rule_min": None,
    "sure_sentence_min": None,
    "claim_parts_min": None,
    "bridge_min": None,
    "number_check": False,
}
"""Every stage's setting with each stage off but the learned verdict (which leaves every claim NOT ENOUGH INFO)."""


def policy(learned: bool, page_rule_min, sure_sentence_min, claim_parts_min, bridge_min, number_check) -> VerdictPolicy:
    """The policy with each stage's own setting as given."""
    n = len(FEATURE_NAMES)
    verdict = LearnedVerdict(
        np.zeros((3, n)),
        np.array([0.0, 0.0, 5.0]),
        np.zeros(n),
        np.ones(n),
        list(FEATURE_NAMES),
        {},
        subject_stance_min=page_rule_min,
        sure_sentence_min=sure_sentence_min,
        claim_parts_min=claim_parts_min,
        bridge_min=bridge_min,
    )
    return VerdictPolicy(learned=verdict if learned else None, number_check=number_check)


def test_the_cascade_is_one_list_whose_stages_name_every_decider_once():
    assert [stage.name for stage in CASCADE] == [
        "learned",
        "rule",
        "page_rule",
        "sure_sentence",
        "claim_parts",
        "bridge",
        "number_check",
        "grounded",
    ]
    decided_as = [name for stage in CASCADE for name in stage.decides_as]
    assert sorted(decided_as) == sorted(set(DecidedBy) - {DecidedBy.UNRECORDED})
    assert all(hasattr(VerdictPolicy(), stage.setting) for stage in CASCADE if stage.setting)
    assert CASCADE[-1].name == "grounded" and CASCADE[-1].on(VerdictPolicy())  # always, and last


# each stage, its setting, a claim it settles and what the verifier reads (NOT ENOUGH INFO 0.9 for any other claim)
SCENARIOS = {
    DecidedBy.PAGE_RULE: (
        "page_rule_min",
        "Kraftwerk was formed in Berlin.",
        {"Kraftwerk was formed in Berlin.": REFUTED},
        REFUTES,
    ),
    DecidedBy.SURE_SENTENCE: (
        "sure_sentence_min",
        "Kraftwerk was formed in Berlin.",
        {"Kraftwerk was formed in Berlin.": REFUTED},
        REFUTES,
    ),
    DecidedBy.CLAIM_PARTS: (
        "claim_parts_min",
        "Kraftwerk was formed in Düsseldorf in 1970 and is a German band.",
        {"Kraftwerk was formed in Düsseldorf in 1970.": SURE, "Kraftwerk is a German band.": SURE},
        SUPPORTS,
    ),
    DecidedBy.BRIDGE: (
        "bridge_min",
        "Kraftwerk was formed in the capital of a state in western Germany.",
        {
            "Kraftwerk was formed in Düsseldorf.": SURE,
            "Düsseldorf is the capital of a state in western Germany.": SURE,
        },
        SUPPORTS,
    ),
    DecidedBy.NUMBER_CHECK: (
        "number_check",
        "Kraftwerk was formed in Düsseldorf in 1971.",
        {"Kraftwerk was formed in Düsseldorf in 1970.": SURE},
        REFUTES,
    ),
}


@pytest.mark.parametrize("stage", list(SCENARIOS), ids=str)
def test_each_stage_decides_where_its_own_setting_turns_it_on_and_never_where_it_is_off(stage):
    setting, claim, readings, label = SCENARIOS[stage]
    on = True if setting == "number_check" else 0.9
    for value, decides in ((on, True), (OFF[setting], False)):
        verifier = ClaimVerifier(ScriptedVerifier(readings), policy(**{**OFF, setting: value}))
        _, verdict = verifier.verify(claim, [KRAFTWERK, DUSSELDORF], min_evidence_score=0.0)
        assert (verdict.decided_by == stage) is decides, (setting, value, verdict.reason)
        if decides:
            assert verdict.label == label and not verdict.undecided, verdict.reason
        else:
            assert verdict.decided_by == DecidedBy.LEARNED


def test_the_learned_verdict_decides_where_its_setting_is_on_and_the_best_sentence_rule_where_it_is_off():
    readings = {"Kraftwerk was formed in Berlin.": REFUTED}
    for learned, decided_by in ((True, DecidedBy.LEARNED), (False, DecidedBy.RULE)):
        verifier = ClaimVerifier(ScriptedVerifier(readings), policy(**{**OFF, "learned": learned}))
        _, verdict = verifier.verify("Kraftwerk was formed in Berlin.", [KRAFTWERK], min_evidence_score=0.0)
        assert verdict.decided_by == decided_by


def test_a_check_that_asks_for_the_rule_runs_none_of_the_stages_fit_with_the_learned_verdict():
    every = policy(True, 0.9, 0.9, 0.9, 0.9, False)
    ruled = every.for_decider(DecidedBy.RULE)
    assert [stage.name for stage in CASCADE if stage.on(ruled)] == ["rule", "grounded"]
    assert [stage.name for stage in CASCADE if stage.on(every.for_decider(DecidedBy.LEARNED))] == [
        "learned",
        "page_rule",
        "sure_sentence",
        "claim_parts",
        "bridge",
        "grounded",
    ]
