"""Evaluate: run the checker over a claims file and show FEVER's metrics, errors and latency.

A metric is shown only where the file has gold data for it, "n/a" otherwise (label accuracy needs
labels; the FEVER score gold evidence for every Supported / Refuted claim; the evidence and
retrieval metrics those evidence sets). A smaller run checks a sample drawn evenly across the labels (seeded, so
the same each time), not the file's first claims, which are often all of one label. A file whose claims all have
labels is scored as
``python -m fever_core evaluate`` scores it; one with unlabelled claims (text, CSV or jsonl) is checked
as a batch, and scored on its labelled claims.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass

import pandas as pd
import plotly.express as px
import streamlit as st

from fever_core.common import LABELS, Claim, DataFileError, load_claim_list, sample_across_labels
from fever_core.evaluation import EVIDENCE_METRICS, FEVER_METRICS, LABEL_METRICS, BatchRow, GoldData, evaluate, run_batch
from pages.shared import (
    UiSettings,
    check_options,
    checker_or_stop,
    corpus_label,
    current_settings,
    footer,
    permalink_url,
    plain,
    project_path,
    ready_claims_file,
    show_metrics,
    uploaded_claims,
)
from pages.words import count, verdict_word, verdict_words

METRICS = (*FEVER_METRICS, *LABEL_METRICS, *EVIDENCE_METRICS)
NOT_IN_BATCH_RUNS = "computed when every claim of the file has a label"
# The seed of the sample a smaller run checks (fever_core.common.formats.sample_across_labels).
SAMPLE_SEED = 0


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
    return (f"Checking a sample of {len(sample)} of the file's {count(len(claims), 'claim')}, drawn at random evenly "
            f"across the labels (seed {SAMPLE_SEED}, the same sample each run): {spread}{unlabelled}. "
            "Set “Claims to check” to 0 to check them all.")


def evaluate_labelled(ui: UiSettings, claims: list[Claim], source: str, oracle: bool, on_claim) -> Evaluation:
    """Claims that all have labels, scored as ``python -m fever_core evaluate`` scores them."""
    rows: list[dict] = []
    try:
        report = evaluate(checker_or_stop(ui), claims, source, check_options(ui), oracle=oracle, progress=False,
                          rows=rows, on_claim=on_claim).to_dict()
    except ValueError as exc:
        st.error(str(exc))
        st.stop()
    gold = GoldData.of(claims)
    return Evaluation(gold, gold.allowed({name: report[name] for name in METRICS}), rows, report, True)


def evaluate_as_batch(ui: UiSettings, claims: list[Claim], source: str, on_claim) -> Evaluation:
    """Claims some of which have no label, checked as a batch and scored on the labelled ones."""
    batch = run_batch(checker_or_stop(ui), claims, check_options(ui),
                      on_row=lambda row, done, total: on_claim(done, total))
    report = {"claims_file": source, "corpus": ui.corpus, "n_claims": len(batch.rows), **batch.metrics(),
              "claims_per_s": batch.claims_per_s, "latency_p50_s": batch.latency_s(50),
              "latency_p95_s": batch.latency_s(95)}
    return Evaluation(batch.gold, {name: report.get(name) for name in METRICS}, list(map(evaluation_row, batch.rows)),
                      report, False)


def evaluation_row(row: BatchRow) -> dict:
    """A batch row as :attr:`Evaluation.rows` holds it (no FEVER score per claim in a batch)."""
    prediction, label = row.fever_prediction(), row.claim.label
    return {**prediction, "claim": row.claim.claim, "label": label, "fever_correct": None,
            "label_correct": None if label is None else prediction["predicted_label"] == label}


def run_evaluation(ui: UiSettings, claims: list[Claim], source: str, oracle: bool) -> Evaluation:
    """Check the claims with a progress bar, scored as their gold data allows."""
    bar = st.progress(0.0, text="Checking claims…")

    def on_claim(done: int, total: int) -> None:
        bar.progress(done / total, text=f"Checked {done} of {count(total, 'claim')}")

    if GoldData.of(claims).all_labelled:
        return evaluate_labelled(ui, claims, source, oracle, on_claim)
    if oracle:
        st.error("Oracle evidence needs gold labels and evidence: some claims of this file have no label.")
        st.stop()
    return evaluate_as_batch(ui, claims, source, on_claim)


def is_error(row: dict, evaluation: Evaluation) -> bool:
    """A wrong label, or (where the FEVER score is computed) the right label without its gold evidence.
    An unlabelled claim is never an error: nothing says what it should be."""
    fever_scored = evaluation.metrics["fever_score"] is not None
    return row["label_correct"] is False or (fever_scored and row["fever_correct"] is False)


def show_confusion(evaluation: Evaluation) -> None:
    data = evaluation.report
    matrix = [[data["confusion_matrix"][gold][pred] for pred in LABELS] for gold in LABELS]
    figure = px.imshow(matrix, x=verdict_words(), y=verdict_words(), text_auto=True, color_continuous_scale="Blues",
                       labels={"x": "predicted", "y": "gold", "color": "claims"})
    figure.update_layout(height=360, margin={"l": 10, "r": 10, "t": 30, "b": 10}, title="Confusion matrix")
    st.plotly_chart(figure, width="stretch")


def show_claims(ui: UiSettings, evaluation: Evaluation) -> None:
    """Every claim with its gold and predicted labels, or only the errors; each opens in Verify."""
    only_errors = st.toggle("Only errors (wrong label; or, where the FEVER score is computed, no gold evidence found)")
    table = pd.DataFrame([{
        "id": r["id"], "claim": r["claim"], "gold": verdict_word(r["label"]),
        "predicted": verdict_word(r["predicted_label"]),
        "FEVER correct": r["fever_correct"] if evaluation.metrics["fever_score"] is not None else None,
        "open": permalink_url(r["claim"], ui),
    } for r in evaluation.rows if not only_errors or is_error(r, evaluation)],
        columns=["id", "claim", "gold", "predicted", "FEVER correct", "open"])
    st.dataframe(table, hide_index=True, width="stretch", placeholder="—",
                 column_config={"open": st.column_config.LinkColumn("open", display_text="check ↗")})


def show_downloads(evaluation: Evaluation) -> None:
    out = io.StringIO()
    for r in evaluation.rows:
        out.write(json.dumps({"id": r["id"], "predicted_label": r["predicted_label"],
                              "predicted_evidence": r["predicted_evidence"]}) + "\n")
    st.download_button("Download predictions (FEVER jsonl)", out.getvalue(), "predictions.jsonl", "application/jsonl")
    st.download_button("Download report (JSON)", json.dumps(evaluation.report, indent=2), "report.json",
                       "application/json")


def show_evaluation(ui: UiSettings, evaluation: Evaluation) -> None:
    """The metrics ("n/a" without gold data), latency, the confusion matrix, the claims and the downloads."""
    data, gold = evaluation.report, evaluation.gold
    st.subheader("FEVER metrics")
    st.caption(f"{gold.labelled} of {count(gold.claims, 'claim')} {'has' if gold.claims == 1 else 'have'} a gold "
               f"label, {gold.with_evidence} of the {gold.verifiable} Supported / Refuted ones gold evidence. "
               "Metrics without gold data are n/a.")
    show_metrics(evaluation.metrics, evaluation.missing_for)
    st.metric("latency p50 / p95 (s)", f"{data['latency_p50_s']:.2f} / {data['latency_p95_s']:.2f}",
              help="Seconds a claim took to check: the median (p50) and the 95th percentile (p95).")
    how = (f"retriever {data['retriever']}, two-hop {'on' if data['two_hop'] else 'off'}"
           if evaluation.scored_by_evaluate else "checked as a batch: some claims have no label")
    st.caption(f"{count(data['n_claims'], 'claim')}, {data['claims_per_s']:.2f} claims/s, {how}.")
    if evaluation.scored_by_evaluate:
        show_confusion(evaluation)
    st.subheader("Claims")
    show_claims(ui, evaluation)
    show_downloads(evaluation)


ui = current_settings()
st.title("Evaluate")
ready = ready_claims_file(ui.corpus)
st.caption(plain(f"Corpus: {corpus_label(ui.corpus)} (change it in the sidebar). ")
           + ("The claims file below is ready for it: press Run." if ready else
              "Give a claims file with labels for it (FEVER jsonl, CSV or text), or upload one."))

with st.form("evaluate"):
    path = st.text_input("Claims file (FEVER jsonl; or CSV or text, labels optional)", ready,
                         placeholder="path/to/claims.jsonl")
    upload = st.file_uploader("…or upload one", type=["jsonl", "json", "csv", "txt"])
    limit = st.number_input("Claims to check (0 = all)", min_value=0, value=50, step=10,
                            help="Fewer than the file holds: a sample drawn at random evenly across the labels "
                            f"(seed {SAMPLE_SEED}, the same each run), in the file's order.")
    oracle = st.checkbox("Oracle evidence (verify against gold evidence; judges the verifier alone)")
    run = st.form_submit_button("Run", type="primary")

if run:
    claims = read_claims(path, upload)
    sample = sample_across_labels(claims, int(limit), seed=SAMPLE_SEED)
    st.session_state["evaluation_sample"] = sample_note(claims, sample)
    st.session_state["evaluation"] = run_evaluation(ui, sample, upload.name if upload else path, oracle)

if "evaluation" in st.session_state:
    st.caption(st.session_state.get("evaluation_sample", ""))
    show_evaluation(ui, st.session_state["evaluation"])
footer()
