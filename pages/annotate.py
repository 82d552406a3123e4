"""Annotate: add the evidence the system missed, modelled on FEVER's annotation interface.

A queue of claims (from a FEVER claims file or sent from Verify); the claim on top; the candidate
pages' sentences with their links, each expandable to the sentences of linked pages (FEVER's
"dictionary"); any page can be searched and added. Ticked sentences form evidence sets; every
save, skip and undo is written at once to the annotations database.

The annotation being made (ticks, label) is a draft kept outside the widgets, so a sentence shown
twice (on its page and in another page's links) is one tick, and a draft survives what Streamlit
does to widgets; the annotator's name, the claim and its draft are also kept in the page's address,
so a refresh loses nothing (:mod:`pages.annotation_draft`).
"""

from __future__ import annotations

import io
import time
from functools import partial
from typing import TYPE_CHECKING

import streamlit as st

from fever_core.common import LABELS, NEI, REFUTES, SUPPORTS, Link, Page, UnusableDatabase
from fever_core.workbench import AnnotationError, AnnotationStore, QueueItem, search_corpus
from pages.annotation_draft import Draft, Evidence, drafts, read_address, write_address
from pages.display import footer, plain, synced_widget
from pages.resources import checker_or_stop, load_annotations, run_settings
from pages.settings_ui import UiSettings, current_settings
from pages.words import count, evidence_set_line, verdict_word

if TYPE_CHECKING:
    from fever_core.corpus import CorpusStore
    from fever_core.workspace import Workspace

LINKED_SENTENCES_SHOWN = 5
PAGE_HITS_SHOWN = 5
# The searches that find a page to add: by its title, or by the words of a sentence in it (the full-text index).
ADD_PAGE_SEARCHES = {"lexical": "sentence words", "title": "title"}
# Keyboard shortcuts (Streamlit shows each on its button; Ctrl is Cmd on a Mac).
SHORTCUTS = {
    SUPPORTS: "Alt+1",
    REFUTES: "Alt+2",
    NEI: "Alt+3",
    "save": "Ctrl+Enter",
    "skip": "Alt+K",
    "next": "Alt+N",
    "undo": "Alt+Z",
}


def show_notice() -> None:
    """What the last action did (set before a rerun, shown once)."""
    if "notice" in st.session_state:
        st.success(st.session_state.pop("notice"))


def queue_claims(annotations: AnnotationStore) -> None:
    """Add claims to the queue: a FEVER claims file, a typed claim, or one sent from Verify."""
    with st.expander("Queue", expanded=not annotations.counts()["total"]):
        upload = st.file_uploader("Add claims from a FEVER-format jsonl file", type=["jsonl", "json"])
        if upload is not None and st.session_state.get("uploaded_name") != upload.name:
            try:
                added = annotations.add_claims_file(io.StringIO(upload.getvalue().decode("utf-8", errors="replace")))
                st.session_state["uploaded_name"] = upload.name
                st.success(f"Queued {count(added, 'claim')} from {plain(upload.name)}.")
            except (AnnotationError, UnusableDatabase) as exc:
                st.error(plain(f"{upload.name}: {exc}"))
        with st.form("add_claim", clear_on_submit=True):
            typed = st.text_input("Or type a claim to queue")
            if st.form_submit_button("Queue it") and typed.strip():
                st.session_state["item_id"] = annotations.add_claim(typed)
    if "annotate_claim" in st.session_state:
        item_id = annotations.add_claim(st.session_state.pop("annotate_claim"))
        st.session_state["item_id"] = item_id
        if annotations.annotations_of(item_id):
            st.session_state["annotated_already"] = item_id


def show_annotated_already(annotations: AnnotationStore) -> None:
    """Once, for a claim sent from Verify that is annotated already: that it is, how and by whom, and how to change
    it (the queue moves on to the next claim to annotate)."""
    item_id = st.session_state.pop("annotated_already", None)
    item = annotations.item(item_id) if item_id is not None else None
    if item is None:
        return
    done = "; ".join(
        f"{verdict_word(a.label)}, {count(len(a.evidence_sets), 'evidence set')}, by {a.annotator} "
        f"({time.strftime('%Y-%m-%d %H:%M', time.localtime(a.created_at))})"
        for a in annotations.annotations_of(item_id)
    )
    st.info(
        plain(
            f"“{item.claim}” is annotated already: {done}. To change your own, “Undo my last action” brings "
            "back your last one with its label and ticks; the queue goes on with the next claim."
        ),
        icon=":material/edit_note:",
    )


def current_item(annotations: AnnotationStore) -> QueueItem | None:
    """The claim being annotated: the chosen one while pending, else the next pending one after it."""
    item = annotations.item(st.session_state["item_id"]) if "item_id" in st.session_state else None
    if item is None or item.status != "pending":
        item = annotations.next_pending(after=item.item_id if item else 0)
    if item is not None:
        st.session_state["item_id"] = item.item_id
    return item


