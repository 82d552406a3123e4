"""The presenter's view of Verify (issue 48): type large enough to read from the back of a room on a 1920x1080
projector, no sidebar, and one claim with its verdict and deciding sentences on one screen.

It is a state of Verify's address, ``?present=1`` (:data:`PRESENT_PARAM`): the toggle on Verify adds it and takes it
away, a link with it opens Verify in the view, and a check's permalink keeps it while the view is on (so the link a
presenter shares opens as they showed it). It is not part of the check: the permalink a check is opened from, kept
in History or written into a ClaimReview is the same with or without it. The styles are one fixed stylesheet,
``presenter.css`` beside ``app.py``, drawn only while the view is on; no text of a person or the corpus goes into
it.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages.display import synced_widget

PRESENT_PARAM = "present"
"""The address parameter that opens Verify in the presenter's view (``?present=1``)."""
PRESENTER_CSS = Path(__file__).resolve().parent.parent / "presenter.css"
PRESENTER_CHART_FONT_PX = 20
"""The verdict chart's type in the view, in CSS pixels (its labels, numbers and axis title); the stylesheet sets
the page's type, the chart draws its own."""
PRESENTER_CHART_HEIGHT_PX = (160, 45)
"""The verdict chart's height in the view, in CSS pixels: with the verdict's bar alone, and more for each sentence's
(:data:`pages.verdict_card.CHART_HEIGHT_PX` otherwise): room for its larger type."""


def presenting() -> bool:
    """Whether Verify shows the presenter's view: its address says ``?present=1``."""
    return st.query_params.get(PRESENT_PARAM) == "1"


def view_params() -> dict[str, str]:
    """The view's part of Verify's address: ``{"present": "1"}`` while it is on, else nothing."""
    return {PRESENT_PARAM: "1"} if presenting() else {}


def without_view(params: dict[str, str]) -> dict[str, str]:
    """An address's parameters without the view's: the check a permalink names, whatever the view."""
    return {name: value for name, value in params.items() if name != PRESENT_PARAM}


def _show_view(on: bool) -> None:
    """The toggle's change: add the view's parameter to the address, or take it away."""
    if on:
        st.query_params[PRESENT_PARAM] = "1"
    else:
        st.query_params.pop(PRESENT_PARAM, None)


def presenter_toggle(where=st) -> bool:
    """The "Presenter's view" toggle (in ``where``, e.g. a column), showing the address's state; and, while the view
    is on, its stylesheet. Returns whether the view is on."""
    synced_widget(
        where.toggle,
        "Presenter's view",
        "_present",
        presenting(),
        _show_view,
        help="Large type for a projector or a screen share (1920x1080): no sidebar, one claim with its "
        "verdict and deciding sentences on one screen, the rest hidden. The page's address keeps it "
        "(?present=1), so a link shared from here opens the same way.",
    )
    if presenting():
        st.html(PRESENTER_CSS)
    return presenting()
