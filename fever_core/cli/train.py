"""``train verifier|verdict|improve|generate-claims|prepare-data``: the models and the data they learn from.

Every training command reads the global options: its caches, runs and generated data go to ``training/`` in
the data folder (``--data-dir``, ``FEVER_DATA_DIR``) unless a path is given.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from fever_core.cli.common import settings_from, training_dir


def cmd_verifier(args: argparse.Namespace) -> int:
    from fever_core.training.verifier import train_verifier
    from fever_core.training.verifier_config import TrainConfig

    d = TrainConfig.__dataclass_fields__
    options = {name: getattr(args, name) for name in d if getattr(args, name, None) is not None}
    if args.time_budget_min is not None:
        options["time_budget_s"] = args.time_budget_min * 60
    options.setdefault("cache_dir", training_dir(args))
    print(json.dumps(train_verifier(TrainConfig(**options)).summary(), indent=2, default=str))
    return 0


def cmd_verdict(args: argparse.Namespace) -> int:
    from fever_core.training.verdict_training import RunsUnderOldName, VerdictConfig, train_verdict

    config = VerdictConfig(**{name: getattr(args, name) for name in VerdictConfig.__dataclass_fields__})
    try:
        saved = train_verdict(
            config, settings_from(args), training_dir(args), lambda line: print(line, file=sys.stderr)
        )
    except RunsUnderOldName as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(saved, indent=2))
    return 0


def cmd_generate_claims(args: argparse.Namespace) -> int:
    from fever_core.training.contrast_claims import contrast_pairs
    from fever_core.training.distractors import load_embedded_pool
    from fever_core.training.generated_claims import generate_pairs, write_generated

    out = args.out or training_dir(args) / ("embedded-contrast" if args.contrast else "embedded-generated")
    pool = load_embedded_pool(training_dir(args))
    records = (
        contrast_pairs(pool, seed=args.seed)
        if args.contrast
        else generate_pairs(pool, sentences_per_page=args.sentences_per_page, seed=args.seed)
    )
    print(json.dumps({"out": str(out), "pairs": write_generated(records, out)}, indent=2))
    return 0


def cmd_prepare_data(args: argparse.Namespace) -> int:
    from fever_core.training.prepare import prepare

    for name in ("fever-train.jsonl", "vitaminc-real.jsonl"):
        if not (args.nli / name).is_file():
            raise FileNotFoundError(f"{args.nli / name} is missing: point --nli at the shared data's nli/ folder.")
    out = args.out or training_dir(args) / "prepared"
    print(json.dumps({"out": str(out), "pairs": prepare(args.nli, out)}, indent=2))
    return 0


def cmd_improve(args: argparse.Namespace) -> int:
    """Fine-tune the verifier in use on the annotations into a new version; print its comparison table. With
    ``--status``, report progress there (the app's Models page starts it so, see :mod:`fever_core.workbench.jobs`)."""
    from fever_core.common.model_versions import use_verifier
    from fever_core.training.improve import ImproveConfig, improve_verifier
    from fever_core.workbench.jobs import DONE, FAILED, RUNNING, JobStatus, write_status

    settings = settings_from(args)
    started = time.time()

    def report(state: str, stage: str, done: float, message: str = "", result: dict[str, Any] | None = None) -> None:
        if args.status:
            write_status(args.status, JobStatus(state, stage, done, message, os.getpid(), started, 0.0, result or {}))
        if stage:
            print(f"[{done:4.0%}] {stage}", file=sys.stderr, flush=True)

    config = ImproveConfig(
        args.annotations or settings.data_dir / "annotations.sqlite",
        args.corpus or settings.corpus,
        args.base or settings.verifier_model,
        args.heldout_fraction,
        args.epochs,
        args.lr,
    )
    try:
        result = improve_verifier(config, settings, lambda stage, done: report(RUNNING, stage, done))
    except Exception as exc:
        report(FAILED, "", 0.0, str(exc))
        raise
    version = result.version
    if args.use:
        use_verifier(settings.data_dir, version.path)
    summary = {
        "version": version.name,
        "path": str(version.path),
        "base": version.base,
        "annotations": version.annotations,
        "wall_s": version.wall_s,
        "in_use": args.use,
        "table": version.table,
    }
    report(DONE, "done", 1.0, f"{version.name} made in {version.wall_s:.0f} s", summary)
    print(json.dumps(summary, indent=2))
    return 0


def _verifier_parser(p: argparse.ArgumentParser) -> None:
    from fever_core.training.verifier_config import TrainConfig

    d = TrainConfig.__dataclass_fields__
    p.add_argument(
        "--data",
        nargs="+",
        required=True,
        metavar="FILE[:N]",
        help="pair files (nli/*.jsonl), NEI claim files, or FEVER claims files (with --corpus); "
        "FILE:N keeps at most N pairs from FILE",
    )
    p.add_argument("--out", required=True, type=Path, help="output model directory")
    p.add_argument(
        "--init",
        default=None,
        help="start model: minilm (default, the packaged all-MiniLM-L6-v2), "
        "mpnet (all-mpnet-base-v2, assembled from its packages), or a model or verifier folder",
    )
    p.add_argument(
        "--lora-rank",
        type=int,
        default=d["lora_rank"].default,
        help="train a rank-N LoRA adapter and the head instead of every weight (0 = every weight); from an "
        "adapter of lower rank (--init), that adapter widened to rank N, its trained ranks kept",
    )
    p.add_argument("--lora-alpha", type=float, default=None, help="LoRA scaling numerator (default: 2x rank)")
    p.add_argument("--device", default=d["device"].default, help="auto (CUDA when present), cpu or cuda")
    p.add_argument("--epochs", type=int, default=d["epochs"].default)
    p.add_argument("--batch-size", type=int, default=d["batch_size"].default)
    p.add_argument("--max-length", type=int, default=d["max_length"].default)
    p.add_argument("--lr", type=float, default=d["lr"].default)
    p.add_argument("--seed", type=int, default=d["seed"].default)
    p.add_argument("--eval", nargs="*", default=[], metavar="FILE", help="evaluation files, scored per source")
    p.add_argument("--max-per-source", type=int, default=None, help="default cap on pairs per data file")
    p.add_argument("--threads", type=int, default=d["threads"].default)
    p.add_argument(
        "--fixed-threads",
        dest="adaptive_threads",
        action="store_false",
        default=None,
        help="keep --threads even while the load average shows other (lower-priority) work",
    )
    p.add_argument("--corpus", type=Path, default=None, help="FEVER wiki-pages jsonl for FEVER claims files")
    p.add_argument("--dev-fraction", type=float, default=d["dev_fraction"].default)
    p.add_argument(
        "--nei-from-evidence-fraction",
        type=float,
        default=d["nei_from_evidence_fraction"].default,
        help="share of FEVER S/R claims also paired with a non-evidence sentence as NEI",
    )
    p.add_argument(
        "--nei-same-page-fraction",
        type=float,
        default=d["nei_same_page_fraction"].default,
        help="share of FEVER S/R claims also paired, as NEI, with another same-page claim's evidence",
    )
    p.add_argument(
        "--nei-claims-pool-evidence",
        action="store_true",
        default=None,
        help="NEI premises drawn from the pair files' evidence too, not only the embedded summaries",
    )
    p.add_argument(
        "--plain-style-fraction",
        type=float,
        default=d["plain_style_fraction"].default,
        help="share of each pair file's pairs also added with parenthetical asides removed from "
        "the premise, as Wikipedia's lead summaries write",
    )
    p.add_argument("--warmup-ratio", type=float, default=d["warmup_ratio"].default)
    p.add_argument("--checkpoint-every", type=int, default=d["checkpoint_every"].default)
    p.add_argument("--no-resume", dest="resume", action="store_false", default=None, help="ignore existing checkpoints")
    p.add_argument("--keep-checkpoints", action="store_true", default=None)
    p.add_argument("--stop-after-steps", type=int, default=None)
    p.add_argument(
        "--time-budget-min",
        type=float,
        default=None,
        help="stop training after this many minutes and save/evaluate the model as it is",
    )
    p.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="where built pair sets and the distractor pool are cached (default: training/ in the data folder)",
    )


