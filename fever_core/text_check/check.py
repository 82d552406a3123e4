"""A text checked: its check-worthy sentences (or those chosen) checked through the batch runner, one result each.

:func:`check_text` finds the sentences (:func:`~fever_core.text_check.sentences.find_sentences`) and checks the
chosen ones with :func:`~fever_core.evaluation.runner.run_batch`, so each verdict is the one ``check`` gives that
sentence alone. Whoever runs the checks another way (the Batch page's background job, the service's micro-batches)
turns the sentences into claims with :func:`sentence_claims` and their rows back into a :class:`TextCheck` with
:meth:`TextCheck.of`.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fever_core.common.formats import Claim
from fever_core.common.types import LABELS
from fever_core.evaluation import BatchRow, run_batch
from fever_core.pipeline import Checker, CheckOptions, CheckResult
from fever_core.text_check.sentences import TextSentence, find_sentences


class NothingToCheck(ValueError):
    """No sentence of a text was chosen to check; the message says why and what to do."""


@dataclass(frozen=True)
class CheckedSentence:
    """A sentence of a text and its check.

    Attributes:
        sentence: the sentence, with its offsets and worthiness.
        chosen: it was chosen to be checked (by default: it is check-worthy).
        result: its check; ``None`` when it was not chosen, not checked yet (a stopped check), or can't be checked.
        error: why it can't be checked ("" otherwise), e.g. over the claim's length limit.
    """

    sentence: TextSentence
    chosen: bool
    result: CheckResult | None = None
    error: str = ""

    @property
    def verdict(self) -> str:
        """Its verdict's FEVER label, "" when it has no check."""
        return self.result.verdict.label if self.result else ""

    def to_dict(self) -> dict[str, Any]:
        """The sentence (:meth:`TextSentence.to_dict`), whether it was chosen, its verdict and the verdict's
        probability, and its whole check (the JSON of ``check --json``; ``None`` without one), or why not."""
        return {
            **self.sentence.to_dict(),
            "checked": self.chosen,
            "verdict": self.verdict or None,
            "probability": round(self.result.verdict.probability, 4) if self.result else None,
            "error": self.error or None,
            "result": self.result.to_dict() if self.result else None,
        }


@dataclass(frozen=True)
class TextCheck:
    """A text and its sentences' checks.

    Attributes:
        text: the plain text; each sentence's offsets point into it.
        sentences: every sentence of the text, in order, with its check where it has one.
    """

    text: str
    sentences: list[CheckedSentence]

    @classmethod
    def of(
        cls, text: str, sentences: Sequence[TextSentence], rows: Iterable[BatchRow], chosen: Iterable[int] | None = None
    ) -> TextCheck:
        """The check of ``text`` from its sentences and the rows of the chosen ones' claims
        (:func:`sentence_claims`: a row's claim id is its sentence's index); a chosen sentence without a row has not
        been checked (yet). ``chosen``: the indexes checked (default: those with a row)."""
        by_index = {int(row.claim.id): row for row in rows}
        chosen = set(by_index) if chosen is None else set(chosen)
        return cls(
            text,
            [
                CheckedSentence(s, s.index in chosen, by_index[s.index].result, by_index[s.index].error)
                if s.index in by_index
                else CheckedSentence(s, s.index in chosen)
                for s in sentences
            ],
        )

    @property
    def checked(self) -> list[CheckedSentence]:
        """The sentences with a check, in order."""
        return [s for s in self.sentences if s.result is not None]

    def counts(self) -> dict[str, int]:
        """How many checked sentences got each verdict, by FEVER label (each label, zero included, in
        :data:`~fever_core.common.types.LABELS` order)."""
        found = collections.Counter(s.verdict for s in self.checked)
        return {label: found[label] for label in LABELS}

    def summary(self, word: Callable[[str], str] = str, withheld: str | None = None) -> str:
        """One line: "5 sentences checked: 2 SUPPORTS, 1 REFUTES, 2 NOT ENOUGH INFO", and those that can't be
        checked; each verdict as ``word(label)`` says it (default: FEVER's label; the pages say it in their words).
        ``withheld``: the word of a verdict whose label is withheld as too unsure
        (:attr:`~fever_core.verification.verdict.Verdict.label_withheld`), counted apart and last, as the pages show
        it ("Undecided"); ``None`` (the default): counted by its label."""
        checked = self.checked
        line = f"{len(checked)} sentence{'' if len(checked) == 1 else 's'} checked"
        if checked:
            found = collections.Counter(
                withheld if withheld and s.result and s.result.verdict.label_withheld else word(s.verdict)
                for s in checked
            )
            words = [word(label) for label in LABELS] + ([withheld] if withheld else [])
            line += ": " + ", ".join(f"{found[shown]} {shown}" for shown in words if found[shown])
        failed = sum(bool(s.error) for s in self.sentences)
        return line + (f"; {failed} can't be checked" if failed else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "summary": {"checked": len(self.checked), **self.counts()},
            "sentences": [s.to_dict() for s in self.sentences],
        }


def worthy_indexes(sentences: Iterable[TextSentence]) -> list[int]:
    """The indexes of the check-worthy sentences: those checked unless others are chosen."""
    return [s.index for s in sentences if s.worthy]


def sentence_claims(sentences: Sequence[TextSentence], chosen: Iterable[int] | None = None) -> list[Claim]:
    """The chosen sentences (default: the check-worthy ones) as claims to check, in text order, each with its
    sentence's index as its id.

    Raises:
        NothingToCheck: none is chosen; the message says why (no check-worthy sentence, or none chosen).
    """
    indexes = sorted(set(worthy_indexes(sentences) if chosen is None else chosen))
    if not indexes:
        if chosen is not None:
            raise NothingToCheck("No sentence is chosen: choose the sentences to check.")
        raise NothingToCheck(
            f"None of the text's {len(sentences):,} sentence{'' if len(sentences) == 1 else 's'} looks worth checking: "
            "none states a fact about a named person, place or thing, a number or a date (questions, opinions, "
            "plans, instructions and fragments are left out). Choose the sentences to check yourself."
        )
    return [Claim(index, sentences[index].claim, None) for index in indexes]


def check_text(
    checker: Checker,
    text: str,
    options: CheckOptions | None = None,
    chosen: Iterable[int] | None = None,
    on_sentence: Callable[[CheckedSentence, int, int], None] | None = None,
    stop: threading.Event | None = None,
    sentences: Sequence[TextSentence] | None = None,
) -> TextCheck:
    """Find a plain text's sentences and check the chosen ones, each as ``check`` checks a claim.

    Args:
        checker: the checker.
        text: the plain text (:func:`~fever_core.text_check.input_text.plain_text`).
        options: the per-check settings of every sentence (``None``: the checker's settings).
        chosen: the indexes of the sentences to check (default: the check-worthy ones).
        on_sentence: called as ``on_sentence(checked, done, total)`` after each sentence checked.
        stop: when set, the check ends after the sentence being checked (the rest have no result).
        sentences: the text's sentences, when they were found already (:func:`find_sentences`).

    Raises:
        NothingToCheck: no sentence is chosen (or, by default, none is check-worthy).
    """
    sentences = find_sentences(text) if sentences is None else sentences
    claims = sentence_claims(sentences, chosen)

    def on_row(row: BatchRow, done: int, total: int) -> None:
        if on_sentence is not None:
            on_sentence(CheckedSentence(sentences[int(row.claim.id)], True, row.result, row.error), done, total)

    report = run_batch(checker, claims, options, on_row=on_row, stop=stop)
    return TextCheck.of(text, sentences, report.rows, [int(claim.id) for claim in claims])
