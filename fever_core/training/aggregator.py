"""Training the claim-level verdict (:mod:`fever_core.verification.aggregator`) on end-to-end runs.

The verifier judges one premise at a time; the verdict for a claim has to weigh several retrieved
sentences, their selection scores and the verifier's stances, and above all tell a claim that the
corpus settles from one it only talks *about* (NOT ENOUGH INFO). That is learned here from what the
pipeline actually hands the verifier:

1. :func:`proxy_claims`: claims that are not benchmark claims (FEVER ``paper_test``: the S/R pairs
   file and the NEI claims file), kept where the corpus can answer them: a SUPPORTS / REFUTES claim
   only when every sentence of its gold evidence is in the corpus pages file;
2. :func:`collect_runs`: each claim checked end to end (retrieval, selection, two-hop, verifier),
   the evidence's scores and stances appended to a jsonl file, so a killed run resumes;
3. :func:`fit_aggregator`: a multinomial logistic regression over
   :func:`~fever_core.verification.aggregator.claim_features`, regularisation chosen by
   cross-validation, scored on a held-out share of the claims against the best-sentence rule;
   with a joint verifier, the share of its probabilities in the verdict (``joint_weight``) is
   chosen on the held-out claims too.

The joint verifier itself is an ordinary ``train verifier`` run on :func:`write_joint_pairs`' files:
the same runs as (top evidence joined, claim, claim label) pairs, split by the same hold-out, plus
(``--joint-minimal-pairs``) minimal pairs of training claims with and without their gold evidence
(:mod:`fever_core.training.minimal_pairs`).

Command line: ``python -m fever_core train aggregator --help``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from fever_core.jsonl import read_jsonl
from fever_core.text import fever_to_plain
from fever_core.training.pairs import PairFileError, evidence_sentences, iter_jsonl
from fever_core.types import LABELS, NEI, Stance
from fever_core.verification.aggregator import (
    FEATURE_NAMES,
    EvidenceView,
    LearnedAggregator,
    claim_features,
    joint_premise,
    mix,
)
from fever_core.verification.nli import NliModel

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProxyClaim:
    """A claim with a known label, for training the verdict."""

    claim: str
    label: str


def corpus_sentence_texts(pages_file: Path) -> dict[str, set[str]]:
    """Plain sentence texts per page id of a FEVER ``wiki-pages`` jsonl file."""
    from fever_core.corpus.sources.fever_jsonl import parse_lines_field

    texts: dict[str, set[str]] = {}
    for _, record in read_jsonl(Path(pages_file), error=PairFileError):
        sentences = parse_lines_field(record["id"], record.get("lines") or "")
        texts[record["id"]] = {s.text.strip() for s in sentences if s.text.strip()}
    return texts


def proxy_claims(pairs_file: Path, nei_claims_file: Path | None, pages_file: Path) -> list[ProxyClaim]:
    """SUPPORTS / REFUTES claims of a pair file whose evidence is all in ``pages_file``, and the NEI
    claims of ``nei_claims_file``, each claim once, in file order."""
    texts = corpus_sentence_texts(pages_file)
    seen: set[str] = set()
    out: list[ProxyClaim] = []
    for _, record in iter_jsonl(Path(pairs_file)):
        claim, pages = fever_to_plain(record["hypothesis"]), record.get("pages") or []
        if claim in seen or not pages or any(p not in texts for p in pages):
            continue
        known = set().union(*(texts[p] for p in pages))
        if all(sentence in known for sentence in evidence_sentences(record["premise"])):
            seen.add(claim)
            out.append(ProxyClaim(claim, record["label"]))
    if nei_claims_file is not None:
        for _, record in iter_jsonl(Path(nei_claims_file)):
            claim = fever_to_plain(record["claim"])
            if record.get("label") == NEI and claim not in seen:
                seen.add(claim)
                out.append(ProxyClaim(claim, NEI))
    return out


def append_checks(checker, claims: Sequence, out: Path, fields: Callable[[object], dict], options=None,
                  desc: str = "end-to-end runs", progress: bool = True) -> list[dict]:
    """Check every claim (anything with ``.claim`` and ``.label``) not yet in the jsonl file ``out``
    and append ``{"claim", "label", **fields(result)}`` for it, so an interrupted run continues where
    it stopped. ``options`` are the :class:`~fever_core.pipeline.CheckOptions` (default: the
    settings'). Returns every record in ``out``."""
    from tqdm.auto import tqdm

    done = {r["claim"] for _, r in read_jsonl(out, error=PairFileError)} if out.is_file() else set()
    todo = [c for c in claims if c.claim not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as fh:
        for item in tqdm(todo, desc=desc, unit="claim", disable=not progress):
            result = checker.check(item.claim, options)
            fh.write(json.dumps({"claim": item.claim, "label": item.label, **fields(result)}) + "\n")
            fh.flush()
    return [r for _, r in read_jsonl(out, error=PairFileError)]


def collect_runs(checker, claims: Sequence[ProxyClaim], out: Path, progress: bool = True) -> list[dict]:
    """Check every claim end to end and append ``{"claim", "label", "evidence": [...]}`` lines to
    ``out`` (resumable, :func:`append_checks`).

    Checks run with the default options, as the app and the benchmarks run them.
    """
    return append_checks(checker, claims, out, lambda result: {"evidence": [asdict(e.view()) for e in result.evidence]},
                         progress=progress)


def verifier_fingerprint(model_dir: Path) -> str:
    """Changes when the verifier's weights change, so runs made with another verifier are not reused."""
    weights = sorted(Path(model_dir).glob("*.safetensors")) or sorted(Path(model_dir).glob("*.bin"))
    stamp = "|".join(f"{w.name}:{w.stat().st_size}:{w.stat().st_mtime_ns}" for w in weights)
    return hashlib.sha1(f"{Path(model_dir).resolve()}|{stamp}".encode()).hexdigest()[:10]


HOLDOUT = 0.2
"""Share of the claims held out of training (by a hash of the claim) to report on and choose weights with."""


def _holdout(claim: str, fraction: float, seed: int) -> bool:
    return random.Random(f"{seed}|{claim}").random() < fraction


def write_joint_pairs(runs: Sequence[dict], out_dir: Path, holdout: float = HOLDOUT, seed: int = 0) -> tuple[Path, Path]:
    """Write the runs as joint-verifier pairs (premise = :func:`joint_premise` of the evidence,
    hypothesis = claim, label = the claim's label) in the ``nli/`` pair format, split into
    ``joint-train.jsonl`` and ``joint-heldout.jsonl`` by the hold-out :func:`fit_aggregator` uses,
    so the verdict's mix weight is chosen on claims the joint verifier never saw.

    Returns:
        The two paths (train, held out).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = out_dir / "joint-train.jsonl", out_dir / "joint-heldout.jsonl"
    with paths[0].open("w", encoding="utf-8") as train, paths[1].open("w", encoding="utf-8") as held:
        for run in runs:
            is_held = _holdout(run["claim"], holdout, seed)
            record = {
                "premise": joint_premise([e["text"] for e in run["evidence"]]),
                "hypothesis": run["claim"],
                "label": run["label"],
                "source": "joint-heldout" if is_held else "joint",
            }
            (held if is_held else train).write(json.dumps(record, ensure_ascii=False) + "\n")
    return paths


def choose_joint_weight(regression: np.ndarray, joint: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The weight in 0, 0.05 .. 1 whose mix of the two probability matrices (``(n, 3)``) labels the
    most claims right (the smallest such weight on ties); returns ``(weight, accuracy)``."""
    best = (0.0, -1.0)
    for weight in np.round(np.arange(0.0, 1.0001, 0.05), 2):
        accuracy = float((mix(regression, joint, float(weight)).argmax(axis=1) == labels).mean())
        if accuracy > best[1]:
            best = (float(weight), accuracy)
    return best


def best_sentence_labels(views: Sequence[Sequence[EvidenceView]], nei_threshold: float | None) -> np.ndarray:
    """The best-sentence rule's labels (what a verifier without an aggregator does), for comparison."""
    from fever_core.verification.verdict import aggregate

    labels = []
    for evidence in views:
        stances = [Stance(*(e.stance[label] for label in LABELS)) if e.stance else None for e in evidence]
        labels.append(LABELS.index(aggregate(stances, [""] * len(stances), nei_threshold).label))
    return np.array(labels, dtype=np.int64)


def fit_aggregator(
    runs: Sequence[dict],
    nei_threshold: float | None = None,
    holdout: float = HOLDOUT,
    seed: int = 0,
    joint_model: NliModel | None = None,
) -> LearnedAggregator:
    """Fit the verdict model on end-to-end runs (from :func:`collect_runs`).

    Args:
        runs: ``{"claim", "label", "evidence": [EvidenceView as dict, ...]}`` records.
        nei_threshold: the verifier's NEI rule, for the best-sentence baseline in the report.
        holdout: share of claims (by a hash of the claim) held out for the report; the regularisation
            is chosen by 5-fold cross-validation on the rest, and the final model refit with it on all claims.
        seed: for the hold-out split and cross-validation folds.
        joint_model: a joint verifier (an :class:`~fever_core.verification.nli.NliModel` trained on
            the :func:`write_joint_pairs` train file, so the held-out claims are new to it), or ``None``.

    Returns:
        The aggregator; ``report`` holds the hold-out accuracy of it and of the best-sentence rule,
        the chosen regularisation and the claim counts, and with a joint verifier its own hold-out
        accuracy, the chosen ``joint_weight`` and the mix's accuracy.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, StratifiedKFold

    views = [[EvidenceView(**e) for e in r["evidence"]] for r in runs]
    X = np.stack([claim_features(r["claim"], v) for r, v in zip(runs, views)])
    y = np.array([LABELS.index(r["label"]) for r in runs], dtype=np.int64)
    held = np.array([_holdout(r["claim"], holdout, seed) for r in runs])

    def fit(rows: np.ndarray, c: float | None = None) -> tuple[LogisticRegression, np.ndarray, np.ndarray, float]:
        mean, scale = X[rows].mean(axis=0), X[rows].std(axis=0)
        scale[scale == 0] = 1.0
        if c is not None:
            return LogisticRegression(C=c, max_iter=2000).fit((X[rows] - mean) / scale, y[rows]), mean, scale, c
        folds = min(5, int(np.bincount(y[rows]).min()) if len(set(y[rows])) > 1 else 0)
        if folds < 2:  # too few claims of some label to cross-validate: plain C=1
            model = LogisticRegression(max_iter=2000).fit((X[rows] - mean) / scale, y[rows])
            return model, mean, scale, 1.0
        search = GridSearchCV(
            LogisticRegression(max_iter=2000),
            {"C": [0.01, 0.1, 1.0, 10.0]},
            cv=StratifiedKFold(folds, shuffle=True, random_state=seed),
        )
        search.fit((X[rows] - mean) / scale, y[rows])
        return search.best_estimator_, mean, scale, float(search.best_params_["C"])

    if held.all() or not held.any() or len(set(y[~held])) < 2:
        held = np.zeros(len(runs), dtype=bool)  # too few claims to hold any out: report on none
        model, mean, scale, c = None, None, None, None
    else:
        model, mean, scale, c = fit(~held)
    predicted = model.predict((X[held] - mean) / scale) if model is not None else np.zeros(0, dtype=np.int64)
    baseline = best_sentence_labels([v for v, h in zip(views, held) if h], nei_threshold)
    confusion = {
        gold: {pred: int(((y[held] == i) & (predicted == j)).sum()) for j, pred in enumerate(LABELS)}
        for i, gold in enumerate(LABELS)
    }
    report = {
        "n_claims": int(len(runs)),
        "n_holdout": int(held.sum()),
        "labels": {label: int((y == i).sum()) for i, label in enumerate(LABELS)},
        "holdout_accuracy": float((predicted == y[held]).mean()) if held.any() else None,
        "holdout_accuracy_best_sentence_rule": float((baseline == y[held]).mean()) if held.any() else None,
        "holdout_confusion": confusion,
        "C": c,
    }
    log.info("aggregator hold-out accuracy %s (best-sentence rule %s), C=%s",
             report["holdout_accuracy"], report["holdout_accuracy_best_sentence_rule"], c)
    joint_weight = 0.0
    if joint_model is not None and model is not None:
        held_runs = [r for r, h in zip(runs, held) if h]
        joint = joint_model.predict([(joint_premise([e["text"] for e in r["evidence"]]), r["claim"]) for r in held_runs])
        regression = model.predict_proba((X[held] - mean) / scale)
        joint_weight, mixed_accuracy = choose_joint_weight(regression, joint.astype(np.float64), y[held])
        report.update({
            "holdout_accuracy_joint_verifier": float((joint.argmax(axis=1) == y[held]).mean()),
            "joint_weight": joint_weight,
            "holdout_accuracy_with_joint_verifier": mixed_accuracy,
        })
        log.info("joint verifier hold-out accuracy %.4f; mixed with weight %.2f: %.4f",
                 report["holdout_accuracy_joint_verifier"], joint_weight, mixed_accuracy)
    final, mean, scale, _ = fit(np.ones(len(runs), dtype=bool), c)
    return LearnedAggregator(final.coef_, final.intercept_, mean, scale, list(FEATURE_NAMES), report, joint_weight)


def write_joint_minimal_pairs(checker, pairs_file: Path, n_claims: int, out_dir: Path, retrieval_runs: Path,
                              seed: int = 0) -> Path:
    """Minimal pairs of ``n_claims`` claims of ``pairs_file`` sampled outside the hold-out: retrieval
    for them (resumable, cached in ``retrieval_runs``), then ``out_dir/joint-minimal.jsonl``; returns its path."""
    from fever_core.training.minimal_pairs import collect_retrieval_runs, gold_evidence, write_minimal_pairs

    candidates = [g for g in gold_evidence(pairs_file) if not _holdout(g.claim, HOLDOUT, seed)]
    chosen = random.Random(seed).sample(candidates, min(n_claims, len(candidates)))
    retrieved = collect_retrieval_runs(checker, chosen, retrieval_runs)
    path = Path(out_dir) / "joint-minimal.jsonl"
    written = write_minimal_pairs(chosen, retrieved, path, seed=seed)
    log.info("%d minimal pairs from %d claims", written, len(chosen))
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m fever_core train aggregator",
        description="Train the claim-level verdict on end-to-end runs of non-benchmark claims and save it "
        "as aggregator.json beside the verifier.",
    )
    parser.add_argument("--pairs", required=True, type=Path,
                        help="pair file with FEVER evidence pages (e.g. nli/fever-paper-test.jsonl): its S/R claims")
    parser.add_argument("--nei-claims", type=Path, default=None, help="NEI claims file (e.g. nli/fever-paper-test-nei-claims.jsonl)")
    parser.add_argument("--pages", required=True, type=Path,
                        help="FEVER wiki-pages jsonl of the corpus: S/R claims are kept when all their evidence is in it")
    parser.add_argument("--corpus", required=True, help="the named corpus the claims are checked on (e.g. fever-dev)")
    parser.add_argument("--model", default=None, help="verifier directory (default: the configured verifier); "
                        "aggregator.json is written there")
    parser.add_argument("--limit", type=int, default=None, help="check at most this many claims (a seeded random sample)")
    parser.add_argument("--runs", type=Path, default=None,
                        help="jsonl of end-to-end runs (resumed if present); default "
                        "data/training/aggregator-runs-CORPUS-VERIFIER.jsonl, VERIFIER a fingerprint of the weights")
    parser.add_argument("--joint-model", default=None,
                        help="joint verifier directory or id, trained on --joint-pairs-out's train file: its "
                        "share in the verdict is chosen on the held-out claims (default: none)")
    parser.add_argument("--joint-pairs-out", type=Path, default=None,
                        help="also write the runs as joint-verifier pair files (joint-train.jsonl, "
                        "joint-heldout.jsonl) into this directory")
    parser.add_argument("--joint-minimal-pairs", type=int, default=0, metavar="N",
                        help="with --joint-pairs-out: also write joint-minimal.jsonl, minimal pairs (without / with "
                        "gold evidence) of N sampled S/R claims of --pairs, none of them held out (default: 0, none)")
    parser.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the process exit code."""
    from fever_core.pipeline import Checker
    from fever_core.settings import Settings
    from fever_core.verification.decision import load_decision_rule

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    args = build_parser().parse_args(argv)
    settings = Settings.from_env(**({"verifier_model": args.model} if args.model else {}))
    model_dir = Path(settings.verifier_model)
    if not model_dir.is_dir():
        print(f"error: {model_dir} is not a local verifier directory", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        claims = proxy_claims(args.pairs, args.nei_claims, args.pages)
    except (PairFileError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    random.Random(args.seed).shuffle(claims)
    claims = claims[: args.limit] if args.limit else claims
    runs_path = args.runs or (
        settings.data_dir / "training" / f"aggregator-runs-{args.corpus}-{verifier_fingerprint(model_dir)}.jsonl"
    )
    # the runs record what the one-sentence verifier hands the verdict: no joint verifier needed
    checker = Checker.open(args.corpus, replace(settings, joint_verifier_model=""), progress=True)
    wanted = {c.claim for c in claims}
    runs = [r for r in collect_runs(checker, claims, runs_path) if r["claim"] in wanted]
    if args.joint_pairs_out:
        for path in write_joint_pairs(runs, args.joint_pairs_out, seed=args.seed):
            print(f"wrote {path}", file=sys.stderr)
        if args.joint_minimal_pairs:
            retrieval_runs = settings.data_dir / "training" / f"retrieval-runs-{args.corpus}.jsonl"
            path = write_joint_minimal_pairs(checker, args.pairs, args.joint_minimal_pairs, args.joint_pairs_out,
                                             retrieval_runs, args.seed)
            print(f"wrote {path}", file=sys.stderr)
    joint_model = NliModel.load(args.joint_model, settings.device) if args.joint_model else None
    aggregator = fit_aggregator(runs, load_decision_rule(model_dir).nei_threshold, seed=args.seed, joint_model=joint_model)
    aggregator.report.update({"corpus": args.corpus, "pairs": str(args.pairs), "nei_claims": str(args.nei_claims),
                              "joint_model": args.joint_model, "wall_s": round(time.perf_counter() - started, 1)})
    path = aggregator.save(model_dir)
    print(json.dumps({"saved": str(path), **aggregator.report}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
