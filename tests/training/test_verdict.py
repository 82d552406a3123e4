"""Fitting the learned verdict (fever_core/training/verdict.py) and the ``train verdict``
command that runs claims end to end for it."""

import json
import random
import shutil

import numpy as np
import pytest

from fever_core.cli import main as cli_main
from fever_core.common.types import Stance
from fever_core.retrieval.results import EvidenceSentence
from fever_core.training.verdict import (
    choose_joint_weight,
    fit_learned_verdict,
    plain_style_claims,
    proxy_claims,
    yardstick_titles,
)
from fever_core.training.verdict_training import weights_fingerprint
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.features import joint_premise
from fever_core.verification.learned import VERDICT_FILE, LearnedVerdict
from tests.conftest import write_jsonl


def judged(score, stance, line=0, title="Page"):
    """A judged first-hop sentence of ``title`` (it bears on the claim) with this selection score and stance."""
    sentence = EvidenceSentence(title, title, line, f"Sentence {line}.", score)
    return JudgedSentence(sentence, f"{title}: Sentence {line}.", stance, True)


SHERLOCK_PAIRS = [
    {
        "premise": "Sherlock Holmes is a fictional private detective created by the author Arthur Conan Doyle .",
        "hypothesis": f"Sherlock Holmes was created by {who}.",
        "label": label,
        "source": "t",
        "pages": ["Sherlock_Holmes"],
    }
    for who, label in [
        ("Arthur Conan Doyle", "SUPPORTS"),
        ("Charles Dickens", "REFUTES"),
        ("a British writer", "SUPPORTS"),
        ("Jane Austen", "REFUTES"),
    ]
]
"""Two true and two false claims about Sherlock Holmes's page, with its sentence as their FEVER evidence."""


