"""The verdict card and the evidence tables, as Verify shows a check (:class:`CheckedClaim`): the verdict with its
probability in words, the one or two sentences that decide it quoted with their page and link (or, where its label is
withheld as too unsure or it is NOT ENOUGH INFO, "Undecided" or "Not enough info" with the sentences to read, each with
its reading: :mod:`fever_core.verification.read_these`), the facts of a compound claim, one line saying why and a
caution when it is close; the evidence the verdict used (what "used" and "deciding"
mean is the library's: :mod:`fever_core.verification.deciders`), each sentence's stance as the verdict counted it, then,
collapsed, the rest, the two-hop chains, and one collapsed section of developer detail. In the presenter's view
(:mod:`pages.presenter`) the chart's type is large and only the card, the chart and the evidence used are drawn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from fever_core.common import LABELS, NEI, REFUTES, SUPPORTS, probably_not_english
from fever_core.pipeline import CheckResult, JudgedSentence
from fever_core.retrieval import drawn_chains
from fever_core.verification import Reading
from fever_core.workbench import (
    EarlierCheck,
    HistoryEntry,
    Provenance,
    probability_text,
    times_in_100,
    verdict_shown,
)
from pages.display import WikipediaLink, checked_before_markdown, corpus_label, plain
from pages.presenter import PRESENTER_CHART_FONT_PX, PRESENTER_CHART_HEIGHT_PX
from pages.settings_ui import UiSettings
from pages.words import PROBABILITY, PROBABILITY_HELP, VERDICT_COLOURS, verdict_word, verdict_words, yes_no

BAR_COLOURS = {SUPPORTS: "#2e7d32", REFUTES: "#c62828", NEI: "#757575"}
# The card's chart's height, in CSS pixels: with the verdict's bar alone, and more for each sentence's bar.
CHART_HEIGHT_PX = (100, 30)
# The most characters of a page title a sentence's bar is named with (a longer one is cut, with an ellipsis).
CHART_TITLE_CHARS = 28
# A verdict whose two likeliest labels are closer than this (in probability) is shown as uncertain.
CLOSE_MARGIN = 0.15
# How sure the verdict is, in words: the first whose lower bound its probability reaches.
CONFIDENCE_WORDS = [(0.9, "Very likely"), (0.7, "Likely"), (0.5, "More likely than not"), (0.0, "Uncertain")]
DECIDING_ROW_STYLE = "background-color: #fff3b0; font-weight: 600"
EVIDENCE_LEGEND = (
    "**stance**: the verifier's reading of that one sentence against the claim, as it counted in the verdict — a "
    "label and that sentence's own probability (0 to 1), not the verdict's; *read as* names the claim it read when "
    "that was a rewritten claim (the number check's, a part's, a bridge's), and a sentence that decided a part of the "
    "claim shows that reading too; *not judged* below the minimum evidence score. **score**: how closely the "
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


def confidence_words(probability: float) -> str:
    """How sure a verdict of this probability is, in words (:data:`CONFIDENCE_WORDS`)."""
    return next(words for bound, words in CONFIDENCE_WORDS if probability >= bound)


def uncertainty(probabilities: dict[str, float]) -> str:
    """A caution when the two likeliest labels are within ``CLOSE_MARGIN`` of each other ("" otherwise). It names
    the two labels, not their numbers: the verdict's one probability is the card's (issue 48)."""
    (first, p_first), (second, p_second) = sorted(probabilities.items(), key=lambda item: -item[1])[:2]
    if p_first - p_second >= CLOSE_MARGIN:
        return ""
    return (
        f"Uncertain: {verdict_word(first)} or {verdict_word(second).lower()} was a close call for the rule or model "
        "that decided. Read the evidence below before relying on this verdict."
    )


def quote_markdown(item: JudgedSentence, link: WikipediaLink, reading: Reading | None = None) -> str:
    """A sentence as the card quotes it: its words, then its page, line and Wikipedia link, and, for a sentence to
    read, its ``reading`` (:func:`stance_cell`: the sentence's own, not the verdict's probability)."""
    e = item.sentence
    quoted = f"> “{plain(e.text)}”\n>\n> — **{plain(e.title)}**, sentence {e.line} · {link.markdown()}"
    return quoted if reading is None else f"{quoted}\n>\n> This sentence alone reads: **{stance_cell(reading)}**"


def parts_markdown(result: CheckResult) -> str:
    """The facts a compound or two-hop claim was checked as, each with its verdict and the page of the sentence that
    decided it with that sentence's reading of the part (its own probability, not the verdict's), as a Markdown list
    (corpus and claim text escaped)."""
    lines = [f"This claim was checked as {len(result.verdict.parts)} facts:"]
    for part in result.verdict.parts:
        by = (
            f" — {verdict_word(part.label)}, by the sentence from "
            f"{plain(result.evidence[part.deciding].sentence.title)} (that sentence reads this fact: "
            f"{verdict_word(part.label)} {probability_text(part.probability)})"
            if part.deciding is not None
            else f" — {verdict_word(part.label)}: no sentence settles it"
        )
        lines.append(f"- “{plain(part.claim)}”{by}")
    return "\n".join(lines)


def show_verdict(checked: CheckedClaim, presenting: bool = False) -> None:
    """The verdict card: the verdict with its probability in words (a label withheld as too unsure: "Undecided"),
    the claim it answers, the one or two sentences that decide it (or "Read these": the sentences to read, open,
    each with its reading), why, and a caution when it is close; then the probability of each label, as a chart
    (its type :data:`~pages.presenter.PRESENTER_CHART_FONT_PX` in the presenter's view, ``presenting``; Plotly's
    default, 12 px, otherwise). The presenter's view leaves out the "checked before" lines."""
    result = checked.result
    for warning in result.warnings:
        st.warning(plain(warning))
    if probably_not_english(result.claim):
        st.info(
            "This claim does not look English. The workbench reads English only (its Wikipedia text and its "
            "verifier), so a claim in another language gets a verdict that means little (most often Not "
            "enough info): translate it to check it.",
            icon=":material/public:",
        )
    verdict = result.verdict
    withheld = verdict.label_withheld
    color = VERDICT_COLOURS[NEI if withheld else verdict.label]
    word = verdict_shown(verdict.label, withheld)
    probability = probability_text(verdict.probability)
    with st.container(border=True, key="verdict_card"):
        st.subheader(f"Verdict: :{color}[{word}]", anchor=False)
        if verdict.undecided:
            st.markdown(
                "**No sentence settles this claim on its own** — read the sentences below; counted as "
                f"{verdict_word(NEI).lower()}."
            )
        elif withheld:
            how_sure = (
                f"the rule or model that decided was only {probability} sure"
                if verdict.calibrated is None
                else f"verdicts this unsure are right only about {times_in_100(verdict.probability)} times in 100 "
                f"(probability {probability})"
            )
            st.markdown(
                f"**Too unsure to call** — it leans to {verdict_word(verdict.label).lower()}, but {how_sure}: "
                "read the sentences below and judge.",
                help=PROBABILITY_HELP,
            )
        else:
            st.markdown(
                f"**{confidence_words(float(probability))}** — probability {probability} (on a scale of 0 to 1)",
                help=PROBABILITY_HELP,
            )
        st.caption("Claim: " + plain(result.claim))
        for earlier in () if presenting else checked.earlier:  # a claim shown again and again to a room
            st.markdown(checked_before_markdown(earlier))
        if checked.stored is not None:
            made = time.strftime("%Y-%m-%d %H:%M", time.localtime(checked.stored.checked_at))
            st.info(
                f"Re-opened from History: checked {made} on {plain(corpus_label(result.corpus))}, shown as it "
                "was then (not checked again; History's “Check again” does that).",
                icon=":material/history:",
            )
        deciding = [] if withheld or verdict.label == NEI else verdict.deciding_evidence
        if deciding:
            st.markdown(f"Deciding sentence{'s' if len(deciding) > 1 else ''} (highlighted in the evidence):")
            for index in deciding:
                item = result.evidence[index]
                st.markdown(quote_markdown(item, checked.links[item.sentence.page_id]))
        # a check kept before the sentences to read were named: those an undecided verdict leans on
        to_read = [i for i in verdict.read_these or verdict.deciding_evidence if i not in deciding]
        if to_read and not (deciding and presenting):  # a room is shown the verdict and what decides it
            with st.container(key="read_these"):
                st.markdown(
                    "**Read these too** — other sentences that may settle the claim, each with how the "
                    "verifier read it alone:"
                    if deciding
                    else "**Read these** — the sentences most likely "
                    "to settle the claim, each with how the verifier read it alone:"
                )
                for index in to_read:
                    item = result.evidence[index]
                    st.markdown(quote_markdown(item, checked.links[item.sentence.page_id], item.reading))
        if verdict.parts:
            st.markdown(parts_markdown(result))
        leaning = withheld and not verdict.undecided  # its why is the label's it leans to, not a verdict's
        st.markdown(
            (f"**Why it leans to {verdict_word(verdict.label).lower()}:** " if leaning else "**Why:** ")
            + plain(verdict.why or verdict.reason)
        )
        caution = "" if withheld else uncertainty(verdict.probabilities)
        if caution:
            st.warning(caution, icon=":material/warning:")
    st.plotly_chart(
        verdict_chart(result, deciding or to_read, presenting), width="stretch", config={"displayModeBar": False}
    )


