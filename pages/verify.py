"""Verify: type a claim, see the verdict card, the evidence it used, the two-hop chains, and the details.

The claim form and the result are a fragment: pressing Check reruns only them, not the sidebar.
The verdict card comes first: the verdict with its probability in words, the one or two sentences that
decide it quoted with their page and link, one line saying why, and a caution when it is close. The
evidence the verdict used follows (what "used" and "deciding" mean is the library's:
:mod:`fever_core.verification.deciders`), then, collapsed, the rest; every number has a legend. Developer
detail (pages and why, every scored sentence, the claim analysis, timings) sits in one collapsed section.

Every check is kept in the history, and the page's address becomes its permalink (the claim, the
corpus and the settings: opening it restores them and checks the claim). ``?history=KEY`` shows a
check of the history as it was made, without checking it again: one of this browser session's, or one its maker
shared (History's "Share link"; any with a shared history). Coming back to Verify from another page shows the last
check again, with its claim in the box and its permalink in the address. A new check that was made before (the same
claim or a paraphrase, in this session's history or a shared check, or the annotations:
:mod:`fever_core.workbench.checked_before`) says so on its card, with a link to the earlier one.

A text longer than a claim may be (:data:`~fever_core.pipeline.MAX_CLAIM_CHARS`) is not checked: it stays in the box,
and the page says it holds several statements and offers to carry it to Check a text, which checks each apart; a
claim of several sentences under the limit is checked, with the same offer above its verdict.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from fever_core.common import (
    LABELS,
    NEI,
    REFUTES,
    SUPPORTS,
    UNDECIDED_WORD,
    Settings,
    UnusableDatabase,
    probably_not_english,
)
from fever_core.corpus import LIVE_CORPUS
from fever_core.pipeline import MAX_CLAIM_CHARS, CheckResult, ClaimError, ClaimTooLong, JudgedSentence, check_claim_text
from fever_core.retrieval import drawn_chains
from fever_core.text_check import find_sentences
from fever_core.verification import Reading
from fever_core.workbench import (
    JSONLD_MEDIA_TYPE,
    EarlierCheck,
    HistoryEntry,
    Provenance,
    checker_provenance,
    claim_review,
    to_jsonld,
)
from pages.display import (
    WikipediaLink,
    checked_before_markdown,
    claimreview_author,
    corpus_label,
    footer,
    plain,
    wikipedia_links,
)
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
from pages.words import PROBABILITY, VERDICT_COLOURS, verdict_word, verdict_words

GENERAL_EXAMPLES = [
    "Stanley Kubrick directed 2001: A Space Odyssey.",
    "The Great Wall of China is in Japan.",
    "Marie Curie won two Nobel Prizes.",
]
EXAMPLES = {
    "embedded": GENERAL_EXAMPLES,
    LIVE_CORPUS: GENERAL_EXAMPLES,
    "fever-dev": [
        "Fox 2000 Pictures released the film Soul Food.",
        "Tilda Swinton is a vegan.",
    ],
    "fm2": ["Filming for the movie Gandhi in India was delayed due to political unrest."],
}
BAR_COLOURS = {SUPPORTS: "#2e7d32", REFUTES: "#c62828", NEI: "#757575"}
NOT_FOUND_OR_NOT_SHARED = ("This check is not in the history, or it was not shared: a check opens in another browser "
                           "only once the person who made it shares it (History, Share link).")
# From how many sentences a checked claim gets the note that Check a text checks each statement apart.
MANY_SENTENCES = 2
# How often the note shown while the checker loads looks whether it has loaded, in seconds.
LOADING_POLL_SECONDS = 1.0
# A verdict whose two likeliest labels are closer than this (in probability) is shown as uncertain.
CLOSE_MARGIN = 0.15
# How sure the verdict is, in words: the first whose lower bound its probability reaches.
CONFIDENCE_WORDS = [(0.9, "Very likely"), (0.7, "Likely"), (0.5, "More likely than not"), (0.0, "Uncertain")]
DECIDING_ROW_STYLE = "background-color: #fff3b0; font-weight: 600"
PROBABILITY_HELP = ("How often a verdict like this one is right, from 0 to 1: measured on 240 claims written by hand "
                    "(calibrated: of verdicts said at 0.7, about 7 in 10 were right), from how sure the rule or model "
                    "that decided was. It is an estimate, not a fact-check: read the deciding sentence.")
EVIDENCE_LEGEND = (
    "**stance**: the verifier's reading of that one sentence against the claim, as it counted in the verdict — a "
    "verdict and its probability (0 to 1); *read as* names the claim it read when that was a rewritten claim (the "
    "number check's, a part's, a bridge's); *not judged* below the minimum evidence score. **score**: how closely the "
    "sentence matches the claim (similarity, about −1 to 1; higher is closer). **hop 2**: reached through a link "
    "in a first-hop sentence. **used**: the verdict rests on it — it mentions what the claim is about and its own "
    "stance is the verdict. Highlighted: the deciding sentence. On a phone, score, hop and used are in Details."
)


@dataclass(frozen=True)
class CheckedClaim:
    """A check as the page shows it: the result, the Wikipedia link of each of its pages, the sidebar settings
    it was made with (its permalink's), the history entry it was re-opened from (``None`` for a check just
    made), what it was made with (gathered when it is made; ``None`` for a re-opened one), when (Unix seconds), and
    the earlier checks of its claim (looked up when it was made)."""

    result: CheckResult
    links: dict[str, WikipediaLink]
    ui: UiSettings
    stored: HistoryEntry | None = None
    provenance: Provenance | None = None
    made_at: float = field(default_factory=time.time)
    earlier: tuple[EarlierCheck, ...] = ()


def result_pages(result: CheckResult) -> list[tuple[str, str]]:
    """The ``(page_id, title)`` of every page the result shows."""
    return [(p.page_id, p.title) for p in result.pages] + [(s.page_id, s.title) for s in result.sentences]


def offer_check_a_text(note: str, text: str, key: str) -> None:
    """``note`` with a button that carries ``text`` to Check a text (into its paste box), which checks each of its
    statements apart."""
    st.warning(note, icon="📄")
    if st.button("Check it on “Check a text”", key=key, help="Opens Check a text with this text in its box: it finds "
                 "the statements worth checking and checks each apart"):
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
        offer_check_a_text(f"This claim has {sentences} sentences: it was checked as one claim, with one verdict for "
                           "all of them. “Check a text” checks each statement apart.", claim,
                           "several_statements_to_text")


def run_check(settings: Settings, ui: UiSettings, claim: str) -> None:
    """Check the claim into ``session_state["checked"]``, showing progress; a claim that can't be
    checked gets its reason at once."""
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
    with st.status("Searching Wikipedia and checking…" if live else "Checking…", expanded=False) as status:
        result = checker.check(claim, ui.options)
        links = wikipedia_links(checker.workspace.store, result_pages(result))
        earlier = tuple(earlier_checks(checker, settings)(result))  # before it is kept: not itself
        st.session_state["checked"] = CheckedClaim(result, links, ui, provenance=checker_provenance(
            checker, ui.options), earlier=earlier)
        write_permalink(result.claim, ui, settings)
        fetched = f" (Wikipedia: {result.timings.get('fetch', 0.0):.1f} s)" if live else ""
        status.update(label=("Checked, with a warning" if result.warnings else "Checked") + fetched, state="complete")
    keep_in_history(result, ui, settings)  # after the status box: a history that can't keep it says so in sight


def confidence_words(probability: float) -> str:
    """How sure a verdict of this probability is, in words (:data:`CONFIDENCE_WORDS`)."""
    return next(words for bound, words in CONFIDENCE_WORDS if probability >= bound)


def uncertainty(probabilities: dict[str, float]) -> str:
    """A caution when the two likeliest labels are within ``CLOSE_MARGIN`` of each other ("" otherwise)."""
    (first, p_first), (second, p_second) = sorted(probabilities.items(), key=lambda item: -item[1])[:2]
    if p_first - p_second >= CLOSE_MARGIN:
        return ""
    return (f"Uncertain: {verdict_word(first)} {p_first:.2f} against {verdict_word(second)} {p_second:.2f} is a "
            "close call. "
            "Read the evidence below before relying on this verdict.")


def quote_markdown(item: JudgedSentence, link: WikipediaLink) -> str:
    """A deciding sentence as the card quotes it: its words, then its page, line and Wikipedia link."""
    e = item.sentence
    return f"> “{plain(e.text)}”\n>\n> — **{plain(e.title)}**, sentence {e.line} · {link.markdown()}"


def parts_markdown(result: CheckResult) -> str:
    """The facts a compound or two-hop claim was checked as, each with its verdict and the page of the sentence that
    decided it, as a Markdown list (corpus and claim text escaped)."""
    lines = [f"This claim was checked as {len(result.verdict.parts)} facts:"]
    for part in result.verdict.parts:
        by = (f" — {verdict_word(part.label)} {part.probability:.2f}, by the sentence from "
              f"{plain(result.evidence[part.deciding].sentence.title)}" if part.deciding is not None
              else f" — {verdict_word(part.label)}: no sentence settles it")
        lines.append(f"- “{plain(part.claim)}”{by}")
    return "\n".join(lines)


def show_verdict(checked: CheckedClaim) -> None:
    """The verdict card: the verdict with its probability in words, the claim it answers, the one or two
    sentences that decide it, why, and a caution when it is close; then the probability of each label."""
    result = checked.result
    for warning in result.warnings:
        st.warning(plain(warning))
    if probably_not_english(result.claim):
        st.info("This claim does not look English. The workbench reads English only (its Wikipedia text and its "
                "verifier), so a claim in another language gets a verdict that means little (most often Not "
                "enough info): translate it to check it.",
                icon="🌐")
    verdict = result.verdict
    color, word = VERDICT_COLOURS[verdict.label], UNDECIDED_WORD if verdict.undecided else verdict_word(verdict.label)
    probability = verdict.probability
    with st.container(border=True, key="verdict_card"):
        st.subheader(f"Verdict: :{color}[{word}]", anchor=False)
        if verdict.undecided:
            st.markdown("**No sentence settles this claim on its own** — read the sentences below; counted as "
                        f"{verdict_word(NEI).lower()}.")
        else:
            st.markdown(f"**{confidence_words(probability)}** — probability {probability:.2f} (on a scale of 0 to 1)",
                        help=PROBABILITY_HELP)
        st.caption("Claim: " + plain(result.claim))
        for earlier in checked.earlier:
            st.markdown(checked_before_markdown(earlier))
        if checked.stored is not None:
            made = time.strftime("%Y-%m-%d %H:%M", time.localtime(checked.stored.checked_at))
            st.info(f"Re-opened from History: checked {made} on {plain(corpus_label(result.corpus))}, shown as it "
                    "was then (not checked again; History's “Check again” does that).", icon="🕘")
        deciding = verdict.deciding_evidence
        if deciding:
            sentences = "Sentence" + ("s" if len(deciding) > 1 else "")
            st.markdown(f"{sentences} to read:" if verdict.undecided
                        else f"Deciding {sentences.lower()} (highlighted in the evidence):")
            for index in deciding:
                item = result.evidence[index]
                st.markdown(quote_markdown(item, checked.links[item.sentence.page_id]))
        if verdict.parts:
            st.markdown(parts_markdown(result))
        st.markdown("**Why:** " + plain(verdict.why or verdict.reason))
        caution = "" if verdict.undecided else uncertainty(verdict.probabilities)
        if caution:
            st.warning(caution, icon="⚠️")
    chart = go.Figure(go.Bar(
        x=list(verdict.probabilities.values()), y=[verdict_word(label) for label in verdict.probabilities],
        orientation="h",
        marker_color=[BAR_COLOURS[label] for label in verdict.probabilities], text=[f"{p:.2f}" for p in verdict.probabilities.values()],
    ))
    chart.update_layout(height=160, margin={"l": 10, "r": 10, "t": 10, "b": 10},
                        xaxis={"range": [0, 1], "title": "probability of each verdict (0 to 1)" if verdict.calibrated is None
                               else "how sure the deciding rule or model was of each verdict (0 to 1; the probability "
                               "above is how often such verdicts are right)"})
    st.plotly_chart(chart, width="stretch", config={"displayModeBar": False})


def highlight_rows(table: pd.DataFrame, rows: list[int]):
    """The table styled with ``rows`` (positions) highlighted."""
    styles = pd.DataFrame("", index=table.index, columns=table.columns)
    styles.iloc[rows] = DECIDING_ROW_STYLE
    return table.style.apply(lambda _: styles, axis=None).format(precision=3, na_rep="")


def evidence_rows(checked: CheckedClaim, indexes: list[int]) -> pd.DataFrame:
    """The evidence table's rows for these evidence indexes: stance first (it must show on a phone), then the
    page with its Wikipedia link, the sentence, its score and hop, and whether the verdict used it.
    ``st.table`` renders Markdown: corpus text is escaped."""
    result = checked.result
    used = set(result.verdict.used_evidence)
    rows = []
    for index in indexes:
        item = result.evidence[index]
        e, reading = item.sentence, item.reading  # as the verdict counted it
        rows.append({
            "stance": stance_cell(reading),
            "page": f"{plain(e.title)} [{e.line}] · " + checked.links[e.page_id].markdown(),
            "sentence": plain(e.text), "score": round(e.score, 3), "hop": e.hop, "used": index in used,
        })
    return pd.DataFrame(rows, columns=["stance", "page", "sentence", "score", "hop", "used"])


def stance_cell(reading: Reading | None) -> str:
    """A sentence's stance as its verdict counted it: the label and its probability, and the claim as read when the
    verifier read another (the number check's rewritten claim); "not judged" for a sentence below the minimum
    evidence score."""
    if reading is None:
        return "not judged"
    read_as = f" (read as “{plain(reading.claim_read)}”)" if reading.claim_read else ""
    return f"{verdict_word(reading.label)} {reading.probability:.2f}{read_as}"


def show_evidence(checked: CheckedClaim) -> None:
    """The evidence the verdict used (the deciding rows highlighted), then, collapsed, the rest, with a legend;
    and the two-hop chains worth drawing."""
    result = checked.result
    used = result.verdict.used_evidence
    rest = [i for i in range(len(result.evidence)) if i not in used]
    st.subheader("Evidence the verdict used")
    if result.verdict.deciding_evidence and not used:  # kept before verdicts named the evidence they used
        st.caption("Not recorded: this check was kept by an older version of the workbench. History's “Check again” "
                   "shows it.")
    elif used:
        deciding = [used.index(i) for i in result.verdict.deciding_evidence if i in used]
        st.container(key="evidence_used").table(highlight_rows(evidence_rows(checked, used), deciding),
                                                hide_index=True)
    elif result.evidence:
        st.caption("None: " + ("no sentence found settles the claim." if result.verdict.label == NEI
                               else "no single sentence says so on its own."))
    else:
        st.caption("No evidence sentences: no page in the corpus matched the claim.")
    if rest:
        with st.expander(f"Other evidence read, not used by the verdict ({len(rest)})", expanded=not used):
            st.container(key="evidence_rest").table(highlight_rows(evidence_rows(checked, rest), []), hide_index=True)
    if result.evidence:
        st.caption(EVIDENCE_LEGEND)
    chains = drawn_chains(result.pages, [item.sentence for item in result.evidence])
    if chains:
        st.subheader("Two-hop chains")
        st.caption("Evidence found by following a link: a first-hop sentence, the link in it, and the sentence "
                   "it leads to on a page the first hop did not have.")
        for e in chains:
            st.text(f"{e.via.from_title or e.via.from_page_id} [{e.via.from_line}]: {e.via.from_text}\n"
                    f"   → link “{e.via.anchor}” →\n{e.title} [{e.line}]: {e.text}")


def show_details(checked: CheckedClaim) -> None:
    """One collapsed section for developers: the retrieved pages and why (each linked to Wikipedia), every
    scored sentence, each evidence sentence's three stance probabilities, the claim analysis and the timings."""
    result, links = checked.result, checked.links
    wikipedia_column = st.column_config.LinkColumn("Wikipedia", display_text="Wikipedia ↗")
    probability = {word: st.column_config.NumberColumn(word, format="%.3f", help=f"The {PROBABILITY} of {word} "
                                                        "for this sentence alone")
                   for word in verdict_words()}
    with st.expander("Details: retrieved pages, every scored sentence, stances, claim analysis, timings"):
        pages, sentences, stances, analysis = st.tabs(["Pages and why", "Scored sentences", "Stances", "Analysis"])
        pages.dataframe(pd.DataFrame([{
            "page": p.title, "Wikipedia": links[p.page_id].url, "corpus text": links[p.page_id].text_age,
            "score": round(p.score, 4), "used": p.used, "title match": p.match or "",
            **{f"{k} score": round(v, 3) for k, v in p.signals.items()},
        } for p in result.pages]), hide_index=True, width="stretch", placeholder="—", column_config={
            "Wikipedia": wikipedia_column,
            "score": st.column_config.NumberColumn(help="Fused retrieval score: comparable within this claim only"),
            "used": st.column_config.CheckboxColumn(help="Its sentences were read (the top pages, and pages a "
                                                    "two-hop link brought)"),
        })
        pages.caption("Signal scores: title (1 = exact title match), dense (embedding similarity), lexical (bm25), "
                      "link (reached by a two-hop link).")
        sentences.dataframe(pd.DataFrame([{"page": s.title, "Wikipedia": links[s.page_id].url, "line": s.line,
                                           "sentence": s.text, "score": round(s.score, 3), "hop": s.hop}
                                          for s in result.sentences]),
                            hide_index=True, width="stretch", placeholder="—", column_config={
                                "Wikipedia": wikipedia_column,
                                "score": st.column_config.NumberColumn(help="Similarity to the claim, about −1 to 1")})
        stances.dataframe(pd.DataFrame([{
            "page": item.sentence.title, "line": item.sentence.line, "sentence": item.sentence.text,
            **{verdict_word(label): item.stance.of(label) if item.stance else None for label in LABELS},
            "premise read": item.premise,
        } for item in result.evidence]), hide_index=True, width="stretch", placeholder="—", column_config=probability)
        analysis.json(result.analysis.to_dict())
        analysis.dataframe(pd.DataFrame([{"stage": k, "seconds": v} for k, v in result.timings.items()]),
                           hide_index=True, placeholder="—", column_config={"seconds": st.column_config.NumberColumn(
                               format="%.3f", help="Wall-clock seconds this stage took")})


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
        why = ("Name an author above." if author is None else "Made with another corpus or verifier than the "
               "sidebar's (or before it loaded): check it again to download its ClaimReview.")
        column.download_button(label, "", disabled=True, help=why)
        return
    document = claim_review(checked.result, provenance, author, published=checked.made_at,
                            url=public_permalink(checked.result.claim, checked.ui, settings))
    column.download_button(label, to_jsonld(document), "claimreview.jsonld", JSONLD_MEDIA_TYPE, on_click="ignore",
                           help="The check as schema.org ClaimReview, with the verifier's and the corpus's checksums "
                           "and the settings, for fact-check publishers and search engines.")


def show_actions(checked: CheckedClaim) -> None:
    """Downloads (the whole result as JSON, the FEVER prediction line, the ClaimReview) and sending the claim to
    Annotate."""
    result = checked.result
    author = claimreview_author()
    cols = st.columns(4)
    cols[0].download_button("Download result (JSON)", result.to_json(), "check.json", "application/json", on_click="ignore")
    cols[1].download_button("Download FEVER prediction", json.dumps(result.fever_prediction()) + "\n",
                            "prediction.jsonl", "application/jsonl", on_click="ignore")
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
            st.query_params.from_dict({"history": key})
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
    st.session_state["checked"] = CheckedClaim(result, links, settings_of(result, entry.settings, settings), entry,
                                               made_at=entry.checked_at)
    st.session_state["claim_text"] = result.claim


@st.fragment(run_every=LOADING_POLL_SECONDS)
def loading_note(ui: UiSettings) -> None:
    """While the checker loads (the first visit after the server starts, or another corpus or verifier): a note
    that says so; once it has loaded, the page is drawn again without it."""
    if not checker_loading(ui):
        st.rerun()
    st.caption(f"{CHECKER_LOADING} A claim can be typed meanwhile: Check waits for them.")


@st.fragment
def check_and_show(settings: Settings, ui: UiSettings) -> None:
    with st.form("check"):
        claim = st.text_area("Claim", key="claim_text", height=80,
                             placeholder="e.g. Stanley Kubrick directed 2001: A Space Odyssey.")
        pressed = st.form_submit_button("Check", type="primary")
    if pressed or st.session_state.pop("run_check", False):
        run_check(settings, ui, claim)
    if "claim_too_long" in st.session_state:
        offer_check_a_text(f"Not checked: this text has {st.session_state['claim_too_long']:,} characters, more than "
                           f"a claim's {MAX_CLAIM_CHARS:,}, and holds several statements. Check one statement at a "
                           "time here, or check the whole text on “Check a text”, which checks each statement apart "
                           "(it stays in the box above).", claim, "too_long_to_text")
    checked = st.session_state.get("checked")
    if checked is not None:
        several_statements_note(checked.result.claim)
        show_verdict(checked)
        show_evidence(checked)
        show_details(checked)
        show_actions(checked)


settings = run_settings()
ui = current_settings(settings)
st.title("Verify a claim")
if ui.corpus == LIVE_CORPUS:
    st.caption("Live Wikipedia: each claim is searched on Wikipedia and the pages found are kept, "
               "so checking works offline on the pages fetched so far.")

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

example = st.selectbox("Examples", ["—"] + EXAMPLES.get(ui.corpus, []), key="example")
if example != "—" and st.session_state.get("last_example") != example:
    st.session_state["claim_text"] = example
    st.session_state["last_example"] = example

if checker_loading(ui):
    loading_note(ui)
check_and_show(settings, ui)
footer()
