"""Batch: check a whole list of claims (a speech, an article) at once, and download the results.

Claims are uploaded or pasted: plain text (one a line), CSV (a "claim" column, optional "label" and
"id") or FEVER jsonl, labelled or not. A batch runs in a thread of its own
(:class:`~fever_core.evaluation.runner.BatchJob`), kept with the app's background runs
(:func:`pages.background_runs.check_in_background`) and named in the page's address, so the page stays usable, the other
pages too, and a reload finds the batch again. Its progress is polled by a fragment. Each checked claim is also
kept in the history, and one checked before (in any session's history, earlier in the batch too, or the annotations:
a paraphrase counts) names the earlier claim in the column "checked before".
Metrics are shown only where the list has gold data for them ("n/a" otherwise, the caption naming the gold it lacks:
labels, or gold evidence).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import streamlit as st

from fever_core.common import REFUTES, SUPPORTS, Claim, DataFileError, Settings, read_claim_list
from fever_core.evaluation import RESULT_COLUMNS, BatchJob, BatchRow, GoldData, predictions_jsonl, results_csv
from fever_core.workbench import EarlierCheck, checker_provenance, probability_text, verdict_shown
from pages.background_runs import check_in_background, run_in_address, share_run
from pages.display import (
    claimreview_author,
    claimreviews_button,
    corpus_label,
    footer,
    plain,
    show_metrics,
    uploaded_claims,
    wikipedia_links,
)
from pages.resources import checker_or_stop, run_settings
from pages.settings_ui import UiSettings, current_settings, permalink_url, public_permalink
from pages.words import PROBABILITY, PROBABILITY_HELP, count, verdict_word

# How often a running batch's progress is redrawn, in seconds.
POLL_SECONDS = 1.0
UPLOAD_TYPES = ["txt", "csv", "jsonl", "json"]
# The results table's columns, in order, with their headings; the optional ones only when some row fills them.
TABLE_COLUMNS = {
    "claim": "claim",
    "verdict": "verdict",
    "confidence": PROBABILITY,
    "deciding_sentence": "deciding sentence",
    "deciding_page": "page",
    "wikipedia": "Wikipedia",
    "label": "gold label",
    "error": "can't check",
    "checked_before": "checked before",
    "open": "open",
}
OPTIONAL_COLUMNS = ("label", "error", "checked_before")
TABLE_COLUMN_CONFIG = {
    "claim": st.column_config.TextColumn("claim", width="large"),
    "deciding sentence": st.column_config.TextColumn("deciding sentence", width="large"),
    PROBABILITY: st.column_config.TextColumn(PROBABILITY, help=PROBABILITY_HELP),
    "Wikipedia": st.column_config.LinkColumn("Wikipedia", display_text="Wikipedia ↗"),
    "checked before": st.column_config.TextColumn(
        "checked before",
        width="large",
        help=(
            "An earlier check of this claim or of a paraphrase of it (History, earlier in this batch too, or the "
            "annotations): its claim"
        ),
    ),
    "open": st.column_config.LinkColumn("open", display_text="check ↗", help="Check it again in Verify"),
}


@dataclass(frozen=True)
class Batch:
    """A batch as the page knows it: the job, where its claims came from, the sidebar's choices it runs with and
    the workbench's settings it was started under, and for each row checked so far its claim's best earlier check
    (``None`` for none)."""

    job: BatchJob
    source: str
    ui: UiSettings
    settings: Settings
    earlier: list[EarlierCheck | None] = field(default_factory=list)


def read_claims(upload, pasted: str) -> tuple[list[Claim], str] | None:
    """The claims of the uploaded file, else of the pasted text, with where they came from; None (and the
    reason on the page) when there are none or they can't be read."""
    try:
        if upload is not None:
            return uploaded_claims(upload), upload.name
        return read_claim_list(pasted, "pasted text"), "pasted text"
    except DataFileError as exc:
        st.error(plain(f"Can't read the claims: {exc}"))
        return None


def start_batch(settings: Settings, ui: UiSettings, claims: list[Claim], source: str) -> None:
    """Start checking the claims in the background with the sidebar's settings, each kept in the history,
    and draw the page again (its form disabled while the batch runs)."""
    batch = Batch(BatchJob(claims), source, ui, settings)
    check_in_background("batch", batch, ui, settings, lambda row, earlier, key: batch.earlier.append(earlier))


def batch_form(settings: Settings, ui: UiSettings, running: bool) -> None:
    """Upload or paste claims and start a batch (not while this session's batch is running)."""
    with st.form("batch"):
        upload = st.file_uploader(
            'Upload claims: text (one a line), CSV (a "claim" column; optional "label", "id") or FEVER jsonl',
            type=UPLOAD_TYPES,
        )
        pasted = st.text_area("…or paste them, one claim a line", key="batch_text", height=150)
        pressed = st.form_submit_button("Check all", type="primary", disabled=running)
    if pressed:
        read = read_claims(upload, pasted)
        if read is not None:
            start_batch(settings, ui, *read)


def records(batch: Batch, rows: list[BatchRow]) -> list[dict]:
    """The rows' records (:data:`~fever_core.evaluation.output.RESULT_COLUMNS`) with the Wikipedia address of
    each deciding sentence's page and the claim of its earlier check (``checked_before``)."""
    deciding = [row.deciding_sentence() for row in rows]
    links = wikipedia_links(checker_or_stop(batch.ui).store, [(s.page_id, s.title) for s in deciding if s is not None])
    earlier = batch.earlier + [None] * (len(rows) - len(batch.earlier))  # a row whose lookup is still running
    return [
        {**row.record(), "wikipedia": links[s.page_id].url if s else None, "checked_before": e.claim if e else None}
        for row, s, e in zip(rows, deciding, earlier)
    ]


