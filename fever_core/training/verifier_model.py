"""The model a verifier run trains, and the model it saves: a base with a new 3-way head or a verifier to continue,
whole or wrapped in a LoRA adapter (a lower-rank adapter widened, its trained ranks kept); saved in fp16 with its
labels, tokenizer and checksums."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from fever_core.common.types import LABELS
from fever_core.training.verifier_config import TrainConfig
from fever_core.verification.base_models import BASES, base_model_path
from fever_core.verification.classifiers import adapter_base, load_sequence_classifier
from fever_core.verification.model_integrity import check_model_folder, model_files, record_checksums

if TYPE_CHECKING:
    import torch
    from peft import LoraConfig, PeftModel
    from transformers import PreTrainedTokenizerBase

log = logging.getLogger(__name__)

ID2LABEL = dict(enumerate(LABELS))
LABEL2ID = {label: i for i, label in ID2LABEL.items()}
LORA_TARGETS = ("query", "key", "value", "q", "k", "v", "o", "dense")
"""Linear layers a LoRA adapter wraps (attention and feed-forward, BERT and MPNet names); the head is trained whole."""


def build_model(config: TrainConfig) -> tuple[torch.nn.Module, PreTrainedTokenizerBase]:
    """The model to train and its tokenizer: a verifier to continue, or a base with a new 3-way head,
    wrapped in a LoRA adapter when ``config.lora_rank`` > 0."""
    from transformers import AutoTokenizer

    if config.init in BASES:
        init = base_model_path(config.init)
    else:
        init = config.init
        check_model_folder(init)  # a damaged verifier is not trained further
    tokenizer = AutoTokenizer.from_pretrained(init)
    if adapter_base(init) is not None:
        from peft import PeftModel

        adapter = load_sequence_classifier(init, trainable=True)
        if not isinstance(adapter, PeftModel):
            raise TypeError(f"{init} has an adapter's files but did not load as an adapter.")
        if config.lora_rank <= _lora_config(adapter).r:
            return adapter, tokenizer
        return _widened(adapter, config), tokenizer
    model = load_sequence_classifier(init, num_labels=len(LABELS), id2label=ID2LABEL, label2id=LABEL2ID)
    if config.lora_rank <= 0:
        return model, tokenizer
    return _with_lora(model, config.lora_rank, config.lora_alpha or 2 * config.lora_rank), tokenizer


def _lora_config(adapter: PeftModel) -> LoraConfig:
    """The LoRA configuration of ``adapter`` (the only kind of adapter a verifier is)."""
    from peft import LoraConfig

    lora = adapter.peft_config["default"]
    if not isinstance(lora, LoraConfig):
        raise TypeError(f"The verifier's adapter is {type(lora).__name__}, not LoRA: only LoRA adapters are trained.")
    return lora


def _with_lora(model: torch.nn.Module, rank: int, alpha: float) -> PeftModel:
    """``model`` wrapped in a new rank-``rank`` LoRA adapter on its linear layers (:data:`LORA_TARGETS`, not the
    head) and a trainable head."""
    import torch
    from peft import LoraConfig, TaskType, get_peft_model

    names = {
        name.rsplit(".", 1)[-1]
        for name, module in model.named_modules()
        if isinstance(module, torch.nn.Linear) and not name.startswith("classifier")
    }
    lora = LoraConfig(
        task_type=TaskType.SEQ_CLS,
        r=rank,
        lora_alpha=alpha,  # type: ignore[arg-type]  # peft says int but divides it by r: a widened adapter's is fractional
        lora_dropout=0.1,
        target_modules=sorted(names & set(LORA_TARGETS)),
    )
    return get_peft_model(model, lora)


def _widened(adapter: PeftModel, config: TrainConfig) -> PeftModel:
    """A rank-``config.lora_rank`` adapter that starts as ``adapter`` (a trained, lower-rank one) reads: its first
    ranks hold the trained adapter's A and B (B rescaled to the new ``alpha / rank``), the new ranks start as LoRA
    starts (A random, B zero, so they add nothing yet), and the head is the trained one. More capacity, same
    answers at step 0."""
    import torch

    old = _lora_config(adapter)
    old_scale = old.lora_alpha / old.r
    alpha = config.lora_alpha or old_scale * config.lora_rank  # keeps the scale the trained adapter had
    trained = {
        name: p.detach().clone()
        for name, p in adapter.named_parameters()
        if "lora_" in name or "modules_to_save" in name
    }
    base = adapter.unload()  # the frozen base: the trained deltas taken out, not merged
    wide = _with_lora(base, config.lora_rank, alpha)
    new_scale = alpha / config.lora_rank
    with torch.no_grad():
        for name, param in wide.named_parameters():
            if name not in trained:
                continue
            if ".lora_A." in name:
                param[: old.r] = trained[name]
            elif ".lora_B." in name:
                param[:, : old.r] = trained[name] * (old_scale / new_scale)
            else:
                param.copy_(trained[name])
    log.info("adapter widened from rank %d to %d", old.r, config.lora_rank)
    return wide


def save_trained_model(
    model: torch.nn.Module, tokenizer: PreTrainedTokenizerBase, out: Path, config: TrainConfig
) -> None:
    """fp16 weights (a whole model, or an adapter with its head), the labels' ``config.json``, the tokenizer, and the
    checksums of every file of them (:func:`~fever_core.verification.model_integrity.record_checksums`)."""
    import torch
    from peft import PeftModel
    from transformers import PreTrainedModel

    out.mkdir(parents=True, exist_ok=True)
    model = model.to("cpu").eval().to(torch.float16)
    if isinstance(model, PeftModel):
        model.config.id2label = ID2LABEL
        model.config.label2id = LABEL2ID
        # the adapter names its base by its short name, so the folder loads wherever the base is assembled
        _lora_config(model).base_model_name_or_path = (
            config.init if config.init in BASES else adapter_base(config.init) or config.init
        )
        model.save_pretrained(str(out))
        model.config.save_pretrained(out)  # the classification config (labels, NEI rule) beside the adapter
    elif isinstance(model, PreTrainedModel):
        model.config.id2label = ID2LABEL
        model.config.label2id = LABEL2ID
        model.save_pretrained(out)
    else:
        raise TypeError(f"A verifier is a transformers model or a peft adapter, not a {type(model).__name__}.")
    tokenizer.save_pretrained(out)
    record_checksums(out, model_files(out), fresh=True)
