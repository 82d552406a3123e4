import numpy as np
import pytest

from fever_core.common.device import select_device
from fever_core.common.types import LABELS
from fever_core.verification.nli import NliModel, fever_label


def test_label_names_map_to_fever_labels():
    assert [fever_label(n) for n in ["ENTAILMENT", "contradiction", "Neutral"]] == list(LABELS[:1]) + [
        "REFUTES",
        "NOT ENOUGH INFO",
    ]
    assert fever_label("NOT_ENOUGH_INFO") == "NOT ENOUGH INFO"
    with pytest.raises(ValueError, match="id2label"):
        fever_label("LABEL_0")


def test_probabilities_come_back_in_fever_order(tiny_nli_model):
    model = NliModel.load(str(tiny_nli_model), "cpu")
    pairs = [("Paris is in France.", "Paris is in Europe."), ("x " * 600, "a very long premise is truncated")]
    probs = model.predict(pairs, batch_size=1)
    assert probs.shape == (2, 3)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    # the tiny model's columns are entailment/neutral/contradiction: check the reordering
    import torch

    enc = model.tokenizer([pairs[0][0]], [pairs[0][1]], return_tensors="pt")
    with torch.inference_mode():
        raw = torch.softmax(model.model(**enc).logits, -1)[0].numpy()
    np.testing.assert_allclose(probs[0], [raw[0], raw[2], raw[1]], rtol=1e-4)


def test_a_model_reads_larger_batches_on_a_gpu_and_the_batch_size_does_not_change_its_answers(tiny_nli_model):
    from fever_core.verification.nli import CPU_BATCH_SIZE, CUDA_BATCH_SIZE

    model = NliModel.load(str(tiny_nli_model), "cpu")
    assert model.batch_size == CPU_BATCH_SIZE < CUDA_BATCH_SIZE
    assert NliModel(model.model, model.tokenizer, "cuda:0").batch_size == CUDA_BATCH_SIZE  # not moved: chosen only
    pairs = [(f"Premise number {i} " * (i % 7 + 1), f"Claim {i}.") for i in range(70)]
    np.testing.assert_allclose(model.predict(pairs), model.predict(pairs, batch_size=CUDA_BATCH_SIZE), atol=1e-5)


def test_missing_model_and_absent_gpu_are_explained(tmp_path):
    with pytest.raises(FileNotFoundError, match="train verifier"):
        NliModel.load(str(tmp_path / "no-model"))
    assert select_device("cpu") == "cpu"
    import torch

    if not torch.cuda.is_available():
        assert select_device("auto") == "cpu"
        with pytest.raises(RuntimeError, match="no CUDA GPU"):
            select_device("cuda")


@pytest.mark.skipif("not __import__('torch').cuda.is_available()", reason="needs a CUDA GPU")
def test_cuda_runs_in_half_precision(tiny_nli_model):
    import torch

    model = NliModel.load(str(tiny_nli_model), "cuda")
    assert next(model.model.parameters()).dtype == torch.float16 and model.device == "cuda"
    assert model.predict([("a", "b")]).shape == (1, 3)
