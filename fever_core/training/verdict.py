"""Fitting the learned verdict (:class:`~fever_core.verification.learned.LearnedVerdict`) on end-to-end runs.

The verifier judges one premise at a time; the verdict for a claim has to weigh several retrieved
sentences, their selection scores and the verifier's stances, and above all tell a claim that the
corpus settles from one it only talks *about* (NOT ENOUGH INFO). That is learned here from what the
pipeline actually hands the verifier:

1. :func:`proxy_claims`: claims that are not benchmark claims (FEVER ``paper_test``: the S/R pairs
   file and the NEI claims file), kept where the corpus can answer them: a SUPPORTS / REFUTES claim
   only when every sentence of its gold evidence is in the corpus pages file;
2. :func:`collect_runs`: each claim checked end to end (retrieval, selection, two-hop, verifier),
   its judged evidence (:class:`~fever_core.verification.evidence.JudgedSentence`, as a check's JSON writes it)
   appended to a jsonl file, so a killed run resumes;
3. :func:`fit_learned_verdict`: a multinomial logistic regression over
   :func:`~fever_core.verification.features.claim_features` (the function the checker calls), regularisation chosen
   by cross-validation, scored on a held-out share of the claims against the best-sentence rule as it ships
   (:func:`~fever_core.verification.deciders.best_sentence_rule`, on the same judged evidence);
   with a joint verifier, the share of its probabilities in the verdict (``joint_weight``) is
   chosen on the held-out claims too. What it reports as shipped is the verdict's cascade
   (:data:`~fever_core.verification.cascade.CASCADE`, :func:`~fever_core.verification.cascade.run_cascade`) run on
   the held-out claims' judged evidence with the fit and the thresholds it ships with, as a check runs it; the
   best-sentence rule's figure is the same cascade without the learned verdict.

The joint verifier itself is an ordinary ``train verifier`` run on the same runs written as pairs
(:mod:`fever_core.training.joint`).

From claims to ``verdict.json`` (choosing the claims, keeping the runs, saving the fit):
:mod:`~fever_core.training.verdict_training`; its command: ``python -m fever_core train verdict --help``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.formats import evidence_sentences, iter_records
from fever_core.common.text import fever_to_plain, page_id_to_title
from fever_core.common.types import LABELS, NEI
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.training.reserved import names_reserved, reserved_titles
from fever_core.training.runs import append_checks
from fever_core.verification.cascade import CASCADE, ClaimInCascade, run_cascade
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.features import FEATURE_NAMES, claim_features, joint_premise
from fever_core.verification.learned import LearnedVerdict, mix
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import VerdictPolicy

if TYPE_CHECKING:
    from fever_core.pipeline import Checker

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
    for _, record in iter_records(Path(pages_file)):
        sentences = parse_lines_field(record["id"], record.get("lines") or "")
        texts[record["id"]] = {s.text.strip() for s in sentences if s.text.strip()}
    return texts


def proxy_claims(pairs_file: Path, nei_claims_file: Path | None, pages_file: Path) -> list[ProxyClaim]:
    """SUPPORTS / REFUTES claims of a pair file whose evidence is all in ``pages_file`` and on no reserved page
    (:mod:`~fever_core.training.reserved`), and the NEI claims of ``nei_claims_file``, each claim once, in file
    order."""
    texts = corpus_sentence_texts(pages_file)
    reserved = reserved_titles()
    seen: set[str] = set()
    out: list[ProxyClaim] = []
    for _, record in iter_records(Path(pairs_file)):
        claim, pages = fever_to_plain(record["hypothesis"]), record.get("pages") or []
        if claim in seen or not pages or any(p not in texts for p in pages) or names_reserved("", pages, reserved):
            continue
        known = set().union(*(texts[p] for p in pages))
        if all(sentence in known for sentence in evidence_sentences(record["premise"])):
            seen.add(claim)
            out.append(ProxyClaim(claim, record["label"]))
    if nei_claims_file is not None:
        for _, record in iter_records(Path(nei_claims_file)):
            claim = fever_to_plain(record["claim"])
            if record.get("label") == NEI and claim not in seen:
                seen.add(claim)
                out.append(ProxyClaim(claim, NEI))
    return out


def named_titles(record: dict[str, Any]) -> set[str]:
    """The page titles a claim or pair record names: its evidence pages, the ``near`` page of a NOT ENOUGH INFO
    claim, and a pair's ``page`` or ``pages``."""
    ids = [item[2] for group in record.get("evidence") or [] for item in group if len(item) > 2 and item[2]]
    ids += [record["near"]["page_id"]] if isinstance(record.get("near"), dict) else []
    ids += [record["page"]] if isinstance(record.get("page"), str) else []
    ids += [page for page in record.get("pages") or [] if isinstance(page, str)]
    return {page_id_to_title(page_id) for page_id in ids}


