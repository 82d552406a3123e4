"""FEVER Workbench — the Streamlit entry point and frame: page setup, the sidebar settings, navigation.

Run with ``make run`` (or ``streamlit run app.py``). Each page in ``pages/`` does one job and calls
``fever_core`` only. The frame draws the sidebar settings on every run, whatever the page, so they
keep their values across pages (``pages/settings_ui.py``); before it draws them, a Verify permalink being
opened restores its corpus and settings. It starts loading the checker for them in the background and draws the
page at once (the claim box shows within seconds of the first visit; a Check made meanwhile waits for the load),
so the first check is as fast as the next; models and indexes are loaded once for the whole server (served by
``app_server.py``, as ``make run`` does, the first visitor's checker is already loading when the server has started).
It gives the browser its session cookie (whose checks History shows). The Deploy button and the developer
menu are hidden by Streamlit's own setting (``client.toolbarMode`` in ``.streamlit/config.toml``); the menu
keeps the About text set here.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages.resources import keep_browser_session, read_settings, start_loading_checker
from pages.settings_ui import open_permalink, sidebar_settings

ABOUT = (
    "**FEVER Workbench** checks a claim against Wikipedia: it finds pages, ranks evidence sentences, follows "
    "links for two-hop evidence, and gives a verdict (Supported, Refuted or Not enough info) with the sentences it "
    "rests on. Everything runs on this server, offline. Text from Wikipedia, CC BY-SA; benchmarks from FEVER "
    "(Thorne et al. 2018) and Fool Me Twice (Eisenschlos et al. 2021)."
)

st.set_page_config(
    page_title="FEVER Workbench", page_icon=":material/search:", layout="wide", menu_items={"About": ABOUT}
)
st.html(Path(__file__).with_name("app.css"))  # the quotes' contrast, the evidence tables on a phone

verify = st.Page("pages/verify.py", title="Verify", icon=":material/fact_check:", default=True)
navigation = st.navigation(
    [
        verify,
        st.Page("pages/check_text.py", title="Check a text", icon=":material/article:"),
        st.Page("pages/batch.py", title="Batch", icon=":material/table_rows:"),
        st.Page("pages/history.py", title="History", icon=":material/history:"),
        st.Page("pages/annotate.py", title="Annotate", icon=":material/edit_note:"),
        st.Page("pages/models.py", title="Models", icon=":material/model_training:"),
        st.Page("pages/evaluate.py", title="Evaluate", icon=":material/analytics:"),
        st.Page("pages/corpus.py", title="Corpus", icon=":material/library_books:"),
    ]
)
settings = read_settings()  # once per run: the page gets the same (pages.resources.run_settings)
if navigation.url_path == verify.url_path:
    open_permalink(settings)
start_loading_checker(sidebar_settings(settings))
keep_browser_session()
navigation.run()