def _verdict_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--pairs",
        required=True,
        type=Path,
        help="pair file with FEVER evidence pages (e.g. nli/fever-paper-test.jsonl): its S/R claims",
    )
    p.add_argument(
        "--nei-claims", type=Path, default=None, help="NEI claims file (e.g. nli/fever-paper-test-nei-claims.jsonl)"
    )
    p.add_argument(
        "--pages",
        required=True,
        type=Path,
        help="FEVER wiki-pages jsonl of the corpus: S/R claims are kept when all their evidence is in it",
    )
    p.add_argument("--corpus", required=True, help="the named corpus the claims are checked on (e.g. fever-dev)")
    p.add_argument(
        "--model",
        default=None,
        help="verifier directory (default: the configured verifier); verdict.json is written there",
    )
    p.add_argument("--limit", type=int, default=None, help="check at most this many claims (a seeded random sample)")
    p.add_argument(
        "--exclude-claims",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="jsonl files (pairs or claims) whose claims are left out, e.g. the verifier's own training "
        "pairs (its pair cache): the verdict then learns from stances on claims the verifier never saw",
    )
    p.add_argument(
        "--runs",
        type=Path,
        default=None,
        help="jsonl of end-to-end runs (resumed if present); default training/verdict-runs-CORPUS-VERIFIER"
        "-chains.jsonl in the data folder, VERIFIER a fingerprint of the weights (-chains: second-hop "
        "sentences read after the sentence that links to them, unlike runs kept before)",
    )
    p.add_argument(
        "--joint-model",
        default=None,
        help="joint verifier directory or id, trained on --joint-pairs-out's train file: its "
        "share in the verdict is chosen on the held-out claims (default: none)",
    )
    p.add_argument(
        "--joint-pairs-out",
        type=Path,
        default=None,
        help="also write the runs as joint-verifier pair files (joint-train.jsonl, "
        "joint-heldout.jsonl) into this directory",
    )
    p.add_argument(
        "--joint-minimal-pairs",
        type=int,
        default=0,
        metavar="N",
        help="with --joint-pairs-out: also write joint-minimal.jsonl, minimal pairs (without / with "
        "gold evidence) of N sampled S/R claims of --pairs, none of them held out (default: 0, none)",
    )
    p.add_argument(
        "--subject-stance-min",
        type=float,
        default=None,
        metavar="PROBABILITY",
        help="a stance at least this sure (SUPPORTS or REFUTES, 0.5 to 1) of a first-hop sentence from a page "
        "the claim names decides the verdict over the regression (default: none, the regression alone; the "
        "MPNet verifier ships 0.9)",
    )
    for option, stage in (
        ("--sure-sentence-min", "one sure sentence (or chain) decides a NOT ENOUGH INFO verdict"),
        ("--claim-parts-min", "a compound claim's facts, each read this sure, decide it"),
        ("--bridge-min", "a two-hop claim's two facts, read this sure through the linked page, decide it"),
    ):
        p.add_argument(
            option,
            type=float,
            default=None,
            metavar="PROBABILITY",
            help=f"{stage} (0.5 to 1; default: none, the stage off; the MPNet verifier ships 0.9): kept in the "
            "verdict file and replayed with the fit on the held-out claims",
        )
    p.add_argument(
        "--plain-claims",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="claims written like a person's, checked end to end on --plain-corpus and added to the fit: "
        "claims files written by hand (benchmarks/recipes/verdict-claims/), or generated pair files of "
        "pages the verifier never trained on (train generate-claims' heldout.jsonl, plain or --contrast: "
        "their SUPPORTS / REFUTES claims) (default: none, FEVER's claims alone)",
    )
    p.add_argument("--plain-corpus", default="embedded", help="the corpus of --plain-claims (default: embedded)")
    p.add_argument(
        "--plain-limit",
        type=int,
        default=None,
        help="check at most this many --plain-claims (a seeded random sample; default: all)",
    )
    p.add_argument(
        "--exclude-pages-of",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="claims files (the yardsticks) whose evidence and near pages no --plain-claims claim may come from",
    )
    p.add_argument("--seed", type=int, default=0)


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    train = commands.add_parser("train", help="train a model, or write the data it learns from").add_subparsers(
        dest="train_command", required=True
    )
    p = train.add_parser("verifier", help="fine-tune the 3-way claim verifier (resumes from its checkpoints)")
    _verifier_parser(p)
    p.set_defaults(func=cmd_verifier, log_level=logging.INFO)
    p = train.add_parser(
        "verdict",
        help="train the learned verdict on end-to-end runs of non-benchmark claims; saved "
        "as verdict.json beside the verifier",
    )
    _verdict_parser(p)
    p.set_defaults(func=cmd_verdict, log_level=logging.INFO)
    p = train.add_parser(
        "improve",
        help="fine-tune the verifier in use on the annotations into a new version "
        "(models/verifier-vN in the data folder) and compare it with its base",
    )
    p.add_argument(
        "--annotations",
        type=Path,
        default=None,
        help="annotations database (default: annotations.sqlite in the data folder)",
    )
    p.add_argument(
        "--corpus",
        default=None,
        help="the corpus the annotations were made on (default: the configured corpus, embedded)",
    )
    p.add_argument("--base", default=None, help="verifier folder to start from (default: the one in use)")
    p.add_argument(
        "--heldout-fraction",
        type=float,
        default=0.25,
        help="share of annotated claims held out to compare on (default: %(default)s)",
    )
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-5)
    p.add_argument("--use", action="store_true", help="make the new version the verifier in use")
    p.add_argument("--status", type=Path, default=None, help="write progress as JSON to this file")
    p.set_defaults(func=cmd_improve, log_level=logging.INFO)
    p = train.add_parser("generate-claims", help="S/R/NEI pairs generated from the embedded corpus's sentences")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder for train.jsonl and heldout.jsonl (default: training/embedded-generated in the data folder)",
    )
    p.add_argument("--sentences-per-page", type=int, default=3, help="leading sentences used per page (default: 3)")
    p.add_argument(
        "--contrast",
        action="store_true",
        help="contrastive claims instead: superlatives and ranks, capitals, roles, true and false, with "
        "same-page NOT ENOUGH INFO (default folder: training/embedded-contrast)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_generate_claims)
    p = train.add_parser(
        "prepare-data", help="FEVER's training split with guessed page titles, VitaminC-real split by page"
    )
    p.add_argument(
        "--nli", type=Path, default=Path("../shared/data/nli"), help="the shared nli/ folder (default: %(default)s)"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder for the prepared files (default: training/prepared in the data folder)",
    )
    p.set_defaults(func=cmd_prepare_data)
