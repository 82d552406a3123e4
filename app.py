"""FEVER Workbench — the Streamlit entry point and frame: page setup, the sidebar settings, navigation.

Run with ``make run`` (or ``streamlit run app.py``). Each page in ``pages/`` does one job and calls
``fever_core`` only. The frame draws the sidebar settings on every run, whatever the page, so they
keep their values across pages (``pages/shared.py``); before it draws them, a Verify permalink being
opened restores its corpus and settings. It loads the checker for them before the page is drawn, so
the first check is as fast as the next; models and indexes are loaded once with ``st.cache_resource``.
"""

from __future__ import annotations

import streamlit as st

from pages.shared import open_permalink, preload_checker, sidebar_settings

st.set_page_config(page_title="FEVER Workbench", page_icon="🔎", layout="wide")

verify = st.Page("pages/verify.py", title="Verify", icon="✅", default=True)
navigation = st.navigation([
    verify,
    st.Page("pages/batch.py", title="Batch", icon="🗂️"),
    st.Page("pages/history.py", title="History", icon="🕘"),
    st.Page("pages/annotate.py", title="Annotate", icon="✍️"),
    st.Page("pages/models.py", title="Models", icon="🧠"),
    st.Page("pages/evaluate.py", title="Evaluate", icon="📊"),
    st.Page("pages/corpus.py", title="Corpus", icon="📚"),
])
if navigation.url_path == verify.url_path:
    open_permalink()
preload_checker(sidebar_settings())
navigation.run()