def yardstick_titles(claim_files: Sequence[Path]) -> set[str]:
    """The page titles claims files name (:func:`named_titles`): the yardsticks' pages, which the verdict's
    plain-style claims must leave alone."""
    return {title for path in claim_files for _, record in iter_records(Path(path)) for title in named_titles(record)}


def plain_style_claims(files: Sequence[Path], exclude_titles: set[str]) -> list[ProxyClaim]:
    """Claims written like a person's, from pages no yardstick uses (none of ``exclude_titles``) and no reserved page
    (:func:`~fever_core.training.reserved.reserved_titles`), each claim once, in file order. Two kinds of file:

    - claims written by hand (``claim``, ``label``, ``evidence`` as ``benchmarks/recipes/verdict-claims/`` holds
      them): every claim whose evidence and ``near`` pages are not excluded;
    - generated pairs (``premise``, ``hypothesis``, ``label``: ``train generate-claims``' ``heldout.jsonl``, plain or
      ``--contrast``, pages the verifier never trained on): the SUPPORTS / REFUTES claims whose premise names no
      excluded page. Their NOT ENOUGH INFO pairs are left out: such a claim is true of its page (the pair's premise
      is only another sentence of it), so checked end to end it is no NOT ENOUGH INFO claim.
    """
    exclude_titles = set(exclude_titles) | reserved_titles()
    seen: set[str] = set()
    out: list[ProxyClaim] = []
    for path in files:
        for _, record in iter_records(Path(path)):
            if "hypothesis" in record:
                claim, label = record["hypothesis"], record["label"]
                excluded = label == NEI or any(f"{title}: " in record["premise"] for title in exclude_titles)
            else:
                claim, label = record["claim"], record["label"]
                excluded = bool(named_titles(record) & exclude_titles)
            if not excluded and claim not in seen:
                seen.add(claim)
                out.append(ProxyClaim(claim, label))
    return out


def collect_runs(
    checker: Checker, claims: Sequence[ProxyClaim], out: Path, progress: bool = True
) -> list[dict[str, Any]]:
    """Check every claim end to end and append ``{"claim", "label", "evidence": [...]}`` lines to
    ``out`` (resumable, :func:`~fever_core.training.runs.append_checks`), the evidence as
    :meth:`~fever_core.verification.evidence.JudgedSentence.to_dict` writes it.

    Checks run with the default options, as the app and the benchmarks run them.
    """
    return append_checks(
        checker, claims, out, lambda result: {"evidence": [e.to_dict() for e in result.evidence]}, progress=progress
    )


def run_evidence(run: dict[str, Any]) -> list[JudgedSentence]:
    """A run's judged evidence (:func:`collect_runs`). Raises ``ValueError`` for a run written before the runs
    recorded the whole judged sentence."""
    try:
        return [JudgedSentence.from_dict(item) for item in run["evidence"]]
    except KeyError as exc:
        raise ValueError(
            f"The run of {run.get('claim', '?')!r} lacks {exc}: it was written by an older workbench, "
            "whose runs recorded only scores, hops, stances and text. Move the runs file aside (its name "
            "is printed above) and run `train verdict` again to collect the runs anew."
        ) from None


HOLDOUT = 0.2
"""Share of the claims held out of training (by a hash of the claim) to report on and choose weights with."""


def in_holdout(claim: str, fraction: float, seed: int) -> bool:
    """Whether ``claim`` is in the verdict's hold-out (about ``fraction`` of claims, stable for a ``seed``)."""
    return random.Random(f"{seed}|{claim}").random() < fraction