def candidate_pages(ui: UiSettings, item: QueueItem) -> list[str]:
    """The pages the checker reads for the claim (checked once per claim and corpus)."""
    key = f"candidates-{item.item_id}-{ui.corpus}"
    if key not in st.session_state:
        try:
            with st.spinner("Finding the candidate pages…"):
                result = checker_or_stop(ui).check(item.claim, ui.options)
            st.session_state[key] = [p.page_id for p in result.pages if p.used]
        except Exception as exc:  # noqa: BLE001 - a claim that can't be checked still gets annotated
            st.warning(plain(f"No candidate pages for this claim: {exc}"))
            st.session_state[key] = []
    return st.session_state[key]


def evidence_checkbox(draft: Draft, item_id: int, evidence: Evidence, text: str, place: str) -> None:
    """A tick box for a sentence in the current evidence set. A sentence shown in two places has two
    boxes (``place`` tells them apart) that both show, and change, the one tick in the draft."""
    group = draft.current
    page_id, line = evidence
    synced_widget(
        st.checkbox,
        plain(f"[{line}] {text}"),
        f"tick-{item_id}-{group}-{place}-{page_id}-{line}",
        evidence in draft.sets[group],
        partial(draft.tick, group, evidence),
    )


def distinct_targets(links: list[Link]) -> list[Link]:
    """The links to different pages, each target's first link."""
    first: dict[str, Link] = {}
    for link in links:
        first.setdefault(link.target, link)
    return list(first.values())


def show_page(store: CorpusStore, page: Page, draft: Draft, item_id: int, expanded: bool) -> None:
    """A candidate page's sentences to tick, each with a popover of its links' sentences."""
    with st.expander(plain(page.title), expanded=expanded):
        for sentence in page.sentences:
            evidence_checkbox(draft, item_id, (page.page_id, sentence.line), sentence.text, "page")
            links = distinct_targets(sentence.links)
            if not links:
                continue
            anchors = ", ".join(link.anchor for link in links[:4])
            with st.popover(plain(f"Links of sentence {sentence.line}: {anchors}")):
                for link in links:
                    linked = store.page(link.target)
                    st.markdown(f"**{plain(link.anchor)}**" + ("" if linked else " (not in this corpus)"))
                    for s2 in linked.sentences[:LINKED_SENTENCES_SHOWN] if linked else []:
                        evidence_checkbox(
                            draft, item_id, (link.target, s2.line), s2.text, f"link-{page.page_id}-{sentence.line}"
                        )


def add_page_by_search(workspace: Workspace, draft: Draft, shown: list[str]) -> None:
    """Search the corpus for a page the checker did not find, by its title or by the words of a sentence in it
    (the store's full-text index), and add it beside the candidates. Pages already ``shown`` are not offered."""
    with st.form("add_page", clear_on_submit=True):
        query = st.text_input("Search a page to add: its title, or words of a sentence in it")
        mode = st.radio(
            "By", list(ADD_PAGE_SEARCHES), format_func=ADD_PAGE_SEARCHES.get, horizontal=True, key="add_page_mode"
        )
        if st.form_submit_button("Search") and query.strip():
            st.session_state["page_hits"] = search_corpus(workspace, query, mode, PAGE_HITS_SHOWN)
            st.session_state["page_query"] = query.strip()
    hits = st.session_state.get("page_hits", [])
    offered = [hit for hit in hits if hit.page_id not in shown]
    for hit in offered:
        found = f" — [{hit.line}] {hit.text}" if hit.text else ""
        st.button(
            plain(f"Add page: {hit.title}{found}"),
            key=f"add-{hit.page_id}-{hit.line}",
            on_click=add_page,
            args=(draft, hit.page_id),
        )
    if hits and not offered:
        st.caption(plain(f"Every page found for “{st.session_state.get('page_query', '')}” is shown above."))
    elif "page_hits" in st.session_state and not hits:
        st.caption(plain(f"No page found for “{st.session_state.get('page_query', '')}”."))


def add_page(draft: Draft, page_id: str) -> None:
    if page_id not in draft.extra_pages:
        draft.extra_pages.append(page_id)
    st.session_state.pop("page_hits", None)


def choose_label(draft: Draft, item_id: int) -> None:
    """The label (none until chosen: one button per label, the chosen one highlighted) and the ambiguity flag,
    kept in the draft."""
    st.markdown("**Label**" + ("" if draft.label else ": none chosen yet"))
    for column, label in zip(st.columns(len(LABELS)), LABELS):
        column.button(
            verdict_word(label),
            key=f"label-{item_id}-{label.replace(' ', '-')}",
            shortcut=SHORTCUTS[label],
            type="primary" if draft.label == label else "secondary",
            on_click=setattr,
            args=(draft, "label", label),
            width="stretch",
        )
    synced_widget(
        st.checkbox,
        "Ambiguous (left out of the export)",
        f"ambiguous-{item_id}",
        draft.ambiguous,
        partial(setattr, draft, "ambiguous"),
    )


