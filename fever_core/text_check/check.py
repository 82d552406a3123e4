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
from dataclasses import dataclass, field
from typing import Any

from fever_core.common.formats import Claim
from fever_core.common.records import IN_PLACE, JSON_NAME, record_dict
from fever_core.common.types import LABELS, Label
from fever_core.evaluation import BatchRow, run_batch
from fever_core.pipeline import Checker, CheckOptions, CheckResult
from fever_core.text_check.sentences import TextSentence, find_sentences


class NothingToCheck(ValueError):
    """No sentence of a text was chosen to check; the message says why and what to do."""


@dataclass(frozen=True)
class CheckedSentence:
    """A sentence of a text and its check.

    Its verdict and probability are fields computed from its check, so that its JSON and the service's model of it
    (both made from this record's fields, :mod:`~fever_core.common.records`) write them beside the sentence.

    Attributes:
        sentence: the sentence, with its offsets and worthiness (the JSON writes its fields in its place).
        chosen: it was chosen to be checked (by default: it is check-worthy); ``checked`` in the JSON.
        verdict: its verdict's FEVER label; ``None`` without a check.
        probability: the verdict's probability, in [0, 1], to four places; ``None`` without a check.
        error: why it can't be checked, e.g. over the claim's length limit; ``None`` when it can.
        result: its check (what ``check --json`` writes for the sentence); ``None`` when it was not chosen, not
            checked yet (a stopped check), or can't be checked.
    """

    sentence: TextSentence = field(metadata={JSON_NAME: IN_PLACE})
    chosen: bool = field(metadata={JSON_NAME: "checked"})
    verdict: Label | None = field(init=False, repr=False, compare=False)
    probability: float | None = field(init=False, repr=False, compare=False)
    error: str | None = None
    result: CheckResult | None = None

    def __post_init__(self) -> None:
        verdict = self.result.verdict if self.result else None
        # computed from the check, once: a frozen record sets its own fields as dataclasses' __init__ does
        object.__setattr__(self, "verdict", verdict.label if verdict else None)
        object.__setattr__(self, "probability", round(verdict.probability, 4) if verdict else None)

    def to_dict(self) -> dict[str, Any]:
        """As ``check-text --json`` and ``/check-text`` write it (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)


@dataclass(frozen=True)
class TextCheck:
    """A text and its sentences' checks.

    Attributes:
        text: the plain text; each sentence's offsets point into it.
        tally: how many sentences were checked (``checked``), and how many got each verdict, by FEVER label, zero
            included (:meth:`counts`); ``summary`` in the JSON.
        sentences: every sentence of the text, in order, with its check where it has one.
    """

    text: str
    tally: dict[str, int] = field(init=False, repr=False, compare=False, metadata={JSON_NAME: "summary"})
    sentences: list[CheckedSentence]

    def __post_init__(self) -> None:
        # computed from the sentences, once: a frozen record sets its own fields as dataclasses' __init__ does
        object.__setattr__(self, "tally", {"checked": len(self.checked), **self.counts()})

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
                CheckedSentence(s, s.index in chosen, by_index[s.index].error or None, by_index[s.index].result)
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
        found = collections.Counter[str](s.verdict for s in self.sentences if s.verdict)
        return {label: found[label] for label in LABELS}

    def summary(self, word: Callable[[str], str] = str, withheld: str | None = None) -> str:
        """One line: "5 sentences checked: 2 SUPPORTS, 1 REFUTES, 2 NOT ENOUGH INFO", and those that can't be
        checked; each verdict as ``word(label)`` says it (default: FEVER's label; the pages say it in their words).
        ``withheld``: the word of a verdict whose label is withheld as too unsure
        (:attr:`~fever_core.verification.verdict.Verdict.label_withheld`), counted apart and last, as the pages show
        it ("Undecided"); ``None`` (the default): counted by its label."""
        verdicts = [s.result.verdict for s in self.sentences if s.result]
        line = f"{len(verdicts)} sentence{'' if len(verdicts) == 1 else 's'} checked"
        if verdicts:
            found = collections.Counter(
                withheld if withheld and verdict.label_withheld else word(verdict.label) for verdict in verdicts
            )
            words = [word(label) for label in LABELS] + ([withheld] if withheld else [])
            line += ": " + ", ".join(f"{found[shown]} {shown}" for shown in words if found[shown])
        failed = sum(bool(s.error) for s in self.sentences)
        return line + (f"; {failed} can't be checked" if failed else "")

    def to_dict(self) -> dict[str, Any]:
        """As ``/check-text`` writes it (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)


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
            on_sentence(CheckedSentence(sentences[int(row.claim.id)], True, row.error or None, row.result), done, total)

    report = run_batch(checker, claims, options, on_row=on_row, stop=stop)
    return TextCheck.of(text, sentences, report.rows, [int(claim.id) for claim in claims])
