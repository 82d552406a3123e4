"""The learned claim-level verdict: features, fitting, saving, and its use by the checker."""

import json
import random
import shutil

import numpy as np
import pytest

from fever_core.cli import main as cli_main
from fever_core.pipeline import Checker, CheckOptions
from fever_core.training.aggregator import choose_joint_weight, fit_aggregator, proxy_claims
from fever_core.types import Stance
from fever_core.verification.aggregator import (
    AGGREGATOR_FILE,
    FEATURE_NAMES,
    EvidenceView,
    LearnedAggregator,
    claim_features,
    joint_premise,
)
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.nli import NliModel
from tests.conftest import write_jsonl


def stance(s, r, n):
    return Stance(s, r, n)


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
            {"score": 0.3 + noise, "hop": 1, "stance": offtopic.to_dict()},
            {"score": 0.7 + noise, "hop": 1, "stance": decisive.to_dict()},
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


def test_the_joint_verifier_counts_by_its_weight_and_the_weight_survives_saving(tmp_path):
    views = [EvidenceView(0.7, 1, stance(0.1, 0.8, 0.1))]
    joint = np.array([0.9, 0.05, 0.05])
    refuting = always(1)
    assert refuting.probabilities("c", views, joint).argmax() == 1  # weight 0: the regression alone
    refuting.joint_weight = 0.6
    mixed = refuting.probabilities("c", views, joint)
    assert mixed == pytest.approx(0.4 * np.array([0.0, 1.0, 0.0]) + 0.6 * joint, abs=1e-6)
    assert mixed.argmax() == 0 and mixed.sum() == pytest.approx(1.0)
    assert refuting.probabilities("c", views).argmax() == 1  # no joint verifier: the regression alone

    refuting.save(tmp_path)
    assert LearnedAggregator.load(tmp_path).joint_weight == pytest.approx(0.6)


def test_the_joint_weight_is_the_smallest_that_labels_most_claims_right():
    labels = np.array([0, 1, 2, 0])
    regression = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.6, 0.1, 0.3], [0.1, 0.6, 0.3]])
    joint = np.array([[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.9, 0.05, 0.05]])
    weight, accuracy = choose_joint_weight(regression, joint, labels)
    assert accuracy == 1.0
    # claim 3 turns NEI from weight 0.35 on (0.6 - 0.5w < 0.3 + 0.5w), claim 4 SUPPORTS from 0.4
    assert weight == pytest.approx(0.4)
    assert choose_joint_weight(joint, regression, labels) == (0.0, 1.0)
    assert choose_joint_weight(regression, regression, labels) == (0.0, 0.5)


