"""Fine-tuning the 3-way claim verifier (SUPPORTS / REFUTES / NOT ENOUGH INFO) as a cross-encoder.

A plain PyTorch loop: pre-tokenised pairs in length-bucketed batches, AdamW with one linear
warmup/decay schedule planned over all epochs, checkpoints (trained weights + optimizer + scheduler + step +
RNG states) every N steps so an interrupted run resumes where it stopped, and at the end an fp16
safetensors model with its tokenizer, an NEI decision rule tuned on a held-out dev split of the
training data, and per-source scores.

Two ways to train (``lora_rank``): the whole model (the MiniLM verifiers), or a LoRA adapter with ``peft`` on
every linear layer of a frozen base plus a full classification head (the MPNet verifier: its 438 MB base
is installed from packages, so only the ~7 MB adapter ships). On CPUs with native bfloat16 the forward
pass of a model of at least ``BF16_MIN_PARAMETERS`` runs under bf16 autocast (about 2x faster for MPNet; the
MiniLM verifiers train in fp32 as they always did); on a CUDA GPU training runs there, under fp16 autocast.

Run ``python -m fever_core train verifier --data FILE... --out DIR`` (:mod:`fever_core.cli.train`).

Why one module (over 400 lines): the loop, its resumable checkpoints, the NEI rule tuned at its end and the scores
written beside the weights share one run's state.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fever_core.common.device import cpu_supports_bf16, select_device
from fever_core.common.formats import DataFileError, Pair, file_kind, load_claims, load_pairs
from fever_core.common.settings import Settings
from fever_core.common.types import LABELS
from fever_core.evaluation.pairs import report_from_predictions
from fever_core.training.pairs import (
    DataSpec,
    build_training_pairs,
    fever_claims_to_pairs,
    fever_pages_lookup,
    label_ids,
    split_dev,
)
from fever_core.verification.base_models import BASES, MINILM, base_model_path
from fever_core.verification.classifiers import adapter_base, load_sequence_classifier
from fever_core.verification.model_integrity import (
    TRAINING_REPORT_FILE,
    check_model_folder,
    model_files,
    record_checksums,
)
from fever_core.verification.nli import BF16_MIN_PARAMETERS, NliModel

if TYPE_CHECKING:
    import torch

log = logging.getLogger(__name__)

ID2LABEL = dict(enumerate(LABELS))
LABEL2ID = {label: i for i, label in ID2LABEL.items()}
CHECKPOINT_FILE = "last.pt"


LORA_TARGETS = ("query", "key", "value", "q", "k", "v", "o", "dense")
"""Linear layers a LoRA adapter wraps (attention and feed-forward, BERT and MPNet names); the head is trained whole."""


@dataclass
class TrainConfig:
    """Everything a training run depends on.

    Attributes:
        data: training inputs as ``PATH`` or ``PATH:N`` (keep at most N pairs from that file), see
            :func:`~fever_core.training.pairs.build_training_pairs` for the accepted formats.
        out: output directory for the model; checkpoints go to ``out/checkpoints/``.
        init: model to start from: a base name of :data:`~fever_core.verification.base_models.BASES`
            (``minilm``, the default: the packaged all-MiniLM-L6-v2; ``mpnet``: all-mpnet-base-v2), a plain
            encoder's path (both get a new classification head), or a trained verifier to continue (e.g.
            ``assets/models/verifier``; an adapter folder continues its adapter).
        lora_rank: 0 (default) fine-tunes every weight; N > 0 trains a rank-N LoRA adapter on the linear
            layers (:data:`LORA_TARGETS`) plus the classification head, and saves only those (``peft``). From an
            adapter (``init``) it continues that adapter, widened to rank N when N is higher (:func:`_widened`).
        lora_alpha: LoRA scaling numerator (the update is scaled by ``lora_alpha / lora_rank``). Default 2x rank.
        device: ``"auto"`` (CUDA when present, else CPU), ``"cpu"`` or ``"cuda"``.
        epochs: passes over the training pairs. Default 3.
        batch_size: pairs per optimizer step. Default 32.
        lr: peak learning rate, reached after ``warmup_ratio`` of all steps, then decayed linearly to 0.
        max_length: tokens per (premise, hypothesis) pair; longer pairs are truncated. Default 128.
        seed: seeds Python, NumPy and torch, the data order and the dev split.
        eval: extra evaluation files (pair files, or FEVER claims files scored on gold evidence with
            ``corpus``), scored per source at the end.
        max_per_source: default cap on pairs per input file (``None`` = all); ``PATH:N`` overrides it.
        threads: most torch CPU threads to use. While other processes keep the cores busy (1-minute load
            average), training drops to one thread: on a shared 2-core machine two threads that wait on
            each other at every operation run several times slower than one.
        adaptive_threads: drop to one thread under load as above (default). Turn it off when the other work
            runs at a lower priority (``nice``; with the kernel's autogroup scheduling off), which the load
            average counts all the same while it hardly slows two threads.
        time_budget_s: stop training after this many seconds (wall clock, counted from the start of the
            call) and still save and evaluate the model; ``None`` = no limit. The schedule is not re-planned,
            so a stopped run ends before the learning rate reaches 0.
        corpus: FEVER ``wiki-pages`` jsonl holding the evidence of FEVER claims files in ``data``/``eval``.
        dev_fraction: share of training claims held out to tune the NEI rule and report dev scores.
        nei_from_evidence_fraction: share of FEVER S/R claims also paired with a non-evidence sentence as NEI.
        nei_same_page_fraction: share of FEVER S/R claims also paired, as NEI, with the evidence of
            another claim about the same page (on-topic sentences that say nothing about the claim).
        nei_claims_pool_evidence: NEI claims files take distractors from the pair files' evidence
            sentences too, not only the embedded summaries (see ``build_training_pairs``).
        plain_style_fraction: share of each pair file's pairs also added with the premise's parenthetical
            asides removed, as the embedded summaries write (``pairs.plain_style_pairs``); 0 = none.
        checkpoint_every: optimizer steps between checkpoints.
        resume: continue from ``out/checkpoints/`` when a checkpoint of the same plan exists.
        keep_checkpoints: keep ``out/checkpoints/`` after a finished run (they are ~3x the model size).
        stop_after_steps: stop (with a checkpoint) once this many steps are done; simulates an interruption.
        cache_dir: where built pair sets and the distractor pool are cached. Default ``training/`` in the
            data folder (``FEVER_DATA_DIR``).
    """

    data: list[str]
    out: Path
    init: str = MINILM
    lora_rank: int = 0
    lora_alpha: float | None = None
    device: str = "auto"
    epochs: int = 3
    batch_size: int = 32
    lr: float = 3e-5
    warmup_ratio: float = 0.06
    weight_decay: float = 0.01
    max_length: int = 128
    seed: int = 13
    eval: list[str] = field(default_factory=list)
    max_per_source: int | None = None
    threads: int = 2
    adaptive_threads: bool = True
    corpus: Path | None = None
    dev_fraction: float = 0.04
    nei_from_evidence_fraction: float = 0.5
    nei_same_page_fraction: float = 0.0
    nei_claims_pool_evidence: bool = False
    plain_style_fraction: float = 0.0
    checkpoint_every: int = 200
    resume: bool = True
    keep_checkpoints: bool = False
    stop_after_steps: int | None = None
    time_budget_s: float | None = None
    eval_batch_size: int = 64
    log_every: int = 50
    cache_dir: Path = field(default_factory=lambda: Settings.from_env().data_dir / "training")

    def to_dict(self) -> dict:
        return {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(self).items()}


@dataclass
class TrainResult:
    """What a run produced.

    Attributes:
        out: model directory (complete only when ``finished``).
        finished: False when stopped early by ``stop_after_steps`` (a checkpoint is left to resume from)
            or by ``time_budget_s`` (the model is saved and evaluated all the same).
        steps: optimizer steps done in total (including those before a resume).
        total_steps: steps planned over all epochs.
        resumed_from: step the run resumed from (0 = fresh start).
        losses: ``(step, mean training loss over the last log_every steps)``.
        train_pairs / dev_pairs: pair counts per source.
        nei_threshold: NEI rule chosen on the dev split (see :func:`choose_nei_threshold`).
        reports: source name -> :meth:`PairsReport.to_dict` (dev sources prefixed ``dev/``).
        wall_s: seconds for this call.
    """

    out: Path
    finished: bool
    steps: int
    total_steps: int
    resumed_from: int
    losses: list[tuple[int, float]]
    train_pairs: dict[str, int]
    dev_pairs: dict[str, int]
    nei_threshold: float | None = None
    reports: dict[str, dict] = field(default_factory=dict)
    wall_s: float = 0.0


# ---------------------------------------------------------------------------------------------
# data


def _seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _tokenize(tokenizer, pairs: Sequence[Pair], max_length: int) -> list[dict[str, list[int]]]:
    enc = tokenizer(
        [p.premise for p in pairs], [p.hypothesis for p in pairs], truncation=True, max_length=max_length
    )
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
    batches = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start:start + chunk], key=lambda i: lengths[i])
        batches.extend(part[j:j + batch_size] for j in range(0, len(part), batch_size))
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


# ---------------------------------------------------------------------------------------------
# NEI decision rule


def choose_nei_threshold(gold: np.ndarray, probs: np.ndarray) -> tuple[float, float, float]:
    """The P(NEI) threshold in [0.05, 0.95] that maximises macro-F1 on ``(gold, probs)``.

    Rule: NOT ENOUGH INFO when P(NEI) >= threshold, else the larger of SUPPORTS / REFUTES.
    Ties go to the threshold closest to 0.5.

    Returns:
        ``(threshold, macro-F1 with it, macro-F1 of plain argmax)``.
    """
    argmax_f1 = report_from_predictions(gold, probs).macro_f1
    best = (-1.0, 0.0)
    for t in np.round(np.arange(0.05, 0.951, 0.01), 2):
        f1 = report_from_predictions(gold, probs, nei_threshold=float(t)).macro_f1
        if f1 > best[0] + 1e-9 or (abs(f1 - best[0]) <= 1e-9 and abs(t - 0.5) < abs(best[1] - 0.5)):
            best = (f1, float(t))
    return best[1], best[0], argmax_f1


# ---------------------------------------------------------------------------------------------
# training


def pick_threads(max_threads: int, current: int) -> int:
    """``max_threads`` when the cores are free of other work (1-minute load average), else 1."""
    try:
        others = os.getloadavg()[0] - current
    except OSError:
        return max_threads
    return max_threads if others < 0.7 else 1


def _checkpoint_dir(out: Path) -> Path:
    return Path(out) / "checkpoints"


def _trained_state(model) -> dict:
    """The weights training changes (all of them, or an adapter's and the head's), as in a checkpoint."""
    trained = {name for name, p in model.named_parameters() if p.requires_grad}
    return {name: tensor for name, tensor in model.state_dict().items() if name in trained}


def _save_checkpoint(path: Path, model, optimizer, scheduler, step: int, plan: dict) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".partial")
    torch.save(
        {
            "model": _trained_state(model),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
            "plan": plan,
            "rng": {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()},
        },
        tmp,
    )
    tmp.replace(path)


def _count(pairs: Sequence[Pair]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for pair in pairs:
        counts[pair.source] += 1
    return dict(sorted(counts.items()))


def build_model(config: TrainConfig):
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
        adapter = load_sequence_classifier(init, trainable=True)
        if config.lora_rank <= adapter.peft_config["default"].r:
            return adapter, tokenizer
        return _widened(adapter, config), tokenizer
    model = load_sequence_classifier(init, num_labels=len(LABELS), id2label=ID2LABEL, label2id=LABEL2ID)
    if config.lora_rank <= 0:
        return model, tokenizer
    return _with_lora(model, config.lora_rank, config.lora_alpha or 2 * config.lora_rank), tokenizer


def _with_lora(model, rank: int, alpha: float):
    """``model`` wrapped in a new rank-``rank`` LoRA adapter on its linear layers (:data:`LORA_TARGETS`, not the
    head) and a trainable head."""
    import torch
    from peft import LoraConfig, TaskType, get_peft_model

    names = {name.rsplit(".", 1)[-1] for name, module in model.named_modules()
             if isinstance(module, torch.nn.Linear) and not name.startswith("classifier")}
    lora = LoraConfig(task_type=TaskType.SEQ_CLS, r=rank, lora_alpha=alpha, lora_dropout=0.1,
                      target_modules=sorted(names & set(LORA_TARGETS)))
    return get_peft_model(model, lora)


def _widened(adapter, config: TrainConfig):
    """A rank-``config.lora_rank`` adapter that starts as ``adapter`` (a trained, lower-rank one) reads: its first
    ranks hold the trained adapter's A and B (B rescaled to the new ``alpha / rank``), the new ranks start as LoRA
    starts (A random, B zero, so they add nothing yet), and the head is the trained one. More capacity, same
    answers at step 0."""
    import torch

    old = adapter.peft_config["default"]
    old_scale = old.lora_alpha / old.r
    alpha = config.lora_alpha or old_scale * config.lora_rank  # keeps the scale the trained adapter had
    trained = {name: p.detach().clone() for name, p in adapter.named_parameters()
               if "lora_" in name or "modules_to_save" in name}
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


def train_verifier(config: TrainConfig, on_step: Callable[[int, int], None] | None = None) -> TrainResult:
    """Fine-tune a 3-way verifier; see :class:`TrainConfig`. Resumes from ``out/checkpoints/`` when possible.
    ``on_step(step, total_steps)`` is called after every optimizer step (for a progress display).

    Writes to ``config.out``: ``model.safetensors`` (fp16), ``config.json`` (with ``id2label`` in
    :data:`LABELS` order and ``nei_threshold``), the tokenizer files, and ``verifier.json`` (the NEI rule,
    training settings, data counts, losses and evaluation reports).
    """
    import torch
    from tqdm.auto import tqdm
    from transformers import get_linear_schedule_with_warmup

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    started = time.perf_counter()
    out = Path(config.out)
    torch.set_num_threads(pick_threads(config.threads, 0) if config.adaptive_threads else config.threads)
    _seed_everything(config.seed)

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
    log.info("training %d of %d parameters on %s%s", sum(p.numel() for _, p in trained),
             sum(p.numel() for p in model.parameters()), device, " with autocast" if use_autocast else "")
    groups = [
        {"params": [p for n, p in trained if not n.endswith(no_decay)], "weight_decay": config.weight_decay},
        {"params": [p for n, p in trained if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=config.lr)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(config.warmup_ratio * total_steps), total_steps)

    step = 0
    checkpoint = _checkpoint_dir(out) / CHECKPOINT_FILE
    if config.resume and checkpoint.is_file():
        state = torch.load(checkpoint, map_location="cpu", weights_only=False)
        if state["plan"] != plan:
            raise RuntimeError(
                f"The checkpoint in {checkpoint.parent} was made for a different plan ({state['plan']}, now {plan}). "
                "Delete it or pass --no-resume to start afresh."
            )
        missing = set(_trained_state(model)) - set(state["model"])
        if missing:
            raise RuntimeError(f"The checkpoint in {checkpoint.parent} lacks {len(missing)} trained weights "
                               f"(e.g. {min(missing)}); delete it or pass --no-resume.")
        model.load_state_dict(state["model"], strict=False)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        step = int(state["step"])
        random.setstate(state["rng"]["python"])
        np.random.set_state(state["rng"]["numpy"])
        torch.set_rng_state(state["rng"]["torch"])
        log.info("resuming from step %d of %d", step, total_steps)
    resumed_from = step

    losses: list[tuple[int, float]] = []
    window: list[float] = []
    stop_at = total_steps if config.stop_after_steps is None else min(total_steps, config.stop_after_steps)
    model.train()
    out_of_time = False
    threads = torch.get_num_threads()
    progress = tqdm(
        total=total_steps, initial=step, desc="training verifier", unit="step",
        mininterval=1.0 if sys.stderr.isatty() else 30.0, dynamic_ncols=True,
    )
    tick, tick_step = time.perf_counter(), step
    while step < stop_at:
        epoch, offset = divmod(step, steps_per_epoch)
        for batch_ids in plan_batches(lengths, config.batch_size, config.seed, epoch)[offset:]:
            batch = _collate([features[i] for i in batch_ids], labels[batch_ids], tokenizer.pad_token_id or 0)
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.autocast(device.split(":")[0], dtype=autocast_dtype, enabled=use_autocast):
                loss = model(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_([p for _, p in trained], 1.0)
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
                log.info("step %d/%d epoch %d loss %.4f lr %.2e %.1f pairs/s",
                         step, total_steps, epoch + 1, mean, scheduler.get_last_lr()[0], rate)
            if step % config.checkpoint_every == 0 or step == stop_at:
                _save_checkpoint(checkpoint, model, optimizer, scheduler, step, plan)
            if step % 25 == 0 and config.threads > 1 and config.adaptive_threads:
                wanted = pick_threads(config.threads, threads)
                if wanted != threads:
                    log.info("step %d: %d torch thread(s), was %d (load average %.2f)",
                             step, wanted, threads, os.getloadavg()[0])
                    threads = wanted
                    torch.set_num_threads(threads)
            if config.time_budget_s is not None and time.perf_counter() - started > config.time_budget_s:
                out_of_time = step < stop_at
                _save_checkpoint(checkpoint, model, optimizer, scheduler, step, plan)
                log.warning("time budget of %.0f s used up at step %d of %d: saving the model as it is",
                            config.time_budget_s, step, total_steps)
                break
            if step >= stop_at:
                break
        if out_of_time:
            break
    progress.close()

    result = TrainResult(out, step >= total_steps, step, total_steps, resumed_from, losses,
                         _count(train_pairs), _count(dev_pairs))
    if not result.finished and not out_of_time:
        result.wall_s = time.perf_counter() - started
        log.info("stopped at step %d of %d; rerun the same command to resume", step, total_steps)
        return result

    _save_final(model, tokenizer, out, config)
    del model, optimizer
    _evaluate_and_describe(config, result, dev_pairs)
    if not config.keep_checkpoints and checkpoint.parent.is_dir():
        for path in checkpoint.parent.iterdir():
            path.unlink()
        checkpoint.parent.rmdir()
    result.wall_s = time.perf_counter() - started
    _write_meta(config, result)
    return result


def _save_final(model, tokenizer, out: Path, config: TrainConfig) -> None:
    """fp16 weights (a whole model, or an adapter with its head), the labels' ``config.json``, the tokenizer, and the
    checksums of every file of them (:func:`~fever_core.verification.model_integrity.record_checksums`)."""
    import torch

    out.mkdir(parents=True, exist_ok=True)
    model = model.to("cpu").eval().to(torch.float16)
    model.config.id2label = ID2LABEL
    model.config.label2id = LABEL2ID
    if hasattr(model, "peft_config"):
        # the adapter names its base by its short name, so the folder loads wherever the base is assembled
        model.peft_config["default"].base_model_name_or_path = (
            config.init if config.init in BASES else adapter_base(config.init) or config.init)
        model.save_pretrained(out)
        model.config.save_pretrained(out)  # the classification config (labels, NEI rule) beside the adapter
    else:
        model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    record_checksums(out, model_files(out), fresh=True)


def _evaluate_and_describe(config: TrainConfig, result: TrainResult, dev_pairs: list[Pair]) -> None:
    """Tune the NEI rule on the FEVER part of the dev split, then score dev and eval sets per source."""
    from transformers import AutoConfig

    out = Path(config.out)
    model = NliModel.load(str(out), device="cpu", max_length=config.max_length)
    reports: dict[str, dict] = {}
    if dev_pairs:
        probs = model.predict([(p.premise, p.hypothesis) for p in dev_pairs], batch_size=config.eval_batch_size)
        gold = label_ids(dev_pairs)
        fever = np.array([p.source.startswith("fever") for p in dev_pairs])
        tune = fever if fever.any() and len(set(gold[fever])) == len(LABELS) else np.ones(len(gold), bool)
        threshold, tuned_f1, argmax_f1 = choose_nei_threshold(gold[tune], probs[tune])
        result.nei_threshold = threshold
        log.info("NEI threshold %.2f: dev macro-F1 %.4f (argmax %.4f)", threshold, tuned_f1, argmax_f1)
        reports["dev/all"] = report_from_predictions(gold, probs).to_dict()
        reports["dev/all@nei_threshold"] = report_from_predictions(gold, probs, nei_threshold=threshold).to_dict()
        sources = sorted({p.source for p in dev_pairs})
        for source in sources:
            mask = np.array([p.source == source for p in dev_pairs])
            reports[f"dev/{source}"] = report_from_predictions(gold[mask], probs[mask]).to_dict()
        hf_config = AutoConfig.from_pretrained(out)
        hf_config.nei_threshold = threshold
        hf_config.save_pretrained(out)
        record_checksums(out, ["config.json"])  # its rule changes the verdicts: checked like the weights
    for source, pairs in load_eval_sets(config.eval, config.corpus).items():
        start = time.perf_counter()
        probs = model.predict([(p.premise, p.hypothesis) for p in pairs], batch_size=config.eval_batch_size)
        rate = len(pairs) / max(time.perf_counter() - start, 1e-9)
        report = report_from_predictions(label_ids(pairs), probs, rate)
        reports[source] = report.to_dict()
        if result.nei_threshold is not None:
            reports[f"{source}@nei_threshold"] = report_from_predictions(
                label_ids(pairs), probs, rate, nei_threshold=result.nei_threshold
            ).to_dict()
        log.info("%s: n=%d accuracy %.4f macro-F1 %.4f", source, report.n, report.accuracy, report.macro_f1)
    result.reports = reports


def _write_meta(config: TrainConfig, result: TrainResult) -> None:
    meta = {
        "labels": list(LABELS),
        "nei_rule": {
            "nei_threshold": result.nei_threshold,
            "rule": "NOT ENOUGH INFO if P(NEI) >= nei_threshold, else the larger of P(SUPPORTS) and P(REFUTES)",
            "chosen_on": "held-out dev split of the training claims (FEVER-derived sources), maximising macro-F1",
        },
        "max_length": config.max_length,
        "config": config.to_dict(),
        "steps": result.steps,
        "total_steps": result.total_steps,
        "schedule_completed": result.finished,
        "wall_s": round(result.wall_s, 1),
        "train_pairs": result.train_pairs,
        "dev_pairs": result.dev_pairs,
        "losses": result.losses,
        "reports": result.reports,
    }
    (Path(config.out) / TRAINING_REPORT_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
