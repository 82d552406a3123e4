"""End-to-end evaluation: run the checker over a FEVER claims file and report FEVER's metrics.

Besides the official five (see :mod:`fever_core.evaluation.scorer`) the report has document recall
at 1/5/10 and sentence recall at 5 (a complete gold evidence group among the pages / evidence;
over SUPPORTS and REFUTES claims), the same recall and the label accuracy on claims whose every gold
evidence group spans two pages or more (``multi_page``), a confusion matrix, and latency in seconds:
per claim (p50, p95) and the p50 of each pipeline stage (``stage_latency_p50_s``: ``analysis``,
``documents``, ``sentences``, ``two_hop``, ``verification``...).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from fever_core.common.formats import Claim
from fever_core.common.types import LABELS, NEI
from fever_core.evaluation.runner import BatchReport, BatchRow, run_batch
from fever_core.evaluation.scorer import FeverScores, fever_score, gold_groups, is_strictly_correct
from fever_core.pipeline import Checker, CheckOptions


def _complete(groups: list[list[list[Any]]], found: set[Any]) -> bool:
    return any(group and all(tuple(pair) in found for pair in group) for group in groups)


def _page_complete(groups: list[list[list[Any]]], pages: list[str]) -> bool:
    return any(group and all(pair[0] in pages for pair in group) for group in groups)


@dataclass
class EvaluationReport:
    """What ``python -m fever_core evaluate`` writes (see the module docstring). Recalls in [0, 1]."""

    claims_file: str
    corpus: str
    retriever: str
    two_hop: bool
    oracle_evidence: bool
    n_claims: int
    scores: FeverScores
    doc_recall_at_1: float
    doc_recall_at_5: float
    doc_recall_at_10: float
    sentence_recall_at_5: float
    multi_page: dict[str, float]
    confusion_matrix: dict[str, dict[str, int]]
    latency_p50_s: float
    latency_p95_s: float
    claims_per_s: float
    skipped: dict[str, int] = field(default_factory=dict)
    stage_latency_p50_s: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(data.pop("scores"))
        return data

    @classmethod
    def of(
        cls,
        batch: BatchReport,
        predictions: list[dict[str, Any]],
        claims_file: str,
        corpus: str,
        retriever: str,
        two_hop: bool,
        oracle: bool,
    ) -> EvaluationReport:
        """The report of a run of labelled claims: ``predictions`` are its rows' FEVER prediction lines."""
        doc_hits = {1: 0, 5: 0, 10: 0}
        sentence_hits = verifiable = multi_n = multi_hits = multi_right = 0
        for row in batch.rows:
            result, claim = row.result, row.claim
            if result is None or claim.label == NEI:
                continue
            groups = [g for g in gold_groups(claim.evidence) if g and all(p[0] is not None for p in g)]
            verifiable += 1
            pages = [p.page_id for p in result.pages]
            for k in doc_hits:
                doc_hits[k] += _page_complete(groups, pages[:k])
            hit = _complete(groups, {(e.sentence.page_id, e.sentence.line) for e in result.evidence})
            sentence_hits += hit
            if groups and all(len({p[0] for p in g}) > 1 for g in groups):
                multi_n += 1
                multi_hits += hit
                multi_right += result.verdict.label == claim.label
        confusion = {g: {p: 0 for p in LABELS} for g in LABELS}
        for prediction, row in zip(predictions, batch.rows):
            gold = row.claim.label
            assert gold is not None, "evaluate reads labelled claims (load_claims)"
            confusion[gold][prediction["predicted_label"]] += 1

        def ratio(hits: int) -> float:
            return hits / verifiable if verifiable else 0.0

        claim_errors = sum(row.result is None for row in batch.rows)
        return cls(
            claims_file=str(claims_file),
            corpus=corpus,
            retriever=retriever,
            two_hop=two_hop,
            oracle_evidence=oracle,
            n_claims=len(predictions),
            scores=fever_score(predictions, [row.claim.to_fever() for row in batch.rows]),
            doc_recall_at_1=ratio(doc_hits[1]),
            doc_recall_at_5=ratio(doc_hits[5]),
            doc_recall_at_10=ratio(doc_hits[10]),
            sentence_recall_at_5=ratio(sentence_hits),
            multi_page={
                "n": multi_n,
                "sentence_recall_at_5": multi_hits / multi_n if multi_n else 0.0,
                "label_accuracy": multi_right / multi_n if multi_n else 0.0,
            },
            confusion_matrix=confusion,
            latency_p50_s=batch.latency_s(50),
            latency_p95_s=batch.latency_s(95),
            claims_per_s=batch.claims_per_s,
            skipped={**batch.skipped, **({"claim_errors": claim_errors} if claim_errors else {})},
            stage_latency_p50_s=batch.stage_latency_p50_s(),
        )


