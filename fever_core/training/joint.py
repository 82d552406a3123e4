"""Training data for the joint verifier: the learned verdict's end-to-end runs as (top evidence joined, claim) pairs.

:func:`write_joint_pairs` writes the runs of :func:`~fever_core.training.verdict.collect_runs` split by the
verdict's hold-out, so the mix weight is chosen on claims the joint verifier never saw;
:func:`write_joint_minimal_pairs` adds minimal pairs of training claims with and without their gold evidence
(:mod:`fever_core.training.minimal_pairs`). The joint verifier is then an ordinary ``train verifier`` run.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fever_core.training.minimal_pairs import collect_retrieval_runs, gold_evidence, write_minimal_pairs
from fever_core.training.verdict import HOLDOUT, in_holdout, run_evidence
from fever_core.verification.features import joint_premise

if TYPE_CHECKING:
    from fever_core.pipeline import Checker

log = logging.getLogger(__name__)


def write_joint_pairs(
    runs: Sequence[dict[str, Any]], out_dir: Path, holdout: float = HOLDOUT, seed: int = 0
) -> tuple[Path, Path]:
    """Write the runs as joint-verifier pairs (premise = :func:`joint_premise` of the evidence,
    hypothesis = claim, label = the claim's label) in the ``nli/`` pair format, split into
    ``joint-train.jsonl`` and ``joint-heldout.jsonl`` by the hold-out :func:`~fever_core.training.verdict.fit_learned_verdict` uses,
    so the verdict's mix weight is chosen on claims the joint verifier never saw.

    Returns:
        The two paths (train, held out).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = out_dir / "joint-train.jsonl", out_dir / "joint-heldout.jsonl"
    with paths[0].open("w", encoding="utf-8") as train, paths[1].open("w", encoding="utf-8") as held:
        for run in runs:
            is_held = in_holdout(run["claim"], holdout, seed)
            record = {
                "premise": joint_premise([item.titled for item in run_evidence(run)]),
                "hypothesis": run["claim"],
                "label": run["label"],
                "source": "joint-heldout" if is_held else "joint",
            }
            (held if is_held else train).write(json.dumps(record, ensure_ascii=False) + "\n")
    return paths


def write_joint_minimal_pairs(
    checker: Checker, pairs_file: Path, n_claims: int, out_dir: Path, retrieval_runs: Path, seed: int = 0
) -> Path:
    """Minimal pairs of ``n_claims`` claims of ``pairs_file`` sampled outside the hold-out: retrieval
    for them (resumable, cached in ``retrieval_runs``), then ``out_dir/joint-minimal.jsonl``; returns its path."""
    candidates = [g for g in gold_evidence(pairs_file) if not in_holdout(g.claim, HOLDOUT, seed)]
    chosen = random.Random(seed).sample(candidates, min(n_claims, len(candidates)))
    retrieved = collect_retrieval_runs(checker, chosen, retrieval_runs)
    path = Path(out_dir) / "joint-minimal.jsonl"
    written = write_minimal_pairs(chosen, retrieved, path, seed=seed)
    log.info("%d minimal pairs from %d claims", written, len(chosen))
    return path
