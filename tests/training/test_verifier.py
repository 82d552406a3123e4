"""Verifier training (fever_core/training/verifier*.py) on a tiny random BERT: loss, saving, resuming, batches,
the NEI threshold."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from fever_core.common.types import NEI
from fever_core.training.verifier import plan_batches, train_verifier
from fever_core.training.verifier_config import TrainConfig
from fever_core.training.verifier_model import build_model
from fever_core.training.verifier_scores import choose_nei_threshold
from fever_core.verification.model_integrity import CHECKSUMS_FILE, ModelDamaged, check_model_folder, model_files
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import decide
from tests.conftest import save_tiny_bert, write_jsonl

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
    settings = {
        "data": [str(hand_file)],
        "out": tmp_path / "out",
        "init": str(init),
        "epochs": 15,
        "batch_size": 8,
        "lr": 3e-3,
        "max_length": 64,
        "seed": 1,
        "threads": 1,
        "dev_fraction": 0.0,
        "checkpoint_every": 5,
        "log_every": 5,
        "cache_dir": tmp_path / "cache",
        "warmup_ratio": 0.0,
    }
    settings.update(kw)
    return TrainConfig(**settings)


def test_training_lowers_loss_and_saves_a_loadable_verifier(tmp_path, tiny_model, hand_file):
    result = train_verifier(_config(tmp_path, tiny_model, hand_file, eval=[str(hand_file)]))
    assert result.finished and result.steps == result.total_steps == 15 * 5
    first, last = result.losses[0][1], result.losses[-1][1]
    assert last < first * 0.7, result.losses

    out = tmp_path / "out"
    assert (out / "model.safetensors").is_file() and (out / "verifier.json").is_file()
    assert not (out / "checkpoints").exists()
    listed = set(json.loads((out / CHECKSUMS_FILE).read_text())["sha256"])
    assert {"model.safetensors", "config.json", "tokenizer.json"} <= listed and listed == set(model_files(out))
    check_model_folder(str(out))
    saved = json.loads((out / "config.json").read_text())
    assert saved["id2label"] == {"0": "SUPPORTS", "1": "REFUTES", "2": "NOT ENOUGH INFO"}

    from safetensors import safe_open

    with safe_open(str(out / "model.safetensors"), "pt") as fh:
        assert all(fh.get_tensor(k).dtype == torch.float16 for k in fh.keys())  # noqa: SIM118 - safe_open is no dict

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


def test_the_nei_rule_written_into_config_json_after_the_weights_is_in_the_checksums(tmp_path, tiny_model, hand_file):
    train_verifier(_config(tmp_path, tiny_model, hand_file, epochs=1, dev_fraction=0.4))
    out = tmp_path / "out"
    assert "nei_threshold" in json.loads((out / "config.json").read_text())  # written after the weights' checksums
    check_model_folder(str(out))
    NliModel.load(str(out), device="cpu")


def test_resume_refuses_a_checkpoint_of_another_plan(tmp_path, tiny_model, hand_file):
    train_verifier(_config(tmp_path, tiny_model, hand_file, epochs=2, stop_after_steps=3))
    with pytest.raises(RuntimeError, match="different plan"):
        train_verifier(_config(tmp_path, tiny_model, hand_file, epochs=3, batch_size=4))


def test_batches_cover_every_pair_once_and_are_reproducible():
    lengths = [(i * 7) % 23 for i in range(101)]
    batches = plan_batches(lengths, 8, seed=3, epoch=1)
    assert sorted(i for b in batches for i in b) == list(range(101))
    assert len(batches) == 13
    assert batches == plan_batches(lengths, 8, seed=3, epoch=1)
    assert batches != plan_batches(lengths, 8, seed=3, epoch=2)


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


def test_lora_run_saves_a_small_adapter_that_loads_and_resumes(tmp_path, tiny_model, hand_file):
    config = _config(
        tmp_path, tiny_model, hand_file, lora_rank=4, lr=2e-2, epochs=20, stop_after_steps=6, eval=[str(hand_file)]
    )
    first = train_verifier(config)
    assert not first.finished and first.steps == 6
    checkpoint = torch.load(tmp_path / "out" / "checkpoints" / "last.pt", weights_only=False)
    assert checkpoint["model"] and all("lora_" in k or "classifier" in k for k in checkpoint["model"]), (
        "a LoRA checkpoint holds the adapter and the head, not the frozen base"
    )

    config.stop_after_steps = None
    result = train_verifier(config)
    assert result.resumed_from == 6 and result.finished
    assert result.losses[-1][1] < result.losses[0][1], result.losses

    out = tmp_path / "out"
    adapter = json.loads((out / "adapter_config.json").read_text())
    assert adapter["base_model_name_or_path"] == str(tiny_model) and adapter["r"] == 4
    assert not (out / "model.safetensors").exists(), "the base's weights are not copied into the adapter folder"
    listed = set(json.loads((out / CHECKSUMS_FILE).read_text())["sha256"])
    assert {"adapter_model.safetensors", "adapter_config.json", "config.json"} <= listed == set(model_files(out))
    assert json.loads((out / "config.json").read_text())["id2label"]["2"] == NEI

    model = NliModel.load(str(out), device="cpu")
    probs = model.predict([(p, h) for p, h, _ in HAND_PAIRS])
    accuracy = float(np.mean(probs.argmax(axis=1) == [["SUPPORTS", "REFUTES", NEI].index(g) for *_, g in HAND_PAIRS]))
    assert accuracy == pytest.approx(result.reports["hand"]["accuracy"])  # what training measured, loaded again
    assert accuracy > 0.45, accuracy  # above chance (1/3): the adapter and its trained head were loaded

    adapter_weights = (out / "adapter_model.safetensors").read_bytes()
    (out / "adapter_model.safetensors").write_bytes(adapter_weights[:-64] + bytes(64))  # its last bytes damaged
    with pytest.raises(ModelDamaged, match="adapter_model.safetensors does not match the checksum"):
        NliModel.load(str(out), device="cpu")


def test_a_trained_adapter_widened_to_a_higher_rank_reads_as_it_did(tmp_path, tiny_model, hand_file):
    train_verifier(_config(tmp_path, tiny_model, hand_file, lora_rank=4, lr=2e-2, epochs=3))
    narrow = tmp_path / "out"
    wide, tokenizer = build_model(_config(tmp_path, narrow, hand_file, lora_rank=8, out=tmp_path / "wide"))
    shapes = {tuple(p.shape) for n, p in wide.named_parameters() if ".lora_A." in n and p.requires_grad}
    assert shapes and all(rows == 8 for rows, _ in shapes), shapes
    assert any(p.requires_grad for n, p in wide.named_parameters() if "classifier" in n), "the head still trains"

    batch = tokenizer([p for p, _, _ in HAND_PAIRS], [h for _, h, _ in HAND_PAIRS], return_tensors="pt", padding=True)
    with torch.no_grad():
        widened = torch.softmax(wide.eval()(**batch).logits.float(), dim=-1).numpy()
    before = NliModel.load(str(narrow), device="cpu").predict([(p, h) for p, h, _ in HAND_PAIRS])
    # the saved adapter is fp16, so the two readings agree to fp16's precision, not bit for bit
    np.testing.assert_allclose(widened, before, atol=2e-2)  # the model's labels are in LABELS order, as predict's
