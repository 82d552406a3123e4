"""The verifier exported to ONNX, for ONNX Runtime on the CPU: made once per machine from the model's folder, kept in
the data folder (``<data>/verifiers/``, or the user's cache where that can't be written) and checked at each load.

An export is the model's classifier as a graph from the tokenizer's ids and mask to its logits, an adapter merged into
its base first, with the folder's tokenizer and ``config.json`` (its labels) beside it. Its folder is named by what it
is made from (:func:`export_name`: the model folder's content, the base's and :data:`EXPORT_VERSION`),
so a retrained or replaced model is exported again and an old export is never read for a new model.

The graph keeps the model's fp32 arithmetic: its probabilities are PyTorch fp32's within 1e-5 (about 440 MB for
MPNet-base). No int8 form is made: ONNX Runtime's dynamic int8 (one scale per activation tensor) is 3-4x as fast but
changed 6-8 % of the MPNet verifier's labels on FEVER-Symmetric, spread over every layer's feed-forward block, and its
8-bit weights in blocks keep the labels but are no faster (``experiments/onnx_verifier/README.md``).

Making an export loads the model in PyTorch and traces it: about a minute for MPNet-base on 2 cores, logged.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fever_core.common.checksums import model_checksum
from fever_core.common.onnx_exports import ONNX_FILE, export_caches, export_key, intact, write_meta, written_into_place
from fever_core.verification.base_models import MPNET, MPNET_SHA256
from fever_core.verification.classifiers import adapter_base, load_sequence_classifier

log = logging.getLogger(__name__)

EXPORT_VERSION = "1"
"""Part of an export's name: raised when the export changes, so that old exports are not used."""
EXPORT_META = "export.json"
"""An export's description: the model it was made from, its inputs and its graph's checksum."""


def verifier_cache_dir(data_dir: Path) -> Path:
    """Where the ONNX exports of a data folder's verifiers live: ``<data_dir>/verifiers``."""
    return Path(data_dir) / "verifiers"


def export_name(model_folder: str | Path) -> str:
    """The folder name of a model's export: its name, then a hash of its folder's content, of its base's where it is
    an adapter (MPNet's pinned weights; a base named otherwise by its name) and of :data:`EXPORT_VERSION`."""
    base = adapter_base(model_folder)
    parts = [model_checksum(Path(model_folder)), MPNET_SHA256 if base == MPNET else str(base), EXPORT_VERSION]
    return export_key(Path(model_folder).resolve().name, parts)


def verifier_export(model_folder: str | Path, cache_dir: Path) -> Path:
    """The checked ONNX export of the verifier in ``model_folder``, found in ``cache_dir`` (or the user's cache,
    :func:`~fever_core.common.onnx_exports.export_caches`), else made there.

    Raises:
        OSError: the export can't be written (a full disk).
    """
    caches = export_caches(Path(cache_dir))
    name = export_name(model_folder)
    for cache in caches:
        if intact(cache / name, EXPORT_META):
            return cache / name
    folder = caches[-1] / name
    log.info("Exporting the verifier %s to ONNX in %s (once per model, about a minute).", model_folder, folder)
    return _export(model_folder, folder)


def _export(model_folder: str | Path, folder: Path) -> Path:
    import torch
    from transformers import AutoTokenizer

    model = load_sequence_classifier(model_folder).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(model_folder))
    example = tokenizer(
        ["A premise to trace.", "Another."], ["A claim.", "One more claim."], padding=True, return_tensors="pt"
    )
    inputs = [name for name in ("input_ids", "attention_mask", "token_type_ids") if name in example]

    class Logits(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.classifier = model

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            logits: torch.Tensor = self.classifier(**dict(zip(inputs, tensors))).logits
            return logits

    with written_into_place(folder) as tmp:
        with torch.no_grad():
            torch.onnx.export(
                Logits(),
                tuple(example[name] for name in inputs),
                str(tmp / ONNX_FILE),
                input_names=inputs,
                output_names=["logits"],
                opset_version=17,
                dynamo=False,
                dynamic_axes={**{name: {0: "pairs", 1: "tokens"} for name in inputs}, "logits": {0: "pairs"}},
            )
        tokenizer.save_pretrained(str(tmp))
        config: Any = model.config  # a transformers model's, which torch's Module does not declare
        config.save_pretrained(str(tmp))
        write_meta(tmp, EXPORT_META, {"model": str(model_folder), "inputs": inputs})
    return folder
