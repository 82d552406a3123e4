"""Evaluate: run the checker over a claims file and show FEVER's metrics, errors and latency.

A metric is shown only where the file has gold data for it, "n/a" otherwise (label accuracy needs
labels; the FEVER score gold evidence for every Supported / Refuted claim; the evidence and
retrieval metrics those evidence sets). A smaller run checks a sample drawn evenly across the labels (seeded, so
the same each time), not the file's first claims, which are often all of one label. A file whose claims all have
labels is scored as
``python -m fever_core evaluate`` scores it; one with unlabelled claims (text, CSV or jsonl) is checked
as a batch, and scored on its labelled claims.

A run checks its claims in the background as Batch does (:class:`~fever_core.evaluation.runner.BatchJob`, kept
with the app's background runs and named in the page's address): its progress is polled by a fragment, it can be
stopped, and a reload finds it again.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass

import pandas as pd
import plotly.express as px
import streamlit as st

from fever_core.common import LABELS, Claim, DataFileError, Settings, load_claim_list, sample_across_labels
from fever_core.evaluation import (
    EVIDENCE_METRICS,
    FEVER_METRICS,
    LABEL_METRICS,
    BatchJob,
    BatchRow,
    GoldData,
    score_batch,
    scored_rows,
)
from pages.background_runs import keep_run, run_in_address, share_run, show_run
from pages.display import corpus_label, footer, plain, project_path, ready_claims_file, show_metrics, uploaded_claims
from pages.resources import checker_or_stop, run_settings
from pages.settings_ui import UiSettings, current_settings, permalink_url
from pages.words import count, verdict_word, verdict_words, yes_no

METRICS = (*FEVER_METRICS, *LABEL_METRICS, *EVIDENCE_METRICS)
NOT_IN_BATCH_RUNS = "computed when every claim of the file has a label"
# The seed of the sample a smaller run checks (fever_core.common.formats.sample_across_labels).
SAMPLE_SEED = 0
# How often a running evaluation's progress is redrawn, in seconds.
POLL_SECONDS = 1.0


@dataclass(frozen=True)
class Evaluation:
    """A run as the page shows it.

    Attributes:
        gold: the gold data of the claims checked.
        metrics: each of :data:`METRICS` in [0, 1], ``None`` where it can't be computed.
        rows: one per claim: id, claim, label (gold, ``None`` when unlabelled), predicted_label,
            label_correct and fever_correct (``None`` when unknown), predicted_evidence.
        report: what "Download report" gives.
        scored_by_evaluate: scored as ``python -m fever_core evaluate`` scores (else checked as a batch).
    """

    gold: GoldData
    metrics: dict[str, float | None]
    rows: list[dict]
    report: dict
    scored_by_evaluate: bool

    def missing_for(self, metric: str) -> str:
        """Why ``metric`` is n/a."""
        return self.gold.missing_for(metric) or NOT_IN_BATCH_RUNS


def claims_file_problem(path: str) -> str:
    """Why ``path`` (as typed) can't be read as a claims file, before anything runs ("" when it can be tried)."""
    if not path.strip():
        return "Give the path of a claims file (FEVER jsonl, CSV or text, one claim a line), or upload one."
    file = project_path(path)
    if not file.exists():
        return f"There is no file at {path.strip()}: check the path, or upload the file instead."
    if not file.is_file():
        return f"{path.strip()} is a folder: give the path of a claims file in it."
    return ""


def read_claims(path: str, upload) -> list[Claim]:
    """The claims of the uploaded file, else of the file at ``path`` (relative to the project, or absolute); an
    error on the page, and a stop, when they can't be read."""
    try:
        if upload is not None:
            claims = uploaded_claims(upload)
        else:
            problem = claims_file_problem(path)
            if problem:
                st.error(plain(problem))
                st.stop()
            claims = load_claim_list(str(project_path(path)))
    except DataFileError as exc:
        st.error(plain(f"Can't read the claims: {exc}"))
        st.stop()
    return claims


def sample_note(claims: list[Claim], sample: list[Claim]) -> str:
    """What a run checks: all the claims, or a sample of them and how it was drawn, with its labels."""
    if len(sample) == len(claims):
        return f"Checking all {count(len(claims), 'claim')} of the file."
    labels = [claim.label for claim in sample]
    spread = ", ".join(f"{labels.count(label)} {verdict_word(label)}" for label in LABELS if label in labels)
    unlabelled = f", {labels.count(None)} without a label" if None in labels else ""
    return (
        f"Checking a sample of {len(sample)} of the file's {count(len(claims), 'claim')}, drawn at random evenly "
        f"across the labels (seed {SAMPLE_SEED}, the same sample each run): {spread}{unlabelled}. "
        "Set “Claims to check” to 0 to check them all."
    )