def results_table(batch: Batch, rows: list[BatchRow]) -> None:
    """The rows as a table: claim, verdict, its probability, deciding sentence and its page linked to Wikipedia,
    a link that checks the claim again in Verify; the gold label and the reason a claim can't be checked
    only when some row has one. Each verdict as its card shows it: in the app's words, "Undecided" without a
    deciding sentence where its label is withheld, its one probability written by
    :func:`~fever_core.workbench.probability_text` (the CSV download keeps FEVER's labels)."""
    frame = pd.DataFrame(records(batch, rows), columns=[*RESULT_COLUMNS, "wikipedia", "checked_before"])
    frame["label"] = frame["label"].map(verdict_word, na_action="ignore")
    withheld = [row.result is not None and row.result.verdict.label_withheld for row in rows]
    frame["verdict"] = [
        verdict_shown(row.verdict, hidden) if row.result else None for row, hidden in zip(rows, withheld)
    ]
    frame["confidence"] = [None if row.confidence is None else probability_text(row.confidence) for row in rows]
    frame.loc[withheld, ["deciding_sentence", "deciding_page", "wikipedia"]] = None  # the card quotes none either
    frame["open"] = [permalink_url(row.claim.claim, batch.ui, batch.settings) for row in rows]
    shown = [c for c in TABLE_COLUMNS if c not in OPTIONAL_COLUMNS or frame[c].notna().any()]
    st.dataframe(
        frame[shown].rename(columns=TABLE_COLUMNS),
        hide_index=True,
        width="stretch",
        placeholder="—",
        column_config=TABLE_COLUMN_CONFIG,
    )


@st.fragment(run_every=POLL_SECONDS)
def show_progress(batch: Batch) -> None:
    """A running batch's progress, a Stop button and the rows so far, redrawn every :data:`POLL_SECONDS`;
    once it has ended, the whole page is drawn again, with the results."""
    job = batch.job
    if not job.running:
        st.rerun()
    seconds = job.seconds()
    rate = job.done / seconds if seconds > 0 else 0.0
    left = f" · about {(job.total - job.done) / rate:.0f} s left" if rate else ""
    st.progress(
        job.done / job.total, text=f"Checked {job.done} of {count(job.total, 'claim')} · {rate:.2f} claims/s{left}"
    )
    st.button("Stop", on_click=job.stop, help="End the batch after the claim being checked; the results so far stay.")
    results_table(batch, job.rows())


def gold_caption(gold: GoldData) -> str:
    """The batch's gold data in a line, naming which gold a metric shown "n/a" lacks: labels (every metric), or gold
    evidence for a labelled Supported or Refuted claim (the FEVER score: :class:`~fever_core.evaluation.GoldData`)."""
    labelled = f"{gold.labelled} of {count(gold.claims, 'claim')} {'has' if gold.claims == 1 else 'have'} a gold label"
    if not gold.labelled:
        return f"{labelled}: the metrics need gold labels, so they are n/a."
    kinds = f"{verdict_word(SUPPORTS)} or {verdict_word(REFUTES)}"
    without = gold.verifiable - gold.with_evidence
    if without:
        return (
            f"{labelled}, but {without} of the {count(gold.verifiable, f'labelled {kinds} claim')} "
            f"{'has' if without == 1 else 'have'} no gold evidence: label accuracy is measured; the FEVER score "
            f"needs gold evidence (the evidence sets that prove the label) for every {kinds} claim, so it is n/a."
        )
    return f"{labelled}, and every labelled {kinds} claim its gold evidence: the metrics are measured on them."


def show_results(batch: Batch) -> None:
    """A finished batch: how it went, the metrics its gold data allows, the table and the downloads."""
    job, report = batch.job, batch.job.report
    if job.error:
        st.error(plain(f"The batch ended early: {job.error}"))
    stopped = ", stopped" if report.stopped else ""
    st.success(
        f"Checked {len(report.rows)} of {count(job.total, 'claim')}{stopped} in {report.seconds:.1f} s "
        f"({report.claims_per_s:.2f} claims/s)."
    )
    gold = report.gold
    st.caption(gold_caption(gold))
    show_metrics(report.metrics(), gold.missing_for, per_row=4)
    results_table(batch, report.rows)
    author = claimreview_author()
    cols = st.columns(3)
    cols[0].download_button(
        "Download results (CSV)", results_csv(records(batch, report.rows)), "results.csv", "text/csv", on_click="ignore"
    )
    cols[1].download_button(
        "Download FEVER predictions (jsonl)",
        predictions_jsonl(report.rows),
        "predictions.jsonl",
        "application/jsonl",
        on_click="ignore",
    )
    checked = [row.result for row in report.rows if row.result is not None]
    claimreviews_button(
        cols[2],
        checked,
        checker_provenance(checker_or_stop(batch.ui), batch.ui.options),
        author,
        batch.job.started_at,
        [public_permalink(result.claim, batch.ui, batch.settings) for result in checked],
    )


settings = run_settings()
ui = current_settings(settings)
st.title("Batch check")
st.caption(
    f"Corpus: {plain(corpus_label(ui.corpus))} (change it in the sidebar). The batch runs in the "
    "background: the other pages can be used meanwhile, and this page's address finds it again."
)
batch = run_in_address("batch", "batch")
batch_form(settings, ui, running=batch is not None and batch.job.running)
if batch is not None:
    st.subheader(plain(f"{count(batch.job.total, 'claim')} from {batch.source}, on {corpus_label(batch.ui.corpus)}"))
    share_run("batch", "batch")
    if batch.job.running:
        show_progress(batch)
    else:
        show_results(batch)
footer()
