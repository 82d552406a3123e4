"""What the pages load once and share: the workbench's settings (read once per run), the checker (loaded in the
background, once for the whole server; the one a first visitor asks for from the server's start), the workspaces,
the history and annotations databases (a file that can't be used is shown with the offer to move it aside) and this
browser's session. The work running in the background, and its sharing, is :mod:`pages.background_runs`. No retrieval
or model logic.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st
from streamlit.logger import get_logger

from fever_core.common import Settings, UnusableDatabase, limit_cpu_threads, move_aside
from pages.display import plain

if TYPE_CHECKING:
    from fever_core.corpus import CorpusStore
    from fever_core.pipeline import CheckResult
    from fever_core.workbench import EarlierCheck
    from pages.settings_ui import UiSettings

_RUN_SETTINGS = "run_settings"
_LOGGER = get_logger(__name__)  # Streamlit's: in the server's log, as its own lines are


def read_settings() -> Settings:
    """Read the workbench's settings (``FEVER_*`` and the verifier chosen on Models:
    :meth:`~fever_core.common.settings.Settings.from_env`) for this run of the app. The frame (``app.py``) calls it
    once at the start of every run; the page it runs then gets the same (:func:`run_settings`) and passes them down."""
    settings = Settings.from_env()
    st.session_state[_RUN_SETTINGS] = settings
    return settings


def run_settings() -> Settings:
    """This run's settings, as the frame read them (:func:`read_settings`); a page run on its own (the tests) reads
    them the first time it asks."""
    return st.session_state.get(_RUN_SETTINGS) or read_settings()


SESSION_COOKIE = "fever_workbench_session"
_SESSION_ID = re.compile(r"[0-9a-f]{32}")
CHECKER_LOADING = "Loading the corpus and models (the first time builds the corpus index)…"


@st.cache_resource(show_spinner=False)
def _checker_loader() -> ThreadPoolExecutor:
    """The thread that loads checkers, one for the whole server: a load goes on while the pages are drawn."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="checker-loader")


@st.cache_resource(show_spinner=False)
def _checker_loading(corpus: str, verifier_model: str) -> Future:
    """The load of the checker for ``(corpus, verifier_model)``, started once and shared by all sessions."""
    return _checker_loader().submit(_open_checker, corpus, verifier_model)


def _open_checker(corpus: str, verifier_model: str):
    """A checker, warmed up (:meth:`Checker.warm_up`) so that the person's first check is as fast as the next. It
    reads the settings in the loader's thread, once per checker the server loads."""
    from fever_core.pipeline import Checker

    started = time.perf_counter()
    settings = Settings.from_env(verifier_model=verifier_model)
    limit_cpu_threads(settings.app_cpu_threads)
    checker = Checker.open(corpus, settings, progress=False)
    checker.warm_up()
    _LOGGER.info(
        "Loaded the checker for corpus %s with verifier %s in %.1f s",
        corpus,
        verifier_model,
        time.perf_counter() - started,
    )
    return checker


def start_loading_checker(ui: UiSettings) -> None:
    """Start loading the checker for the sidebar's choices in the background, once for the whole server. The
    frame calls it on every run before the page is drawn, which it does not hold up: the claim box shows at once
    on the first visit too, and a Check made meanwhile waits for the load (:func:`load_checker`)."""
    _checker_loading(ui.corpus, ui.verifier_model)


def start_loading_first_checker() -> None:
    """Start loading, in the background, the checker a first visitor's sidebar asks for (the workbench's corpus
    and verifier: :meth:`~pages.settings_ui.UiSettings.of` with no choices) before anyone visits. The server calls it
    when it starts (``app_server.py``), so the first visitor's check does not wait for the models; a visitor who comes
    while they load gets this same load (:func:`start_loading_checker`) and Verify's loading note."""
    from pages.settings_ui import UiSettings

    start_loading_checker(UiSettings.of({}, Settings.from_env()))


def checker_loading(ui: UiSettings) -> bool:
    """Whether the checker for the sidebar's choices is still loading."""
    return not _checker_loading(ui.corpus, ui.verifier_model).done()


def load_checker(corpus: str, verifier_model: str):
    """The checker for ``(corpus, verifier_model)``, shared by all sessions; while it loads, a spinner shows and
    this waits. Raises what the load raised, and the next call loads it again."""
    loading = _checker_loading(corpus, verifier_model)
    if not loading.done():
        with st.spinner(CHECKER_LOADING):
            wait([loading])
    try:
        return loading.result()
    except Exception:
        _checker_loading.clear(corpus, verifier_model)
        raise


def checker_or_stop(ui: UiSettings):
    """The checker for the sidebar's choices, or an error box and a stop when it can't load."""
    try:
        return load_checker(ui.corpus, ui.verifier_model)
    except Exception as exc:  # noqa: BLE001 - shown to the person, who can act on it
        st.error(f"The checker can't start: {exc}")
        st.stop()


@st.cache_resource(show_spinner="Opening the corpus…")
def load_workspace(corpus: str):
    """One workspace per corpus, shared by all sessions (the live one is also the checkers'); the settings are read
    once per workspace the server opens."""
    from fever_core.workspace import open_workspace

    settings = Settings.from_env()
    limit_cpu_threads(settings.app_cpu_threads)
    return open_workspace(corpus, settings, progress=False)


