"""Evaluation: lists of claims checked and scored against labelled data.

:mod:`~fever_core.evaluation.runner` (the one runner for a list of claims, :func:`run_batch`, used by ``evaluate``,
``check-batch``, the Batch and Evaluate pages and the service's ``/predict``; its rows and report; :class:`BatchJob`,
a batch in a background thread), :mod:`~fever_core.evaluation.metrics` (which metrics a list's gold data allows),
:mod:`~fever_core.evaluation.output` (results tables as CSV no spreadsheet runs, prediction lines, the results file
a stopped batch goes on from), :mod:`~fever_core.evaluation.run` (:func:`evaluate`: FEVER's metrics, recalls and
latency of a claims file), :mod:`~fever_core.evaluation.scorer` (the official FEVER scorer's rules),
:mod:`~fever_core.evaluation.pairs` (a verifier scored on labelled pairs) and
:mod:`~fever_core.evaluation.corpus_benchmark` (a corpus's indexes: build time, memory, recall of compressed kinds).
"""

from __future__ import annotations

from fever_core.evaluation.corpus_benchmark import COMPARED_KINDS, benchmark_corpus, current_rss_mb
from fever_core.evaluation.metrics import EVIDENCE_METRICS, FEVER_METRICS, LABEL_METRICS, GoldData
from fever_core.evaluation.output import (
    FORMULA_STARTS,
    RESULT_COLUMNS,
    ResultsFile,
    ResultsFileError,
    predictions_jsonl,
    results_csv,
    results_path,
)
from fever_core.evaluation.pairs import PairsReport, evaluate_pairs
from fever_core.evaluation.run import EvaluationReport, evaluate, score_batch, scored_rows
from fever_core.evaluation.runner import BatchJob, BatchReport, BatchRow, check_claim, oracle_evidence, run_batch
from fever_core.evaluation.scorer import FeverScores, fever_score, gold_groups, is_strictly_correct

__all__ = [
    "COMPARED_KINDS",
    "EVIDENCE_METRICS",
    "FEVER_METRICS",
    "FORMULA_STARTS",
    "LABEL_METRICS",
    "RESULT_COLUMNS",
    "BatchJob",
    "BatchReport",
    "BatchRow",
    "EvaluationReport",
    "FeverScores",
    "GoldData",
    "PairsReport",
    "ResultsFile",
    "ResultsFileError",
    "benchmark_corpus",
    "check_claim",
    "current_rss_mb",
    "evaluate",
    "evaluate_pairs",
    "fever_score",
    "gold_groups",
    "is_strictly_correct",
    "oracle_evidence",
    "predictions_jsonl",
    "results_csv",
    "results_path",
    "run_batch",
    "score_batch",
    "scored_rows",
]
