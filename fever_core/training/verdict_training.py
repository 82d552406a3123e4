"""Training the learned verdict from claims to ``verdict.json``: the claims chosen, each checked end to end on its
corpus with the verifier (the runs kept by the verifier's weights, so a killed run resumes and another verifier's runs
are never reused), the joint verifier's pairs written, and the fit (:mod:`~fever_core.training.verdict`) saved beside
the verifier. The command: ``python -m fever_core train verdict`` (:mod:`fever_core.cli.train`).
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fever_core.common.checksums import file_checksum
from fever_core.common.formats import iter_records
from fever_core.common.settings import Settings
from fever_core.common.text import fever_to_plain
from fever_core.pipeline import Checker
from fever_core.training.joint import write_joint_minimal_pairs, write_joint_pairs
from fever_core.training.verdict import (
    ProxyClaim,
    collect_runs,
    fit_learned_verdict,
    plain_style_claims,
    proxy_claims,
    yardstick_titles,
)
from fever_core.verification.model_integrity import weight_files
from fever_core.verification.nli import NliModel

log = logging.getLogger(__name__)


@dataclass
class VerdictConfig:
    """One run of :func:`train_verdict` (the options of ``train verdict``, which say more of each).

    Attributes:
        pairs: pair file with FEVER evidence pages: its SUPPORTS / REFUTES claims.
        pages: FEVER wiki-pages jsonl of ``corpus``: a claim is kept when all its evidence is in it.
        corpus: the named corpus the claims are checked on.
        nei_claims: NOT ENOUGH INFO claims file. Default none.
        limit: check at most this many claims (a seeded random sample). Default all.
        exclude_claims: jsonl files (pairs or claims) whose claims are left out.
        runs: jsonl of the end-to-end runs (resumed if present). Default ``verdict-``:func:`runs_name` in the
            training folder.
        joint_model: joint verifier folder or id, its share in the verdict chosen on the held-out claims.
        joint_pairs_out: folder the runs are also written to as joint-verifier pair files.
        joint_minimal_pairs: with ``joint_pairs_out``: minimal pairs of this many S/R claims of ``pairs`` too.
        subject_stance_min: the page rule's threshold (0.5 to 1). Default none (the stage off).
        sure_sentence_min, claim_parts_min, bridge_min: the other stages' thresholds (0.5 to 1; default none, off),
            kept in the verdict file and replayed with the fit on the held-out claims, so its "as shipped" figure is
            the cascade that ships (``benchmarks/recipes/mpnet_calibrate.py`` chooses them on the yardsticks).
        plain_claims: claims written like a person's, checked on ``plain_corpus`` and added to the fit.
        plain_corpus: the corpus of ``plain_claims``. Default ``embedded``.
        plain_limit: check at most this many ``plain_claims`` (a seeded random sample). Default all.
        exclude_pages_of: claims files (the yardsticks) whose pages no ``plain_claims`` claim may come from.
        seed: the samples, the hold-out and the fit.
    """

    pairs: Path
    pages: Path
    corpus: str
    nei_claims: Path | None = None
    limit: int | None = None
    exclude_claims: list[Path] = field(default_factory=list)
    runs: Path | None = None
    joint_model: str | None = None
    joint_pairs_out: Path | None = None
    joint_minimal_pairs: int = 0
    subject_stance_min: float | None = None
    sure_sentence_min: float | None = None
    claim_parts_min: float | None = None
    bridge_min: float | None = None
    plain_claims: list[Path] = field(default_factory=list)
    plain_corpus: str = "embedded"
    plain_limit: int | None = None
    exclude_pages_of: list[Path] = field(default_factory=list)
    seed: int = 0


class RunsUnderOldName(RuntimeError):
    """The training folder holds these runs under the name they had before the learned verdict had its name."""


def weights_fingerprint(model_dir: Path) -> str:
    """What a verifier's runs depend on: its weights, by content (each weight file's name and
    :func:`~fever_core.common.checksums.file_checksum`; 10 hex digits), the same for a copy of the folder anywhere.

    Not :func:`~fever_core.verification.model_integrity.model_fingerprint`, which a check records of the whole folder:
    that changes when ``train verdict`` writes ``verdict.json`` beside the weights, from these very runs, and the runs
    are reused by the next fit (with a joint verifier, say)."""
    digest = hashlib.blake2b(digest_size=16)
    for name in weight_files(model_dir):
        digest.update(f"{name}\n{file_checksum(Path(model_dir) / name)}\n".encode())
    return digest.hexdigest()[:10]


def runs_name(corpus: str, model_dir: Path) -> str:
    """The name of the verdict's runs of ``corpus`` with this verifier (``-chains``: not the runs kept before)."""
    return f"runs-{corpus}-{weights_fingerprint(model_dir)}-chains.jsonl"


