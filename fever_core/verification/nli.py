"""A Hugging Face sequence-classification NLI model, used as the claim verifier.

Any model works whose ``config.id2label`` names its classes as FEVER labels (SUPPORTS / REFUTES /
NOT ENOUGH INFO) or NLI labels (entailment / contradiction / neutral); probabilities always come
back in :data:`LABELS` order.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fever_core.common.device import cpu_supports_bf16, select_device
from fever_core.common.model_paths import missing_local_model
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS
from fever_core.verification.base_models import BaseModelError, base_model_path
from fever_core.verification.model_integrity import ModelDamaged, check_model_folder, finite_probabilities
from fever_core.verification.packed_weights import is_packed, load_packed_state

if TYPE_CHECKING:
    import torch

_LABEL_ALIASES = {
    "supports": SUPPORTS,
    "support": SUPPORTS,
    "entailment": SUPPORTS,
    "entails": SUPPORTS,
    "refutes": REFUTES,
    "refute": REFUTES,
    "contradiction": REFUTES,
    "contradicts": REFUTES,
    "not enough info": NEI,
    "nei": NEI,
    "neutral": NEI,
}
ADAPTER_CONFIG = "adapter_config.json"
"""A verifier folder holding this file is a LoRA adapter (``peft``) on a base named inside it
(:mod:`fever_core.verification.base_models`); it also holds ``config.json`` (labels, NEI rule) and the tokenizer."""
CPU_BATCH_SIZE = 32
"""Pairs a model reads at once on the CPU, where larger batches are no faster (it is compute-bound)."""
CUDA_BATCH_SIZE = 128
"""Pairs a model reads at once on a CUDA device. On an H200 the MiniLM verifier read 1,800 pairs (shortest first, as
many claims are read) in 2.1 s in batches of 32, 0.95 s of 128 and 0.42 s of 512
(``benchmarks/gpu/reports/h200-models.json``); 128 keeps MPNet-base's activations within a small card's memory."""
BF16_MIN_PARAMETERS = 50_000_000
"""Models at least this large run under bfloat16 autocast on CPUs with native bf16 (MPNet-base: about 2x
faster); smaller ones (MiniLM) stay in fp32, where they are fast already and their calibration was made."""


def adapter_base(path: str | Path) -> str | None:
    """The base name or path an adapter folder was trained on, or ``None`` when ``path`` is no adapter."""
    config = Path(path) / ADAPTER_CONFIG
    if not config.is_file():
        return None
    return str(json.loads(config.read_text(encoding="utf-8"))["base_model_name_or_path"])


def fever_label(model_label: str) -> str:
    """Map a model's class name to a FEVER label; raises ``ValueError`` for unknown names."""
    key = model_label.strip().lower().replace("_", " ")
    if key not in _LABEL_ALIASES:
        raise ValueError(
            f"Can't map the model label {model_label!r} to SUPPORTS/REFUTES/NOT ENOUGH INFO. "
            "Set config.id2label to entailment/contradiction/neutral or the FEVER label names."
        )
    return _LABEL_ALIASES[key]


