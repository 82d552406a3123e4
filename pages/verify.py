"""Verify: type a claim, see the verdict, the pages, the ranked evidence and the two-hop chains.

The claim form and the result are a fragment: pressing Check reruns only them, not the sidebar.
The verdict is drawn first, with the claim it answers, the sentence it rests on and a caution when
it is close; the details follow. Every page links to its Wikipedia article.

Every check is kept in the history, and the page's address becomes its permalink (the claim, the
corpus and the settings: opening it restores them and checks the claim). ``?history=ID`` shows a
check of the history as it was made, without checking it again.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from fever_core.corpus.build import LIVE_CORPUS
from fever_core.history import HistoryEntry
from fever_core.pipeline import MAX_CLAIM_CHARS, CheckResult, ClaimError, EvidenceResult, check_claim_text
from fever_core.sqlite import UnusableDatabase
from pages.shared import (
    UiSettings,
    WikipediaLink,
    check_options,
    checker_or_stop,
    corpus_label,
    corpus_store_or_none,
    current_settings,
    footer,
    keep_in_history,
    load_history,
    plain,
    show_unusable_database,
    wikipedia_links,
    write_permalink,
)

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
# A verdict whose two likeliest labels are closer than this (in probability) is shown as uncertain.
CLOSE_MARGIN = 0.15
DECIDING_ROW_STYLE = "background-color: #fff3b0; font-weight: 600"


@dataclass(frozen=True)
class CheckedClaim:
    """A check as the page shows it: the result, the Wikipedia link of each of its pages, and the
    history entry it was re-opened from (``None`` for a check just made)."""

    result: CheckResult
    links: dict[str, WikipediaLink]
    stored: HistoryEntry | None = None


def result_pages(result: CheckResult) -> list[tuple[str, str]]:
    """The ``(page_id, title)`` of every page the result shows."""
    return [(p.page_id, p.title) for p in result.pages] + [(s.page_id, s.title) for s in result.sentences]


def cut_to_limit(text: str, limit: int) -> str:
    """The text cut to at most ``limit`` characters: at the end of its last sentence that fits, else
    of its last word that fits, else anywhere."""
    head = text[: limit + 1]
    for boundary in (r"[.!?…](?=\s)", r"\S(?=\s)"):
        ends = [match.end() for match in re.finditer(boundary, head)]
        if ends:
            return head[: ends[-1]]
    return text[:limit]


def keep_claim_within_limit() -> None:
    """On Check, before the run: a paste longer than the limit stays in the box, cut to the limit,
    and the page says so (rather than the box refusing the paste)."""
    text = st.session_state.get("claim_text", "")
    st.session_state.pop("claim_cut_note", None)
    if len(text) > MAX_CLAIM_CHARS:
        st.session_state["claim_text"] = cut_to_limit(text, MAX_CLAIM_CHARS)
        st.session_state["claim_cut_note"] = (
            f"The text had {len(text):,} characters; a claim can have {MAX_CLAIM_CHARS:,}. The first "
            f"{len(st.session_state['claim_text']):,} were kept and checked: check one statement at a time."
        )


def run_check(ui: UiSettings, claim: str) -> None:
    """Check the claim into ``session_state["checked"]``, showing progress; a claim that can't be
    checked gets its reason at once."""
    try:
        check_claim_text(claim)
    except ClaimError as exc:
        st.session_state.pop("checked", None)
        st.warning(plain(f"Can't check this claim: {exc}"))
        return
    checker = checker_or_stop(ui)
    live = ui.corpus == LIVE_CORPUS
    with st.status("Searching Wikipedia and checking…" if live else "Checking…", expanded=False) as status:
        result = checker.check(claim, check_options(ui))
        st.session_state["checked"] = CheckedClaim(result, wikipedia_links(checker.workspace.store, result_pages(result)))
        write_permalink(result.claim, ui)
        fetched = f" (Wikipedia: {result.timings.get('fetch', 0.0):.1f} s)" if live else ""
        status.update(label=("Checked, with a warning" if result.warnings else "Checked") + fetched, state="complete")
    keep_in_history(result, asdict(ui))  # after the status box: a history that can't keep it says so in sight


def deciding_evidence(result: CheckResult) -> EvidenceResult | None:
    """The evidence sentence the verdict rests on, if it rests on one."""
    return result.evidence[result.verdict.deciding_evidence[0]] if result.verdict.deciding_evidence else None


def uncertainty(probabilities: dict[str, float]) -> str:
    """A caution when the two likeliest labels are within ``CLOSE_MARGIN`` of each other ("" otherwise)."""
    (first, p_first), (second, p_second) = sorted(probabilities.items(), key=lambda item: -item[1])[:2]
    if p_first - p_second >= CLOSE_MARGIN:
        return ""
    return (f"Uncertain: {first} {p_first:.2f} against {second} {p_second:.2f} is a close call. "
            "Read the evidence below before relying on this verdict.")


def show_verdict(checked: CheckedClaim) -> None:
    """The verdict with the claim it answers, any warning about how it was reached, the reason, the
    deciding sentence, a caution when it is close, and the probability chart."""
    result = checked.result
    for warning in result.warnings:
        st.warning(plain(warning))
    verdict = result.verdict
    color, word = VERDICT_STYLE[verdict.label]
    st.markdown(f"### Verdict: :{color}[{word}]")
    st.caption("Claim: " + plain(result.claim) + " · Permalink: this page's address reproduces the check.")
    if checked.stored is not None:
        made = time.strftime("%Y-%m-%d %H:%M", time.localtime(checked.stored.checked_at))
        st.info(f"Re-opened from History: checked {made} on {plain(corpus_label(result.corpus))}, shown as it was "
                "then (not checked again; History's “Check again” does that).", icon="🕘")
    st.text(verdict.reason)
    deciding = deciding_evidence(result)
    if deciding is not None:
        e = deciding.sentence
        st.markdown(f"Deciding sentence (highlighted below), **{plain(e.title)}** [{e.line}]: “{plain(e.text)}” "
                    + checked.links[e.page_id].markdown())
    caution = uncertainty(verdict.probabilities)
    if caution:
        st.warning(caution, icon="⚠️")
    chart = go.Figure(go.Bar(
        x=list(verdict.probabilities.values()), y=list(verdict.probabilities.keys()), orientation="h",
        marker_color=BAR_COLOURS, text=[f"{p:.2f}" for p in verdict.probabilities.values()],
    ))
    chart.update_layout(height=180, margin={"l": 10, "r": 10, "t": 10, "b": 10},
                        xaxis={"range": [0, 1], "title": "probability"})
    st.plotly_chart(chart, width="stretch")


def highlight_rows(table: pd.DataFrame, rows: list[int]):
    """The table styled with ``rows`` (positions) highlighted."""
    styles = pd.DataFrame("", index=table.index, columns=table.columns)
    styles.iloc[rows] = DECIDING_ROW_STYLE
    return table.style.apply(lambda _: styles, axis=None).format(precision=3, na_rep="")


def show_evidence(checked: CheckedClaim) -> None:
    """The evidence table (with stances, the deciding row highlighted, each page linked to Wikipedia)
    and the two-hop chains. ``st.table`` renders Markdown: corpus text is escaped."""
    result = checked.result
    st.subheader("Evidence")
    rows = []
    for item in result.evidence:
        e, s = item.sentence, item.stance
        rows.append({
            "page": plain(e.title), "Wikipedia": checked.links[e.page_id].markdown(), "line": e.line,
            "sentence": plain(e.text), "score": round(e.score, 3), "hop": e.hop,
            "supports": round(s.supports, 3) if s else None, "refutes": round(s.refutes, 3) if s else None,
            "nei": round(s.not_enough_info, 3) if s else None, "used": item.trusted,
        })
    if rows:
        st.table(highlight_rows(pd.DataFrame(rows), result.verdict.deciding_evidence), hide_index=True)
    else:
        st.caption("No evidence sentences: no page in the corpus matched the claim.")
    chains = [item.sentence for item in result.evidence if item.sentence.via is not None]
    if chains:
        st.subheader("Two-hop chains")
        for e in chains:
            first = next((s for s in result.sentences if (s.page_id, s.line) == (e.via.from_page_id, e.via.from_line)), None)
            st.text(f"{first.title if first else e.via.from_page_id} [{e.via.from_line}]: {first.text if first else ''}\n"
                    f"   → link “{e.via.anchor}” →\n{e.title} [{e.line}]: {e.text}")


def show_details(checked: CheckedClaim) -> None:
    """Retrieved pages and why (each linked to Wikipedia), every scored sentence, the claim analysis
    and stage timings."""
    result, links = checked.result, checked.links
    wikipedia_column = st.column_config.LinkColumn("Wikipedia", display_text="Wikipedia ↗")
    with st.expander("Retrieved pages and why", expanded=False):
        st.dataframe(pd.DataFrame([{
            "page": p.title, "Wikipedia": links[p.page_id].url, "corpus text": links[p.page_id].text_age,
            "score": round(p.score, 4), "used": p.used, "title match": p.match or "",
            **{f"{k} score": round(v, 3) for k, v in p.signals.items()},
        } for p in result.pages]), hide_index=True, width="stretch", column_config={"Wikipedia": wikipedia_column})
    with st.expander("All scored sentences", expanded=False):
        st.dataframe(pd.DataFrame([{"page": s.title, "Wikipedia": links[s.page_id].url, "line": s.line,
                                    "sentence": s.text, "score": round(s.score, 3), "hop": s.hop}
                                   for s in result.sentences]),
                     hide_index=True, width="stretch", column_config={"Wikipedia": wikipedia_column})
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


def open_stored_check() -> None:
    """Once per address ``?history=ID``: show check ``ID`` of the history as it was made, without checking again."""
    entry_id = st.query_params.get("history", "")
    if not entry_id.isdigit() or st.session_state.get("history_opened") == entry_id:
        return
    st.session_state["history_opened"] = entry_id
    history = load_history()
    if history is None:  # it can't be read: load_history said why
        return
    try:
        entry, result = history.entry(int(entry_id)), history.result(int(entry_id))
    except UnusableDatabase as exc:
        show_unusable_database(exc)
        return
    if entry is None or result is None:
        st.warning(f"Check {entry_id} is not in the history (any more).")
        return
    links = wikipedia_links(corpus_store_or_none(result.corpus), result_pages(result))
    st.session_state["checked"] = CheckedClaim(result, links, entry)
    st.session_state["claim_text"] = result.claim


@st.fragment
def check_and_show(ui: UiSettings) -> None:
    with st.form("check"):
        claim = st.text_area("Claim", key="claim_text", height=80,
                             placeholder="e.g. Stanley Kubrick directed 2001: A Space Odyssey.")
        pressed = st.form_submit_button("Check", type="primary", on_click=keep_claim_within_limit)
    if "claim_cut_note" in st.session_state:
        st.info(st.session_state["claim_cut_note"], icon="✂️")
    if pressed or st.session_state.pop("run_check", False):
        run_check(ui, claim)
    checked = st.session_state.get("checked")
    if checked is not None:
        show_verdict(checked)
        show_evidence(checked)
        show_details(checked)
        show_actions(checked.result)


ui = current_settings()
st.title("Verify a claim")
if ui.corpus == LIVE_CORPUS:
    st.caption("Live Wikipedia: each claim is searched on Wikipedia and the pages found are kept, "
               "so checking works offline on the pages fetched so far.")

open_stored_check()
if "permalink_claim" in st.session_state:  # a permalink being opened: the frame restored its corpus and settings
    st.session_state["claim_text"] = st.session_state.pop("permalink_claim")
    st.session_state["run_check"] = True
    st.session_state.pop("checked", None)  # an earlier check is not shown while this one runs
    refused = st.session_state.pop("permalink_refused", [])
    if refused:
        st.warning(plain("This link's " + ", ".join(refused) + " can't be used here: the defaults were used instead."))

example = st.selectbox("Examples", ["—"] + EXAMPLES.get(ui.corpus, []), key="example")
if example != "—" and st.session_state.get("last_example") != example:
    st.session_state["claim_text"] = example
    st.session_state["last_example"] = example

check_and_show(ui)
footer()
