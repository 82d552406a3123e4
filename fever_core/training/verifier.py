"""Fine-tuning the 3-way claim verifier (SUPPORTS / REFUTES / NOT ENOUGH INFO) as a cross-encoder: the run.

A plain PyTorch loop: pre-tokenised pairs in length-bucketed batches, AdamW with one linear warmup/decay schedule
planned over all epochs, checkpoints every N steps so an interrupted run resumes where it stopped
(:mod:`~fever_core.training.verifier_checkpoints`), and at the end an fp16 safetensors model with its tokenizer
(:mod:`~fever_core.training.verifier_model`), an NEI decision rule tuned on a held-out dev split of the training data,
and per-source scores (:mod:`~fever_core.training.verifier_scores`). What a run is given and gives back:
:mod:`~fever_core.training.verifier_config`.

Two ways to train (``lora_rank``): the whole model (the MiniLM verifiers), or a LoRA adapter with ``peft`` on
every linear layer of a frozen base plus a full classification head (the MPNet verifier: its 438 MB base
is installed from packages, so only the ~7 MB adapter ships). On CPUs with native bfloat16 the forward
pass of a model of at least ``BF16_MIN_PARAMETERS`` runs under bf16 autocast (about 2x faster for MPNet; the
MiniLM verifiers train in fp32 as they always did); on a CUDA GPU training runs there, under fp16 autocast.

Run ``python -m fever_core train verifier --data FILE... --out DIR`` (:mod:`fever_core.cli.train`).
"""

from __future__ import annotations

import logging
import math
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.device import cpu_supports_bf16, select_device
from fever_core.common.formats import DataFileError, Pair, file_kind, load_claims, load_pairs
from fever_core.training.pairs import (
    DataSpec,
    build_training_pairs,
    fever_claims_to_pairs,
    fever_pages_lookup,
    label_ids,
    split_dev,
)
from fever_core.training.verifier_checkpoints import checkpoint_path, remove_checkpoints, resume_from, save_checkpoint
from fever_core.training.verifier_config import TrainConfig, TrainResult
from fever_core.training.verifier_model import build_model, save_trained_model
from fever_core.training.verifier_scores import score_trained_model, write_training_report
from fever_core.verification.nli import BF16_MIN_PARAMETERS

if TYPE_CHECKING:
    import torch
    from transformers import PreTrainedTokenizerBase

log = logging.getLogger(__name__)


def _seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _tokenize(tokenizer: PreTrainedTokenizerBase, pairs: Sequence[Pair], max_length: int) -> list[dict[str, list[int]]]:
    enc = tokenizer([p.premise for p in pairs], [p.hypothesis for p in pairs], truncation=True, max_length=max_length)
    keys = [k for k in ("input_ids", "token_type_ids", "attention_mask") if k in enc]
    return [{k: enc[k][i] for k in keys} for i in range(len(pairs))]


def plan_batches(lengths: Sequence[int], batch_size: int, seed: int, epoch: int) -> list[list[int]]:
    """One epoch's batches: shuffled, then sorted by length within chunks of 50 batches, batch order shuffled.

    Similar lengths share a batch, so padding (and CPU time) drops, while each batch stays a random
    draw. Deterministic in ``(seed, epoch)``; always ``ceil(len(lengths) / batch_size)`` batches.
    """
    rng = random.Random(seed * 1000 + epoch)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    chunk = batch_size * 50
    batches: list[list[int]] = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk], key=lambda i: lengths[i])
        batches.extend(part[j : j + batch_size] for j in range(0, len(part), batch_size))
    rng.shuffle(batches)
    return batches


def _collate(features: list[dict[str, list[int]]], labels: np.ndarray, pad_id: int) -> dict[str, torch.Tensor]:
    import torch

    width = max(len(f["input_ids"]) for f in features)
    batch: dict[str, torch.Tensor] = {}
    for key in features[0]:
        fill = pad_id if key == "input_ids" else 0
        batch[key] = torch.tensor([f[key] + [fill] * (width - len(f[key])) for f in features], dtype=torch.long)
    batch["labels"] = torch.tensor(labels, dtype=torch.long)
    return batch


def load_eval_sets(files: Sequence[str], corpus: Path | None) -> dict[str, list[Pair]]:
    """Evaluation pairs grouped by source. FEVER claims files give S/R pairs from gold evidence (oracle)."""
    out: dict[str, list[Pair]] = defaultdict(list)
    lookup = None
    for name in files:
        path = Path(name)
        kind = file_kind(path)
        if kind == "pairs":
            pairs = load_pairs(path)
        elif kind == "fever-claims":
            if corpus is None:
                raise DataFileError(f"{path} holds FEVER claims: give the FEVER pages file with --corpus to score it.")
            lookup = lookup or fever_pages_lookup(corpus)
            pairs = fever_claims_to_pairs(load_claims(path), lookup, source=f"{path.stem}-oracle")
        else:
            raise DataFileError(f"{path} holds claims without evidence; it can't be an evaluation file.")
        for pair in pairs:
            out[pair.source].append(pair)
    return dict(out)