def synthetic_runs(n=600, seed=0):
    """Claims whose label shows only in the *second* sentence when the first is off-topic: the
    best-sentence rule can't read them, a model over all evidence can."""
    rng = random.Random(seed)
    runs = []
    for i in range(n):
        label = rng.choice(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"])
        decisive = {"SUPPORTS": Stance(0.9, 0.05, 0.05), "REFUTES": Stance(0.05, 0.9, 0.05)}.get(
            label, Stance(0.1, 0.1, 0.8)
        )
        offtopic = Stance(0.1, 0.8, 0.1)  # an off-topic first sentence the verifier misreads as REFUTES
        noise = rng.uniform(-0.05, 0.05)
        evidence = [judged(0.3 + noise, offtopic).to_dict(), judged(0.7 + noise, decisive, 1).to_dict()]
        runs.append({"claim": f"claim {i}", "label": label, "evidence": evidence})
    return runs


def test_fitting_learns_what_the_best_sentence_rule_misses_and_survives_saving(tmp_path):
    learned = fit_learned_verdict(synthetic_runs(), nei_threshold=0.5)
    report = learned.report
    assert report["holdout_accuracy"] > 0.95
    assert report["holdout_accuracy_best_sentence_rule"] < 0.5
    assert set(report["holdout_confusion"]) == {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
    assert report["holdout_accuracy_as_shipped"] == report["holdout_accuracy"]  # no joint verifier, no page rule

    learned.save(tmp_path)
    loaded = LearnedVerdict.load(tmp_path)
    views = [judged(0.3, Stance(0.1, 0.8, 0.1)), judged(0.7, Stance(0.9, 0.05, 0.05), 1)]
    assert np.allclose(loaded.probabilities("claim 1", views), learned.probabilities("claim 1", views))
    assert loaded.probabilities("claim 1", views).argmax() == 0
    assert loaded.probabilities("claim 1", views).sum() == pytest.approx(1.0)


def test_the_baseline_is_the_best_sentence_rule_as_it_ships_and_old_runs_are_refused_saying_why():
    runs = synthetic_runs()
    for run in runs:  # the off-topic first sentence names nothing of the claim: the rule skips it, as a check does
        run["evidence"][0]["bears_on_claim"] = False
    assert fit_learned_verdict(runs, nei_threshold=0.5).report["holdout_accuracy_best_sentence_rule"] > 0.95
    old = [{"claim": "c", "label": "SUPPORTS", "evidence": [{"score": 0.5, "hop": 1, "stance": None, "text": "T: x"}]}]
    with pytest.raises(ValueError, match="older workbench.*collect the runs anew"):
        fit_learned_verdict(old)


def test_the_report_scores_the_learned_verdict_as_it_ships_with_its_page_rule():
    runs = synthetic_runs()
    for run in runs:  # every claim names the page, whose sure first sentence refutes it
        run["claim"] = f"Page claim {run['claim']}"
        run["evidence"][0]["stance"] = Stance(0.0, 1.0, 0.0).to_dict()
    learned = fit_learned_verdict(runs, nei_threshold=0.5, subject_stance_min=0.95)  # above the other sentence's 0.9
    assert learned.subject_stance_min == 0.95
    refuted = sum(run["label"] == "REFUTES" for run in runs) / len(runs)
    assert learned.report["holdout_accuracy_as_shipped"] == pytest.approx(refuted, abs=0.1)


class SaysNineteenSeventy:
    """A verifier sure of any claim that says 1970, and of nothing else."""

    name, batch_size = "scripted", 32

    def __init__(self):
        self.read: list[str] = []

    def predict(self, pairs, batch_size=None):
        self.read += [claim for _, claim in pairs]
        sure, unsure = [0.97, 0.01, 0.02], [0.05, 0.05, 0.9]
        return np.array([sure if "1970" in claim else unsure for _, claim in pairs], dtype=np.float32)


def test_the_report_as_shipped_runs_the_whole_cascade_with_the_verifier_reading_what_its_stages_ask():
    runs = synthetic_runs()
    for i, run in enumerate(runs):  # each claim says 1971 where its decisive sentence says 1970
        run["claim"] = f"Page was founded in 1971 by {''.join(chr(97 + int(d)) for d in str(i))}."
        run["evidence"][1]["text"] = "Page was founded in 1970."
    verifier = SaysNineteenSeventy()
    report = fit_learned_verdict(runs, nei_threshold=0.5, verifier=verifier).report
    assert "number_check" in report["as_shipped_stages"] and any("1970" in claim for claim in verifier.read)
    refuted = sum(run["label"] == "REFUTES" for run in runs) / len(runs)
    assert report["holdout_accuracy_as_shipped"] == pytest.approx(refuted, abs=0.1)  # the numbers refute them all
    alone = fit_learned_verdict(runs, nei_threshold=0.5).report  # no verifier: the stages that read more left out
    assert "number_check" not in alone["as_shipped_stages"]
    assert alone["holdout_accuracy_as_shipped"] == alone["holdout_accuracy"]


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


def test_train_verdict_command_runs_claims_end_to_end_and_saves_beside_the_verifier(
    tmp_path, settings, workspace, tiny_nli_model, pages_file, monkeypatch, capsys
):
    model = tmp_path / "verifier"
    shutil.copytree(tiny_nli_model, model)
    pairs = write_jsonl(
        tmp_path / "pairs.jsonl",
        SHERLOCK_PAIRS
        + [
            {
                "premise": "Jaws is a 1975 American thriller film directed by Steven Spielberg . "
                "The film is about a giant man-eating great white shark .",
                "hypothesis": "Jaws is a film about a shark.",
                "label": "SUPPORTS",
                "source": "t",
                "pages": ["Jaws_-LRB-film-RRB-"],
            },
            {
                "premise": "Something not in the corpus .",
                "hypothesis": "Telemundo is a film.",
                "label": "REFUTES",
                "source": "t",
                "pages": ["Telemundo"],
            },
        ],
    )
    nei = write_jsonl(
        tmp_path / "nei.jsonl",
        [
            {"id": i, "claim": c, "label": "NOT ENOUGH INFO"}
            for i, c in enumerate(
                [
                    "Edinburgh has a famous castle.",
                    "Jaws was filmed in winter.",
                    "Steven Spielberg owns a boat.",
                    "Soul Food was filmed in Chicago.",
                ]
            )
        ],
    )
    kept = proxy_claims(pairs, nei, pages_file)
    assert len(kept) == 9 and "Telemundo is a film." not in {c.claim for c in kept}
    assert "Jaws is a film about a shark." in {c.claim for c in kept}, "evidence of two sentences, both in the corpus"

    monkeypatch.setenv("FEVER_DATA_DIR", str(settings.data_dir))
    runs = tmp_path / "runs.jsonl"
    argv = [
        "train",
        "verdict",
        "--pairs",
        str(pairs),
        "--nei-claims",
        str(nei),
        "--pages",
        str(pages_file),
        "--corpus",
        "fixture",
        "--model",
        str(model),
        "--runs",
        str(runs),
    ]
    assert cli_main(argv) == 0
    assert (model / VERDICT_FILE).is_file()
    assert LearnedVerdict.load(model).report["n_claims"] == 9
    lines = [json.loads(line) for line in runs.read_text().splitlines()]
    assert len(lines) == 9 and all(line["evidence"] for line in lines)

    # re-running resumes: nothing is checked again; the runs become joint-verifier pairs
    before = runs.read_text()
    joint_dir = tmp_path / "joint-pairs"
    assert (
        cli_main(
            [*argv, "--joint-pairs-out", str(joint_dir), "--joint-model", str(model), "--joint-minimal-pairs", "4"]
        )
        == 0
    )
    assert runs.read_text() == before
    assert LearnedVerdict.load(model).claim_parts_min is None  # a stage without its option is off
    assert cli_main([*argv, "--sure-sentence-min", "0.9", "--claim-parts-min", "0.85", "--bridge-min", "0.95"]) == 0
    learned = LearnedVerdict.load(model)
    assert (learned.sure_sentence_min, learned.claim_parts_min, learned.bridge_min) == (0.9, 0.85, 0.95)
    assert {"sure_sentence", "claim_parts", "bridge"} <= set(learned.report["as_shipped_stages"])  # replayed
    minimal = [json.loads(line) for line in (joint_dir / "joint-minimal.jsonl").read_text().splitlines()]
    held_out = {json.loads(line)["hypothesis"] for line in (joint_dir / "joint-heldout.jsonl").read_text().splitlines()}
    assert minimal and not held_out & {p["hypothesis"] for p in minimal}
    # each claim's gold sentence, whether the corpus has it or not (Telemundo)
    gold_of = {
        "Telemundo is a film.": "Telemundo: Something not in the corpus.",
        "Jaws is a film about a shark.": "Jaws (film): The film is about a giant man-eating great white shark.",
    }
    sherlock = (
        "Sherlock Holmes: Sherlock Holmes is a fictional private detective created by the author Arthur Conan Doyle."
    )
    for nei, labelled in zip(minimal[::2], minimal[1::2]):
        assert (nei["label"], nei["hypothesis"]) == ("NOT ENOUGH INFO", labelled["hypothesis"])
        gold = gold_of.get(nei["hypothesis"], sherlock)
        assert gold not in nei["premise"] and gold in labelled["premise"]
    pairs_written = [
        json.loads(line)
        for name in ("joint-train.jsonl", "joint-heldout.jsonl")
        for line in (joint_dir / name).read_text().splitlines()
    ]
    by_claim = {line["claim"]: line for line in lines}
    assert sorted(p["hypothesis"] for p in pairs_written) == sorted(by_claim)
    for pair in pairs_written:
        run = by_claim[pair["hypothesis"]]
        assert pair["label"] == run["label"]
        assert pair["premise"] == joint_premise([f"{e['title']}: {e['text']}" for e in run["evidence"]])
    saved = LearnedVerdict.load(model)
    assert saved.joint_weight == saved.report.get("joint_weight", 0.0)  # the weight chosen on the held-out claims

    # runs kept under the name of before the learned verdict had its name are not resumed silently: a line says how
    data_dir = tmp_path / "data"
    (data_dir / "training").mkdir(parents=True)
    (data_dir / "corpora").symlink_to(settings.data_dir / "corpora", target_is_directory=True)
    old = data_dir / "training" / f"old-runs-fixture-{weights_fingerprint(model)}-chains.jsonl"
    shutil.copy2(runs, old)
    capsys.readouterr()
    assert cli_main(["--data-dir", str(data_dir), *[a for a in argv if a not in ("--runs", str(runs))]]) == 2
    assert f"{old} holds these runs under an old name: rename it to verdict-{old.name[4:]}" in capsys.readouterr().err


def test_plain_style_claims_are_written_or_generated_claims_of_pages_no_yardstick_uses(tmp_path):
    yardstick = write_jsonl(
        tmp_path / "yardstick.jsonl",
        [
            {"id": 1, "label": "SUPPORTS", "claim": "Oslo is in Norway.", "evidence": [[[None, None, "Oslo", 0]]]},
            {
                "id": 2,
                "label": "NOT ENOUGH INFO",
                "claim": "Jaws was shot at night.",
                "evidence": [[[None, None, None, None]]],
                "near": {"page_id": "Jaws_-LRB-film-RRB-", "line": 0, "text": "."},
            },
        ],
    )
    assert yardstick_titles([yardstick]) == {"Oslo", "Jaws (film)"}
    generated = write_jsonl(
        tmp_path / "heldout.jsonl",
        [
            {
                "premise": "Bergen: Bergen is a city in Norway.",
                "hypothesis": "Bergen is a city in Norway.",
                "label": "SUPPORTS",
                "source": "g",
            },
            {
                "premise": "Bergen: Bergen is a city in Norway.",
                "hypothesis": "Bergen is a city in Sweden.",
                "label": "REFUTES",
                "source": "g",
            },
            {
                "premise": "Norway: Its capital is Bergen. Bergen: Bergen is a city in Norway.",
                "hypothesis": "Bergen is a city in Norway.",
                "label": "SUPPORTS",
                "source": "g",
            },  # its chain: once
            {
                "premise": "Bergen: It rains a lot.",
                "hypothesis": "Bergen is a city in Norway.",
                "label": "NOT ENOUGH INFO",
                "source": "g",
            },  # true of the page: no NEI claim end to end
            {
                "premise": "Oslo: Oslo is the capital of Norway.",
                "hypothesis": "Oslo is the capital of Norway.",
                "label": "SUPPORTS",
                "source": "g",
            },  # a yardstick's page
            {
                "premise": "Jaws (film): Jaws is a 1975 film.",
                "hypothesis": "Jaws is a 1975 film.",
                "label": "SUPPORTS",
                "source": "g",
            },
        ],
    )
    written = write_jsonl(
        tmp_path / "written.jsonl",
        [
            {
                "id": 7,
                "label": "NOT ENOUGH INFO",
                "claim": "Bergen has a funicular.",
                "evidence": [[[None] * 4]],
                "near": {"page_id": "Bergen", "line": 0, "text": "."},
            },
            {"id": 8, "label": "REFUTES", "claim": "Oslo is in Denmark.", "evidence": [[[None, None, "Oslo", 0]]]},
            {
                "id": 9,
                "label": "SUPPORTS",
                "claim": "Bergen is a city in Norway.",
                "evidence": [[[None, None, "Bergen", 0]]],
            },
        ],
    )
    kept = plain_style_claims([generated, written], yardstick_titles([yardstick]))
    assert [(c.claim, c.label) for c in kept] == [
        ("Bergen is a city in Norway.", "SUPPORTS"),
        ("Bergen is a city in Sweden.", "REFUTES"),
        ("Bergen has a funicular.", "NOT ENOUGH INFO"),
    ]


def test_train_verdict_fits_on_fever_claims_and_plain_style_claims_and_reports_each(
    tmp_path, settings, workspace, tiny_nli_model, pages_file
):
    model = tmp_path / "verifier"
    shutil.copytree(tiny_nli_model, model)
    pairs = write_jsonl(tmp_path / "pairs.jsonl", SHERLOCK_PAIRS)
    nei = write_jsonl(
        tmp_path / "nei.jsonl",
        [
            {"id": i, "claim": c, "label": "NOT ENOUGH INFO"}
            for i, c in enumerate(["Edinburgh has a famous castle.", "Jaws was filmed in winter."])
        ],
    )
    generated = write_jsonl(
        tmp_path / "heldout.jsonl",
        [
            {
                "premise": "Jaws (film): Jaws is a 1975 American thriller film.",
                "hypothesis": f"Jaws is a {year} film.",
                "label": label,
                "source": "g",
            }
            for year, label in [
                ("1975", "SUPPORTS"),
                ("1985", "REFUTES"),
                ("American", "SUPPORTS"),
                ("French", "REFUTES"),
            ]
        ],
    )
    data_dir = tmp_path / "data"  # the plain-style runs go to its training/ folder
    (data_dir / "training").mkdir(parents=True)
    (data_dir / "corpora").symlink_to(settings.data_dir / "corpora", target_is_directory=True)
    assert (
        cli_main(
            [
                "--data-dir",
                str(data_dir),
                "train",
                "verdict",
                "--pairs",
                str(pairs),
                "--nei-claims",
                str(nei),
                "--pages",
                str(pages_file),
                "--corpus",
                "fixture",
                "--model",
                str(model),
                "--runs",
                str(tmp_path / "runs.jsonl"),
                "--plain-claims",
                str(generated),
                "--plain-corpus",
                "fixture",
                "--plain-limit",
                "3",
            ]
        )
        == 0
    )
    report = LearnedVerdict.load(model).report
    assert report["n_claims"] == 6 + 3 and report["plain_claims"] == [str(generated)]
    plain_runs = list((data_dir / "training").glob("verdict-runs-fixture-*-chains.jsonl"))
    assert len(plain_runs) == 1 and len(plain_runs[0].read_text().splitlines()) == 3


def test_the_runs_are_kept_by_the_verifier_s_weights_not_by_its_folder_or_its_verdict(tmp_path):
    model = tmp_path / "verifier"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"weights")
    (model / "config.json").write_text("{}")
    kept = weights_fingerprint(model)
    (model / VERDICT_FILE).write_text("{}")  # what train verdict writes from the runs: they stay good
    copy = shutil.copytree(model, tmp_path / "elsewhere" / "verifier")
    assert weights_fingerprint(model) == weights_fingerprint(copy) == kept
    (copy / "model.safetensors").write_bytes(b"other weights")
    assert weights_fingerprint(copy) != kept
