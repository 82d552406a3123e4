"""Verify: type a claim, see the verdict card, the evidence it used, the two-hop chains, and the details.

The claim form and the result are a fragment: pressing Check reruns only them, not the sidebar. The result is drawn
by :mod:`pages.verdict_card` (the card) and :mod:`pages.evidence_tables` (the evidence tables, the details); this page
holds the form, the check, its downloads and actions, and the ways a check comes back (permalink, History, coming
back to the page).

Every check is kept in the history, and the page's address becomes its permalink (the claim, the
corpus and the settings: opening it restores them and checks the claim). ``?history=KEY`` shows a
check of the history as it was made, without checking it again: one of this browser session's, or one its maker
shared (History's "Share link"; any with a shared history). Coming back to Verify from another page shows the last
check again, with its claim in the box and its permalink in the address. A new check that was made before (the same
claim or a paraphrase, in this session's history or a shared check, or the annotations:
:mod:`fever_core.workbench.checked_before`) says so on its card, with a link to the earlier one. The "Presenter's
view" toggle (and ``?present=1``, :mod:`pages.presenter`) shows the form, the card, its chart and the evidence used in
large type, without the sidebar, the rest of the evidence, the details and the downloads.

A text longer than a claim may be (:data:`~fever_core.pipeline.MAX_CLAIM_CHARS`) is not checked: it stays in the box,
and the page says it holds several statements and offers to carry it to Check a text, which checks each apart; a
claim of several sentences under the limit is checked, with the same offer above its verdict.
"""

from __future__ import annotations

import json

import streamlit as st

from fever_core.common import (
    Settings,
    UnusableDatabase,
)
from fever_core.corpus import LIVE_CORPUS
from fever_core.pipeline import MAX_CLAIM_CHARS, ClaimError, ClaimTooLong, check_claim_text
from fever_core.text_check import find_sentences
from fever_core.workbench import (
    JSONLD_MEDIA_TYPE,
    Provenance,
    checker_provenance,
    claim_review,
    to_jsonld,
)
from pages.display import (
    claimreview_author,
    footer,
    plain,
    wikipedia_links,
)
from pages.evidence_tables import show_details, show_evidence
from pages.examples import example_claims
from pages.presenter import presenter_toggle, view_params
from pages.resources import (
    CHECKER_LOADING,
    checker_loading,
    checker_or_stop,
    corpus_store_or_none,
    earlier_checks,
    history_session,
    keep_in_history,
    load_history,
    run_settings,
    show_unusable_database,
)
from pages.settings_ui import UiSettings, current_settings, public_permalink, settings_of, write_permalink
from pages.verdict_card import CheckedClaim, result_pages, show_verdict

NOT_FOUND_OR_NOT_SHARED = (
    "This check is not in the history, or it was not shared: a check opens in another browser "
    "only once the person who made it shares it (History, Share link)."
)
# From how many sentences a checked claim gets the note that Check a text checks each statement apart.
MANY_SENTENCES = 2
# How often the note shown while the checker loads looks whether it has loaded, in seconds.
LOADING_POLL_SECONDS = 1.0


def offer_check_a_text(note: str, text: str, key: str) -> None:
    """``note`` with a button that carries ``text`` to Check a text (into its paste box), which checks each of its
    statements apart."""
    st.warning(note, icon=":material/description:")
    if st.button(
        "Check it on “Check a text”",
        key=key,
        help="Opens Check a text with this text in its box: it finds "
        "the statements worth checking and checks each apart",
    ):
        st.session_state["text_pasted"] = text
        st.switch_page("pages/check_text.py")


@st.cache_data(max_entries=100, show_spinner=False)
def sentence_count(claim: str) -> int:
    """How many sentences the claim has, as Check a text splits a text (:func:`~fever_core.text_check.find_sentences`)."""
    return len(find_sentences(claim))


def several_statements_note(claim: str) -> None:
    """Above the verdict of a claim of :data:`MANY_SENTENCES` sentences or more: one verdict answers them all, and
    Check a text checks each apart."""
    sentences = sentence_count(claim)
    if sentences >= MANY_SENTENCES:
        offer_check_a_text(
            f"This claim has {sentences} sentences: it was checked as one claim, with one verdict for "
            "all of them. “Check a text” checks each statement apart.",
            claim,
            "several_statements_to_text",
        )


