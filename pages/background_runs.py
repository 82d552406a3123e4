"""The work the pages run in the background (Check a text's text checks, Batch's batches, Evaluate's evaluations):
kept once for the whole server by job id (:func:`keep_run`), found again through the page's address
(:func:`run_in_address`), each private to the browser session that started it until its maker shares it
(:func:`share_run`), and a run's claims checked with the sidebar's checker, each kept in the history
(:func:`check_in_background`). What the runs load (the checker, the history, the session) is :mod:`pages.resources`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import streamlit as st

from fever_core.common import Settings, UnusableDatabase
from pages.display import plain
from pages.resources import browser_session, checker_or_stop, earlier_checks, load_history, run_settings

if TYPE_CHECKING:
    from fever_core.evaluation import BatchJob, BatchRow
    from fever_core.workbench import EarlierCheck
    from pages.settings_ui import UiSettings


# Finished background runs kept (for reloads and downloads) before the oldest is let go.
FINISHED_JOBS_KEPT = 20


class BackgroundRun(Protocol):
    """What a page keeps of work it runs in the background: the job (its progress and, once ended, its report)."""

    job: BatchJob


@dataclass
class RunAccess:
    """Who may open a background run: the browser session that started it (:func:`browser_session`), and whether
    its maker shared it (then any session with its link may)."""

    session: str
    shared: bool = False


@st.cache_resource
def _background_runs() -> dict[str, BackgroundRun]:
    """Every background run of this app run (Check a text's text checks, Batch's batches, Evaluate's evaluations), by
    job id, kept across sessions (a reload is a new session); each opens only in its maker's browser session until
    shared (:func:`_run_access`)."""
    return {}


@st.cache_resource
def _run_access() -> dict[str, RunAccess]:
    """Who may open each background run, by job id (:class:`RunAccess`)."""
    return {}


def keep_run(run: BackgroundRun) -> None:
    """Register a background run as this browser session's, letting go of the oldest finished ones beyond
    :data:`FINISHED_JOBS_KEPT`."""
    runs, access = _background_runs(), _run_access()
    runs[run.job.job_id] = run
    access.setdefault(run.job.job_id, RunAccess(browser_session()))
    finished = [job_id for job_id, kept in runs.items() if not kept.job.running]
    for job_id in finished[:-FINISHED_JOBS_KEPT]:
        runs.pop(job_id, None)
        access.pop(job_id, None)


def run_in_address(name: str, what: str) -> BackgroundRun | None:
    """This session's background run of a page: the one the page's address names (``?name=ID``: a reload finds it)
    or one started earlier in the session; the address names it from now on. ``None`` when there is none; when the
    address names one this app does not have, or one another browser made and did not share (unless the history is
    shared: ``FEVER_SHARED_HISTORY``), a warning says so and why (``what``: the run in words, e.g. "evaluation").
    Its "Share link" is the page's to draw, beside the run's results (:func:`share_run`).
    """
    named = st.query_params.get(name, "")
    job_id = named or st.session_state.get(f"{name}_id", "")
    run = _background_runs().get(job_id)
    access = _run_access().get(job_id, RunAccess(""))
    private = access.session != browser_session() and not access.shared and not run_settings().shared_history
    if run is not None and private:
        st.query_params.pop(name, None)
        st.warning(
            plain(
                f"The {what} this link names was made in another browser and not shared: it opens only for the person "
                "who made it, until they share it (Share link, beside the run)."
            ),
            icon=":material/lock:",
        )
        return None
    if run is None:
        st.query_params.pop(name, None)
        if named:
            st.warning(
                plain(
                    f"The {what} this link names ({named}) was not found in this workbench. Runs are kept in the app's "
                    f"memory, the last {FINISHED_JOBS_KEPT} finished ones: a link from another machine or workbench, one "
                    "made before the app was restarted, or an older one finds nothing. Start it again here."
                ),
                icon=":material/search:",
            )
        return None
    show_run(name, run)
    return run


def share_run(name: str, what: str) -> None:
    """ "Share link" for the run the page's address names (``?name=ID``: :func:`run_in_address`), when it is this
    session's own: its link then opens it in any browser, and so do its checks' verdict cards (their History entries
    are shared with it); "Stop sharing" makes both private again. The page draws it beside the run's results header
    (``what``: the run in words). A run shared with this session gets no controls."""
    access = _run_access().get(st.query_params.get(name, ""))
    if access is None or access.session != browser_session():
        return
    if not access.shared:
        if st.button(
            "Share link",
            key=f"share-{name}",
            help=f"Lets anyone with the link open this {what} and its verdict cards (until you stop sharing it)",
        ):
            _share(name, access, True)
        return
    if st.button("Stop sharing", key=f"unshare-{name}", help="Its link stops opening it in other browsers"):
        _share(name, access, False)
    st.caption(f"Shared: anyone with this link opens the {what} while this workbench keeps it:")
    st.code(f"{(st.context.url or '').split('?')[0]}?{name}={st.query_params.get(name, '')}", language=None)


def _share(name: str, access: RunAccess, shared: bool) -> None:
    """Share the run the page's address names (``shared=False``: stop), with its checks kept in History."""
    access.shared = shared
    history = load_history(run_settings())
    if history is not None and not history.read_only:
        with suppress(UnusableDatabase):
            history.share_batch(st.query_params.get(name, ""), access.session, shared)
    st.rerun()


def show_run(name: str, run: BackgroundRun) -> None:
    """Make ``run`` this session's run of the page whose address names it as ``?name=ID``."""
    st.session_state[f"{name}_id"] = run.job.job_id
    st.query_params[name] = run.job.job_id


def check_in_background(
    name: str,
    run: BackgroundRun,
    ui: UiSettings,
    settings: Settings,
    on_checked: Callable[[BatchRow, EarlierCheck | None, str | None], None],
) -> None:
    """Start ``run``'s job checking its claims with the sidebar's checker and options, keep it with the background
    runs as the page's ``?name=ID``, and draw the page again. Each checked claim's best earlier check is looked up
    (before it is kept, so not itself) and the check kept in this session's history; ``on_checked(row, earlier,
    key)`` then gets both, the check's by its history key (``None`` for none, or for a claim that can't be checked or a
    history that can't keep it: :func:`load_history` said why)."""
    checker = checker_or_stop(ui)
    history, choices, session = load_history(settings), ui.to_dict(), browser_session()
    find_earlier = earlier_checks(checker, settings)
    access = _run_access()  # read from the job's thread: a run shared while it checks shares its later checks too

    def keep(row: BatchRow) -> None:
        earlier = key = None
        if row.result is not None:
            earlier = next(iter(find_earlier(row.result)), None)
            if history is not None:
                with suppress(UnusableDatabase):
                    key = history.add(row.result, choices, batch=run.job.job_id, session=session)
                    # kept, then asked: Share link marks the run shared before sharing the checks kept so far
                    if access.get(run.job.job_id, RunAccess("")).shared:
                        history.share(key, session)
        on_checked(row, earlier, key)

    run.job.start(checker, ui.options, on_row=keep)
    keep_run(run)
    show_run(name, run)
    st.rerun()
