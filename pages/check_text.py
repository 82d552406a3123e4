"""Check a text: paste an article, a speech or a transcript, or upload it (.txt, .md or .html), and check the
sentences worth checking.

The library finds the text's sentences and picks those that state a fact about named things, numbers or dates
(:mod:`fever_core.text_check`); the page lists every sentence with why it was picked or not, and the person can
tick or untick any. Check runs the ticked ones in the background (:class:`~fever_core.evaluation.BatchJob`, kept for
the whole server by :func:`pages.background_runs.check_in_background` and named in the page's address), each kept in the history, with a
progress bar: the other pages can be used meanwhile, and coming back (or a reload) finds it. Then the text is shown
with each checked sentence marked by its verdict, in colour and in words, under a summary of the verdicts; each
checked sentence opens its verdict card in Verify, as it was checked (from the history). The text is always
escaped: none of it is read as HTML or Markdown.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from functools import partial

import pandas as pd
import streamlit as st

from fever_core.common import NEI, UNDECIDED_WORD
from fever_core.evaluation import BatchJob, BatchRow
from fever_core.text_check import (
    MAX_TEXT_BYTES,
    TEXT_KINDS,
    CheckedSentence,
    NothingToCheck,
    TextCheck,
    TextReadError,
    TextSentence,
    find_sentences,
    plain_text,
    sentence_claims,
    text_of_bytes,
)
from fever_core.workbench import EarlierCheck, checker_provenance, probability_text, verdict_shown
from pages.background_runs import check_in_background, run_in_address, share_run
from pages.display import (
    checked_before_markdown,
    claimreview_author,
    claimreviews_button,
    corpus_label,
    footer,
    plain,
    synced_widget,
)
from pages.resources import checker_or_stop, run_settings
from pages.settings_ui import UiSettings, check_on_verify, current_settings, permalink_params, public_permalink
from pages.words import PROBABILITY, PROBABILITY_HELP, VERDICT_COLOURS, count, verdict_word

# How often a running check's progress is redrawn, in seconds.
POLL_SECONDS = 1.0
# The colour and word of a chosen sentence that can't be checked (too long to be a claim).
CANT_CHECK = ("orange", "can't check")
SENTENCE_CHARS_IN_TITLE = 100
# The text "Paste the example" fills in: six sentences, one of each kind the page tells apart (a fact, a fact about
# "Its" subject, an opinion reported with a day, a fact joined to a prediction, a question, the writer's opinion).
EXAMPLE_TEXT = (
    "Edinburgh is the capital of Scotland. Its festival has been held every August since 1947. On Monday, the mayor "
    "said the city had never looked better. Shakespeare wrote Hamlet, and the festival will stage it next summer. "
    "Will the tickets sell out? I think it is the best festival in the world."
)
# The choice table's "why (not) picked" and "sentence" columns, in pixels, and its rows' height: over 64 px (4rem),
# Streamlit wraps a cell's text, so a long reason ("names Paris, France; gives 2023") or sentence shows on three lines
# instead of cut. With the tick (about 80 px) and "checked as" (medium: 200 px) they fill the page's 820 px at a 1280 px
# window, so that "checked as" is in view too, not past the table's right edge.
WHY_COLUMN_PX = 220
SENTENCE_COLUMN_PX = 310
CHOICE_ROW_PX = 72
CHOICE_COLUMNS = {
    "check": st.column_config.CheckboxColumn("check", help="Tick a sentence to check it, untick it to leave it out"),
    "sentence": st.column_config.TextColumn("sentence", width=SENTENCE_COLUMN_PX, disabled=True),
    "checked as": st.column_config.TextColumn(
        "checked as",
        width="medium",
        disabled=True,
        help="A sentence that opens with “She”, “It”, “His”… is checked with "
        "the name it stands for, from the sentences before it",
    ),
    "why": st.column_config.TextColumn(
        "why (not) picked",
        width=WHY_COLUMN_PX,
        disabled=True,
        help="Worth checking: a fact about named people, places or things, numbers "
        "or dates. Not: questions, opinions, plans, instructions, fragments.",
    ),
}
# The choice table's columns, left to right: why a sentence was picked comes before the sentence, so that it shows
# whole on a narrow screen (at 1280 px, after the long sentence, it was cut off).
CHOICE_ORDER = ("check", "why", "sentence", "checked as")


@dataclass(frozen=True)
class Draft:
    """A text read and split, before it is checked: its id (naming its choice table), where it came from, the plain
    text and its sentences."""

    draft_id: str
    source: str
    text: str
    sentences: list[TextSentence]


@dataclass(frozen=True)
class TextBatch:
    """A text being checked, or checked, as the page knows it: the job checking its chosen sentences, the text, the
    settings, each checked sentence's history key and its best earlier check (filled in by the job's thread as it
    goes; see :func:`~pages.background_runs.check_in_background`)."""

    job: BatchJob
    draft: Draft
    chosen: list[int]
    ui: UiSettings
    history: dict[int, str] = field(default_factory=dict)
    earlier: dict[int, EarlierCheck] = field(default_factory=dict)

    def checked(self) -> TextCheck:
        """The text with the checks made so far."""
        return TextCheck.of(self.draft.text, self.draft.sentences, self.job.rows(), self.chosen)


def read_text(upload, pasted: str) -> Draft | None:
    """The uploaded file's text, else the pasted one, split into sentences; ``None`` (and why, on the page) when
    there is none or it can't be read."""
    try:
        if upload is not None:
            source, text = upload.name, text_of_bytes(upload.getvalue(), upload.name)
        else:
            source, text = "pasted text", plain_text(pasted)
        with st.spinner("Finding the sentences worth checking…"):
            return Draft(uuid.uuid4().hex[:12], source, text, find_sentences(text))
    except TextReadError as exc:  # (too many sentences, or too long to split, included)
        st.error(plain(f"Can't read the text: {exc}"))
        return None


