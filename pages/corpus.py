"""Corpus: search pages by title, words or meaning; read a page sentence by sentence with its links."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from fever_core.corpus import LIVE_CORPUS
from fever_core.workbench import SEARCH_MODES, search_corpus
from pages.display import footer, plain, wikipedia_links
from pages.resources import load_workspace, run_settings
from pages.settings_ui import current_settings

ui = current_settings(run_settings())
st.title("Corpus")
if ui.corpus == LIVE_CORPUS:
    st.caption("The live Wikipedia cache: the pages fetched so far while checking claims (Verify adds more).")
try:
    workspace = load_workspace(ui.corpus)
except Exception as exc:  # noqa: BLE001 - shown to the person, who can act on it
    st.error(f"The corpus '{ui.corpus}' can't be opened: {exc}")
    st.stop()
store = workspace.store
stats = store.stats()
cols = st.columns(4)
cols[0].metric("Pages", f"{stats.pages:,}")
cols[1].metric("Sentences", f"{stats.sentences:,}")
cols[2].metric("Links", f"{stats.links:,}")
cols[3].metric("Links per page", f"{stats.links_per_page:.2f}")
st.caption(
    f"Dense index: {len(workspace.dense):,} sentences, {workspace.dense.plan.describe()}, "
    f"encoder in {workspace.dense.encoder.precision}."
)

with st.form("search"):
    query = st.text_input("Search", key="corpus_query")
    mode = st.radio("By", SEARCH_MODES, horizontal=True, key="corpus_mode")
    searched = st.form_submit_button("Search")
if searched:
    st.session_state["corpus_hits"] = search_corpus(workspace, query, mode, 20)
hits = st.session_state.get("corpus_hits", [])
if hits:
    by_title = all(h.line is None for h in hits)  # a title search finds pages, not sentences
    st.dataframe(
        pd.DataFrame(
            [
                {"page": h.title, "score": round(h.score, 3)}
                if by_title
                else {"page": h.title, "line": h.line, "sentence": h.text, "score": round(h.score, 3)}
                for h in hits
            ]
        ),
        hide_index=True,
        width="stretch",
        placeholder="—",
    )
    choice = st.selectbox(
        "Read page", list(dict.fromkeys(h.page_id for h in hits)), format_func=lambda pid: store.title_of(pid) or pid
    )
    if st.button("Open"):
        st.session_state["reading"] = choice

page_id = st.session_state.get("reading")
if page_id:
    page = store.page(page_id)
    if page is None:
        st.warning(plain(f"{page_id} is not in this corpus."))
    else:
        st.subheader(plain(page.title))
        link = wikipedia_links(store, [(page.page_id, page.title)])[page.page_id]
        st.caption(f"Page id {plain(page.page_id)} · source {plain(page.source)} · {link.markdown()}")
        for sentence in page.sentences:
            st.text(f"[{sentence.line}] {sentence.text}")
            targets = [l for l in sentence.links if store.has_page(l.target)]
            if targets:
                link_cols = st.columns(min(len(targets), 4))
                for col, link in zip(link_cols, targets[:4]):
                    if col.button(f"→ {plain(link.anchor)}", key=f"go-{sentence.line}-{link.target}"):
                        st.session_state["reading"] = link.target
                        st.rerun()
footer()
