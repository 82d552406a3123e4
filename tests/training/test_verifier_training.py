"""Verifier training on a tiny random BERT, pair-file loading, and pair-set scoring."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from fever_core.cli import main  # noqa: E402
from fever_core.evaluation.pairs import report_from_predictions  # noqa: E402
from fever_core.formats import DataFileError, Pair, load_claims, load_pairs  # noqa: E402
from fever_core.training.augmentation import plain_style_pairs, without_asides  # noqa: E402
from fever_core.training.distractors import DistractorIndex, PoolSentence, nei_pairs  # noqa: E402
from fever_core.training.pairs import (  # noqa: E402
    DataSpec,
    balanced_subsample,
    build_training_pairs,
    fever_claims_to_pairs,
    split_dev,
)
from fever_core.training.verifier import TrainConfig, choose_nei_threshold, plan_batches, train_verifier  # noqa: E402
from fever_core.types import LABELS, NEI  # noqa: E402
from fever_core.verification.decision import decide  # noqa: E402
from fever_core.verification.nli import NliModel  # noqa: E402
from tests.conftest import save_tiny_bert, write_jsonl  # noqa: E402

POOL = [
    PoolSentence("Paris", "Paris is the capital and most populous city of France."),
    PoolSentence("Paris", "The city is a major railway, highway and air-transport hub."),
    PoolSentence("Berlin", "Berlin is the capital and largest city of Germany."),
    PoolSentence("Berlin", "Berlin straddles the banks of the Spree river."),
    PoolSentence("Tiger", "The tiger is the largest living cat species."),
    PoolSentence("Tiger", "It is an apex predator, primarily preying on ungulates."),
]

HAND_PAIRS = [
    ("Paris: Paris is the capital of France.", "Paris is the capital of France.", "SUPPORTS"),
    ("Paris: Paris is the capital of France.", "Paris is not the capital of France.", "REFUTES"),
    ("Paris: Paris is the capital of France.", "Paris has a famous zoo.", NEI),
    ("Berlin: Berlin is the capital of Germany.", "Berlin is in Germany.", "SUPPORTS"),
    ("Berlin: Berlin is the capital of Germany.", "Berlin is in Spain.", "REFUTES"),
    ("Berlin: Berlin is the capital of Germany.", "Berlin has many bridges.", NEI),
    ("Tiger: The tiger is the largest cat.", "Tigers are cats.", "SUPPORTS"),
    ("Tiger: The tiger is the largest cat.", "Tigers are birds.", "REFUTES"),
    ("Tiger: The tiger is the largest cat.", "Tigers like water.", NEI),
]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    """A randomly initialised 2-layer BERT with the packaged MiniLM tokenizer."""
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), 3, max_position_embeddings=128)


@pytest.fixture()
def hand_file(tmp_path) -> Path:
    records = [{"premise": p, "hypothesis": h, "label": label, "source": "hand"} for p, h, label in HAND_PAIRS]
    return write_jsonl(tmp_path / "hand.jsonl", records * 4)


def _config(tmp_path: Path, init: Path, hand_file: Path, **kw) -> TrainConfig:
    settings = dict(
        data=[str(hand_file)], out=tmp_path / "out", init=str(init), epochs=15, batch_size=8, lr=3e-3,
        max_length=64, seed=1, threads=1, dev_fraction=0.0, checkpoint_every=5, log_every=5,
        cache_dir=tmp_path / "cache", warmup_ratio=0.0,
    )
    settings.update(kw)
    return TrainConfig(**settings)


# --- training -------------------------------------------------------------------------------


def test_training_lowers_loss_and_saves_a_loadable_verifier(tmp_path, tiny_model, hand_file):
    result = train_verifier(_config(tmp_path, tiny_model, hand_file, eval=[str(hand_file)]))
    assert result.finished and result.steps == result.total_steps == 15 * 5
    first, last = result.losses[0][1], result.losses[-1][1]
    assert last < first * 0.7, result.losses

    out = tmp_path / "out"
    assert (out / "model.safetensors").is_file() and (out / "verifier.json").is_file()
    assert not (out / "checkpoints").exists()
    saved = json.loads((out / "config.json").read_text())
    assert saved["id2label"] == {"0": "SUPPORTS", "1": "REFUTES", "2": "NOT ENOUGH INFO"}

    from safetensors import safe_open

    with safe_open(str(out / "model.safetensors"), "pt") as fh:
        assert all(fh.get_tensor(k).dtype == torch.float16 for k in fh.keys())

    model = NliModel.load(str(out), device="cpu")
    probs = model.predict([(p, h) for p, h, _ in HAND_PAIRS])
    assert probs.shape == (len(HAND_PAIRS), 3)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert set(probs.argmax(axis=1)) == {0, 1, 2}  # it learned all three labels of its training pairs
    assert result.reports["hand"]["n"] == len(HAND_PAIRS) * 4


def test_interrupted_run_resumes_at_its_step(tmp_path, tiny_model, hand_file):
    config = _config(tmp_path, tiny_model, hand_file, epochs=3, stop_after_steps=7)
    first = train_verifier(config)
    assert not first.finished and first.steps == 7
    assert (tmp_path / "out" / "checkpoints" / "last.pt").is_file()

    config.stop_after_steps = None
    second = train_verifier(config)
    assert second.resumed_from == 7
    assert second.finished and second.steps == second.total_steps == 15
    assert [s for s, _ in second.losses] == [10, 15]


def test_resume_refuses_a_checkpoint_of_another_plan(tmp_path, tiny_model, hand_file):
    train_verifier(_config(tmp_path, tiny_model, hand_file, epochs=2, stop_after_steps=3))
    with pytest.raises(RuntimeError, match="different plan"):
        train_verifier(_config(tmp_path, tiny_model, hand_file, epochs=3, batch_size=4))


def test_cli_reports_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"premise": "a", "hypothesis": "b", "label": "SUPPORTS"}\nnot json\n')
    assert main(["train", "verifier", "--data", str(bad), "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "c")]) == 2
    assert f"{bad}:2" in capsys.readouterr().err


def test_batches_cover_every_pair_once_and_are_reproducible():
    lengths = [(i * 7) % 23 for i in range(101)]
    batches = plan_batches(lengths, 8, seed=3, epoch=1)
    assert sorted(i for b in batches for i in b) == list(range(101))
    assert len(batches) == 13
    assert batches == plan_batches(lengths, 8, seed=3, epoch=1)
    assert batches != plan_batches(lengths, 8, seed=3, epoch=2)


# --- pairs ------------------------------------------------------------------------------------


def test_load_pairs_formats_premises(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"premise": "Soul Food -LRB- 1997 -RRB- is a film .", "hypothesis": "Soul Food is a film .",
         "label": "SUPPORTS", "source": "fever-paper-test", "pages": ["Soul_Food_-LRB-film-RRB-", "Other"]},
        {"premise": "A man sleeps .", "hypothesis": "A man is awake .", "label": "REFUTES", "source": "snli-dev"},
    ])
    first, second = load_pairs(path)
    assert first == Pair("Soul Food (film): Soul Food (1997) is a film.", "Soul Food is a film.", "SUPPORTS",
                         "fever-paper-test")
    assert second.premise == "A man sleeps." and second.source == "snli-dev"


@pytest.mark.parametrize("line, message", [
    ("{not json", "not valid JSON"),
    ('{"premise": "a", "hypothesis": "b", "label": "MAYBE"}', "label 'MAYBE'"),
    ('{"premise": "", "hypothesis": "b", "label": "SUPPORTS"}', "premise"),
    ('["a", "b"]', "expected a JSON object"),
])
def test_malformed_pair_line_names_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"premise": "a", "hypothesis": "b", "label": "SUPPORTS"}\n\n' + line + "\n")
    with pytest.raises(DataFileError, match=message) as info:
        load_pairs(path)
    assert f"{path}:3:" in str(info.value)


def test_fever_claims_to_pairs(tmp_path):
    path = write_jsonl(tmp_path / "claims.jsonl", [
        {"id": 1, "label": "SUPPORTS", "claim": "Paris is in France.",
         "evidence": [[[9, 9, "Missing_Page", 0]], [[1, 1, "Paris", 0], [1, 2, "France", 3]]]},
        {"id": 2, "label": "REFUTES", "claim": "Paris is in Spain.", "evidence": [[[2, 2, "Paris", 0]]]},
        {"id": 3, "label": "NOT ENOUGH INFO", "claim": "Paris has a zoo.", "evidence": [[[3, None, None, None]]]},
        {"id": 4, "label": "SUPPORTS", "claim": "Nobody knows.", "evidence": [[[4, 4, "Missing_Page", 1]]]},
    ])
    text = {("Paris", 0): ("Paris", "Paris is the capital of France ."),
            ("France", 3): ("France", "France -LRB- officially -RRB- is in Europe .")}
    claims = load_claims(path)
    assert claims[0].evidence_sets() == ((("Missing_Page", 0),), (("Paris", 0), ("France", 3)))

    pairs = fever_claims_to_pairs(claims, lambda page, line: text.get((page, line)), source="t")
    assert pairs == [
        Pair("Paris: Paris is the capital of France. France: France (officially) is in Europe.",
             "Paris is in France.", "SUPPORTS", "t"),
        Pair("Paris: Paris is the capital of France.", "Paris is in Spain.", "REFUTES", "t"),
    ]
    with_nei = fever_claims_to_pairs(claims, lambda p, l: text.get((p, l)), distractors=lambda c: [("Zoo", "Zoos exist.")])
    assert with_nei[-1] == Pair("Zoo: Zoos exist.", "Paris has a zoo.", NEI, "fever-claims")


def test_nei_pairs_pick_same_subject_non_evidence_sentences():
    index = DistractorIndex(POOL)
    [pair] = nei_pairs(["Paris has the biggest tiger zoo in France."], index, "x", max_sentences=1)
    assert pair.label == NEI and pair.premise.startswith(("Paris:", "Tiger:"))

    # the gold evidence of a supported claim is never handed back as its NEI distractor
    evidence = ["Paris is the capital and most populous city of France."]
    [pair] = nei_pairs(["Paris is the capital of France."], index, "x", evidence=evidence, max_sentences=1)
    assert "most populous" not in pair.premise


def write_fever_pairs(tmp_path: Path, paris: str, berlin: str) -> Path:
    """A FEVER pair file of two claims: "Paris is in France ." (SUPPORTS) and "Berlin is in Italy ." (REFUTES)."""
    return write_jsonl(tmp_path / "fever.jsonl", [
        {"premise": paris, "hypothesis": "Paris is in France .", "label": "SUPPORTS", "source": "fever-paper-test",
         "pages": ["Paris"]},
        {"premise": berlin, "hypothesis": "Berlin is in Italy .", "label": "REFUTES", "source": "fever-paper-test",
         "pages": ["Berlin"]},
    ])


def test_build_training_pairs_with_nei_claims_and_mismatches(tmp_path):
    pairs_file = write_fever_pairs(tmp_path, "Paris is the capital and most populous city of France .",
                                   "Berlin is the capital of Germany .")
    nei_file = write_jsonl(tmp_path / "nei-claims.jsonl", [{"id": 1, "claim": "The tiger eats grass.", "label": NEI}])
    pairs = build_training_pairs([DataSpec(pairs_file), DataSpec(nei_file)], nei_from_evidence_fraction=1.0,
                                 pool=POOL, cache_dir=tmp_path)
    sources = {p.source for p in pairs}
    assert sources == {"fever-paper-test", "fever-paper-test-nei-mismatch", "nei-retrieved"}
    assert all(p.label == NEI for p in pairs if p.source != "fever-paper-test")


def test_asides_are_removed_unless_the_claim_may_rest_on_them():
    premise = "Stanley Kubrick: Stanley Kubrick (July 26, 1928 - March 7, 1999) was an American film director (auteur)."
    assert without_asides(premise, "Stanley Kubrick was a painter.") == (
        "Stanley Kubrick: Stanley Kubrick was an American film director.")
    assert without_asides(premise, "Stanley Kubrick was born in 1928.") is None  # "1928" is in an aside
    assert without_asides("Paris (film): Paris is a 2008 film.", "Paris is a film.") is None  # a title, not an aside


def test_plain_style_pairs_keep_label_and_mark_source(tmp_path):
    pairs_file = write_fever_pairs(tmp_path, "Paris is the capital of France .",
                                   "Berlin -LRB- pronounced bear-LEEN -RRB- is the capital of Germany .")
    pairs = build_training_pairs([DataSpec(pairs_file)], nei_from_evidence_fraction=0.0, plain_style_fraction=1.0,
                                 pool=POOL, cache_dir=tmp_path)
    [plain] = [p for p in pairs if p.source == "fever-paper-test-plain-style"]  # Paris has no aside to remove
    assert plain.label == "REFUTES" and "(" not in plain.premise and plain.premise.endswith("capital of Germany.")
    assert plain_style_pairs(pairs, 0.0, random.Random(0)) == []


def test_balanced_subsample_and_split():
    pairs = [Pair(f"p{i}", f"h{i}", LABELS[0] if i < 90 else LABELS[i % 2 + 1], "s") for i in range(100)]
    sample = balanced_subsample(pairs, 20, seed=0)
    counts = {label: sum(p.label == label for p in sample) for label in LABELS}
    assert len(sample) == 20 and counts[LABELS[1]] == 5 and counts[LABELS[2]] == 5
    train, dev = split_dev(pairs, 0.2, seed=0)
    assert len(train) + len(dev) == 100 and 5 < len(dev) < 40
    assert split_dev(pairs, 0.2, seed=0) == (train, dev)
    assert DataSpec.parse("/a/b.jsonl:300") == DataSpec(Path("/a/b.jsonl"), 300)
    assert DataSpec.parse("b.jsonl", 7) == DataSpec(Path("b.jsonl"), 7)


# --- evaluation -------------------------------------------------------------------------------


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
    from fever_core.evaluation.pairs import evaluate_pairs

    class Stub:
        def predict(self, pairs, batch_size=32):
            return np.array([[0.1, 0.2, 0.7] if "?" in h else [0.6, 0.3, 0.1] for _, h in pairs])

    pairs = [Pair("p", "a", "SUPPORTS", "s"), Pair("p", "b?", NEI, "s"), Pair("p", "c", "REFUTES", "s")]
    report = evaluate_pairs(Stub(), pairs)
    assert report.accuracy == pytest.approx(2 / 3) and report.pairs_per_s > 0


def test_nei_threshold_rule():
    probs = np.array([[0.5, 0.2, 0.3], [0.1, 0.5, 0.4], [0.2, 0.2, 0.6]])
    assert decide(probs).tolist() == [0, 1, 2]
    assert decide(probs, nei_threshold=0.35).tolist() == [0, 2, 2]
    gold = np.array([0, 2, 2])
    threshold, tuned, plain = choose_nei_threshold(gold, probs)
    assert tuned == pytest.approx(1.0) and plain < 1.0 and 0.3 < threshold <= 0.4


def test_out_of_time_run_still_saves_and_a_trained_verifier_can_be_the_init(tmp_path, tiny_model, hand_file):
    first = train_verifier(_config(tmp_path, tiny_model, hand_file, epochs=2, time_budget_s=0.0))
    assert not first.finished and first.steps == 1
    assert (tmp_path / "out" / "model.safetensors").is_file()
    meta = json.loads((tmp_path / "out" / "verifier.json").read_text())
    assert meta["schedule_completed"] is False and meta["steps"] == 1

    # continue from the saved fp16 verifier (as `--init assets/models/verifier` does)
    again = train_verifier(_config(tmp_path, tmp_path / "out", hand_file, epochs=1, out=tmp_path / "out2"))
    assert again.finished and again.steps == 5
    assert NliModel.load(str(tmp_path / "out2"), device="cpu").predict([("a", "b")]).shape == (1, 3)


def test_an_nei_distractor_never_holds_most_of_the_claim():
    """FEVER's unverifiable claims are often settled by some other sentence; such a sentence is no NEI premise."""
    pool = [PoolSentence("Steve Coogan", "It stars Steve Coogan as Raymond."),
            PoolSentence("Steve Coogan", "Stephen John Coogan is an English comedian.")]
    [pair] = nei_pairs(["Steve Coogan starred in a movie."], DistractorIndex(pool), "x", max_sentences=2)
    assert pair.premise == "Steve Coogan: Stephen John Coogan is an English comedian."
