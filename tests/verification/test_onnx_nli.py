"""The verifier through ONNX Runtime: exported once, checked at each load, the same readings as PyTorch's."""

import json
import shutil

import numpy as np
import pytest

from fever_core.common.onnx_exports import ONNX_FILE
from fever_core.common.settings import DEFAULT_VERIFIER
from fever_core.verification.nli import NliModel, OnnxNliModel, resolve_runtime
from fever_core.verification.onnx_export import export_name

PAIRS = [
    ("Paris is the capital of France.", "Paris is in France."),
    ("x " * 600, "A long premise is truncated."),
    ("Mount Everest is the highest mountain.", "Everest is low."),
    ("", "An empty premise."),
]


def test_the_onnx_verifier_reads_as_pytorch_does_and_is_exported_once(tiny_nli_model, tmp_path):
    torch_model = NliModel.load(str(tiny_nli_model), "cpu")
    onnx_model = NliModel.load(str(tiny_nli_model), "cpu", runtime="onnx", cache_dir=tmp_path)
    assert isinstance(onnx_model, OnnxNliModel) and onnx_model.runtime == "onnx"
    np.testing.assert_allclose(onnx_model.predict(PAIRS), torch_model.predict(PAIRS), atol=1e-5)
    export = tmp_path / export_name(tiny_nli_model)
    made = (export / ONNX_FILE).stat().st_mtime_ns
    again = NliModel.load(str(tiny_nli_model), "cpu", runtime="onnx", cache_dir=tmp_path)
    assert (export / ONNX_FILE).stat().st_mtime_ns == made  # found, not made again
    assert again.predict(PAIRS[:1]).shape == (1, 3)


def test_a_damaged_export_is_made_again_and_another_model_gets_its_own(tiny_nli_model, tmp_path):
    NliModel.load(str(tiny_nli_model), "cpu", runtime="onnx", cache_dir=tmp_path)
    export = tmp_path / export_name(tiny_nli_model)
    with (export / ONNX_FILE).open("r+b") as fh:
        fh.seek(100)
        fh.write(b"damaged")
    model = NliModel.load(str(tiny_nli_model), "cpu", runtime="onnx", cache_dir=tmp_path)
    np.testing.assert_allclose(
        model.predict(PAIRS), NliModel.load(str(tiny_nli_model), "cpu").predict(PAIRS), atol=1e-5
    )
    retrained = shutil.copytree(tiny_nli_model, tmp_path / "retrained")
    config = json.loads((retrained / "config.json").read_text())
    (retrained / "config.json").write_text(json.dumps({**config, "label2id": config["label2id"]}, indent=4))
    assert export_name(retrained) != export_name(tiny_nli_model)


def test_auto_runs_pytorch_and_onnx_runs_only_local_folders(tiny_nli_model):
    assert (
        resolve_runtime("auto", "cpu", DEFAULT_VERIFIER) == resolve_runtime("auto", "cuda", DEFAULT_VERIFIER) == "torch"
    )
    assert resolve_runtime("onnx", "cuda", str(tiny_nli_model)) == "onnx"  # ONNX Runtime: the CPU's
    with pytest.raises(ValueError, match="no local folder"):
        resolve_runtime("onnx", "cpu", "sentence-transformers/some-hub-id")
    with pytest.raises(ValueError, match="Unknown verifier runtime"):
        resolve_runtime("tensorrt", "cpu", str(tiny_nli_model))


def test_the_checker_runs_the_runtime_its_settings_name(tiny_nli_model, tmp_path):
    from fever_core.common.settings import Settings
    from fever_core.verification.claim_verifier import ClaimVerifier

    settings = Settings(
        data_dir=tmp_path,
        verifier_model=str(tiny_nli_model),
        joint_verifier_model="",
        verifier_runtime="onnx",
        device="cpu",
    )
    verification = ClaimVerifier.load(settings)
    assert verification.verifier.runtime == "onnx"
    assert (tmp_path / "verifiers" / export_name(tiny_nli_model) / ONNX_FILE).is_file()