def verdict_chart(result: CheckResult, quoted: list[int], presenting: bool = False) -> go.Figure:
    """The card's chart: a bar for the verdict's one probability (the card's, written the same), then one for each
    sentence the card quotes (``quoted``: evidence indexes), named as that sentence's own reading of the claim, which is
    not the verdict's probability. Its type is :data:`~pages.presenter.PRESENTER_CHART_FONT_PX` in the presenter's
    view (``presenting``), Plotly's default (12 px) otherwise."""
    verdict = result.verdict
    shown = verdict_shown(verdict.label, verdict.label_withheld)
    bars = [(f"Verdict: {shown}", verdict.probability, NEI if verdict.label_withheld else verdict.label, "")]
    for index in quoted:
        item = result.evidence[index]
        if item.reading is not None:
            title = item.sentence.title
            title = title if len(title) <= CHART_TITLE_CHARS else title[: CHART_TITLE_CHARS - 1] + "…"
            bars.append(
                (f"{title} [{item.sentence.line}] alone", item.reading.probability, item.reading.label, "reads ")
            )
    chart = go.Figure(
        go.Bar(
            x=[p for _, p, _, _ in bars],
            y=[name for name, _, _, _ in bars],
            orientation="h",
            marker_color=[BAR_COLOURS[label] for _, _, label, _ in bars],
            text=[
                probability_text(p) if not reads else f"{reads}{verdict_word(label)} {probability_text(p)}"
                for _, p, label, reads in bars
            ],
            hoverinfo="skip",
        )
    )
    first, more = PRESENTER_CHART_HEIGHT_PX if presenting else CHART_HEIGHT_PX
    large_type = (
        {
            "font": {"size": PRESENTER_CHART_FONT_PX},  # the bars' numbers never shrunk to fit inside a bar
            "uniformtext": {"minsize": PRESENTER_CHART_FONT_PX, "mode": "show"},
        }
        if presenting
        else {}
    )
    chart.update_layout(
        height=first + (len(bars) - 1) * more,
        **large_type,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        yaxis={"autorange": "reversed"},  # the verdict on top, the sentences in the card's order below it
        xaxis={
            "range": [0, 1],
            "title": "the verdict's probability; below it, each quoted sentence's own reading (0 to 1)",
        },
    )
    return chart


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
        e = item.sentence
        rows.append(
            {
                "stance": readings_cell(result, index),
                "page": f"{plain(e.title)} [{e.line}] · " + checked.links[e.page_id].markdown(),
                "sentence": plain(e.text),
                "score": round(e.score, 3),
                "hop": e.hop,
                "used": yes_no(index in used),
            }
        )
    return pd.DataFrame(rows, columns=["stance", "page", "sentence", "score", "hop", "used"])


