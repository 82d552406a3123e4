"""The verdict card, as Verify shows a check (:class:`CheckedClaim`): the verdict with its
probability in words, the one or two sentences that decide it quoted with their page and link (or, where its label is
withheld as too unsure or it is NOT ENOUGH INFO, "Undecided" or "Not enough info" with the sentences to read, each with
its reading: :mod:`fever_core.verification.read_these`), the facts of a compound claim, one line saying why and a
caution when it is close, and its chart (:func:`verdict_chart`). The evidence tables below it (the evidence the verdict
used, the rest, the two-hop chains, the developer detail) are :mod:`pages.evidence_tables`. In the presenter's view
(:mod:`pages.presenter`) the chart's type is large and only the card, the chart and the evidence used are drawn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import plotly.graph_objects as go
import streamlit as st

from fever_core.common import NEI, REFUTES, SUPPORTS, probably_not_english
from fever_core.pipeline import CheckResult, JudgedSentence
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
from pages.evidence_tables import stance_cell
from pages.presenter import PRESENTER_CHART_FONT_PX, PRESENTER_CHART_HEIGHT_PX
from pages.settings_ui import UiSettings
from pages.words import PROBABILITY_HELP, VERDICT_COLOURS, verdict_word

BAR_COLOURS = {SUPPORTS: "#2e7d32", REFUTES: "#c62828", NEI: "#757575"}
# The card's chart's height, in CSS pixels: with the verdict's bar alone, and more for each sentence's bar.
CHART_HEIGHT_PX = (100, 30)
# The most characters of a page title a sentence's bar is named with (a longer one is cut, with an ellipsis).
CHART_TITLE_CHARS = 28
# A verdict whose two likeliest labels are closer than this (in probability) is shown as uncertain.
CLOSE_MARGIN = 0.15
# How sure the verdict is, in words: the first whose lower bound its probability reaches.
CONFIDENCE_WORDS = [(0.9, "Very likely"), (0.7, "Likely"), (0.5, "More likely than not"), (0.0, "Uncertain")]


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
