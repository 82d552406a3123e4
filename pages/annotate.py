"""Annotate: add the evidence the system missed, modelled on FEVER's annotation interface.

A queue of claims (from a FEVER claims file or sent from Verify); the claim on top; the candidate
pages' sentences with their links, each expandable to the sentences of linked pages (FEVER's
"dictionary"); any page can be searched and added. Ticked sentences form evidence sets; every
save, skip and undo is written at once to the annotations database.
"""

from __future__ import annotations

import io

import streamlit as st

from fever_core.annotation import AnnotationError
from fever_core.search import search_corpus
from fever_core.types import LABELS
from pages.shared import sidebar_settings, check_options, checker_or_stop, footer, load_annotations, plain

ui = sidebar_settings()
annotations = load_annotations()
st.title("Annotate")

annotator = st.text_input("Your name (saved with each annotation)", key="annotator", max_chars=60)

with st.expander("Queue", expanded=not annotations.counts()["total"]):
    upload = st.file_uploader("Add claims from a FEVER-format jsonl file", type=["jsonl", "json"])
    if upload is not None and st.session_state.get("uploaded_name") != upload.name:
        try:
            added = annotations.add_claims_file(io.StringIO(upload.getvalue().decode("utf-8", errors="replace")))
            st.session_state["uploaded_name"] = upload.name
            st.success(f"Queued {added} claims from {upload.name}.")
        except AnnotationError as exc:
            st.error(f"{upload.name}: {exc}")
    with st.form("add_claim", clear_on_submit=True):
        typed = st.text_input("Or type a claim to queue")
        if st.form_submit_button("Queue it") and typed.strip():
            st.session_state["item_id"] = annotations.add_claim(typed)

if "annotate_claim" in st.session_state:
    st.session_state["item_id"] = annotations.add_claim(st.session_state.pop("annotate_claim"))

counts = annotations.counts()
done = counts["done"] + counts["skipped"]
st.progress(done / counts["total"] if counts["total"] else 0.0,
            text=f"{counts['done']} annotated, {counts['skipped']} skipped, {counts['pending']} to go")

item = annotations.item(st.session_state["item_id"]) if "item_id" in st.session_state else None
if item is None or item.status != "pending":
    item = annotations.next_pending(after=item.item_id if item else 0)
if item is None:
    st.info("The queue is empty: add claims above, or send one from Verify.")
else:
    st.session_state["item_id"] = item.item_id
    st.subheader("Claim")
    st.markdown(f"> {plain(item.claim)}")
    state_key = f"sets-{item.item_id}"
    sets: list[set] = st.session_state.setdefault(state_key, [set()])
    extra_pages: list[str] = st.session_state.setdefault(f"pages-{item.item_id}", [])

    checker = checker_or_stop(ui)
    store = checker.workspace.store
    candidates_key = f"candidates-{item.item_id}-{ui.corpus}"
    if candidates_key not in st.session_state:
        try:
            result = checker.check(item.claim, check_options(ui))
            st.session_state[candidates_key] = [p.page_id for p in result.pages if p.used]
        except Exception as exc:  # noqa: BLE001 - a claim that can't be checked still gets annotated
            st.warning(f"No candidate pages for this claim: {exc}")
            st.session_state[candidates_key] = []
    page_ids = list(dict.fromkeys(st.session_state[candidates_key] + extra_pages))

    current = st.radio("Ticking into evidence set", list(range(1, len(sets) + 1)), horizontal=True, key=f"cur-{item.item_id}") - 1
    if st.button("New evidence set"):
        sets.append(set())
        st.rerun()

    def sentence_row(page_id: str, line: int, text: str, key: str) -> None:
        ticked = (page_id, line) in sets[current]
        if st.checkbox(f"[{line}] {text}", value=ticked, key=key) != ticked:
            (sets[current].discard if ticked else sets[current].add)((page_id, line))

    for page_id in page_ids:
        page = store.page(page_id)
        if page is None:
            continue
        with st.expander(page.title, expanded=page_id == page_ids[0]):
            for sentence in page.sentences:
                sentence_row(page_id, sentence.line, sentence.text, f"t-{item.item_id}-{page_id}-{sentence.line}-{current}")
                if sentence.links:
                    with st.popover(f"Links of sentence {sentence.line}: " + ", ".join(l.anchor for l in sentence.links[:4])):
                        for link in sentence.links:
                            linked = store.page(link.target)
                            st.markdown(f"**{plain(link.anchor)}**" + ("" if linked else " (not in this corpus)"))
                            for s2 in (linked.sentences[:5] if linked else []):
                                sentence_row(link.target, s2.line, s2.text,
                                             f"l-{item.item_id}-{page_id}-{sentence.line}-{link.target}-{s2.line}-{current}")

    with st.form("add_page", clear_on_submit=True):
        query = st.text_input("Search a page to add")
        if st.form_submit_button("Search") and query.strip():
            st.session_state["page_hits"] = search_corpus(checker.workspace, query, "title", 5)
    for hit in st.session_state.get("page_hits", []):
        if st.button(f"Add page: {hit.title}", key=f"add-{hit.page_id}"):
            extra_pages.append(hit.page_id)
            st.session_state.pop("page_hits", None)
            st.rerun()

    for number, group in enumerate(sets, 1):
        st.text(f"Evidence set {number}: " + (", ".join(f"{p} [{l}]" for p, l in sorted(group)) or "(empty)"))

    label = st.radio("Label", LABELS, horizontal=True, key=f"label-{item.item_id}")
    ambiguous = st.checkbox("Ambiguous (left out of the export)", key=f"amb-{item.item_id}")
    cols = st.columns(3)
    if cols[0].button("Save", type="primary"):
        try:
            annotations.save(item.item_id, label, [sorted(g) for g in sets], annotator, ambiguous)
            st.session_state.pop("item_id", None)
            st.toast("Saved.")
            st.rerun()
        except AnnotationError as exc:
            st.error(str(exc))
    if cols[1].button("Skip"):
        annotations.skip(item.item_id, annotator)
        st.session_state.pop("item_id", None)
        st.rerun()

if st.button("Undo my last action"):
    undone = annotations.undo_last(annotator)
    if undone is None:
        st.info("Nothing to undo.")
    else:
        st.session_state["item_id"] = undone.item_id
        st.rerun()

st.subheader("Export")
buffer = io.StringIO()
written = annotations.export_fever(buffer)
st.download_button(f"Download {written} annotations as FEVER jsonl", buffer.getvalue(), "annotations.jsonl",
                   "application/jsonl", disabled=written == 0)
st.caption("The export is what `python -m fever_core train verifier --data annotations.jsonl` and the FEVER scorer read.")
footer()