def evaluate(
    checker: Checker,
    claims: list[Claim],
    claims_file: str = "",
    options: CheckOptions | None = None,
    oracle: bool = False,
    predictions_path: str | Path | None = None,
    progress: bool = True,
    rows: list[dict[str, Any]] | None = None,
) -> EvaluationReport:
    """Check every claim (:func:`~fever_core.evaluation.runner.run_batch`) and score the predictions
    (:func:`score_batch`).

    Args:
        oracle: verify against the first gold evidence group instead of retrieving (SUPPORTS /
            REFUTES claims only; label accuracy is the number that matters then).
        predictions_path: where to write one FEVER prediction line per claim (jsonl), with the verdict's
            ``probability`` (``None`` for a claim that could not be checked).
        progress: show a progress bar on stderr.
        rows: if given, :func:`scored_rows` of the run are appended to it.
    """
    with tqdm(total=len(claims), desc="Checking claims", unit="claim", disable=not progress) as bar:

        def advance(row: BatchRow, done: int, total: int) -> None:
            bar.update(done - bar.n)

        batch = run_batch(checker, claims, options, on_row=advance, oracle=oracle)
    if rows is not None:
        rows.extend(scored_rows(batch))
    if predictions_path:
        Path(predictions_path).parent.mkdir(parents=True, exist_ok=True)
        with open(predictions_path, "w", encoding="utf-8") as fh:
            fh.writelines(
                json.dumps({**row.fever_prediction(), "probability": row.confidence}, ensure_ascii=False) + "\n"
                for row in batch.rows
            )
    return score_batch(batch, checker, claims_file, options, oracle)


def score_batch(
    batch: BatchReport,
    checker: Checker,
    claims_file: str = "",
    options: CheckOptions | None = None,
    oracle: bool = False,
) -> EvaluationReport:
    """The report of a finished run of labelled claims (:func:`~fever_core.evaluation.runner.run_batch`, or a
    :class:`~fever_core.evaluation.runner.BatchJob`'s) made by ``checker`` with ``options``.

    Raises:
        ValueError: no claim was evaluated (in oracle mode: no claim had gold evidence in the corpus).
    """
    options = options or CheckOptions()
    predictions = [row.fever_prediction() for row in batch.rows]
    if not predictions:
        raise ValueError("No claim could be evaluated (in oracle mode, no claim had gold evidence in the corpus).")
    return EvaluationReport.of(
        batch,
        predictions,
        claims_file,
        checker.workspace.name,
        checker.retriever,
        bool(checker.settings.two_hop if options.two_hop is None else options.two_hop),
        oracle,
    )


def scored_rows(batch: BatchReport) -> list[dict[str, Any]]:
    """One dict per claim of a run of labelled claims: id, claim, gold and predicted label, whether the label and
    the FEVER score were right, predicted evidence."""
    return [_scored_row(row, row.fever_prediction()) for row in batch.rows]


def _scored_row(row: BatchRow, prediction: dict[str, Any]) -> dict[str, Any]:
    """What :func:`scored_rows` gives for a claim."""
    claim = row.claim
    return {
        "id": claim.id,
        "claim": claim.claim,
        "label": claim.label,
        "predicted_label": prediction["predicted_label"],
        "label_correct": prediction["predicted_label"] == claim.label,
        "fever_correct": is_strictly_correct({**prediction, **claim.to_fever()}, 5),
        "predicted_evidence": prediction["predicted_evidence"],
    }