@dataclass
class EvaluationRun:
    """An evaluation as the page knows it while and after it runs: the job checking the claims, where they came
    from, the sidebar's choices it runs with and the workbench's settings it was started under, whether it reads gold
    evidence, the claims' gold data, what the sample is, and (once the job has ended) the evaluation."""

    job: BatchJob
    source: str
    ui: UiSettings
    settings: Settings
    oracle: bool
    gold: GoldData
    sample_note: str
    evaluation: Evaluation | None = None


def start_evaluation(
    settings: Settings, ui: UiSettings, claims: list[Claim], source: str, oracle: bool, note: str
) -> None:
    """Start checking the claims in the background with the sidebar's settings, and draw the page again (its form
    disabled while the run goes on). Oracle evidence needs every claim labelled: the page says so otherwise."""
    gold = GoldData.of(claims)
    if oracle and not gold.all_labelled:
        st.error("Oracle evidence needs gold labels and evidence: some claims of this file have no label.")
        st.stop()
    job = BatchJob(claims).start(checker_or_stop(ui), ui.options, oracle=oracle)
    run = EvaluationRun(job, source, ui, settings, oracle, gold, note)
    keep_run(run)
    show_run("evaluation", run)
    st.rerun()


def finished_evaluation(run: EvaluationRun) -> Evaluation | None:
    """The evaluation of a run whose job has ended, scored as its gold data allows (once; kept with the run); ``None``
    with the reason on the page when no claim could be evaluated."""
    if run.evaluation is None:
        report = run.job.report
        if run.gold.all_labelled:
            try:
                scored = score_batch(report, checker_or_stop(run.ui), run.source, run.ui.options, run.oracle).to_dict()
            except ValueError as exc:
                st.error(str(exc))
                return None
            run.evaluation = Evaluation(
                run.gold, run.gold.allowed({name: scored[name] for name in METRICS}), scored_rows(report), scored, True
            )
        else:
            scored = {
                "claims_file": run.source,
                "corpus": run.ui.corpus,
                "n_claims": len(report.rows),
                **report.metrics(),
                "claims_per_s": report.claims_per_s,
                "latency_p50_s": report.latency_s(50),
                "latency_p95_s": report.latency_s(95),
            }
            run.evaluation = Evaluation(
                report.gold,
                {name: scored.get(name) for name in METRICS},
                list(map(evaluation_row, report.rows)),
                scored,
                False,
            )
    return run.evaluation


def evaluation_row(row: BatchRow) -> dict:
    """A batch row as :attr:`Evaluation.rows` holds it (no FEVER score per claim in a batch)."""
    prediction, label = row.fever_prediction(), row.claim.label
    return {
        **prediction,
        "claim": row.claim.claim,
        "label": label,
        "fever_correct": None,
        "label_correct": None if label is None else prediction["predicted_label"] == label,
    }


@st.fragment(run_every=POLL_SECONDS)
def show_progress(run: EvaluationRun) -> None:
    """A running evaluation's progress and a Stop button, redrawn every :data:`POLL_SECONDS`; once it has ended,
    the whole page is drawn again, with the results."""
    job = run.job
    if not job.running:
        st.rerun()
    st.progress(job.done / job.total, text=f"Checked {job.done} of {count(job.total, 'claim')}")
    st.button(
        "Stop",
        on_click=job.stop,
        help="End the run after the claim being checked; the claims checked so far are scored.",
    )


def is_error(row: dict, evaluation: Evaluation) -> bool:
    """A wrong label, or (where the FEVER score is computed) the right label without its gold evidence.
    An unlabelled claim is never an error: nothing says what it should be."""
    fever_scored = evaluation.metrics["fever_score"] is not None
    return row["label_correct"] is False or (fever_scored and row["fever_correct"] is False)


def show_confusion(evaluation: Evaluation) -> None:
    data = evaluation.report
    matrix = [[data["confusion_matrix"][gold][pred] for pred in LABELS] for gold in LABELS]
    figure = px.imshow(
        matrix,
        x=verdict_words(),
        y=verdict_words(),
        text_auto=True,
        color_continuous_scale="Blues",
        labels={"x": "predicted", "y": "gold", "color": "claims"},
    )
    figure.update_layout(height=360, margin={"l": 10, "r": 10, "t": 30, "b": 10}, title="Confusion matrix")
    st.plotly_chart(figure, width="stretch")


