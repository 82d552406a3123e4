"""What a verifier training run is given (:class:`TrainConfig`) and what it produced (:class:`TrainResult`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fever_core.common.settings import Settings
from fever_core.verification.base_models import MINILM


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
            layers (:data:`~fever_core.training.verifier_model.LORA_TARGETS`) plus the classification head, and saves
            only those (``peft``). From an adapter (``init``) it continues that adapter, widened to rank N when N is
            higher (:func:`~fever_core.training.verifier_model.build_model`).
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

    def to_dict(self) -> dict[str, Any]:
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
        nei_threshold: NEI rule chosen on the dev split (see
            :func:`~fever_core.training.verifier_scores.choose_nei_threshold`).
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
    reports: dict[str, dict[str, Any]] = field(default_factory=dict[str, Any])
    wall_s: float = 0.0

    def summary(self) -> dict[str, Any]:
        """What the command line prints of a run: everything but the losses and reports, with each report's pair
        count, accuracy and macro-F1 (4 decimals) under ``scores``."""
        summary = {k: v for k, v in asdict(self).items() if k not in ("losses", "reports")}
        summary["scores"] = {
            k: {"n": r["n"], "accuracy": round(r["accuracy"], 4), "macro_f1": round(r["macro_f1"], 4)}
            for k, r in self.reports.items()
        }
        return summary