def load_annotations(settings: Settings):
    """The annotations database of the data folder, one store per folder, shared by all sessions; a file that
    can't be one stops the page with the reason (naming the file and what to do) and the offer to move it aside,
    never a traceback."""
    try:
        return _annotation_store(str(settings.data_dir / "annotations.sqlite"))
    except UnusableDatabase as exc:
        show_unusable_database(exc)
        st.stop()


@st.cache_resource
def _annotation_store(path: str):
    from fever_core.workbench import AnnotationStore

    return AnnotationStore(path)


def load_history(settings: Settings):
    """The history of checks of the data folder, one store per folder, shared by all sessions (each reads its own
    checks: :func:`history_session`); ``None`` when its file can't be used (the reason and the offer to move it
    aside are shown instead)."""
    try:
        return _history_store(str(settings.data_dir / "history.sqlite"))
    except UnusableDatabase as exc:
        show_unusable_database(exc)
        return None


@st.cache_resource
def _history_store(path: str):
    from fever_core.workbench import HistoryStore

    return HistoryStore(path)


def browser_session() -> str:
    """This browser's id (32 hex digits): the one its session cookie carries, else a new one, which
    :func:`keep_browser_session` gives the browser. It lasts until the browser is closed, across reloads and tabs."""
    if "browser_session" not in st.session_state:
        cookie = st.context.cookies.get(SESSION_COOKIE, "")
        known = isinstance(cookie, str) and _SESSION_ID.fullmatch(cookie)  # (AppTest has no cookies to give)
        st.session_state["browser_session"] = cookie if known else uuid.uuid4().hex
    return st.session_state["browser_session"]


def keep_browser_session() -> None:
    """Give the browser its session cookie (:func:`browser_session`) once per app session when it lacks it.
    The frame calls it on every run; the script holds only the id this app made (never user text)."""
    session = browser_session()
    if st.context.cookies.get(SESSION_COOKIE) == session or st.session_state.get("session_cookie_sent"):
        return
    st.session_state["session_cookie_sent"] = True
    st.sidebar.html(
        f"<script>document.cookie = '{SESSION_COOKIE}={session}; path=/; SameSite=Strict';</script>",
        unsafe_allow_javascript=True,
    )


def history_session(settings: Settings) -> str | None:
    """Whose checks History lists and clears, and Verify opens: this browser session's (and, to open, the shared
    ones), or everyone's (``None``) when the server was started with a shared history (``FEVER_SHARED_HISTORY=1``,
    :class:`~fever_core.common.settings.Settings`)."""
    return None if settings.shared_history else browser_session()


def keep_in_history(result: CheckResult, ui: UiSettings, settings: Settings) -> None:
    """Keep a check made on Verify with the sidebar's choices ``ui`` in this browser session's history (private to it
    until shared on History); when the history can't keep it, say why (the check stands)."""
    history = load_history(settings)
    try:
        if history is not None:
            history.add(result, ui.to_dict(), session=browser_session())
    except UnusableDatabase as exc:
        show_unusable_database(exc)


def earlier_checks(checker, settings: Settings) -> Callable[[CheckResult], list[EarlierCheck]]:
    """The lookup of a check's earlier checks (:class:`~fever_core.workbench.EarlierChecks`: this browser session's
    checks and the shared ones, or everyone's with a shared history (:func:`history_session`), and the annotations of
    the data folder; one for the server) with the encoder of ``checker``'s corpus, as a function of the check's result
    (its claim and the vector its check made of it) that any thread may call (a batch's). Call it before the check is
    kept in the history."""
    lookup, session = _earlier_checks(str(settings.data_dir)), history_session(settings)
    return lambda result: lookup.find(result.claim, checker.claim_encoder, session, result.claim_vector)


@st.cache_resource
def _earlier_checks(data_dir: str):
    from fever_core.workbench import EarlierChecks

    return EarlierChecks(data_dir)


def show_unusable_database(error: UnusableDatabase) -> None:
    """A warning naming the database that can't be used and why; for a damaged or foreign one, a button that
    moves it aside (kept, renamed) so that a new one starts."""
    st.warning(plain(str(error)), icon=":material/warning:")
    if error.movable:
        st.button(
            f"Move {error.path.name} aside and start a new one",
            key=f"move_aside_{error.path}",
            on_click=_move_database_aside,
            args=(error.path,),
        )


def _move_database_aside(path: Path) -> None:
    try:
        moved = move_aside(path)
    except OSError as exc:
        st.toast(
            plain(f"{path} can't be moved ({exc.strerror}): move it yourself, or point FEVER_DATA_DIR elsewhere."),
            icon=":material/warning:",
        )
        return
    _history_store.clear()  # a store opened before still holds the moved file
    _annotation_store.clear()
    st.toast(
        plain(f"{path.name} was moved to {moved.name} (kept there); a new one starts in its place."),
        icon=":material/inventory_2:",
    )


def corpus_store_or_none(settings: Settings, corpus: str) -> CorpusStore | None:
    """The store of a corpus of the data folder, or None when it is not (or no longer) there."""
    from fever_core.corpus import STORE_FILE, CorpusStore, corpus_dir

    with suppress(OSError, ValueError):
        return CorpusStore.open(corpus_dir(settings.data_dir, corpus) / STORE_FILE)
    return None
