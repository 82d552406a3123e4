"""The app's words for people, declared once and used on every page: the verdicts (declared with FEVER's labels in
:mod:`fever_core.common.types`) and their colours, "probability", the metrics' names and what each means, and counts
with their plurals.

The library speaks FEVER (``SUPPORTS``, ``REFUTES``, ``NOT ENOUGH INFO``: :mod:`fever_core.common.types`);
the pages show these words instead. Files made for programs (CSV, jsonl, JSON downloads) keep FEVER's labels; a
ClaimReview, read by people through fact-checking sites and search engines, rates in these words and keeps the label beside them.
"""

from __future__ import annotations

from fever_core.common import LABELS, NEI, REFUTES, SUPPORTS, VERDICT_WORDS, page_id_to_title

# VERDICT_WORDS: each FEVER label as the pages show it (a verdict, a gold label, a sentence's stance, an annotation).
VERDICT_COLOURS = {SUPPORTS: "green", REFUTES: "red", NEI: "gray"}
"""Each verdict's colour (a Streamlit Markdown colour), wherever a page marks one: the verdict card, a checked
sentence in its text."""
PROBABILITY = "probability"
"""The word for a verdict's or a stance's probability (in [0, 1]), on every page (never "confidence")."""
PROBABILITY_HELP = (
    "How often a verdict like this one is right, from 0 to 1: measured on 240 claims written by hand "
    "(calibrated: of verdicts said at 0.7, about 7 in 10 were right), from how sure the rule or model "
    "that decided was. It is an estimate, not a fact-check: read the deciding sentence."
)
"""What a verdict's one probability means (:attr:`~fever_core.verification.verdict.Verdict.probability`), wherever a
page shows it: the card, History, Batch."""
METRIC_WORDS = {
    "fever_score": (
        "FEVER score",
        (
            "The share of claims whose verdict is right and, for a Supported or Refuted "
            "claim, whose first five evidence sentences hold a whole gold evidence set (FEVER's own score)."
        ),
    ),
    "label_accuracy": ("label accuracy", "The share of claims whose verdict is the gold label, evidence aside."),
    "evidence_precision": (
        "evidence precision",
        (
            "Of the evidence sentences given (up to five a claim), the share "
            "that are gold evidence; Supported and Refuted claims only."
        ),
    ),
    "evidence_recall": (
        "evidence recall",
        (
            "The share of Supported and Refuted claims whose first five evidence "
            "sentences hold a whole gold evidence set."
        ),
    ),
    "evidence_f1": ("evidence F1", "The harmonic mean of evidence precision and evidence recall."),
    "doc_recall_at_1": (
        "page found first",
        (
            "The share of Supported and Refuted claims whose first retrieved page "
            "holds a gold evidence set's pages (doc recall at 1)."
        ),
    ),
    "doc_recall_at_5": (
        "pages in top 5",
        (
            "The share of Supported and Refuted claims whose first five retrieved "
            "pages hold a gold evidence set's pages (doc recall at 5)."
        ),
    ),
    "doc_recall_at_10": (
        "pages in top 10",
        (
            "The share of Supported and Refuted claims whose first ten retrieved "
            "pages hold a gold evidence set's pages (doc recall at 10)."
        ),
    ),
    "sentence_recall_at_5": (
        "sentences in top 5",
        (
            "The share of Supported and Refuted claims whose evidence "
            "sentences (the top five by default) hold a whole gold evidence set (sentence recall "
            "at 5)."
        ),
    ),
}
"""Each metric of an evaluation (a key of its report, in [0, 1]): its name on the pages and what it measures."""


def verdict_word(label: str | None) -> str | None:
    """A FEVER label as the pages show it (:data:`VERDICT_WORDS`); ``None`` stays ``None`` (no label)."""
    return None if label is None else VERDICT_WORDS[label]


def verdict_words() -> list[str]:
    """The three verdicts' words, in :data:`~fever_core.common.types.LABELS` order."""
    return [VERDICT_WORDS[label] for label in LABELS]


def metric_word(name: str) -> str:
    """A metric's name on the pages (:data:`METRIC_WORDS`); an unknown one with its underscores as spaces."""
    return METRIC_WORDS[name][0] if name in METRIC_WORDS else name.replace("_", " ")


def metric_help(name: str) -> str:
    """What a metric measures, for its help text ("" for one not in :data:`METRIC_WORDS`)."""
    return METRIC_WORDS[name][1] if name in METRIC_WORDS else ""


def yes_no(flag: bool | None) -> str | None:
    """A table's true or false as a word: "yes" or "no" (never True / False); ``None`` (unknown) stays ``None``."""
    return None if flag is None else "yes" if flag else "no"


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and the noun, plural unless it is one: "1 annotation", "2 annotations", "1,200 claims"."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"


def evidence_set_line(number: int, group: set[tuple[str, int]]) -> str:
    """An evidence set as the annotator reads it: its sentences by page title and line, "Mount Everest [0]"."""
    sentences = ", ".join(f"{page_id_to_title(page_id)} [{line}]" for page_id, line in sorted(group))
    return f"Evidence set {number}: {sentences or '(empty)'}"
