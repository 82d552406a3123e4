"""The learned claim-level verdict: features, fitting, saving, and its use by the checker."""

import json
import random
import shutil

import numpy as np
import pytest

from fever_core.pipeline import Checker, CheckOptions
from fever_core.training.aggregator import fit_aggregator, main as train_aggregator_main, proxy_claims
from fever_core.verification.aggregator import (
    AGGREGATOR_FILE, FEATURE_NAMES, EvidenceView, LearnedAggregator, claim_features,
)
from fever_core.verification.nli import NliModel
from tests.conftest import write_jsonl


def stance(s, r, n):
    return {"SUPPORTS": s, "REFUTES": r, "NOT ENOUGH INFO": n}


def test_features_describe_the_top_evidence_and_pad_missing_positions():
    views = [
        EvidenceView(0.8, 1, stance(0.7, 0.2, 0.1), "Jaws: Jaws is a 1975 film directed by Steven Spielberg."),
        EvidenceView(0.4, 2, None, "Steven Spielberg: He was born in Cincinnati."),
    ]
    claim = "Jaws was not directed by Steven Spielberg in 1974."
    features = dict(zip(FEATURE_NAMES, claim_features(claim, views)))
    assert len(features) == len(FEATURE_NAMES)
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


def synthetic_runs(n=600, seed=0):
    """Claims whose label shows only in the *second* sentence when the first is off-topic: the
    best-sentence rule can't read them, a model over all evidence can."""
    rng = random.Random(seed)
    runs = []
    for i in range(n):
        label = rng.choice(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"])
        decisive = {"SUPPORTS": stance(0.9, 0.05, 0.05), "REFUTES": stance(0.05, 0.9, 0.05)}.get(
            label, stance(0.1, 0.1, 0.8))
        offtopic = stance(0.1, 0.8, 0.1)  # an off-topic first sentence the verifier misreads as REFUTES
        noise = rng.uniform(-0.05, 0.05)
        evidence = [
            {"score": 0.3 + noise, "hop": 1, "stance": offtopic},
            {"score": 0.7 + noise, "hop": 1, "stance": decisive},
        ]
        runs.append({"claim": f"claim {i}", "label": label, "evidence": evidence})
    return runs


def test_fitting_learns_what_the_best_sentence_rule_misses_and_survives_saving(tmp_path):
    aggregator = fit_aggregator(synthetic_runs(), nei_threshold=0.5)
    report = aggregator.report
    assert report["holdout_accuracy"] > 0.95
    assert report["holdout_accuracy_best_sentence_rule"] < 0.5
    assert set(report["holdout_confusion"]) == {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}

    aggregator.save(tmp_path)
    loaded = LearnedAggregator.load(tmp_path)
    views = [EvidenceView(0.3, 1, stance(0.1, 0.8, 0.1)), EvidenceView(0.7, 1, stance(0.9, 0.05, 0.05))]
    assert np.allclose(loaded.probabilities("claim 1", views), aggregator.probabilities("claim 1", views))
    assert loaded.probabilities("claim 1", views).argmax() == 0
    assert loaded.probabilities("claim 1", views).sum() == pytest.approx(1.0)


def test_an_aggregator_for_other_features_is_not_loaded(tmp_path):
    aggregator = fit_aggregator(synthetic_runs(120), nei_threshold=None)
    path = aggregator.save(tmp_path)
    data = json.loads(path.read_text())
    data["feature_names"] = data["feature_names"][:-1]
    path.write_text(json.dumps(data))
    assert LearnedAggregator.load(tmp_path) is None
    assert LearnedAggregator.load(tmp_path / "missing") is None


def always(label_index: int) -> LearnedAggregator:
    """An aggregator whose bias alone picks one label."""
    n = len(FEATURE_NAMES)
    bias = np.full(3, -20.0)
    bias[label_index] = 20.0
    return LearnedAggregator(np.zeros((3, n)), bias, np.zeros(n), np.ones(n), list(FEATURE_NAMES), {})


def test_the_checker_decides_with_the_aggregator_unless_a_threshold_is_asked_for(workspace, tiny_nli_model):
    checker = Checker(workspace, NliModel.load(str(tiny_nli_model), "cpu"), aggregator=always(1))
    result = checker.check("Sherlock Holmes was created by Charles Dickens.")
    assert result.verdict.label == "REFUTES"
    assert result.verdict.probabilities["REFUTES"] > 0.99
    assert all(e.stance is None or e.stance.refutes >= e.stance.supports
               for e in result.evidence[: (result.verdict.deciding_evidence or [0])[0]])

    nei = Checker(workspace, NliModel.load(str(tiny_nli_model), "cpu"), aggregator=always(2))
    assert nei.check("Sherlock Holmes was created by Charles Dickens.").verdict.label == "NOT ENOUGH INFO"
    ruled = nei.check("Sherlock Holmes was created by Charles Dickens.", CheckOptions(nei_threshold=1.01))
    assert ruled.verdict.label in {"SUPPORTS", "REFUTES"}
    rule = nei.check("Sherlock Holmes was created by Charles Dickens.", CheckOptions(verdict="rule"))
    best = next(e.stance for e in rule.evidence if e.stance is not None)
    assert rule.verdict.probabilities == best.to_dict()


def test_train_aggregator_command_runs_claims_end_to_end_and_saves_beside_the_verifier(
    tmp_path, settings, workspace, tiny_nli_model, pages_file, monkeypatch
):
    model = tmp_path / "verifier"
    shutil.copytree(tiny_nli_model, model)
    pairs = write_jsonl(tmp_path / "pairs.jsonl", [
        {"premise": "Sherlock Holmes is a fictional private detective created by the author Arthur Conan Doyle .",
         "hypothesis": f"Sherlock Holmes was created by {who}.", "label": label, "source": "t",
         "pages": ["Sherlock_Holmes"]}
        for who, label in [("Arthur Conan Doyle", "SUPPORTS"), ("Charles Dickens", "REFUTES"),
                           ("a British writer", "SUPPORTS"), ("Jane Austen", "REFUTES")]
    ] + [
        {"premise": "Something not in the corpus .", "hypothesis": "Telemundo is a film.", "label": "REFUTES",
         "source": "t", "pages": ["Telemundo"]},
    ])
    nei = write_jsonl(tmp_path / "nei.jsonl", [
        {"id": i, "claim": c, "label": "NOT ENOUGH INFO"}
        for i, c in enumerate(["Edinburgh has a famous castle.", "Jaws was filmed in winter.",
                               "Steven Spielberg owns a boat.", "Soul Food was filmed in Chicago."])
    ])
    kept = proxy_claims(pairs, nei, pages_file)
    assert len(kept) == 8 and "Telemundo is a film." not in {c.claim for c in kept}

    monkeypatch.setenv("FEVER_DATA_DIR", str(settings.data_dir))
    runs = tmp_path / "runs.jsonl"
    argv = ["--pairs", str(pairs), "--nei-claims", str(nei), "--pages", str(pages_file),
            "--corpus", "fixture", "--model", str(model), "--runs", str(runs)]
    assert train_aggregator_main(argv) == 0
    assert (model / AGGREGATOR_FILE).is_file()
    assert LearnedAggregator.load(model).report["n_claims"] == 8
    lines = [json.loads(line) for line in runs.read_text().splitlines()]
    assert len(lines) == 8 and all(line["evidence"] for line in lines)

    # re-running resumes: nothing is checked again
    before = runs.read_text()
    assert train_aggregator_main(argv) == 0
    assert runs.read_text() == before


def test_the_shipped_verifier_carries_an_aggregator_for_these_features():
    from fever_core.settings import PROJECT_ROOT

    aggregator = LearnedAggregator.load(PROJECT_ROOT / "assets" / "models" / "verifier")
    assert aggregator is not None, "retrain it: ./benchmarks/training/aggregator.sh"
    assert aggregator.weights.shape == (3, len(FEATURE_NAMES))
    assert aggregator.report["holdout_accuracy"] > aggregator.report["holdout_accuracy_best_sentence_rule"]
