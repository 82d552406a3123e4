"""The verdict's probability calibrated (fever_core/verification/calibration.py): read from the verifier's folder, a
damaged one refused, and what a check reports."""

import json
import shutil

import pytest

from fever_core.common.settings import PROJECT_ROOT
from fever_core.verification.calibration import FEATURES, Calibration
from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.policy import VerdictPolicy
from fever_core.verification.verdict import Verdict

MPNET = PROJECT_ROOT / "assets" / "models" / "verifier-mpnet"


def test_a_sure_verdict_of_the_learned_verdict_is_trusted_more_than_an_unsure_or_undecided_one():
    calibration = VerdictPolicy.load(MPNET).calibration
    assert (
        calibration is not None and calibration.report["n"] == 225
    )  # the 240 calibration claims less 15 on reserved pages
    sure = calibration.probability(0.95, "SUPPORTS", False, False)
    unsure = calibration.probability(0.55, "SUPPORTS", False, False)
    undecided = calibration.probability(0.55, "NOT ENOUGH INFO", False, True)
    assert 0 < undecided < unsure < sure < 1


def test_a_check_reports_the_calibrated_probability_and_keeps_the_deciders():
    verdict = Verdict(
        "SUPPORTS", {"SUPPORTS": 0.95, "REFUTES": 0.03, "NOT ENOUGH INFO": 0.02}, "", [0], calibrated=0.71
    )
    assert verdict.probability == 0.71 and verdict.probabilities["SUPPORTS"] == 0.95
    assert Verdict.from_dict(verdict.to_dict()) == verdict
    older = {k: v for k, v in verdict.to_dict().items() if k not in ("calibrated", "parts", "undecided")}
    assert Verdict.from_dict(older).probability == 0.95  # a check kept before calibration: its decider's


def test_a_calibration_that_cant_be_read_is_refused_as_a_damaged_verifier(tmp_path):
    folder = tmp_path / "verifier"
    shutil.copytree(MPNET, folder)
    path = folder / "verdict.json"
    data = json.loads(path.read_text())
    data["calibration"]["weights"] = ["nan"] * len(FEATURES)
    path.write_text(json.dumps(data))
    with pytest.raises(ModelDamaged, match="calibration"):
        VerdictPolicy.load(folder)
    with pytest.raises(ValueError):
        Calibration.from_dict({"weights": [1.0], "bias": 0.0, "features": ["log_odds"]})
