"""FEVER Workbench — the Streamlit entry point and frame: page setup and navigation.

Run with ``make run`` (or ``streamlit run app.py``). Each page in ``pages/`` does one job and calls
``fever_core`` only; every page draws the shared sidebar settings (``pages/shared.py``, kept across
pages), and models and indexes are loaded once with ``st.cache_resource``.
"""

from __future__ import annotations

import streamlit as st

st.set_page_config(page_title="FEVER Workbench", page_icon="🔎", layout="wide")

navigation = st.navigation([
    st.Page("pages/verify.py", title="Verify", icon="✅", default=True),
    st.Page("pages/annotate.py", title="Annotate", icon="✍️"),
    st.Page("pages/evaluate.py", title="Evaluate", icon="📊"),
    st.Page("pages/corpus.py", title="Corpus", icon="📚"),
])
navigation.run()