def _chosen_claims(config: VerdictConfig, tell: Callable[[str], None]) -> list[ProxyClaim]:
    """FEVER's claims of ``config.pairs`` and ``config.nei_claims`` the corpus can answer, less ``exclude_claims``'s,
    shuffled and cut to ``config.limit``."""
    claims = proxy_claims(config.pairs, config.nei_claims, config.pages)
    if config.exclude_claims:
        seen = {
            fever_to_plain(record.get("hypothesis") or record.get("claim") or "")
            for path in config.exclude_claims
            for _, record in iter_records(path)
        }
        kept = [c for c in claims if c.claim not in seen]
        tell(f"{len(claims) - len(kept)} of {len(claims)} claims left out (in --exclude-claims)")
        claims = kept
    random.Random(config.seed).shuffle(claims)
    return claims[: config.limit] if config.limit else claims


def _plain_runs(config: VerdictConfig, settings: Settings, folder: Path, model_dir: Path) -> list[dict[str, Any]]:
    """The runs of ``config.plain_claims`` (shuffled, cut to ``plain_limit``) on ``config.plain_corpus``."""
    plain = plain_style_claims(config.plain_claims, yardstick_titles(config.exclude_pages_of))
    random.Random(config.seed).shuffle(plain)
    plain = plain[: config.plain_limit] if config.plain_limit else plain
    plain_checker = Checker.open(config.plain_corpus, replace(settings, joint_verifier_model=""), progress=True)
    plain_path = folder / f"verdict-{runs_name(config.plain_corpus, model_dir)}"
    wanted = {c.claim for c in plain}
    return [
        dict(run, source=config.plain_corpus)
        for run in collect_runs(plain_checker, plain, plain_path)
        if run["claim"] in wanted
    ]


def train_verdict(
    config: VerdictConfig, settings: Settings, folder: Path, tell: Callable[[str], None] = log.info
) -> dict[str, Any]:
    """Check the claims end to end with the verifier ``settings.verifier_model`` (its runs kept in ``folder`` unless
    ``config.runs``), fit the learned verdict on them and save it beside the verifier as ``verdict.json``.
    ``tell`` gets the lines for the person running it (default: the log).

    Returns:
        ``saved`` (the file written) and the fit's report.

    Raises:
        FileNotFoundError: the verifier is not a local folder.
        RuntimeError: a shipped verifier stands in for the one asked for (its runs would be wrong).
        RunsUnderOldName: ``folder`` holds these runs under their old name; the message says what to do.
    """
    model_dir = Path(settings.verifier_model)
    if not model_dir.is_dir():
        raise FileNotFoundError(f"{model_dir} is not a local verifier directory")
    started = time.perf_counter()
    claims = _chosen_claims(config, tell)
    # the runs record what the one-sentence verifier hands the verdict: no joint verifier needed
    checker = Checker.open(config.corpus, replace(settings, joint_verifier_model=""), progress=True)
    if checker.warnings:
        raise RuntimeError(" ".join(checker.warnings))
    policy = checker.verification.policy
    name = runs_name(config.corpus, model_dir)
    runs_path = config.runs or folder / f"verdict-{name}"
    renamed = [] if config.runs is not None or runs_path.exists() else sorted(folder.glob(f"*-{name}"))
    if renamed:  # runs made before the learned verdict had its name
        raise RunsUnderOldName(
            f"{renamed[0]} holds these runs under an old name: rename it to {runs_path.name} to go "
            "on from it, or delete it to check the claims again."
        )
    wanted = {c.claim for c in claims}
    runs = [r for r in collect_runs(checker, claims, runs_path) if r["claim"] in wanted]
    if config.joint_pairs_out:
        for path in write_joint_pairs(runs, config.joint_pairs_out, seed=config.seed):
            tell(f"wrote {path}")
        if config.joint_minimal_pairs:
            retrieval_runs = folder / f"retrieval-runs-{config.corpus}.jsonl"
            path = write_joint_minimal_pairs(
                checker, config.pairs, config.joint_minimal_pairs, config.joint_pairs_out, retrieval_runs, config.seed
            )
            tell(f"wrote {path}")
    runs = [dict(run, source=config.corpus) for run in runs]
    if config.plain_claims:
        runs += _plain_runs(config, settings, folder, model_dir)
    joint_model = NliModel.load(config.joint_model, settings.device) if config.joint_model else None
    learned = fit_learned_verdict(
        runs,
        policy.nei_threshold,
        seed=config.seed,
        joint_model=joint_model,
        subject_stance_min=config.subject_stance_min,
        sure_sentence_min=config.sure_sentence_min,
        claim_parts_min=config.claim_parts_min,
        bridge_min=config.bridge_min,
        verifier=checker.verification.verifier,
    )
    learned.report.update(
        {
            "corpus": config.corpus,
            "pairs": str(config.pairs),
            "nei_claims": str(config.nei_claims),
            "plain_claims": [str(path) for path in config.plain_claims],
            "plain_corpus": config.plain_corpus,
            "joint_model": config.joint_model,
            "wall_s": round(time.perf_counter() - started, 1),
        }
    )
    return {"saved": str(learned.save(model_dir)), **learned.report}