def test_the_checker_mixes_in_the_joint_verifier_reading_the_top_evidence_together(workspace, tiny_nli_model):
    model = NliModel.load(str(tiny_nli_model), "cpu")
    only_joint = always(1)
    only_joint.joint_weight = 1.0
    checker = Checker(workspace, ClaimVerifier(model, aggregator=only_joint, joint_verifier=model))
    claim = "Sherlock Holmes was created by Charles Dickens."
    result = checker.check(claim)
    texts = [f"{e.sentence.title}: {e.sentence.text}" for e in result.evidence]
    expected = model.predict([(joint_premise(texts), claim)])[0]
    assert [result.verdict.probabilities[label] for label in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")] == \
        pytest.approx(expected.tolist(), abs=1e-5)
    # the rule and the baselines' retrievers leave it out
    rule = checker.check(claim, CheckOptions(verdict="rule"))
    assert rule.verdict.probabilities == next(e.stance for e in rule.evidence if e.stance is not None).to_dict()
    baseline = Checker(workspace, ClaimVerifier(model, aggregator=only_joint, joint_verifier=model), retriever="bm25")
    bm25 = baseline.check(claim)
    assert bm25.verdict.probabilities == next(e.stance for e in bm25.evidence if e.stance is not None).to_dict()


def test_open_loads_the_joint_verifier_only_when_the_verdict_gives_it_weight(tmp_path, settings, workspace, tiny_nli_model):
    from dataclasses import replace

    model = tmp_path / "verifier"
    shutil.copytree(tiny_nli_model, model)
    weighted = always(0)
    weighted.joint_weight = 0.5
    weighted.save(model)
    with_joint = replace(settings, verifier_model=str(model), joint_verifier_model=str(tiny_nli_model))
    assert Checker.open("fixture", with_joint, progress=False).verification.joint_verifier is not None
    assert Checker.open("fixture", replace(with_joint, joint_verifier_model=""), progress=False).verification.joint_verifier is None
    with pytest.raises(FileNotFoundError, match="FEVER_JOINT_VERIFIER_MODEL"):
        Checker.open("fixture", replace(with_joint, joint_verifier_model=str(tmp_path / "none")), progress=False)
    weighted.joint_weight = 0.0
    weighted.save(model)
    assert Checker.open("fixture", with_joint, progress=False).verification.joint_verifier is None


def test_the_checker_decides_with_the_aggregator_unless_a_threshold_is_asked_for(workspace, tiny_nli_model):
    checker = Checker(workspace, ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu"), aggregator=always(1)))
    result = checker.check("Sherlock Holmes was created by Charles Dickens.")
    assert result.verdict.label == "REFUTES"
    assert result.verdict.probabilities["REFUTES"] > 0.99
    assert all(e.stance is None or e.stance.refutes >= e.stance.supports
               for e in result.evidence[: (result.verdict.deciding_evidence or [0])[0]])

    nei = Checker(workspace, ClaimVerifier(NliModel.load(str(tiny_nli_model), "cpu"), aggregator=always(2)))
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
        {"premise": "Jaws is a 1975 American thriller film directed by Steven Spielberg . "
                    "The film is about a giant man-eating great white shark .",
         "hypothesis": "Jaws is a film about a shark.", "label": "SUPPORTS", "source": "t", "pages": ["Jaws_-LRB-film-RRB-"]},
        {"premise": "Something not in the corpus .", "hypothesis": "Telemundo is a film.", "label": "REFUTES",
         "source": "t", "pages": ["Telemundo"]},
    ])
    nei = write_jsonl(tmp_path / "nei.jsonl", [
        {"id": i, "claim": c, "label": "NOT ENOUGH INFO"}
        for i, c in enumerate(["Edinburgh has a famous castle.", "Jaws was filmed in winter.",
                               "Steven Spielberg owns a boat.", "Soul Food was filmed in Chicago."])
    ])
    kept = proxy_claims(pairs, nei, pages_file)
    assert len(kept) == 9 and "Telemundo is a film." not in {c.claim for c in kept}
    assert "Jaws is a film about a shark." in {c.claim for c in kept}, "evidence of two sentences, both in the corpus"

    monkeypatch.setenv("FEVER_DATA_DIR", str(settings.data_dir))
    runs = tmp_path / "runs.jsonl"
    argv = ["train", "aggregator", "--pairs", str(pairs), "--nei-claims", str(nei), "--pages", str(pages_file),
            "--corpus", "fixture", "--model", str(model), "--runs", str(runs)]
    assert cli_main(argv) == 0
    assert (model / AGGREGATOR_FILE).is_file()
    assert LearnedAggregator.load(model).report["n_claims"] == 9
    lines = [json.loads(line) for line in runs.read_text().splitlines()]
    assert len(lines) == 9 and all(line["evidence"] for line in lines)

    # re-running resumes: nothing is checked again; the runs become joint-verifier pairs
    before = runs.read_text()
    joint_dir = tmp_path / "joint-pairs"
    assert cli_main(argv + ["--joint-pairs-out", str(joint_dir), "--joint-model", str(model),
                                         "--joint-minimal-pairs", "4"]) == 0
    assert runs.read_text() == before
    minimal = [json.loads(line) for line in (joint_dir / "joint-minimal.jsonl").read_text().splitlines()]
    held_out = {json.loads(line)["hypothesis"] for line in (joint_dir / "joint-heldout.jsonl").read_text().splitlines()}
    assert minimal and not held_out & {p["hypothesis"] for p in minimal}
    # each claim's gold sentence, whether the corpus has it or not (Telemundo)
    gold_of = {"Telemundo is a film.": "Telemundo: Something not in the corpus.",
               "Jaws is a film about a shark.": "Jaws (film): The film is about a giant man-eating great white shark."}
    sherlock = "Sherlock Holmes: Sherlock Holmes is a fictional private detective created by the author Arthur Conan Doyle."
    for nei, labelled in zip(minimal[::2], minimal[1::2]):
        assert (nei["label"], nei["hypothesis"]) == ("NOT ENOUGH INFO", labelled["hypothesis"])
        gold = gold_of.get(nei["hypothesis"], sherlock)
        assert gold not in nei["premise"] and gold in labelled["premise"]
    pairs_written = [json.loads(line) for name in ("joint-train.jsonl", "joint-heldout.jsonl")
                     for line in (joint_dir / name).read_text().splitlines()]
    by_claim = {line["claim"]: line for line in lines}
    assert sorted(p["hypothesis"] for p in pairs_written) == sorted(by_claim)
    for pair in pairs_written:
        run = by_claim[pair["hypothesis"]]
        assert pair["label"] == run["label"]
        assert pair["premise"] == joint_premise([e["text"] for e in run["evidence"]])
    assert 0.0 <= LearnedAggregator.load(model).joint_weight <= 1.0


def test_the_shipped_verifier_carries_an_aggregator_for_these_features():
    from fever_core.settings import PROJECT_ROOT

    aggregator = LearnedAggregator.load(PROJECT_ROOT / "assets" / "models" / "verifier")
    assert aggregator is not None, "retrain it: ./benchmarks/recipes/4_joint_plain_style.sh"
    assert aggregator.weights.shape == (3, len(FEATURE_NAMES))
    assert aggregator.report["holdout_accuracy"] > aggregator.report["holdout_accuracy_best_sentence_rule"]