def run_check(settings: Settings, ui: UiSettings, claim: str, presenting: bool) -> None:
    """Check the claim into ``session_state["checked"]``, showing progress (a status box that stays, saying how it
    went; in the presenter's view, ``presenting``, a spinner that goes, leaving the screen to the verdict); a claim
    that can't be checked gets its reason at once."""
    st.session_state.pop("claim_too_long", None)
    try:
        check_claim_text(claim)
    except ClaimTooLong as exc:  # a text: not cut to the limit and checked as one claim (it stays in the box)
        st.session_state.pop("checked", None)
        st.session_state["claim_too_long"] = exc.chars
        return
    except ClaimError as exc:
        st.session_state.pop("checked", None)
        st.warning(plain(f"Can't check this claim: {exc}"))
        return
    checker = checker_or_stop(ui)
    live = ui.corpus == LIVE_CORPUS
    doing = "Searching Wikipedia and checking…" if live else "Checking…"
    with st.spinner(doing) if presenting else st.status(doing, expanded=False) as status:
        result = checker.check(claim, ui.options)
        links = wikipedia_links(checker.store, result_pages(result))
        earlier = tuple(earlier_checks(checker, settings)(result))  # before it is kept: not itself
        st.session_state["checked"] = CheckedClaim(
            result, links, ui, provenance=checker_provenance(checker, ui.options), earlier=earlier
        )
        write_permalink(result.claim, ui, settings)
        fetched = f" (Wikipedia: {result.timings.get('fetch', 0.0):.1f} s)" if live else ""
        if status is not None:
            status.update(
                label=("Checked, with a warning" if result.warnings else "Checked") + fetched, state="complete"
            )
    keep_in_history(result, ui, settings)  # after the status box: a history that can't keep it says so in sight


def provenance_of(checked: CheckedClaim) -> Provenance | None:
    """What the check was made with: gathered when it was made; for one re-opened from History, from the checker of
    its corpus and verifier when that is the one loaded (the sidebar's), else ``None``."""
    if checked.provenance is not None:
        return checked.provenance
    ui = current_settings(settings)
    if (ui.corpus, ui.verifier_model) != (checked.ui.corpus, checked.ui.verifier_model) or checker_loading(ui):
        return None
    return checker_provenance(checker_or_stop(ui), checked.ui.options)


def claimreview_button(column, checked: CheckedClaim, author) -> None:
    """The check as a schema.org ClaimReview JSON-LD download (:mod:`fever_core.workbench.claimreview`); disabled,
    saying why, when its author can't be one or its provenance is not at hand."""
    provenance = provenance_of(checked) if author is not None else None
    label = "Download ClaimReview (JSON-LD)"
    if provenance is None:
        why = (
            "Name an author above."
            if author is None
            else "Made with another corpus or verifier than the "
            "sidebar's (or before it loaded): check it again to download its ClaimReview."
        )
        column.download_button(label, "", disabled=True, help=why)
        return
    document = claim_review(
        checked.result,
        provenance,
        author,
        published=checked.made_at,
        url=public_permalink(checked.result.claim, checked.ui, settings),
    )
    column.download_button(
        label,
        to_jsonld(document),
        "claimreview.jsonld",
        JSONLD_MEDIA_TYPE,
        on_click="ignore",
        help="The check as schema.org ClaimReview, with the verifier's and the corpus's checksums "
        "and the settings, for fact-check publishers and search engines.",
    )


def show_actions(checked: CheckedClaim) -> None:
    """Downloads (the whole result as JSON, the FEVER prediction line, the ClaimReview) and sending the claim to
    Annotate."""
    result = checked.result
    author = claimreview_author()
    cols = st.columns(4)
    cols[0].download_button(
        "Download result (JSON)", result.to_json(), "check.json", "application/json", on_click="ignore"
    )
    cols[1].download_button(
        "Download FEVER prediction",
        json.dumps(result.fever_prediction()) + "\n",
        "prediction.jsonl",
        "application/jsonl",
        on_click="ignore",
    )
    claimreview_button(cols[2], checked, author)
    if cols[3].button("Send to Annotate"):
        st.session_state["annotate_claim"] = result.claim
        st.switch_page("pages/annotate.py")


def keep_in_step(settings: Settings, checked: CheckedClaim) -> None:
    """On coming back to Verify from another page (which leaves the address bare and the claim box empty):
    the box shows the check's claim again and the address its permalink (``?history=KEY`` for a re-opened one)."""
    if "claim_text" not in st.session_state:
        st.session_state["claim_text"] = checked.result.claim
    params = st.query_params.to_dict()
    if checked.stored is not None:
        key = checked.stored.key
        if params.get("history") != key:
            st.query_params.from_dict({"history": key, **view_params()})
            st.session_state["history_opened"] = key
    elif params.get("claim") != checked.result.claim:
        write_permalink(checked.result.claim, checked.ui, settings)


