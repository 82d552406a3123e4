"""The FEVER scorer, rule by rule, on hand-made claims (numbers worked out by hand)."""

import pytest

from fever_core.evaluation.scorer import fever_score

S_GOLD = {"label": "SUPPORTS", "evidence": [[[1, 1, "A", 0], [1, 2, "B", 3]], [[2, 3, "C", 1]]]}
NEI_GOLD = {"label": "NOT ENOUGH INFO", "evidence": [[[9, None, None, None]]]}


def pred(label, *evidence):
    return {"predicted_label": label, "predicted_evidence": [list(e) for e in evidence]}


def test_fever_score_needs_the_label_and_a_complete_group():
    cases = [
        pred("SUPPORTS", ("A", 0), ("B", 3)),  # complete first group: strict
        pred("SUPPORTS", ("C", 1)),  # complete second group: strict
        pred("SUPPORTS", ("A", 0)),  # partial group: right label only
        pred("REFUTES", ("A", 0), ("B", 3)),  # wrong label
    ]
    scores = fever_score(cases, [S_GOLD] * 4)
    assert scores.fever_score == pytest.approx(2 / 4)
    assert scores.label_accuracy == pytest.approx(3 / 4)


def test_only_the_first_five_predicted_sentences_count():
    late = pred("SUPPORTS", ("X", 0), ("X", 1), ("X", 2), ("X", 3), ("X", 4), ("C", 1))
    scores = fever_score([late], [S_GOLD])
    assert scores.fever_score == 0.0 and scores.evidence_recall == 0.0 and scores.evidence_precision == 0.0
    assert fever_score([late], [S_GOLD], max_evidence=6).fever_score == 1.0


def test_nei_needs_only_the_label_and_is_left_out_of_evidence_metrics():
    scores = fever_score([pred("NOT ENOUGH INFO", ("Z", 1)), pred("SUPPORTS", ("A", 0), ("Q", 9))], [NEI_GOLD, S_GOLD])
    assert scores.fever_score == 0.5 and scores.label_accuracy == 1.0
    # precision and recall are averaged over the one S/R claim: 1 of 2 predicted right, no full group
    assert scores.evidence_precision == 0.5 and scores.evidence_recall == 0.0 and scores.evidence_f1 == 0.0


def test_empty_predicted_evidence_has_precision_one():
    scores = fever_score([pred("SUPPORTS")], [S_GOLD])
    assert scores.evidence_precision == 1.0 and scores.evidence_recall == 0.0


def test_precision_recall_f1_are_macro_averages():
    gold = [S_GOLD, S_GOLD, {"label": "REFUTES", "evidence": [[[5, 5, "D", 2]]]}]
    preds = [
        pred("SUPPORTS", ("A", 0), ("B", 3), ("Z", 0), ("Z", 1)),  # p = 2/4, r = 1
        pred("SUPPORTS", ("C", 1)),  # p = 1, r = 1
        pred("SUPPORTS", ("E", 0)),  # p = 0, r = 0
    ]
    scores = fever_score(preds, gold)
    p, r = (0.5 + 1 + 0) / 3, 2 / 3
    assert scores.evidence_precision == pytest.approx(p)
    assert scores.evidence_recall == pytest.approx(r)
    assert scores.evidence_f1 == pytest.approx(2 * p * r / (p + r))
    assert scores.fever_score == pytest.approx(2 / 3)


def test_gold_may_ride_on_the_predictions_and_labels_ignore_case():
    instance = {**pred("supports", ("C", 1)), **S_GOLD}
    assert fever_score([instance]).fever_score == 1.0
    with pytest.raises(ValueError):
        fever_score([instance], [S_GOLD, S_GOLD])