def choose_joint_weight(regression: np.ndarray, joint: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The weight in 0, 0.05 .. 1 whose mix of the two probability matrices (``(n, 3)``) labels the
    most claims right (the smallest such weight on ties); returns ``(weight, accuracy)``."""
    best = (0.0, -1.0)
    for weight in np.round(np.arange(0.0, 1.0001, 0.05), 2):
        accuracy = float((mix(regression, joint, float(weight)).argmax(axis=1) == labels).mean())
        if accuracy > best[1]:
            best = (float(weight), accuracy)
    return best


def cascade_labels(
    claims: Sequence[tuple[str, list[JudgedSentence]]],
    policy: VerdictPolicy,
    verifier: NliModel | None = None,
    joint_model: NliModel | None = None,
) -> tuple[np.ndarray, list[str]]:
    """The label indexes the verdict's cascade gives ``claims`` (each claim with its judged evidence) under
    ``policy``, as a check decides them: the stages its settings turn on, the verifier reading what they ask (the
    parts, the bridges, the number check's rewritings) and the joint verifier the top sentences together. Without a
    ``verifier`` the stages that would have it read more are left off. Also returns the names of the stages that
    ran."""
    learned = policy.learned
    if verifier is None:
        policy = replace(policy, number_check=False)
        if learned is not None:
            policy = replace(policy, learned=replace(learned, claim_parts_min=None, bridge_min=None))
    decisions = run_cascade(
        [ClaimInCascade(ClaimAnalysis(claim), policy, judged) for claim, judged in claims], verifier, joint_model
    )
    labels = np.array([LABELS.index(decision.label) for decision in decisions], dtype=np.int64)
    return labels, [stage.name for stage in CASCADE if stage.on(policy)]


def fit_learned_verdict(
    runs: Sequence[dict[str, Any]],
    nei_threshold: float | None = None,
    holdout: float = HOLDOUT,
    seed: int = 0,
    joint_model: NliModel | None = None,
    balanced: bool = True,
    subject_stance_min: float | None = None,
    sure_sentence_min: float | None = None,
    claim_parts_min: float | None = None,
    bridge_min: float | None = None,
    verifier: NliModel | None = None,
) -> LearnedVerdict:
    """Fit the learned verdict on end-to-end runs (from :func:`collect_runs`).

    Args:
        runs: ``{"claim", "label", "evidence": [JudgedSentence as dict, ...]}`` records; with a ``"source"`` (the
            corpus they were checked on), the report also gives the hold-out accuracy of each source.
        nei_threshold: the verifier's NEI rule, which the best-sentence rule and the cascade read stances by.
        holdout: share of claims (by a hash of the claim) held out for the report; the regularisation
            is chosen by 5-fold cross-validation on the rest, and the final model refit with it on all claims.
        seed: for the hold-out split and cross-validation folds.
        joint_model: a joint verifier (an :class:`~fever_core.verification.nli.NliModel` trained on
            the :func:`~fever_core.training.joint.write_joint_pairs` train file, so the held-out claims are
            new to it), or ``None``.
        balanced: weigh the labels equally in the fit (``class_weight="balanced"``), so the verdict does not
            learn the training corpus's share of NOT ENOUGH INFO claims (a third of FEVER's; none of FM2's).
            Default True; verdicts shipped before it were fit without.
        subject_stance_min, sure_sentence_min, claim_parts_min, bridge_min: the thresholds of the cascade's stages
            to ship with it (:class:`~fever_core.verification.learned.LearnedVerdict`; ``None``: that stage off).
        verifier: the verifier the runs were judged by, which reads what the parts, the bridges and the number
            check ask on the held-out claims; ``None``: those stages are left out of the figures as shipped, and
            the report says so.

    Returns:
        The learned verdict; ``report`` holds the hold-out accuracy of it (the regression alone) and of the
        best-sentence rule as it ships (the cascade without a learned verdict), the chosen regularisation and the
        claim counts, with a joint verifier its own hold-out accuracy, the chosen ``joint_weight`` and the mix's
        accuracy, and ``holdout_accuracy_as_shipped``: the verdict as a check decides it, the whole cascade with the
        fit (on the other claims) and these thresholds, whose stages ``as_shipped_stages`` names.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, StratifiedKFold

    evidence = [run_evidence(r) for r in runs]
    X = np.stack([claim_features(r["claim"], judged) for r, judged in zip(runs, evidence)])
    y = np.array([LABELS.index(r["label"]) for r in runs], dtype=np.int64)
    held = np.array([in_holdout(r["claim"], holdout, seed) for r in runs])
    options = {"max_iter": 2000, "class_weight": "balanced" if balanced else None}

    def fit(rows: np.ndarray, c: float | None = None) -> tuple[LogisticRegression, np.ndarray, np.ndarray, float]:
        mean, scale = X[rows].mean(axis=0), X[rows].std(axis=0)
        scale[scale == 0] = 1.0
        if c is not None:
            return LogisticRegression(C=c, **options).fit((X[rows] - mean) / scale, y[rows]), mean, scale, c
        folds = min(5, int(np.bincount(y[rows]).min()) if len(set(y[rows])) > 1 else 0)
        if folds < 2:  # too few claims of some label to cross-validate: plain C=1
            model = LogisticRegression(**options).fit((X[rows] - mean) / scale, y[rows])
            return model, mean, scale, 1.0
        search = GridSearchCV(
            LogisticRegression(**options),
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
    held_claims = [(r["claim"], judged) for r, judged, h in zip(runs, evidence, held) if h]
    baseline, _ = cascade_labels(held_claims, VerdictPolicy(nei_threshold), verifier)
    confusion = {
        gold: {pred: int(((y[held] == i) & (predicted == j)).sum()) for j, pred in enumerate(LABELS)}
        for i, gold in enumerate(LABELS)
    }
    report = {
        "n_claims": len(runs),
        "n_holdout": int(held.sum()),
        "labels": {label: int((y == i).sum()) for i, label in enumerate(LABELS)},
        "holdout_accuracy": float((predicted == y[held]).mean()) if held.any() else None,
        "holdout_accuracy_best_sentence_rule": float((baseline == y[held]).mean()) if held.any() else None,
        "holdout_confusion": confusion,
        "C": c,
        "class_weight": options["class_weight"],
    }
    log.info(
        "learned verdict hold-out accuracy %s (best-sentence rule %s), C=%s",
        report["holdout_accuracy"],
        report["holdout_accuracy_best_sentence_rule"],
        c,
    )
    joint_weight = 0.0
    if joint_model is not None and model is not None:
        joint = joint_model.predict(
            [
                (joint_premise([item.titled for item in judged]), r["claim"])
                for r, judged, h in zip(runs, evidence, held)
                if h
            ]
        )
        regression = model.predict_proba((X[held] - mean) / scale)
        joint_weight, mixed_accuracy = choose_joint_weight(regression, joint.astype(np.float64), y[held])
        report.update(
            {
                "holdout_accuracy_joint_verifier": float((joint.argmax(axis=1) == y[held]).mean()),
                "joint_weight": joint_weight,
                "holdout_accuracy_with_joint_verifier": mixed_accuracy,
            }
        )
        log.info(
            "joint verifier hold-out accuracy %.4f; mixed with weight %.2f: %.4f",
            report["holdout_accuracy_joint_verifier"],
            joint_weight,
            mixed_accuracy,
        )

    def shipped_with(weights: np.ndarray, bias: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> LearnedVerdict:
        """A learned verdict of these numbers with the joint weight and the stages' thresholds it ships with."""
        return LearnedVerdict(
            weights,
            bias,
            mean,
            scale,
            list(FEATURE_NAMES),
            report,
            joint_weight,
            subject_stance_min,
            sure_sentence_min,
            claim_parts_min,
            bridge_min,
        )

    if model is not None and mean is not None and scale is not None and held.any():
        fit_on_the_rest = shipped_with(model.coef_, model.intercept_, mean, scale)
        shipped, stages = cascade_labels(
            held_claims,
            VerdictPolicy(nei_threshold, learned=fit_on_the_rest),
            verifier,
            joint_model if joint_weight > 0 else None,  # as a checker loads it
        )
        report["as_shipped_stages"] = stages
        report["holdout_accuracy_as_shipped"] = float((shipped == y[held]).mean())
        sources = np.array([r.get("source", "") for r, h in zip(runs, held) if h])
        if len(set(sources)) > 1:  # a mix (train verdict --plain-claims): each part's own figure
            report["holdout_accuracy_as_shipped_by_source"] = {
                source: float((shipped[sources == source] == y[held][sources == source]).mean())
                for source in sorted(set(sources))
            }
    final, mean, scale, _ = fit(np.ones(len(runs), dtype=bool), c)
    return shipped_with(final.coef_, final.intercept_, mean, scale)
