"""Verify: type a claim, see the verdict, the pages, the ranked evidence and the two-hop chains.

The claim form and the result are a fragment: pressing Check reruns only them, not the sidebar.
The verdict is drawn first, with the claim it answers; the details follow.
"""

from __future__ import annotations

import json

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from fever_core.corpus.build import LIVE_CORPUS
from fever_core.pipeline import CheckResult, ClaimError
from pages.shared import UiSettings, check_options, checker_or_stop, footer, plain, sidebar_settings

GENERAL_EXAMPLES = [
    "Stanley Kubrick directed 2001: A Space Odyssey.",
    "The Great Wall of China is in Japan.",
    "Marie Curie won two Nobel Prizes.",
]
EXAMPLES = {
    "embedded": GENERAL_EXAMPLES,
    LIVE_CORPUS: GENERAL_EXAMPLES,
    "fever-dev": [
        "Fox 2000 Pictures released the film Soul Food.",
        "Tilda Swinton is a vegan.",
    ],
    "fm2": ["Filming for the movie Gandhi in India was delayed due to political unrest."],
}
VERDICT_STYLE = {"SUPPORTS": ("green", "Supported"), "REFUTES": ("red", "Refuted"), "NOT ENOUGH INFO": ("gray", "Not enough info")}
BAR_COLOURS = ["#2e7d32", "#c62828", "#757575"]


def run_check(ui: UiSettings, claim: str) -> None:
    """Check the claim into ``session_state["result"]``, showing progress; a bad claim gets a warning."""
    checker = checker_or_stop(ui)
    live = ui.corpus == LIVE_CORPUS
    with st.status("Searching Wikipedia and checking…" if live else "Checking…", expanded=False) as status:
        try:
            result = checker.check(claim, check_options(ui))
        except ClaimError as exc:
            st.session_state.pop("result", None)
            status.update(label="Can't check this claim", state="error")
            st.warning(str(exc))
            return
        st.session_state["result"] = result
        st.query_params["claim"] = result.claim
        st.session_state["permalink_done"] = result.claim
        fetched = f" (Wikipedia: {result.timings.get('fetch', 0.0):.1f} s)" if live else ""
        status.update(label=("Checked, with a warning" if result.warnings else "Checked") + fetched, state="complete")


def show_verdict(result: CheckResult) -> None:
    """The verdict with the claim it answers, any warning about how it was reached, the reason and
    the probability chart."""
    for warning in result.warnings:
        st.warning(plain(warning))
    verdict = result.verdict
    color, word = VERDICT_STYLE[verdict.label]
    st.markdown(f"### Verdict: :{color}[{word}]")
    st.caption("Claim: " + plain(result.claim) + " · Permalink: this page's address reproduces the check.")
    st.text(verdict.reason)
    chart = go.Figure(go.Bar(
        x=list(verdict.probabilities.values()), y=list(verdict.probabilities.keys()), orientation="h",
        marker_color=BAR_COLOURS, text=[f"{p:.2f}" for p in verdict.probabilities.values()],
    ))
    chart.update_layout(height=180, margin=dict(l=10, r=10, t=10, b=10), xaxis=dict(range=[0, 1], title="probability"))
    st.plotly_chart(chart, width="stretch")


def show_evidence(result: CheckResult) -> None:
    """The evidence table (with stances) and the two-hop chains."""
    st.subheader("Evidence")
    rows = []
    for item in result.evidence:
        e, s = item.sentence, item.stance
        rows.append({
            "page": e.title, "line": e.line, "sentence": e.text, "score": round(e.score, 3), "hop": e.hop,
            "supports": round(s.supports, 3) if s else None, "refutes": round(s.refutes, 3) if s else None,
            "nei": round(s.not_enough_info, 3) if s else None, "used": item.trusted,
        })
    if rows:
        st.table(pd.DataFrame(rows).set_index("page"))
    else:
        st.caption("No evidence sentences: no page in the corpus matched the claim.")
    chains = [item.sentence for item in result.evidence if item.sentence.via is not None]
    if chains:
        st.subheader("Two-hop chains")
        for e in chains:
            first = next((s for s in result.sentences if (s.page_id, s.line) == (e.via.from_page_id, e.via.from_line)), None)
            st.text(f"{first.title if first else e.via.from_page_id} [{e.via.from_line}]: {first.text if first else ''}\n"
                    f"   → link “{e.via.anchor}” →\n{e.title} [{e.line}]: {e.text}")


def show_details(result: CheckResult) -> None:
    """Retrieved pages and why, every scored sentence, the claim analysis and stage timings."""
    with st.expander("Retrieved pages and why", expanded=False):
        st.dataframe(pd.DataFrame([{
            "page": p.title, "score": round(p.score, 4), "used": p.used, "title match": p.match or "",
            **{f"{k} score": round(v, 3) for k, v in p.signals.items()},
        } for p in result.pages]), hide_index=True, width="stretch")
    with st.expander("All scored sentences", expanded=False):
        st.dataframe(pd.DataFrame([{"page": s.title, "line": s.line, "sentence": s.text, "score": round(s.score, 3), "hop": s.hop}
                                   for s in result.sentences]), hide_index=True, width="stretch")
    with st.expander("Claim analysis and timings", expanded=False):
        st.json(result.analysis.to_dict())
        st.dataframe(pd.DataFrame([{"stage": k, "seconds": v} for k, v in result.timings.items()]), hide_index=True)


def show_actions(result: CheckResult) -> None:
    """Downloads (the whole result as JSON, the FEVER prediction line) and sending the claim to Annotate."""
    cols = st.columns(3)
    cols[0].download_button("Download result (JSON)", result.to_json(), "check.json", "application/json", on_click="ignore")
    cols[1].download_button("Download FEVER prediction", json.dumps(result.fever_prediction()) + "\n",
                            "prediction.jsonl", "application/jsonl", on_click="ignore")
    if cols[2].button("Send to Annotate"):
        st.session_state["annotate_claim"] = result.claim
        st.switch_page("pages/annotate.py")


@st.fragment
def check_and_show(ui: UiSettings) -> None:
    with st.form("check"):
        claim = st.text_area("Claim", key="claim_text", height=80, max_chars=1000,
                             placeholder="e.g. Stanley Kubrick directed 2001: A Space Odyssey.")
        pressed = st.form_submit_button("Check", type="primary")
    if pressed or st.session_state.pop("run_check", False):
        run_check(ui, claim)
    result = st.session_state.get("result")
    if result is not None:
        show_verdict(result)
        show_evidence(result)
        show_details(result)
        show_actions(result)


ui = sidebar_settings()
st.title("Verify a claim")
if ui.corpus == LIVE_CORPUS:
    st.caption("Live Wikipedia: each claim is searched on Wikipedia and the pages found are kept, "
               "so checking works offline on the pages fetched so far.")

if "claim" in st.query_params and st.session_state.get("permalink_done") != st.query_params["claim"]:
    st.session_state["claim_text"] = st.query_params["claim"]
    st.session_state["permalink_done"] = st.query_params["claim"]
    st.session_state["run_check"] = True

example = st.selectbox("Examples", ["—"] + EXAMPLES.get(ui.corpus, []), key="example")
if example != "—" and st.session_state.get("last_example") != example:
    st.session_state["claim_text"] = example
    st.session_state["last_example"] = example

check_and_show(ui)
footer()