def text_form() -> None:
    """Paste or upload a text; "Find the sentences to check" splits it and picks the check-worthy ones."""
    upload = st.file_uploader(
        "Upload a text: .txt, .md or .html (at most 1 MB)",
        type=[suffix.lstrip(".") for suffix in TEXT_KINDS],
        max_upload_size=-(-MAX_TEXT_BYTES // 1_000_000),
    )  # in MB: the widget says the same
    synced_widget(
        st.text_area,
        "…or paste it: an article, a speech, a transcript",
        "_text_pasted",
        st.session_state.get("text_pasted", ""),
        partial(st.session_state.__setitem__, "text_pasted"),
        height=200,
        placeholder="e.g. Marie Curie won two Nobel Prizes. I think she was brilliant.",
    )
    st.button(
        "Paste the example",
        on_click=st.session_state.__setitem__,
        args=("text_pasted", EXAMPLE_TEXT),
        help="Six sentences: facts, an opinion reported, a fact joined to a prediction, a question, an opinion",
    )
    if st.button("Find the sentences to check", type="primary"):
        draft = read_text(upload, st.session_state.get("text_pasted", ""))
        if draft is not None:
            st.session_state["text_draft"] = draft


def choose_sentences(ui: UiSettings, draft: Draft, running: bool) -> None:
    """Every sentence of the text with why it was picked or not, ticked when it is worth checking; the person ticks
    or unticks any; Check starts checking the ticked ones (not while this session's check runs)."""
    worthy = sum(s.worthy for s in draft.sentences)
    st.subheader(plain(f"{count(len(draft.sentences), 'sentence')} in {draft.source}"), anchor=False)
    try:
        sentence_claims(draft.sentences)
        st.caption(f"{worthy} of them look worth checking and are ticked. Tick or untick any, then Check.")
    except NothingToCheck as exc:  # none is check-worthy: say why, and let the person tick some
        st.info(str(exc), icon=":material/search:")
    choice = pd.DataFrame(
        {
            "check": [s.worthy for s in draft.sentences],
            "sentence": [s.text for s in draft.sentences],
            "checked as": [s.checked_as or "" for s in draft.sentences],
            "why": [s.reason for s in draft.sentences],
        }
    )
    if not any(s.checked_as for s in draft.sentences):
        choice = choice.drop(columns="checked as")
    edited = st.data_editor(
        choice,
        key=f"text_choice_{draft.draft_id}",
        column_config=CHOICE_COLUMNS,
        column_order=[name for name in CHOICE_ORDER if name in choice.columns],
        row_height=CHOICE_ROW_PX,
        height="content",  # every row in view, none hidden in the table's own scroll (up to 10,000 px: 138 rows)
        hide_index=True,
        width="stretch",
        num_rows="fixed",
    )
    chosen = [index for index, ticked in enumerate(edited["check"]) if ticked]
    label = f"Check {count(len(chosen), 'sentence')}"
    if st.button(label, type="primary", disabled=running or not chosen, key="check_text"):
        start_checking(ui, draft, chosen)


def start_checking(ui: UiSettings, draft: Draft, chosen: list[int]) -> None:
    """Start checking the chosen sentences in the background with the sidebar's settings, each kept in the
    history, and draw the page again."""
    try:
        claims = sentence_claims(draft.sentences, chosen)
    except NothingToCheck as exc:
        st.warning(str(exc))
        return
    batch = TextBatch(BatchJob(claims), draft, [int(claim.id) for claim in claims], ui)

    def keep(row: BatchRow, earlier: EarlierCheck | None, key: str | None) -> None:
        if earlier is not None:
            batch.earlier[int(row.claim.id)] = earlier
        if key is not None:
            batch.history[int(row.claim.id)] = key

    check_in_background("text", batch, ui, settings, keep)


def current_batch() -> TextBatch | None:
    """This session's text check: named in the page's address (a reload) or started earlier in the session; the
    address names it from now on."""
    batch = run_in_address("text", "text check")
    return batch if hasattr(batch, "draft") else None  # a text's (the page's classes are made anew on each run)


def mark(item: CheckedSentence, number: int) -> str:
    """A checked sentence as the marked text shows it: its words, then the verdict in words and its number in the list
    below, on its verdict's colour together, so that the verdict reads as its sentence's and not the next one's
    (escaped: Markdown and HTML in it stay text)."""
    colour, word = shown(item) if item.result else CANT_CHECK
    words = plain(" ".join(item.sentence.text.split()))
    return f":{colour}-background[{words} :{colour}[**← {word} ({number})**]]"


def shown(item: CheckedSentence) -> tuple[str, str]:
    """A checked sentence's verdict as Verify's card shows the same check: its colour and word, "Undecided" (in Not
    enough info's colour) where its label is withheld as too unsure."""
    verdict = item.result.verdict if item.result else None
    withheld = verdict is not None and verdict.label_withheld
    return VERDICT_COLOURS[NEI if withheld else item.verdict], verdict_shown(item.verdict, withheld)


def marked_text(checked: TextCheck, numbers: dict[int, int]) -> str:
    """The text as Markdown, each sentence of ``numbers`` (its index: its number) marked (:func:`mark`), the rest
    escaped as it is; paragraphs and line breaks kept."""
    text, parts, position = checked.text, [], 0
    for item in checked.sentences:
        if item.sentence.index in numbers:
            parts += [plain(text[position : item.sentence.start]), mark(item, numbers[item.sentence.index])]
            position = item.sentence.end
    parts.append(plain(text[position:]))
    return "".join(parts).replace("\n\n", "\0").replace("\n", "  \n").replace("\0", "\n\n")


def open_card(batch: TextBatch, item: CheckedSentence) -> None:
    """Open the sentence's verdict card in Verify: as it was checked (from the history), or, where the history
    could not keep it, checked again there with the same corpus and settings."""
    key = batch.history.get(item.sentence.index)
    if key is not None:
        st.session_state.pop("history_opened", None)  # the same card opened a second time opens again
        st.switch_page("pages/verify.py", query_params={"history": key})
    params = permalink_params(item.sentence.claim, batch.ui, settings)
    check_on_verify(params, settings)
    st.switch_page("pages/verify.py", query_params=params)


def sentence_list(batch: TextBatch, items: list[CheckedSentence]) -> None:
    """Each checked sentence, numbered as in the text: its verdict, probability and why, and a button opening its
    verdict card (or why it can't be checked)."""
    for number, item in enumerate(items, start=1):
        sentence = " ".join(item.sentence.text.split())
        short = sentence if len(sentence) <= SENTENCE_CHARS_IN_TITLE else sentence[:SENTENCE_CHARS_IN_TITLE] + "…"
        colour, word = shown(item) if item.result else CANT_CHECK
        with st.expander(plain(f"({number}) {word} · {short}")):
            if item.result is None:
                st.warning(plain(item.error))
                continue
            verdict = item.result.verdict
            if item.sentence.checked_as:
                st.caption(plain(f"Checked as: {item.sentence.checked_as}"))
            st.markdown(
                f":{colour}[**{word}**] · {PROBABILITY} {probability_text(verdict.probability)} · "
                + plain(verdict.why or verdict.reason),
                help=PROBABILITY_HELP,
            )
            if item.sentence.index in batch.earlier:
                st.markdown(checked_before_markdown(batch.earlier[item.sentence.index]))
            if st.button(
                "Open its verdict card",
                key=f"card_{batch.job.job_id}_{item.sentence.index}",
                help="Verify shows the sentence's verdict card and evidence, as it was checked",
            ):
                open_card(batch, item)


def show_checks(batch: TextBatch) -> None:
    """The summary, the text with its checked sentences marked, and the list of them (each opening its card)."""
    checked = batch.checked()
    chosen = [item for item in checked.sentences if item.chosen and (item.result is not None or item.error)]
    numbers = {item.sentence.index: number for number, item in enumerate(chosen, start=1)}
    with st.container(border=True, key="text_marked"):
        st.markdown(marked_text(checked, numbers))
    if chosen:
        st.caption("Each checked sentence: open it for its verdict's reason and its verdict card.")
        sentence_list(batch, chosen)


@st.fragment(run_every=POLL_SECONDS)
def show_progress(batch: TextBatch) -> None:
    """A running check's progress, a Stop button and the sentences checked so far, redrawn every
    :data:`POLL_SECONDS`; once it has ended, the whole page is drawn again."""
    job = batch.job
    if not job.running:
        st.rerun()
    st.progress(job.done / job.total, text=f"Checked {job.done} of {count(job.total, 'sentence')}")
    st.button("Stop", on_click=job.stop, help="End after the sentence being checked; the checks so far stay.")
    show_checks(batch)


def show_result(batch: TextBatch) -> None:
    """A finished check: the summary on top, then the marked text and the sentences."""
    if batch.job.error:
        st.error(plain(f"The check ended early: {batch.job.error}"))
    stopped = " (stopped)" if batch.job.report and batch.job.report.stopped else ""
    checked = batch.checked()
    st.success(checked.summary(verdict_word, UNDECIDED_WORD) + stopped)
    repeats = len(batch.earlier)
    if repeats:
        st.caption(
            f"{count(repeats, 'sentence')} checked before (History or Annotate): open "
            f"{'it' if repeats == 1 else 'them'} below for the earlier check."
        )
    show_checks(batch)
    author = claimreview_author()
    results = [item.result for item in checked.sentences if item.result is not None]
    claimreviews_button(
        st,
        results,
        checker_provenance(checker_or_stop(batch.ui), batch.ui.options),
        author,
        batch.job.started_at,
        [public_permalink(result.claim, batch.ui, settings) for result in results],
    )


settings = run_settings()
ui = current_settings(settings)
st.title("Check a text")
st.caption(
    f"Corpus: {plain(corpus_label(ui.corpus))} (change it in the sidebar). The sentences worth checking are "
    "picked for you; the check runs in the background, and this page's address finds it again."
)
batch = current_batch()
text_form()
draft = st.session_state.get("text_draft")
if draft is not None:
    choose_sentences(ui, draft, running=batch is not None and batch.job.running)
if batch is not None:
    st.subheader(
        plain(
            f"{count(batch.job.total, 'sentence')} of {batch.draft.source}, checked on {corpus_label(batch.ui.corpus)}"
        ),
        anchor=False,
    )
    share_run("text", "text check")
    if batch.job.running:
        show_progress(batch)
    else:
        show_result(batch)
footer()
