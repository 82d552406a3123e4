"""A text's sentences, each with its offsets and judged worth checking or not.

:func:`find_sentences` splits a plain text into sentences (spaCy's parser, paragraph by paragraph), each with its
character offsets into the text, judges each one (:func:`~fever_core.text_check.worthiness.judge`) and gives it the
claim checked for it where that is not the sentence as written (the fact alone of a sentence that joins it to a
prediction; an opening "She" or "It" read as the name it stands for: :mod:`~fever_core.text_check.pronouns`). A text
of too many sentences, or too slow to split, is refused (:class:`TextTooLarge`) before it takes the server's memory or
time.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fever_core.common.nlp import load_spacy
from fever_core.text_check.input_text import TextReadError
from fever_core.text_check.pronouns import Antecedents
from fever_core.text_check.worthiness import CLOSING_MARKS, judge

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

MAX_BLOCK_CHARS = 10_000
"""A paragraph longer than this (characters) is parsed in pieces, cut at line breaks or sentence ends: spaCy's
parser takes memory in proportion to the length of what it reads at once."""
PARSE_BATCH = 8
"""Paragraphs parsed together: few, for the same reason (with spaCy's default of 1,000, a 1 MB text took 3.7 GB)."""
MAX_TEXT_SENTENCES = 5_000
"""The most sentences a text may have to be split (a long report; 1 MB of prose has about 10,000): more, estimated
before splitting (:func:`estimate_sentences`) or counted while splitting, is :class:`TextTooLarge`."""
SPLIT_SECONDS = 120.0
"""The longest splitting a text into sentences may take, in seconds (spaCy's parser reads some 13 KB of prose a second
on two CPU cores); longer is :class:`TextTooLarge`."""
_SENTENCE_ENDS = re.compile(r"[.!?…]+[\"')\]»”’]*(?=\s|$)|(?<![.!?…\"')\]»”’\s])[ \t]*\n[ \t]*\n")

_SENTENCE_END = tuple(".!?…")
_LINE_MARK = r"[-*+•][ \t]+|#{1,6}[ \t]+|>[ \t]*|\d{1,3}[.)/][ \t]+|[A-Z][A-Z.'\-]*(?: [A-Z][A-Z.'\-]*){0,3}:[ \t]+"
"""What starts a line and is no part of its sentence: a list or heading mark, a quote's ``>``, a numbered thread's
``2/``, a transcript's ``SPEAKER:`` in capitals (an interview's ``Q:`` and ``A:`` too)."""
_LEADING_MARK = re.compile(f"(?:{_LINE_MARK})+")
_BLOCK_BREAK = re.compile(
    r"\n[ \t]*\n|(?:(?<=[.!?…])|(?<=[.!?…][\"'”’)\]»]))[ \t]*\n"
    r"|\n(?=[ \t]*(?:" + _LINE_MARK + "))"
)
"""Where a paragraph ends (see :func:`find_sentences`): a blank line, a line break after a sentence's end mark, or a
line break before a line that starts with a mark (:data:`_LINE_MARK`)."""
_PIECE_BREAK = re.compile(r"\n|(?<=[.!?])\s")


@dataclass(frozen=True)
class TextSentence:
    """One sentence of a text, and whether it is worth checking.

    Attributes:
        index: its position among the text's sentences, from 0.
        text: the sentence (a leading list mark or speaker's name left out).
        start: the offset of its first character in the plain text, in characters.
        end: the offset just past its last character: ``plain_text[start:end] == text``.
        worthy: it states a fact about named things, numbers or dates (:mod:`~fever_core.text_check.worthiness`).
        reason: why it is, or is not, in a few words ("a question", "names Paris, France; gives 2023").
        checked_as: the claim checked for it when that is not ``text``: the fact alone of a sentence that joins it to
            a prediction ("Shakespeare wrote Hamlet." of "Shakespeare wrote Hamlet, and the festival will stage it
            next summer.": :attr:`~fever_core.text_check.worthiness.Judgement.part`), its opening pronoun replaced by
            the name it stands for (:mod:`~fever_core.text_check.pronouns`: "She won..." as "Marie Curie won..."), or
            both; ``None``: the sentence as written.
    """

    index: int
    text: str
    start: int
    end: int
    worthy: bool
    reason: str
    checked_as: str | None = None

    @property
    def claim(self) -> str:
        """What is checked for this sentence: :attr:`checked_as`, else the sentence."""
        return self.checked_as or self.text


class TextTooLarge(TextReadError):
    """A text has too many sentences, or takes too long, to be split into sentences; the message says what to do."""


def estimate_sentences(text: str) -> int:
    """About how many sentences ``text`` has, counted without parsing it (in milliseconds for 1 MB): its sentence end
    marks followed by a space or the end, and its blank lines after a line without one (a heading's), plus one. An
    abbreviation ("Dr. Who") counts one more."""
    return len(_SENTENCE_ENDS.findall(text)) + 1


def find_sentences(
    text: str,
    max_sentences: int = MAX_TEXT_SENTENCES,
    max_seconds: float = SPLIT_SECONDS,
    stop: threading.Event | None = None,
) -> list[TextSentence]:
    """The sentences of a plain text (:func:`~fever_core.text_check.input_text.plain_text`), in order, each judged.

    Args:
        text: the plain text.
        max_sentences: the most sentences it may have: estimated before any parsing (:func:`estimate_sentences`),
            then counted (default :data:`MAX_TEXT_SENTENCES`).
        max_seconds: the longest the splitting may take, in seconds (default :data:`SPLIT_SECONDS`).
        stop: when set (the client who asked has gone), the splitting ends at the next paragraphs and the sentences
            found so far are returned.

    Raises:
        TextTooLarge: more than ``max_sentences`` sentences, or longer than ``max_seconds``; the message says what
            to do. Looked at between paragraphs (a few at a time: :data:`PARSE_BATCH`).

    Paragraphs (split at blank lines, and before a line that starts a list item, a heading or a quote) are parsed
    apart; a sentence never runs from one into the next, nor across a line break unless the line before it ends
    without a sentence's end mark. A piece spaCy cuts off that does not end with ``.``, ``!``, ``?`` or ``…`` (as it
    cuts "2001: A Space Odyssey" after the colon) is joined to the piece after it on the same line. A sentence that
    joins a fact to a prediction gets its fact as the claim checked for it
    (:attr:`~fever_core.text_check.worthiness.Judgement.part`), and one that opens with "She", "It", "His"... the name
    it stands for in its place (:mod:`~fever_core.text_check.pronouns`).
    """
    estimate = estimate_sentences(text)
    if estimate > max_sentences:
        raise TextTooLarge(
            f"The text has about {estimate:,} sentences; at most {max_sentences:,} are split and "
            "checked at once. Check it in parts, or only the part you need."
        )
    deadline = time.monotonic() + max_seconds
    nlp = load_spacy("full")
    blocks = list(_blocks(text))
    sentences: list[TextSentence] = []
    antecedents = Antecedents()
    for (offset, _), doc in zip(blocks, nlp.pipe((text[start:end] for start, end in blocks), batch_size=PARSE_BATCH)):
        if stop is not None and stop.is_set():
            break
        if time.monotonic() > deadline:
            raise TextTooLarge(
                f"Finding the text's sentences took over {max_seconds:g} s ({offset:,} of its "
                f"{len(text):,} characters read): check it in parts, or only the part you need."
            )
        for span in _joined_sentences(doc):
            start, end = _trimmed(text, offset + span.start_char, offset + span.end_char)
            if start < end:
                sentence = doc.char_span(start - offset, end - offset, alignment_mode="expand")
                assert (
                    sentence is not None
                )  # (expanded to whole tokens, offsets inside the paragraph always have a span)
                judgement = judge(sentence)
                claim = judgement.part_claim
                checked_as = antecedents.checked_as(judgement.part or sentence, claim or text[start:end]) or claim
                sentences.append(
                    TextSentence(
                        len(sentences), text[start:end], start, end, judgement.worthy, judgement.reason, checked_as
                    )
                )
                antecedents.note(sentence)
        if len(sentences) > max_sentences:
            raise TextTooLarge(
                f"The text has more than {max_sentences:,} sentences; at most {max_sentences:,} are "
                "split and checked at once. Check it in parts, or only the part you need."
            )
    return sentences


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` offsets of the text's paragraphs (see :func:`find_sentences`), none longer than
    :data:`MAX_BLOCK_CHARS` (a longer one cut at its last line break, else sentence end, else space, before it)."""
    start = 0
    for found in [*_BLOCK_BREAK.finditer(text), None]:
        end = found.start() if found else len(text)
        while end - start > MAX_BLOCK_CHARS:
            cuts = [m.end() for m in _PIECE_BREAK.finditer(text, start, start + MAX_BLOCK_CHARS)]
            spaces = [m.end() for m in re.finditer(r"\s", text[start : start + MAX_BLOCK_CHARS])]
            cut = cuts[-1] if cuts else start + spaces[-1] if spaces else start + MAX_BLOCK_CHARS
            yield start, cut
            start = cut
        if text[start:end].strip():
            yield start, end
        start = found.end() if found else end


def _joined_sentences(doc: Doc) -> Iterator[Span]:
    """spaCy's sentences of a paragraph, a piece without an end mark joined to the next one on its line."""
    pending = None
    for sent in doc.sents:
        if not sent.text.strip():
            continue
        if pending is not None and "\n" not in doc.text[pending.end_char : sent.start_char]:
            sent = doc[pending.start : sent.end]
        elif pending is not None:
            yield pending
        pending = sent
        if sent.text.rstrip().rstrip(CLOSING_MARKS).endswith(_SENTENCE_END):
            yield sent
            pending = None
    if pending is not None:
        yield pending


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A sentence's offsets without the white space around it and a leading mark (:data:`_LEADING_MARK`)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    mark = _LEADING_MARK.match(text, start, end)
    return (mark.end() if mark and mark.end() < end else start), end
