"""Scoring a verifier on pair sets (fever_core/evaluation/pairs.py), with numbers worked out by hand."""

import json

import numpy as np
import pytest

from fever_core.common.formats import Pair
from fever_core.common.types import NEI
from fever_core.evaluation.pairs import evaluate_pairs, report_from_predictions


def test_report_from_hand_made_predictions():
    gold = [0, 0, 0, 1, 1, 2]
    pred = [0, 0, 1, 1, 2, 2]
    probs = np.eye(3)[pred] * 0.8 + 0.2 / 3
    report = report_from_predictions(gold, probs)
    assert report.n == 6 and report.accuracy == pytest.approx(4 / 6)
    assert report.confusion == [[2, 1, 0], [0, 1, 1], [0, 0, 1]]
    # S: p=1, r=2/3 -> 0.8; R: p=1/2, r=1/2 -> 0.5; NEI: p=1/2, r=1 -> 2/3
    assert report.per_label["SUPPORTS"].f1 == pytest.approx(0.8)
    assert report.per_label["REFUTES"].f1 == pytest.approx(0.5)
    assert report.per_label["NOT ENOUGH INFO"].f1 == pytest.approx(2 / 3)
    assert report.macro_f1 == pytest.approx((0.8 + 0.5 + 2 / 3) / 3)
    assert report.two_way_accuracy == pytest.approx(3 / 5)  # pair 5 (gold R) ties S and R: ties go to S
    assert json.loads(json.dumps(report.to_dict()))["per_label"]["REFUTES"]["support"] == 2


def test_evaluate_pairs_with_a_stub_model():
    class Stub:
        def predict(self, pairs, batch_size=32):
            return np.array([[0.1, 0.2, 0.7] if "?" in h else [0.6, 0.3, 0.1] for _, h in pairs])

    pairs = [Pair("p", "a", "SUPPORTS", "s"), Pair("p", "b?", NEI, "s"), Pair("p", "c", "REFUTES", "s")]
    report = evaluate_pairs(Stub(), pairs)
    assert report.accuracy == pytest.approx(2 / 3) and report.pairs_per_s > 0
