"""The evidence tables as Verify shows a check (:class:`~pages.verdict_card.CheckedClaim`): the evidence the verdict
used, the deciding rows highlighted (none where its label is withheld), each sentence's stance as the verdict counted it
(:func:`stance_cell`, which the card's quotes use too), then, collapsed, the rest, with a legend, the two-hop chains,
and one collapsed section of developer detail (:func:`show_details`). The card above them is :mod:`pages.verdict_card`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from fever_core.common import LABELS, NEI
from fever_core.pipeline import CheckResult
from fever_core.retrieval import drawn_chains
from fever_core.verification import Reading
from fever_core.workbench import probability_text
from pages.display import plain
from pages.words import PROBABILITY, verdict_word, verdict_words, yes_no

if TYPE_CHECKING:
    from pages.verdict_card import CheckedClaim

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
