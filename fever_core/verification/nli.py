"""A Hugging Face sequence-classification NLI model, used as the claim verifier.

Any model works whose ``config.id2label`` names its classes as FEVER labels (SUPPORTS / REFUTES /
NOT ENOUGH INFO) or NLI labels (entailment / contradiction / neutral); probabilities always come
back in :data:`LABELS` order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fever_core.device import select_device
from fever_core.model_paths import missing_local_model
from fever_core.types import LABELS, NEI, REFUTES, SUPPORTS

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

    On CUDA the model runs in fp16; on the CPU in fp32.
    """

    def __init__(self, model: torch.nn.Module, tokenizer, device: str, max_length: int = 256):
        self.model = model
        self.tokenizer = tokenizer
        self.device = device
        self.max_length = max_length
        id2label = model.config.id2label
        mapped = [fever_label(id2label[i]) for i in range(len(id2label))]
        if sorted(mapped) != sorted(LABELS):
            raise ValueError(f"The model's labels {list(id2label.values())} do not cover all three FEVER labels.")
        # column j of the model's output holds LABELS[order[j]]
        self._columns = [mapped.index(label) for label in LABELS]

    @classmethod
    def load(cls, name_or_path: str, device: str = "auto", max_length: int = 256) -> NliModel:
        """Load from a local directory or a hub id (works offline when the hub id is cached)."""
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        local = missing_local_model(name_or_path)
        if local is not None:
            raise FileNotFoundError(
                f"No verifier model at {local} (no config.json). Train one with "
                "`python -m fever_core train verifier ...` or set FEVER_VERIFIER_MODEL (FEVER_JOINT_VERIFIER_MODEL for the "
                "joint verifier) to a model path or hub id."
            )
        device = select_device(device)
        try:
            tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            model = AutoModelForSequenceClassification.from_pretrained(name_or_path)
        except OSError as exc:
            raise RuntimeError(
                f"Can't load the verifier {name_or_path!r}: it is not a local model directory and is not "
                f"in the Hugging Face cache, and the hub can't be reached ({exc.__class__.__name__})."
            ) from exc
        model = model.to(device).eval()
        model = model.half() if device.startswith("cuda") else model.float()
        return cls(model, tokenizer, device, max_length)

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        """Probabilities for each (premise, hypothesis) pair.

        Returns:
            float32 array of shape ``(len(pairs), 3)`` in :data:`LABELS` order; rows sum to 1.
        """
        import torch

        out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
        with torch.inference_mode():
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
        return out
