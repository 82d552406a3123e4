"""Packed (int8) weights: the round trip, a packed folder loaded as a verifier, and damaged packings refused."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from fever_core.common.settings import FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER
from fever_core.verification.classifiers import load_sequence_classifier
from fever_core.verification.model_integrity import CHECKSUMS_FILE, ModelDamaged
from fever_core.verification.nli import NliModel
from fever_core.verification.packed_weights import (
    GROUP_SIZE,
    PACKED_WEIGHTS,
    PLAIN_WEIGHTS,
    SCALE_SUFFIX,
    is_packed,
    pack_model,
    pack_tensors,
    unpack_tensors,
)


def test_round_trip_moves_each_weight_by_at_most_half_a_step_of_its_group():
    generator = torch.Generator().manual_seed(0)
    matrix = torch.randn(256, 384, generator=generator) * torch.logspace(-3, 0, 384)  # groups of very unlike size
    odd = torch.randn(300, 300, generator=generator)  # 300 columns: one scale per row
    small, ids = torch.randn(8, 8), torch.arange(10)
    packed = pack_tensors({"matrix": matrix.half(), "odd": odd, "small": small, "ids": ids})
    assert packed["matrix"].dtype == torch.int8 and packed["matrix" + SCALE_SUFFIX].shape == (256, 384 // GROUP_SIZE)
    assert packed["odd" + SCALE_SUFFIX].shape == (300, 1)
    assert torch.equal(packed["small"], small) and torch.equal(packed["ids"], ids)
    back = unpack_tensors(packed)
    for name, original in (("matrix", matrix.half().float()), ("odd", odd)):
        groups = original.reshape(original.shape[0], -1, GROUP_SIZE if original.shape[1] % GROUP_SIZE == 0 else 300)
        step = groups.abs().amax(dim=2, keepdim=True) / 127
        error = (back[name].reshape(groups.shape) - groups).abs()
        assert bool((error <= step / 2 + 1e-6).all()), name
    assert back["ids"].dtype == torch.int64


def test_a_packed_folder_loads_as_the_same_verifier_in_half_the_space(tiny_nli_model, tmp_path):
    folder = shutil.copytree(tiny_nli_model, tmp_path / "packed")
    plain_bytes = (folder / PLAIN_WEIGHTS).stat().st_size
    pack_model(folder)
    assert is_packed(folder) and not (folder / PLAIN_WEIGHTS).exists()
    assert (folder / PACKED_WEIGHTS).stat().st_size < plain_bytes / 3  # fp32 written, about a quarter packed
    listed = json.loads((folder / CHECKSUMS_FILE).read_text())["sha256"]
    assert PACKED_WEIGHTS in listed and PLAIN_WEIGHTS not in listed
    pairs = [("Paris is the capital of France.", "Paris is in France."), ("A cat sat.", "No dog ran.")]
    plain = NliModel.load(str(tiny_nli_model), "cpu").predict(pairs)
    packed = NliModel.load(str(folder), "cpu")
    assert next(packed.model.parameters()).dtype == torch.float32
    np.testing.assert_allclose(packed.predict(pairs), plain, atol=0.02)
    with pytest.raises(FileNotFoundError, match="no model.safetensors to pack"):
        pack_model(folder)


def test_packed_weights_that_do_not_fit_the_config_are_a_damaged_model(tiny_nli_model, tmp_path):
    folder = shutil.copytree(tiny_nli_model, tmp_path / "packed")
    pack_model(folder)
    tensors = load_file(str(folder / PACKED_WEIGHTS))
    name = next(n for n in tensors if n.endswith(SCALE_SUFFIX))
    (folder / CHECKSUMS_FILE).unlink()  # a folder that is not shipped and keeps no checksums: the load itself refuses
    save_file({n: t for n, t in tensors.items() if n != name}, str(folder / PACKED_WEIGHTS))
    with pytest.raises(ModelDamaged, match="has no scales"):
        NliModel.load(str(folder), "cpu")
    save_file({**tensors, "extra.weight": torch.zeros(2)}, str(folder / PACKED_WEIGHTS))
    with pytest.raises(ModelDamaged, match="do not fit its config.json.*extra.weight"):
        NliModel.load(str(folder), "cpu")


@pytest.mark.parametrize("shipped", [FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER])
def test_the_shipped_minilm_models_are_packed_and_load_for_training_too(shipped):
    assert is_packed(shipped)
    model = load_sequence_classifier(shipped)
    assert next(model.parameters()).dtype == torch.float32 and model.config.num_labels == 3