def show_claims(run: EvaluationRun, evaluation: Evaluation) -> None:
    """Every claim with its gold and predicted labels, or only the errors; each opens in Verify."""
    only_errors = st.toggle("Only errors (wrong label; or, where the FEVER score is computed, no gold evidence found)")
    table = pd.DataFrame(
        [
            {
                "id": r["id"],
                "claim": r["claim"],
                "gold": verdict_word(r["label"]),
                "predicted": verdict_word(r["predicted_label"]),
                "FEVER correct": yes_no(r["fever_correct"]) if evaluation.metrics["fever_score"] is not None else None,
                "open": permalink_url(r["claim"], run.ui, run.settings),
            }
            for r in evaluation.rows
            if not only_errors or is_error(r, evaluation)
        ],
        columns=["id", "claim", "gold", "predicted", "FEVER correct", "open"],
    )
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        placeholder="—",
        column_config={"open": st.column_config.LinkColumn("open", display_text="check ↗")},
    )


def show_downloads(evaluation: Evaluation) -> None:
    out = io.StringIO()
    for r in evaluation.rows:
        out.write(
            json.dumps(
                {"id": r["id"], "predicted_label": r["predicted_label"], "predicted_evidence": r["predicted_evidence"]}
            )
            + "\n"
        )
    st.download_button("Download predictions (FEVER jsonl)", out.getvalue(), "predictions.jsonl", "application/jsonl")
    st.download_button(
        "Download report (JSON)", json.dumps(evaluation.report, indent=2), "report.json", "application/json"
    )


def show_evaluation(run: EvaluationRun) -> None:
    """How the run went, then the metrics ("n/a" without gold data), latency, the confusion matrix, the claims and the
    downloads."""
    st.caption(run.sample_note)
    if run.job.error:
        st.error(plain(f"The run ended early: {run.job.error}"))
    elif run.job.report.stopped:
        st.warning(f"Stopped: {count(len(run.job.report.rows), 'claim')} of {run.job.total} checked, and scored.")
    evaluation = finished_evaluation(run)
    if evaluation is None:
        return
    data, gold = evaluation.report, evaluation.gold
    st.subheader("FEVER metrics")
    st.caption(
        f"{gold.labelled} of {count(gold.claims, 'claim')} {'has' if gold.claims == 1 else 'have'} a gold "
        f"label, {gold.with_evidence} of the {gold.verifiable} Supported / Refuted ones gold evidence. "
        "Metrics without gold data are n/a."
    )
    show_metrics(evaluation.metrics, evaluation.missing_for)
    st.metric(
        "latency p50 / p95 (s)",
        f"{data['latency_p50_s']:.2f} / {data['latency_p95_s']:.2f}",
        help="Seconds a claim took to check: the median (p50) and the 95th percentile (p95).",
    )
    how = (
        f"retriever {data['retriever']}, two-hop {'on' if data['two_hop'] else 'off'}"
        if evaluation.scored_by_evaluate
        else "checked as a batch: some claims have no label"
    )
    st.caption(f"{count(data['n_claims'], 'claim')}, {data['claims_per_s']:.2f} claims/s, {how}.")
    if evaluation.scored_by_evaluate:
        show_confusion(evaluation)
    st.subheader("Claims")
    show_claims(run, evaluation)
    show_downloads(evaluation)


settings = run_settings()
ui = current_settings(settings)
st.title("Evaluate")
ready = ready_claims_file(ui.corpus)
st.caption(
    plain(f"Corpus: {corpus_label(ui.corpus)} (change it in the sidebar). ")
    + (
        "The claims file below is ready for it: press Run."
        if ready
        else "Give a claims file with labels for it (FEVER jsonl, CSV or text), or upload one."
    )
)

run = run_in_address("evaluation", "evaluation")
running = run is not None and run.job.running
with st.form("evaluate"):
    path = st.text_input(
        "Claims file (FEVER jsonl; or CSV or text, labels optional)", ready, placeholder="path/to/claims.jsonl"
    )
    upload = st.file_uploader("…or upload one", type=["jsonl", "json", "csv", "txt"])
    limit = st.number_input(
        "Claims to check (0 = all)",
        min_value=0,
        value=50,
        step=10,
        help="Fewer than the file holds: a sample drawn at random evenly across the labels "
        f"(seed {SAMPLE_SEED}, the same each run), in the file's order.",
    )
    oracle = st.checkbox("Oracle evidence (verify against gold evidence; judges the verifier alone)")
    pressed = st.form_submit_button("Run", type="primary", disabled=running)

if pressed:
    claims = read_claims(path, upload)
    sample = sample_across_labels(claims, int(limit), seed=SAMPLE_SEED)
    start_evaluation(settings, ui, sample, upload.name if upload else path, oracle, sample_note(claims, sample))

if run is not None:
    share_run("evaluation", "evaluation")
if running:
    st.caption(run.sample_note)
    show_progress(run)
elif run is not None:
    show_evaluation(run)
footer()
