"""The verifier exported to ONNX, for ONNX Runtime on the CPU: made once per machine from the model's folder, kept in
the data folder (``<data>/verifiers/``, or the user's cache where that can't be written) and checked at each load.

An export is the model's classifier as a graph from the tokenizer's ids and mask to its logits, an adapter merged into
its base first, with the folder's tokenizer and ``config.json`` (its labels) beside it. Its folder is named by what it
is made from (:func:`export_name`: the model folder's content, the base's, :data:`EXPORT_VERSION` and the precision),
so a retrained or replaced model is exported again and an old export is never read for a new model.

Precisions (:data:`ONNX_PRECISIONS`):

- ``fp32``: the model's own arithmetic (probabilities within 1e-5 of PyTorch's fp32); about 440 MB for MPNet-base.
- ``int8``: every weight matrix stored in 8 bits by blocks of :data:`INT8_BLOCK_SIZE` inputs, each block with its
  own scale (ONNX Runtime's ``MatMulNBits``), the activations kept at full precision. The usual dynamic int8
  quantisation (one scale per activation tensor) changed 7.7 % of the MPNet verifier's labels on FEVER-Symmetric;
  blocks keep the outliers of one block from flattening the rest (``benchmarks/verifier/onnx_runtime.py``).

Making an export loads the model in PyTorch and traces it: about a minute for MPNet-base on 2 cores, logged.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

from fever_core.common.checksums import model_checksum
from fever_core.common.onnx_exports import ONNX_FILE, export_caches, export_key, intact, write_meta, written_into_place
from fever_core.verification.base_models import MPNET, MPNET_SHA256
from fever_core.verification.classifiers import adapter_base, load_sequence_classifier

log = logging.getLogger(__name__)

ONNX_PRECISIONS = ("fp32", "int8")
EXPORT_VERSION = "1"
"""Part of an export's name: raised when the export changes, so that old exports are not used."""
EXPORT_META = "export.json"
"""An export's description: the model it was made from, its inputs, its precision and its graph's checksum."""
INT8_BLOCK_SIZE = 32
"""Inputs of a weight matrix that share one scale in an ``int8`` export."""


def verifier_cache_dir(data_dir: Path) -> Path:
    """Where the ONNX exports of a data folder's verifiers live: ``<data_dir>/verifiers``."""
    return Path(data_dir) / "verifiers"


def export_name(model_folder: str | Path, precision: str) -> str:
    """The folder name of a model's export: its name, then a hash of its folder's content, of its base's where it is
    an adapter (MPNet's pinned weights; a base named otherwise by its name), of :data:`EXPORT_VERSION` and of
    ``precision``."""
    base = adapter_base(model_folder)
    parts = [model_checksum(Path(model_folder)), MPNET_SHA256 if base == MPNET else str(base), EXPORT_VERSION, precision]
    return export_key(Path(model_folder).resolve().name, parts)


def verifier_export(model_folder: str | Path, cache_dir: Path, precision: str = "fp32") -> Path:
    """The checked ONNX export of the verifier in ``model_folder`` at ``precision`` (:data:`ONNX_PRECISIONS`),
    found in ``cache_dir`` (or the user's cache, :func:`~fever_core.common.onnx_exports.export_caches`), else made
    there: ``int8`` from the ``fp32`` export, which is made first when missing.

    Raises:
        ValueError: ``precision`` is not one of :data:`ONNX_PRECISIONS`.
        OSError: the export can't be written (a full disk).
    """
    if precision not in ONNX_PRECISIONS:
        raise ValueError(f"Unknown verifier precision {precision!r}: use one of {', '.join(ONNX_PRECISIONS)}.")
    caches = export_caches(Path(cache_dir))
    name = export_name(model_folder, precision)
    for cache in caches:
        if intact(cache / name, EXPORT_META):
            return cache / name
    folder = caches[-1] / name
    if precision == "fp32":
        log.info("Exporting the verifier %s to ONNX in %s (once per model, about a minute).", model_folder, folder)
        return _export_fp32(model_folder, folder)
    source = verifier_export(model_folder, cache_dir, "fp32")
    log.info("Storing the verifier %s's weights in 8 bits in %s (once per model).", model_folder, folder)
    return _quantised(source, folder)


def _export_fp32(model_folder: str | Path, folder: Path) -> Path:
    import torch
    from transformers import AutoTokenizer

    model = load_sequence_classifier(model_folder).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(model_folder))
    example = tokenizer(["A premise to trace.", "Another."], ["A claim.", "One more claim."], padding=True,
                        return_tensors="pt")
    inputs = [name for name in ("input_ids", "attention_mask", "token_type_ids") if name in example]

    class Logits(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.classifier = model

        def forward(self, *tensors):
            return self.classifier(**dict(zip(inputs, tensors))).logits

    with written_into_place(folder) as tmp:
        with torch.no_grad():
            torch.onnx.export(
                Logits(), tuple(example[name] for name in inputs), str(tmp / ONNX_FILE), input_names=inputs,
                output_names=["logits"], opset_version=17, dynamo=False,
                dynamic_axes={**{name: {0: "pairs", 1: "tokens"} for name in inputs}, "logits": {0: "pairs"}},
            )
        tokenizer.save_pretrained(str(tmp))
        model.config.save_pretrained(str(tmp))
        write_meta(tmp, EXPORT_META, {"model": str(model_folder), "inputs": inputs, "precision": "fp32"})
    return folder


def _quantised(source: Path, folder: Path) -> Path:
    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    with written_into_place(folder) as tmp:
        shutil.copytree(source, tmp, ignore=shutil.ignore_patterns(ONNX_FILE), dirs_exist_ok=True)
        quantiser = MatMulNBitsQuantizer(onnx.load(source / ONNX_FILE), bits=8, block_size=INT8_BLOCK_SIZE,
                                         is_symmetric=True, op_types_to_quantize=("MatMul",))
        quantiser.process()
        quantiser.model.save_model_to_file(str(tmp / ONNX_FILE), use_external_data_format=False)
        write_meta(tmp, EXPORT_META, {**json.loads((source / EXPORT_META).read_text()), "precision": "int8"})
    return folder
