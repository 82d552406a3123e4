"""A sequence-classification model as PyTorch loads it from a folder of any of the verifier's three kinds: a LoRA
adapter on a named base (:data:`ADAPTER_CONFIG`), packed weights (:mod:`~fever_core.verification.packed_weights`) or
plain ones. :mod:`~fever_core.verification.nli` runs it; :mod:`~fever_core.verification.onnx_export` exports it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fever_core.verification.base_models import base_model_path
from fever_core.verification.packed_weights import is_packed, load_packed_state

if TYPE_CHECKING:
    import torch

ADAPTER_CONFIG = "adapter_config.json"
"""A verifier folder holding this file is a LoRA adapter (``peft``) on a base named inside it
(:mod:`fever_core.verification.base_models`); it also holds ``config.json`` (labels, NEI rule) and the tokenizer."""


def adapter_base(path: str | Path) -> str | None:
    """The base name or path an adapter folder was trained on, or ``None`` when ``path`` is no adapter."""
    config = Path(path) / ADAPTER_CONFIG
    if not config.is_file():
        return None
    return str(json.loads(config.read_text(encoding="utf-8"))["base_model_name_or_path"])


def load_adapter_model(path: str | Path, trainable: bool = False) -> torch.nn.Module:
    """A sequence-classification model from an adapter folder: its base (assembled if need be), the folder's
    ``config.json`` (labels, head size), then the adapter and head weights. Merged into a plain model unless
    ``trainable`` (then a ``peft`` model whose adapter trains further)."""
    from peft import PeftModel
    from transformers import AutoConfig, AutoModelForSequenceClassification
    from transformers.utils import logging as hf_logging

    base = base_model_path(adapter_base(path) or "")
    config = AutoConfig.from_pretrained(path)
    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()  # the head is "newly initialised" until the adapter's copy is loaded
    try:
        model = AutoModelForSequenceClassification.from_pretrained(base, config=config)
    finally:
        hf_logging.set_verbosity(verbosity)
    model = PeftModel.from_pretrained(model, str(path), is_trainable=trainable)
    loaded: torch.nn.Module = model if trainable else model.merge_and_unload()
    return loaded


def load_sequence_classifier(
    name_or_path: str | Path, trainable: bool = False, **config_overrides: Any
) -> torch.nn.Module:
    """A sequence-classification model in float32 on the CPU, from a hub id or a folder of any of the three kinds: a
    LoRA adapter (:func:`load_adapter_model`, merged unless ``trainable``), packed weights
    (:mod:`~fever_core.verification.packed_weights`) or plain ones. ``config_overrides`` (labels, say) are applied
    to the ``config.json`` of a plain or packed model.

    Raises:
        ValueError: packed weights that do not fit the folder's ``config.json`` (a tensor missing or left over).
    """
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification

    if adapter_base(name_or_path) is not None:
        return load_adapter_model(name_or_path, trainable=trainable)
    if not is_packed(name_or_path):
        plain: torch.nn.Module = AutoModelForSequenceClassification.from_pretrained(
            str(name_or_path), dtype=torch.float32, **config_overrides
        ).float()
        return plain
    config = AutoConfig.from_pretrained(str(name_or_path), **config_overrides)
    model: torch.nn.Module = AutoModelForSequenceClassification.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(load_packed_state(name_or_path), strict=False)
    if missing or unexpected:
        raise ValueError(
            f"the packed weights of {name_or_path} do not fit its config.json: "
            f"missing {sorted(missing)[:5]}, left over {sorted(unexpected)[:5]}"
        )
    return model