def readings_cell(result: CheckResult, index: int) -> str:
    """Every reading of the evidence sentence ``index`` that counted in the verdict, as the table shows them: the one
    it counted with (:func:`stance_cell`), then each fact of the claim it decided (a part's, a bridge's) that reading
    does not name already, read as that fact, so that the table says what the card's list of facts says."""
    reading = result.evidence[index].reading
    readings = [stance_cell(reading)]
    for part in result.verdict.parts:
        if part.deciding == index and (reading is None or reading.claim_read != part.claim):
            readings.append(stance_cell(Reading(part.label, part.probability, part.claim)))
    return "; ".join(readings)


def stance_cell(reading: Reading | None) -> str:
    """A sentence's stance as its verdict counted it: the label and its probability, and the claim as read when the
    verifier read another (the number check's rewritten claim); "not judged" for a sentence below the minimum
    evidence score."""
    if reading is None:
        return "not judged"
    read_as = f" (read as “{plain(reading.claim_read)}”)" if reading.claim_read else ""
    return f"{verdict_word(reading.label)} {probability_text(reading.probability)}{read_as}"


def show_evidence(checked: CheckedClaim, presenting: bool = False) -> None:
    """The evidence the verdict used (the deciding rows highlighted), then, collapsed, the rest, with a legend;
    and the two-hop chains worth drawing. In the presenter's view (``presenting``), the evidence used alone."""
    result = checked.result
    used = result.verdict.used_evidence
    rest = [i for i in range(len(result.evidence)) if i not in used]
    st.subheader("Evidence the verdict used")
    if result.verdict.deciding_evidence and not used:  # kept before verdicts named the evidence they used
        st.caption(
            "Not recorded: this check was kept by an older version of the workbench. History's “Check again” shows it."
        )
    elif used:
        # a withheld label has no deciding sentence on the card: none is highlighted here either
        withheld = result.verdict.label_withheld
        deciding = [] if withheld else [used.index(i) for i in result.verdict.deciding_evidence if i in used]
        st.container(key="evidence_used").table(highlight_rows(evidence_rows(checked, used), deciding), hide_index=True)
    elif result.evidence:
        st.caption(
            "None: "
            + (
                "no sentence found settles the claim."
                if result.verdict.label == NEI
                else "no single sentence says so on its own."
            )
        )
    else:
        st.caption("No evidence sentences: no page in the corpus matched the claim.")
    if presenting:
        return
    if rest:
        with st.expander(f"Other evidence read, not used by the verdict ({len(rest)})", expanded=not used):
            st.container(key="evidence_rest").table(highlight_rows(evidence_rows(checked, rest), []), hide_index=True)
    if result.evidence:
        st.caption(EVIDENCE_LEGEND)
    chains = drawn_chains(result.pages, [item.sentence for item in result.evidence])
    if chains:
        st.subheader("Two-hop chains")
        st.caption(
            "Evidence found by following a link: a first-hop sentence, the link in it, and the sentence "
            "it leads to on a page the first hop did not have."
        )
        for e in chains:
            st.text(
                f"{e.via.from_title or e.via.from_page_id} [{e.via.from_line}]: {e.via.from_text}\n"
                f"   → link “{e.via.anchor}” →\n{e.title} [{e.line}]: {e.text}"
            )