def save(annotations: AnnotationStore, item: QueueItem, draft: Draft, annotator: str) -> None:
    """Save the draft as the claim's annotation and move on, or say what is missing."""
    if draft.label is None:
        st.error("Choose a label first.")
        return
    try:
        annotations.save(item.item_id, draft.label, [sorted(group) for group in draft.sets], annotator, draft.ambiguous)
    except (AnnotationError, UnusableDatabase) as exc:
        st.error(plain(str(exc)))
        return
    sets = sum(bool(group) for group in draft.sets) if draft.label != NEI else 0
    st.session_state["notice"] = f"Saved as {verdict_word(draft.label)} with {count(sets, 'evidence set')}."
    st.rerun()


def annotate(ui: UiSettings, annotations: AnnotationStore, item: QueueItem, annotator: str) -> None:
    """The claim, its candidate pages to tick evidence in, the label, and Save / Skip."""
    draft = drafts().setdefault(item.item_id, Draft())
    st.subheader("Claim")
    st.markdown(f"> {plain(item.claim)}")
    checker = checker_or_stop(ui)
    store = checker.store
    synced_widget(
        st.radio,
        "Ticking into evidence set",
        f"set-{item.item_id}",
        draft.current + 1,
        lambda number: setattr(draft, "current", number - 1),
        options=list(range(1, len(draft.sets) + 1)),
        horizontal=True,
    )
    st.button("New evidence set", on_click=draft.new_set)
    page_ids = list(dict.fromkeys(candidate_pages(ui, item) + draft.extra_pages))
    pages = [page for page in map(store.page, page_ids) if page is not None]
    for number, page in enumerate(pages):
        show_page(store, page, draft, item.item_id, expanded=number == 0 or page.page_id in draft.extra_pages)
    add_page_by_search(checker.workspace, draft, [page.page_id for page in pages])
    for number, group in enumerate(draft.sets, 1):
        st.text(evidence_set_line(number, group))
    choose_label(draft, item.item_id)
    cols = st.columns(3)
    if cols[0].button("Save", type="primary", shortcut=SHORTCUTS["save"]):
        save(annotations, item, draft, annotator)
    if cols[1].button(
        "Skip", shortcut=SHORTCUTS["skip"], help="Leave this claim out of the queue (undo brings it back)"
    ):
        annotations.skip(item.item_id, annotator)
        st.session_state["notice"] = "Skipped."
        st.rerun()
    cols[2].button(
        "Next claim",
        shortcut=SHORTCUTS["next"],
        on_click=next_claim,
        args=(annotations, item),
        help="Go to the next claim in the queue; this one stays to do, with its ticks",
    )


def next_claim(annotations: AnnotationStore, item: QueueItem) -> None:
    """Move to the next pending claim after this one (round to the first), leaving this one pending."""
    following = annotations.next_pending(after=item.item_id) or annotations.next_pending()
    if following is not None:
        st.session_state["item_id"] = following.item_id


def undo(annotations: AnnotationStore, annotator: str) -> None:
    """Undo this annotator's last save or skip; the claim comes back with its draft (label and ticks)."""
    undone = annotations.undo_last(annotator)
    if undone is None:
        st.info("Nothing to undo.")
        return
    item_id = undone.item.item_id
    if undone.annotation is not None:  # the saved label and ticks, also after a refresh lost the session's draft
        kept = drafts().get(item_id)
        drafts()[item_id] = Draft.from_annotation(undone.annotation, kept.extra_pages if kept else [])
    st.session_state["item_id"] = item_id
    st.session_state["notice"] = "Undone: the claim is back in the queue."
    st.rerun()


def export(annotations: AnnotationStore) -> None:
    st.subheader("Export")
    buffer = io.StringIO()
    written = annotations.export_fever(buffer)
    st.download_button(
        f"Download {count(written, 'annotation')} as FEVER jsonl",
        buffer.getvalue(),
        "annotations.jsonl",
        "application/jsonl",
        disabled=written == 0,
    )
    st.caption(
        "The export is FEVER jsonl, what the FEVER scorer reads. To improve the verifier with these "
        "annotations, on any corpus, open Models (or run `python -m fever_core train improve`)."
    )


settings = run_settings()
ui = current_settings(settings)
annotations = load_annotations(settings)
st.title("Annotate")
read_address()
show_notice()
annotator = synced_widget(
    st.text_input,
    "Your name (saved with each annotation)",
    "_annotator",
    st.session_state.get("annotator", ""),
    partial(st.session_state.__setitem__, "annotator"),
    max_chars=60,
)
queue_claims(annotations)
show_annotated_already(annotations)
counts = annotations.counts()
st.progress(
    (counts["done"] + counts["skipped"]) / counts["total"] if counts["total"] else 0.0,
    text=f"{counts['done']} annotated, {counts['skipped']} skipped, {counts['pending']} to go",
)
item = current_item(annotations)
if item is None:
    st.info("The queue is empty: add claims above, or send one from Verify.")
else:
    annotate(ui, annotations, item, annotator)
if st.button("Undo my last action", shortcut=SHORTCUTS["undo"]):
    undo(annotations, annotator)
export(annotations)
write_address(annotator, item)
footer()