def open_stored_check(settings: Settings) -> None:
    """Once per address ``?history=KEY``: show the check of the history with that key as it was made, without checking
    again, when this session may open it: its own, or shared (any, with a shared history); else "not found or not
    shared", the same for a key that was never given (an old ``?history=1`` too)."""
    key = st.query_params.get("history", "")
    if not key or st.session_state.get("history_opened") == key:
        return
    st.session_state["history_opened"] = key
    history = load_history(settings)
    if history is None:  # it can't be read: load_history said why
        return
    try:
        session = history_session(settings)
        entry, result = history.entry(key, session), history.result(key, session)
    except UnusableDatabase as exc:
        show_unusable_database(exc)
        return
    if entry is None or result is None:
        st.warning(NOT_FOUND_OR_NOT_SHARED)
        return
    links = wikipedia_links(corpus_store_or_none(settings, result.corpus), result_pages(result))
    st.session_state["checked"] = CheckedClaim(
        result, links, settings_of(result, entry.settings, settings), entry, made_at=entry.checked_at
    )
    st.session_state["claim_text"] = result.claim


@st.fragment(run_every=LOADING_POLL_SECONDS)
def loading_note(ui: UiSettings) -> None:
    """While the checker loads (the first visit after the server starts, or another corpus or verifier): a note
    that says so; once it has loaded, the page is drawn again without it."""
    if not checker_loading(ui):
        st.rerun()
    st.caption(f"{CHECKER_LOADING} A claim can be typed meanwhile: Check waits for them.")


@st.fragment
def check_and_show(settings: Settings, ui: UiSettings, presenting: bool) -> None:
    """The claim form and the check it asks for, then the check shown: its card and evidence, and, unless
    ``presenting`` (the presenter's view), its details, downloads and actions."""
    with st.form("check"):
        claim = st.text_area(
            "Claim", key="claim_text", height=80, placeholder="e.g. Stanley Kubrick directed 2001: A Space Odyssey."
        )
        # the press is kept in the session by its callback: a page redrawn at that moment (the loading note's, once
        # the models have loaded) runs the check instead of losing the click
        pressed = st.form_submit_button(
            "Check", type="primary", on_click=st.session_state.__setitem__, args=("run_check", True)
        )
    if st.session_state.pop("run_check", False) or pressed:
        run_check(settings, ui, claim, presenting)
    if "claim_too_long" in st.session_state:
        offer_check_a_text(
            f"Not checked: this text has {st.session_state['claim_too_long']:,} characters, more than "
            f"a claim's {MAX_CLAIM_CHARS:,}, and holds several statements. Check one statement at a "
            "time here, or check the whole text on “Check a text”, which checks each statement apart "
            "(it stays in the box above).",
            claim,
            "too_long_to_text",
        )
    checked = st.session_state.get("checked")
    if checked is not None:
        several_statements_note(checked.result.claim)
        show_verdict(checked, presenting)
        show_evidence(checked, presenting)
        if not presenting:
            show_details(checked)
            show_actions(checked)


settings = run_settings()
ui = current_settings(settings)
st.title("Verify a claim")
if ui.corpus == LIVE_CORPUS:
    st.caption(
        "Live Wikipedia: each claim is searched on Wikipedia and the pages found are kept, "
        "so checking works offline on the pages fetched so far."
    )

open_stored_check(settings)
if "permalink_claim" in st.session_state:  # a permalink being opened: the frame restored its corpus and settings
    st.session_state["claim_text"] = st.session_state.pop("permalink_claim")
    st.session_state["run_check"] = True
    st.session_state.pop("checked", None)  # an earlier check is not shown while this one runs
    refused = st.session_state.pop("permalink_refused", [])
    if refused:
        st.warning(plain("This link's " + ", ".join(refused) + " can't be used here: the defaults were used instead."))

elif "checked" in st.session_state:
    keep_in_step(settings, st.session_state["checked"])

examples_column, presenter_column = st.columns([4, 1], vertical_alignment="bottom")
presenting = presenter_toggle(presenter_column)
example = examples_column.selectbox("Examples", ["—"] + example_claims(ui.corpus), key="example")
if example != "—" and st.session_state.get("last_example") != example:
    st.session_state["claim_text"] = example
    st.session_state["last_example"] = example

if checker_loading(ui):
    loading_note(ui)
check_and_show(settings, ui, presenting)
footer()