def pick_threads(max_threads: int, current: int) -> int:
    """``max_threads`` when the cores are free of other work (1-minute load average), else 1."""
    try:
        others = os.getloadavg()[0] - current
    except OSError:
        return max_threads
    return max_threads if others < 0.7 else 1


def _count(pairs: Sequence[Pair]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for pair in pairs:
        counts[pair.source] += 1
    return dict(sorted(counts.items()))


def _training_pairs(config: TrainConfig) -> tuple[list[Pair], list[Pair]]:
    """The run's training pairs and its dev split, built from ``config.data`` (cached in ``config.cache_dir``)."""
    specs = [DataSpec.parse(s, config.max_per_source) for s in config.data]
    pairs = build_training_pairs(
        specs,
        seed=config.seed,
        nei_from_evidence_fraction=config.nei_from_evidence_fraction,
        nei_same_page_fraction=config.nei_same_page_fraction,
        nei_claims_pool_evidence=config.nei_claims_pool_evidence,
        plain_style_fraction=config.plain_style_fraction,
        corpus=config.corpus,
        cache_dir=config.cache_dir,
    )
    train_pairs, dev_pairs = split_dev(pairs, config.dev_fraction, config.seed)
    if not train_pairs:
        raise ValueError("No training pairs: check the --data files.")
    log.info("training pairs: %s", _count(train_pairs))
    log.info("dev pairs: %s", _count(dev_pairs))
    return train_pairs, dev_pairs


@dataclass
class _Run:
    """What the training steps work with: the model on its device, the tokenised pairs, the plan, the optimizer."""

    model: torch.nn.Module
    tokenizer: PreTrainedTokenizerBase
    device: str
    autocast_dtype: torch.dtype
    use_autocast: bool
    features: list[dict[str, list[int]]]
    labels: np.ndarray
    lengths: list[int]
    steps_per_epoch: int
    total_steps: int
    plan: dict[str, Any]
    trained: list[Any]
    optimizer: torch.optim.Optimizer
    scheduler: torch.optim.lr_scheduler.LRScheduler


def _prepare_run(config: TrainConfig, train_pairs: list[Pair]) -> _Run:
    """The model to train (:func:`~fever_core.training.verifier_model.build_model`) on its device with its autocast,
    the pairs tokenised, the plan of steps, and AdamW (no decay on biases and norms) with its warmup/decay schedule."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    model, tokenizer = build_model(config)
    device = select_device(config.device)
    model = model.to(device)
    autocast_dtype = torch.bfloat16 if device == "cpu" else torch.float16
    large = sum(p.numel() for p in model.parameters()) >= BF16_MIN_PARAMETERS
    use_autocast = device != "cpu" or (large and cpu_supports_bf16())
    features = _tokenize(tokenizer, train_pairs, config.max_length)
    labels = label_ids(train_pairs)
    lengths = [len(f["input_ids"]) for f in features]
    steps_per_epoch = math.ceil(len(train_pairs) / config.batch_size)
    total_steps = steps_per_epoch * config.epochs
    plan = {"n_train": len(train_pairs), "batch_size": config.batch_size, "epochs": config.epochs, "seed": config.seed}
    if config.lora_rank > 0:
        plan["lora_rank"] = config.lora_rank

    no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight")
    trained = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    log.info(
        "training %d of %d parameters on %s%s",
        sum(p.numel() for _, p in trained),
        sum(p.numel() for p in model.parameters()),
        device,
        " with autocast" if use_autocast else "",
    )
    groups = [
        {"params": [p for n, p in trained if not n.endswith(no_decay)], "weight_decay": config.weight_decay},
        {"params": [p for n, p in trained if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=config.lr)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(config.warmup_ratio * total_steps), total_steps)
    return _Run(
        model,
        tokenizer,
        device,
        autocast_dtype,
        use_autocast,
        features,
        labels,
        lengths,
        steps_per_epoch,
        total_steps,
        plan,
        trained,
        optimizer,
        scheduler,
    )


def _train_steps(
    config: TrainConfig,
    run: _Run,
    step: int,
    checkpoint: Path,
    started: float,
    on_step: Callable[[int, int], None] | None,
) -> tuple[int, list[tuple[int, float]], bool]:
    """Optimizer steps from ``step`` until the plan's end, ``config.stop_after_steps`` or the time budget (counted
    from ``started``, :func:`time.perf_counter`), logging the loss every ``config.log_every`` steps and saving a
    checkpoint every ``config.checkpoint_every`` and at the end. Returns the step reached, the losses logged, and
    whether the time budget stopped it."""
    import torch
    from tqdm.auto import tqdm

    model, optimizer, scheduler, total_steps = run.model, run.optimizer, run.scheduler, run.total_steps
    losses: list[tuple[int, float]] = []
    window: list[float] = []
    stop_at = total_steps if config.stop_after_steps is None else min(total_steps, config.stop_after_steps)
    model.train()
    out_of_time = False
    threads = torch.get_num_threads()
    progress = tqdm(
        total=total_steps,
        initial=step,
        desc="training verifier",
        unit="step",
        mininterval=1.0 if sys.stderr.isatty() else 30.0,
        dynamic_ncols=True,
    )
    tick, tick_step = time.perf_counter(), step
    while step < stop_at:
        epoch, offset = divmod(step, run.steps_per_epoch)
        for batch_ids in plan_batches(run.lengths, config.batch_size, config.seed, epoch)[offset:]:
            batch = _collate(
                [run.features[i] for i in batch_ids], run.labels[batch_ids], run.tokenizer.pad_token_id or 0
            )
            batch = {k: v.to(run.device) for k, v in batch.items()}
            with torch.autocast(run.device.split(":")[0], dtype=run.autocast_dtype, enabled=run.use_autocast):
                loss = model(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_([p for _, p in run.trained], 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            window.append(float(loss.detach()))
            progress.update(1)
            if on_step is not None:
                on_step(step, total_steps)
            if step % config.log_every == 0 or step == stop_at:
                mean = float(np.mean(window))
                losses.append((step, mean))
                window.clear()
                now = time.perf_counter()
                rate = (step - tick_step) * config.batch_size / max(now - tick, 1e-9)
                tick, tick_step = now, step
                progress.set_postfix(loss=f"{mean:.4f}", pairs_s=f"{rate:.1f}")
                log.info(
                    "step %d/%d epoch %d loss %.4f lr %.2e %.1f pairs/s",
                    step,
                    total_steps,
                    epoch + 1,
                    mean,
                    scheduler.get_last_lr()[0],
                    rate,
                )
            if step % config.checkpoint_every == 0 or step == stop_at:
                save_checkpoint(checkpoint, model, optimizer, scheduler, step, run.plan)
            if step % 25 == 0 and config.threads > 1 and config.adaptive_threads:
                wanted = pick_threads(config.threads, threads)
                if wanted != threads:
                    log.info(
                        "step %d: %d torch thread(s), was %d (load average %.2f)",
                        step,
                        wanted,
                        threads,
                        os.getloadavg()[0],
                    )
                    threads = wanted
                    torch.set_num_threads(threads)
            if config.time_budget_s is not None and time.perf_counter() - started > config.time_budget_s:
                out_of_time = step < stop_at
                save_checkpoint(checkpoint, model, optimizer, scheduler, step, run.plan)
                log.warning(
                    "time budget of %.0f s used up at step %d of %d: saving the model as it is",
                    config.time_budget_s,
                    step,
                    total_steps,
                )
                break
            if step >= stop_at:
                break
        if out_of_time:
            break
    progress.close()
    return step, losses, out_of_time


def train_verifier(config: TrainConfig, on_step: Callable[[int, int], None] | None = None) -> TrainResult:
    """Fine-tune a 3-way verifier; see :class:`~fever_core.training.verifier_config.TrainConfig`. Resumes from
    ``out/checkpoints/`` when possible. ``on_step(step, total_steps)`` is called after every optimizer step (for a
    progress display).

    Writes to ``config.out``: ``model.safetensors`` (fp16), ``config.json`` (with ``id2label`` in
    :data:`~fever_core.common.types.LABELS` order and ``nei_threshold``), the tokenizer files, and ``verifier.json`` (the NEI rule,
    training settings, data counts, losses and evaluation reports).
    """
    import torch

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    started = time.perf_counter()
    out = Path(config.out)
    torch.set_num_threads(pick_threads(config.threads, 0) if config.adaptive_threads else config.threads)
    _seed_everything(config.seed)
    train_pairs, dev_pairs = _training_pairs(config)
    run = _prepare_run(config, train_pairs)

    step = 0
    checkpoint = checkpoint_path(out)
    if config.resume and checkpoint.is_file():
        step = resume_from(checkpoint, run.plan, run.model, run.optimizer, run.scheduler)
        log.info("resuming from step %d of %d", step, run.total_steps)
    resumed_from = step
    step, losses, out_of_time = _train_steps(config, run, step, checkpoint, started, on_step)

    result = TrainResult(
        out,
        step >= run.total_steps,
        step,
        run.total_steps,
        resumed_from,
        losses,
        _count(train_pairs),
        _count(dev_pairs),
    )
    if not result.finished and not out_of_time:
        result.wall_s = time.perf_counter() - started
        log.info("stopped at step %d of %d; rerun the same command to resume", step, run.total_steps)
        return result

    save_trained_model(run.model, run.tokenizer, out, config)
    del run
    score_trained_model(config, result, dev_pairs, lambda: load_eval_sets(config.eval, config.corpus))
    if not config.keep_checkpoints:
        remove_checkpoints(checkpoint)
    result.wall_s = time.perf_counter() - started
    write_training_report(config, result)
    return result