class NliModel:
    """Claim verifier: (premise, hypothesis) pairs in, probabilities over :data:`LABELS` out.

    On CUDA the model runs in fp16, :data:`CUDA_BATCH_SIZE` pairs at once; on the CPU in fp32, or under bfloat16
    autocast for models of at least :data:`BF16_MIN_PARAMETERS` on CPUs with native bf16 (``bf16`` says which),
    :data:`CPU_BATCH_SIZE` at once.
    """

    def __init__(self, model: torch.nn.Module, tokenizer, device: str, max_length: int = 256, name: str = "model"):
        self.name = name
        """The folder or hub id it was loaded from, named when its outputs are refused."""
        self.model = model
        self.tokenizer = tokenizer
        self.device = device
        self.max_length = max_length
        self.batch_size = CUDA_BATCH_SIZE if device.startswith("cuda") else CPU_BATCH_SIZE
        """Pairs read at once unless :meth:`predict` is told otherwise."""
        large = sum(p.numel() for p in model.parameters()) >= BF16_MIN_PARAMETERS
        self.bf16 = device == "cpu" and large and cpu_supports_bf16()
        id2label = model.config.id2label
        mapped = [fever_label(id2label[i]) for i in range(len(id2label))]
        if sorted(mapped) != sorted(LABELS):
            raise ValueError(f"The model's labels {list(id2label.values())} do not cover all three FEVER labels.")
        # column j of the model's output holds LABELS[order[j]]
        self._columns = [mapped.index(label) for label in LABELS]

    @classmethod
    def load(cls, name_or_path: str, device: str = "auto", max_length: int = 256) -> NliModel:
        """Load from a local directory or a hub id (works offline when the hub id is cached). A LoRA adapter
        folder (:data:`ADAPTER_CONFIG`) is loaded onto its base and merged, so it runs as fast as a plain model.

        Raises:
            ModelDamaged: a local folder's files differ from their checksums or can't be read
                (:func:`check_model_folder`), or they can't be loaded as a verifier (the message names what failed,
                e.g. a damaged file); weights that can't be read (a truncated ``.safetensors``) wherever they are.
            BaseModelError: an adapter's base can't be found or assembled.
            FileNotFoundError: a local folder without ``config.json`` whose checksums don't list one (a wrong path).
            RuntimeError: a hub id that is not in the Hugging Face cache while the hub can't be reached.
        """
        from safetensors import SafetensorError
        from transformers import AutoTokenizer

        check_model_folder(name_or_path)  # first: a folder that lost a config.json its checksums list is damaged
        local = missing_local_model(name_or_path)
        if local is not None:
            raise FileNotFoundError(
                f"No verifier model at {local} (no config.json). Train one with "
                "`python -m fever_core train verifier ...` or set FEVER_VERIFIER_MODEL (FEVER_JOINT_VERIFIER_MODEL for the "
                "joint verifier) to a model path or hub id."
            )
        device = select_device(device)
        folder = Path(name_or_path).expanduser()
        try:
            tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            model = load_sequence_classifier(name_or_path).to(device).eval()
            model = model.half() if device.startswith("cuda") else model.float()
            return cls(model, tokenizer, device, max_length, name_or_path)
        except BaseModelError:
            raise
        except SafetensorError as exc:
            raise ModelDamaged(
                name_or_path,
                f"The weights of the model {name_or_path} (its .safetensors file) can't be read ({exc}): the file is "
                "truncated or damaged. Copy or train the model again, or choose another one (FEVER_VERIFIER_MODEL, "
                "`python -m fever_core models use`).",
            ) from exc
        except Exception as exc:
            if folder.is_dir():  # its files, not the network: a damaged folder, refused like one
                raise ModelDamaged(
                    name_or_path,
                    f"The model folder {folder} can't be loaded as a verifier ({exc.__class__.__name__}: {exc}). "
                    "Restore the folder from a copy, or make the model again.",
                ) from exc
            if isinstance(exc, OSError):
                raise RuntimeError(  # noqa: TRY004 - not a wrong type given: a model that can't be reached
                    f"Can't load the verifier {name_or_path!r}: it is not a local model directory and is not "
                    f"in the Hugging Face cache, and the hub can't be reached ({exc.__class__.__name__})."
                ) from exc
            raise

    def predict(self, pairs: list[tuple[str, str]], batch_size: int | None = None) -> np.ndarray:
        """Probabilities for each (premise, hypothesis) pair, read ``batch_size`` at once (default :attr:`batch_size`).

        Returns:
            float32 array of shape ``(len(pairs), 3)`` in :data:`LABELS` order; rows sum to 1.

        Raises:
            ModelDamaged: a probability is not a finite number (damaged weights).
        """
        import torch

        batch_size = batch_size or self.batch_size
        out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
        autocast = torch.autocast("cpu", dtype=torch.bfloat16) if self.bf16 else contextlib.nullcontext()
        with torch.inference_mode(), autocast:
            for start in range(0, len(pairs), batch_size):
                batch = pairs[start:start + batch_size]
                enc = self.tokenizer(
                    [p for p, _ in batch],
                    [h for _, h in batch],
                    truncation=True,
                    max_length=self.max_length,
                    padding=True,
                    return_tensors="pt",
                ).to(self.device)
                logits = self.model(**enc).logits.float()
                probs = torch.softmax(logits, dim=-1).cpu().numpy()
                out[start:start + len(batch)] = probs[:, self._columns]
        return finite_probabilities(out, self.name)


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
    return model if trainable else model.merge_and_unload()


def load_sequence_classifier(name_or_path: str | Path, trainable: bool = False, **config_overrides) -> torch.nn.Module:
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
        return AutoModelForSequenceClassification.from_pretrained(
            str(name_or_path), dtype=torch.float32, **config_overrides).float()
    config = AutoConfig.from_pretrained(str(name_or_path), **config_overrides)
    model = AutoModelForSequenceClassification.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(load_packed_state(name_or_path), strict=False)
    if missing or unexpected:
        raise ValueError(f"the packed weights of {name_or_path} do not fit its config.json: "
                         f"missing {sorted(missing)[:5]}, left over {sorted(unexpected)[:5]}")
    return model
