"""Evaluation runs (fever_core/evaluation/run.py): a checker over a claims file, scored the FEVER way."""

import json

from fever_core.common.formats import load_claims
from fever_core.evaluation import BatchJob, evaluate, score_batch, scored_rows
from fever_core.pipeline import CheckOptions


def test_evaluate_reports_every_metric_and_writes_predictions(checker, claims_file, tmp_path):
    claims = load_claims(claims_file)
    out = tmp_path / "predictions.jsonl"
    rows = []
    report = evaluate(checker, claims, str(claims_file), predictions_path=out, progress=False, rows=rows).to_dict()
    assert [r["id"] for r in rows] == [1, 2, 3, 4]
    assert all(r["fever_correct"] <= r["label_correct"] for r in rows)
    for key in [
        "fever_score",
        "label_accuracy",
        "evidence_precision",
        "evidence_recall",
        "evidence_f1",
        "doc_recall_at_1",
        "doc_recall_at_5",
        "doc_recall_at_10",
        "sentence_recall_at_5",
        "latency_p50_s",
        "latency_p95_s",
        "claims_per_s",
        "confusion_matrix",
        "multi_page",
    ]:
        assert key in report
    assert report["n_claims"] == len(claims) == len(rows)  # every claim once
    assert report["doc_recall_at_5"] >= 2 / 3  # the fixture's single-page claims are easy
    assert sum(sum(row.values()) for row in report["confusion_matrix"].values()) == len(claims)
    assert report["multi_page"]["n"] == 1  # claim 3: one evidence set over two pages (claim 2 has two one-page sets)
    stages = report["stage_latency_p50_s"]
    assert {"analysis", "documents", "sentences", "verification", "total"} <= set(stages)
    assert stages["total"] == max(stages.values()) and 0 < stages["verification"] < stages["total"]
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert [l["id"] for l in lines] == [1, 2, 3, 4]
    assert all(len(l["predicted_evidence"]) <= 5 for l in lines)


def test_oracle_mode_uses_gold_evidence_for_verifiable_claims(checker, claims_file):
    report = evaluate(checker, load_claims(claims_file), oracle=True, progress=False)
    assert report.n_claims == 3 and report.skipped == {"oracle_without_gold_evidence": 1}
    assert report.scores.evidence_recall == 1.0


def test_an_oracle_run_in_a_background_job_is_scored_as_evaluate_scores_it(checker, claims_file):
    """The Evaluate page's way: a :class:`BatchJob` whose progress counts the claims skipped without gold evidence,
    its report scored by :func:`score_batch` as :func:`evaluate` scores the same run."""
    claims = load_claims(claims_file)
    job = BatchJob(claims).start(checker, oracle=True)
    job.wait(120)
    assert not job.running and job.error == "" and job.done <= job.total == 4 and len(job.rows()) == 3
    report = score_batch(job.report, checker, str(claims_file), oracle=True)
    expected = evaluate(checker, claims, str(claims_file), oracle=True, progress=False)
    assert (report.n_claims, report.skipped, report.scores) == (expected.n_claims, expected.skipped, expected.scores)
    assert [row["id"] for row in scored_rows(job.report)] == [c.id for c in claims if c.label != "NOT ENOUGH INFO"]


def test_two_hop_switch_is_recorded(checker, claims_file):
    report = evaluate(checker, load_claims(claims_file, limit=1), options=CheckOptions(two_hop=False), progress=False)
    assert report.two_hop is False and report.n_claims == 1