def show_details(checked: CheckedClaim) -> None:
    """One collapsed section for developers: the retrieved pages and why (each linked to Wikipedia), every
    scored sentence, each evidence sentence's three stance probabilities, the claim analysis and the timings."""
    result, links = checked.result, checked.links
    wikipedia_column = st.column_config.LinkColumn("Wikipedia", display_text="Wikipedia ↗")
    probability = {
        word: st.column_config.NumberColumn(
            word, format="%.3f", help=f"The {PROBABILITY} of {word} for this sentence alone"
        )
        for word in verdict_words()
    }
    with st.expander("Details: retrieved pages, every scored sentence, stances, claim analysis, timings"):
        pages, sentences, stances, analysis = st.tabs(["Pages and why", "Scored sentences", "Stances", "Analysis"])
        pages.dataframe(
            pd.DataFrame(
                [
                    {
                        "page": p.title,
                        "Wikipedia": links[p.page_id].url,
                        "corpus text": links[p.page_id].text_age,
                        "score": round(p.score, 4),
                        "used": yes_no(p.used),
                        "title match": p.match or "",
                        **{f"{k} score": round(v, 3) for k, v in p.signals.items()},
                    }
                    for p in result.pages
                ]
            ),
            hide_index=True,
            width="stretch",
            placeholder="—",
            column_config={
                "Wikipedia": wikipedia_column,
                "score": st.column_config.NumberColumn(help="Fused retrieval score: comparable within this claim only"),
                "used": st.column_config.TextColumn(
                    help="Its sentences were read (the top pages, and pages a two-hop link brought)"
                ),
            },
        )
        pages.caption(
            "Signal scores: title (1 = exact title match), dense (embedding similarity), lexical (bm25), "
            "link (reached by a two-hop link)."
        )
        sentences.dataframe(
            pd.DataFrame(
                [
                    {
                        "page": s.title,
                        "Wikipedia": links[s.page_id].url,
                        "line": s.line,
                        "sentence": s.text,
                        "score": round(s.score, 3),
                        "hop": s.hop,
                    }
                    for s in result.sentences
                ]
            ),
            hide_index=True,
            width="stretch",
            placeholder="—",
            column_config={
                "Wikipedia": wikipedia_column,
                "score": st.column_config.NumberColumn(help="Similarity to the claim, about −1 to 1"),
            },
        )
        stances.dataframe(
            pd.DataFrame(
                [
                    {
                        "page": item.sentence.title,
                        "line": item.sentence.line,
                        "sentence": item.sentence.text,
                        **{verdict_word(label): item.stance.of(label) if item.stance else None for label in LABELS},
                        "premise read": item.premise,
                    }
                    for item in result.evidence
                ]
            ),
            hide_index=True,
            width="stretch",
            placeholder="—",
            column_config=probability,
        )
        analysis.json(result.analysis.to_dict())
        analysis.dataframe(
            pd.DataFrame([{"stage": k, "seconds": v} for k, v in result.timings.items()]),
            hide_index=True,
            placeholder="—",
            column_config={
                "seconds": st.column_config.NumberColumn(format="%.3f", help="Wall-clock seconds this stage took")
            },
        )
        analysis.caption(
            f"Verifier calls: {result.verdict.verifier_calls} (the evidence, the claim's parts and its "
            "numbers are read in one; a two-hop bridge in a second)"
        )
