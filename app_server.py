"""The app's server: Streamlit's ASGI app (``st.App``) serving ``app.py``, which starts loading the checker a first
visitor asks for when the server starts, before anyone visits (:func:`pages.resources.start_loading_first_checker`),
so that the first visitor's check does not wait about 40 s for the models.

``make run`` runs ``streamlit run app_server.py`` (Streamlit finds the ``app`` below and serves it with uvicorn);
``uvicorn app_server:app`` serves it too. ``streamlit run app.py`` serves the same app, loading the models at the
first visit instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st


@asynccontextmanager
async def load_models_at_start(_app: st.App) -> AsyncIterator[None]:
    """On the server's start, start loading the first visitor's checker in the background (it returns at once)."""
    from pages.resources import start_loading_first_checker

    start_loading_first_checker()
    yield


app = st.App(Path(__file__).with_name("app.py"), lifespan=load_models_at_start)
