"""History: the checks this browser session made (on Verify and in batches), newest first, or everyone's when
the server was started with a shared history (``FEVER_SHARED_HISTORY=1``). Search it (the search stays while
the person visits other pages), re-open a check in Verify as it was made (without checking it again) or check
it again with its corpus and settings, share it (its link then opens it in any browser, until sharing stops), and
clear it (after a confirmation). A check is private to the session that made it until it is shared. No server path
is shown. A history file that can't be used is named with the reason; a damaged one can be moved aside (kept,
renamed)."""

from __future__ import annotations

import time
from functools import partial

import pandas as pd
import streamlit as st

from fever_core.common import Settings, UnusableDatabase
from fever_core.workbench import HistoryEntry, HistoryStore, probability_text, verdict_shown
from pages.display import corpus_label, footer, plain, synced_widget
from pages.resources import history_session, load_history, run_settings, show_unusable_database
from pages.settings_ui import check_on_verify, permalink_params, settings_of
from pages.words import PROBABILITY, PROBABILITY_HELP, count, yes_no

# The newest checks matching the search that the page lists.
SHOWN = 500
CLAIM_CHARS_IN_CHOICE = 90


def checked_at(entry: HistoryEntry) -> str:
    """When the check was made, in the server's local time, to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.checked_at))


def entries_table(entries: list[HistoryEntry]) -> pd.DataFrame:
    """The checks as History lists them: each verdict as its card shows it ("Undecided" where its label is withheld,
    without a deciding sentence) with its one probability, written as the card writes it
    (:func:`~fever_core.workbench.probability_text`)."""
    return pd.DataFrame(
        [
            {
                "checked": checked_at(e),
                "claim": e.claim,
                "verdict": verdict_shown(e.verdict, e.label_withheld),
                PROBABILITY: probability_text(e.probability),
                "deciding sentence": "" if e.label_withheld else e.deciding_sentence,
                "page": "" if e.label_withheld else e.deciding_page,
                "corpus": corpus_label(e.corpus),
                "from": "batch" if e.batch else "Verify",
                "shared": yes_no(e.shared),
            }
            for e in entries
        ]
    )


def describe(entry: HistoryEntry) -> str:
    """An entry in one line, for the choice of the check to open: when, its verdict and probability as its card shows
    them, its claim."""
    claim = entry.claim if len(entry.claim) <= CLAIM_CHARS_IN_CHOICE else entry.claim[:CLAIM_CHARS_IN_CHOICE] + "…"
    verdict = f"{verdict_shown(entry.verdict, entry.label_withheld)} {probability_text(entry.probability)}"
    return f"{checked_at(entry)} · {verdict} · {claim}"


def open_entry(settings: Settings, history: HistoryStore, entries: list[HistoryEntry], session: str | None) -> None:
    """Choose a check (the choice stays while the person visits other pages), then open it in Verify as it was
    made, or check it again there with its corpus and settings (the sidebar takes them, as from a permalink),
    which keeps the new check in the history; or share it (:func:`share_entry`)."""
    by_key = {entry.key: entry for entry in entries if entry.key}  # (none in a read-only history of an old version)
    if not by_key:
        return
    chosen = st.session_state.get("history_choice")
    entry = by_key[
        synced_widget(
            st.selectbox,
            "Check",
            "_history_choice",
            chosen if chosen in by_key else next(iter(by_key)),
            partial(st.session_state.__setitem__, "history_choice"),
            options=list(by_key),
            format_func=lambda key: describe(by_key[key]),
        )
    ]
    st.session_state["history_choice"] = entry.key
    cols = st.columns([1, 1, 1, 2])
    if cols[0].button("Open in Verify", type="primary", help="Shows the check as it was made, without checking again"):
        st.session_state.pop("history_opened", None)  # the same check opened a second time opens again
        st.switch_page("pages/verify.py", query_params={"history": entry.key})
    if cols[1].button("Check again", help="Checks the claim again in Verify, with the corpus and settings it had"):
        ui = settings_of(history.result(entry.key, session), entry.settings, settings)
        params = permalink_params(entry.claim, ui, settings)
        check_on_verify(params, settings)  # checked even when it is the address of the last check
        st.switch_page("pages/verify.py", query_params=params)
    share_entry(cols[2], history, entry, session)


def share_entry(column, history: HistoryStore, entry: HistoryEntry, session: str | None) -> None:
    """ "Share link": mark the check shared, so that its link opens it in any browser, and show the link; "Stop
    sharing" makes it private again (its link then opens nothing elsewhere). Unshared, a check opens only in the
    browser session that made it."""
    if not entry.shared:
        if column.button(
            "Share link",
            disabled=history.read_only,
            help="Lets anyone with the link open this check (until you stop sharing it)",
        ):
            history.share(entry.key, session)
            st.rerun()
        return
    if column.button("Stop sharing", help="Its link stops opening it in other browsers"):
        history.share(entry.key, session, shared=False)
        st.rerun()
    st.caption("Shared: anyone with this link opens the check as it was made (this workbench's address, then):")
    st.code(f"{share_base()}?history={entry.key}", language=None)


def share_base() -> str:
    """The address a shared check's link starts with: this workbench's Verify page as the browser reached it."""
    url = st.context.url or ""
    return url.split("?")[0].rsplit("/history", 1)[0].rstrip("/") + "/"


def clear_history(history: HistoryStore, kept: int, session: str | None) -> None:
    """Clear the history (``session``'s checks, or everyone's for ``None``), once the person has confirmed it."""
    if not st.session_state.get("confirm_clear"):
        st.button(
            "Clear the history…", disabled=not kept, on_click=st.session_state.__setitem__, args=("confirm_clear", True)
        )
        return
    whose = "everyone's" if session is None else "this browser's"
    which = f"all {kept:,} of {whose} checks" if kept > 1 else f"{whose} one check"
    st.warning(f"Delete {which} from the history? This can't be undone.", icon=":material/warning:")
    cols = st.columns([1, 1, 3])
    if cols[0].button("Yes, delete them all", type="primary"):
        st.session_state["history_notice"] = f"Deleted {count(history.clear(session), 'check')}."
    elif not cols[1].button("Cancel"):
        return
    st.session_state["confirm_clear"] = False
    st.rerun()


def show_history(settings: Settings, history: HistoryStore, session: str | None) -> None:
    """``session``'s checks (everyone's for ``None``), the search, opening one, and clearing. Raises
    UnusableDatabase."""
    kept = history.count(session)
    st.caption(
        f"{count(kept, 'check')} kept, newest first: "
        + (
            "everyone's who uses this workbench (it was started with a shared history)."
            if session is None
            else "those made in this browser until it is closed (others using the workbench have their own)."
        )
    )
    if history.read_only:
        st.warning(
            "The history file is read-only: the checks in it are shown, new ones are not kept. Make it "
            "writable, or point FEVER_DATA_DIR at a folder you can write to.",
            icon=":material/warning:",
        )
    words = synced_widget(
        st.text_input,
        "Search claims, deciding sentences and pages",
        "_history_search",
        st.session_state.get("history_search", ""),
        partial(st.session_state.__setitem__, "history_search"),
        placeholder="e.g. Kubrick",
    )
    entries = history.search(words, SHOWN, session)
    if entries:
        st.dataframe(
            entries_table(entries),
            hide_index=True,
            width="stretch",
            column_config={PROBABILITY: st.column_config.TextColumn(help=PROBABILITY_HELP)},
        )
        open_entry(settings, history, entries, session)
    elif kept:
        st.info(plain(f"No check holds every word of “{words}”."))
    else:
        st.info("No checks yet: those made on Verify and Batch are kept here.")
    clear_history(history, kept, session)


st.title("History")
if "history_notice" in st.session_state:
    st.success(st.session_state.pop("history_notice"))
settings = run_settings()
history = load_history(settings)  # None when its file can't be used: it says why, and offers to move it aside
if history is not None:
    try:
        show_history(settings, history, history_session(settings))
    except UnusableDatabase as exc:  # damage found past the part of the file that opening reads
        show_unusable_database(exc)
footer()
