"""Evaluate: run the checker over a claims file and show FEVER's metrics, errors and latency."""

from __future__ import annotations

import io
import json
import tempfile
import urllib.parse

import pandas as pd
import plotly.express as px
import streamlit as st

from fever_core.evaluation.run import evaluate
from fever_core.formats import load_claims
from fever_core.types import LABELS
from pages.shared import check_options, checker_or_stop, current_settings, footer, plain, shared_claims_file

ui = current_settings()
st.title("Evaluate")
st.caption(f"Corpus: {ui.corpus} (change it in the sidebar).")

with st.form("evaluate"):
    path = st.text_input("Claims file (FEVER jsonl)", shared_claims_file(ui.corpus))
    upload = st.file_uploader("…or upload one", type=["jsonl"])
    limit = st.number_input("Claims to check (0 = all)", min_value=0, value=50, step=10)
    oracle = st.checkbox("Oracle evidence (verify against gold evidence; judges the verifier alone)")
    run = st.form_submit_button("Run", type="primary")

if run:
    try:
        if upload is not None:
            with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as tmp:
                tmp.write(upload.getvalue())
            path = tmp.name
        claims = load_claims(path, limit or None)
    except (OSError, ValueError) as exc:
        st.error(f"Can't read the claims: {exc}")
        st.stop()
    checker = checker_or_stop(ui)
    bar = st.progress(0.0, text="Checking claims…")
    rows: list[dict] = []
    try:
        report = evaluate(checker, claims, path, check_options(ui), oracle=oracle, progress=False, rows=rows,
                          on_claim=lambda done, total: bar.progress(done / total, text=f"Checked {done} of {total} claims"))
    except ValueError as exc:
        st.error(str(exc))
        st.stop()
    st.session_state["evaluation"] = (report.to_dict(), rows)

if "evaluation" in st.session_state:
    data, rows = st.session_state["evaluation"]
    st.subheader("FEVER metrics")
    cols = st.columns(5)
    for col, key in zip(cols, ["fever_score", "label_accuracy", "evidence_precision", "evidence_recall", "evidence_f1"]):
        col.metric(key.replace("_", " "), f"{data[key]:.3f}")
    cols = st.columns(5)
    for col, key in zip(cols, ["doc_recall_at_1", "doc_recall_at_5", "doc_recall_at_10", "sentence_recall_at_5"]):
        col.metric(key.replace("_", " "), f"{data[key]:.3f}")
    cols[4].metric("latency p50 / p95 (s)", f"{data['latency_p50_s']:.2f} / {data['latency_p95_s']:.2f}")
    st.caption(f"{data['n_claims']} claims, {data['claims_per_s']:.2f} claims/s, retriever {data['retriever']}, "
               f"two-hop {'on' if data['two_hop'] else 'off'}.")
    matrix = [[data["confusion_matrix"][gold][pred] for pred in LABELS] for gold in LABELS]
    figure = px.imshow(matrix, x=list(LABELS), y=list(LABELS), text_auto=True, color_continuous_scale="Blues",
                       labels={"x": "predicted", "y": "gold", "color": "claims"})
    figure.update_layout(height=360, margin={"l": 10, "r": 10, "t": 30, "b": 10}, title="Confusion matrix")
    st.plotly_chart(figure, width="stretch")

    st.subheader("Claims")
    only_errors = st.toggle("Only errors (FEVER score 0)")
    table = pd.DataFrame([{
        "id": r["id"], "claim": r["claim"], "gold": r["label"], "predicted": r["predicted_label"],
        "FEVER correct": r["fever_correct"], "open": "./?claim=" + urllib.parse.quote(r["claim"]),
    } for r in rows if not (only_errors and r["fever_correct"])])
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"open": st.column_config.LinkColumn("open", display_text="check ↗")})
    out = io.StringIO()
    for r in rows:
        out.write(json.dumps({"id": r["id"], "predicted_label": r["predicted_label"],
                              "predicted_evidence": r["predicted_evidence"]}) + "\n")
    st.download_button("Download predictions (FEVER jsonl)", out.getvalue(), "predictions.jsonl", "application/jsonl")
    st.download_button("Download report (JSON)", json.dumps(data, indent=2), "report.json", "application/json")
    st.caption("Claims are shown as text: " + plain("<no HTML is rendered>"))
footer()
