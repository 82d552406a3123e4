"""Check a text: an article, a speech, a transcript, pasted or read from a ``.txt``, ``.md`` or ``.html`` file.

:mod:`~fever_core.text_check.input_text` (the plain text of a paste or a file: HTML read in linear time, scripts
dropped; binary files, texts over 1 MB and pages of more markup than text refused),
:mod:`~fever_core.text_check.sentences` (the sentences with their offsets; a text of too many sentences, or too slow
to split, refused), :mod:`~fever_core.text_check.worthiness` (which are worth checking, with why, and the fact checked
of a sentence that joins it to a prediction: a transparent scorer on spaCy's parse),
:mod:`~fever_core.text_check.pronouns` (an opening "She" or "It" read as the name it stands for) and
:mod:`~fever_core.text_check.check` (the chosen sentences checked through the batch runner: a :class:`TextCheck`).
The CLI's ``check-text``, the service's ``/check-text`` and the "Check a text" page use it.
"""

from __future__ import annotations

from fever_core.text_check.check import (
    CheckedSentence,
    NothingToCheck,
    TextCheck,
    check_text,
    sentence_claims,
    worthy_indexes,
)
from fever_core.text_check.input_text import (
    MAX_TEXT_BYTES,
    TEXT_KINDS,
    TextReadError,
    html_to_text,
    markdown_to_text,
    plain_text,
    read_text_file,
    read_text_stream,
    read_within_limit,
    text_of_bytes,
)
from fever_core.text_check.sentences import (
    MAX_TEXT_SENTENCES,
    SPLIT_SECONDS,
    TextSentence,
    TextTooLarge,
    estimate_sentences,
    find_sentences,
)

__all__ = [
    "MAX_TEXT_BYTES",
    "MAX_TEXT_SENTENCES",
    "SPLIT_SECONDS",
    "TEXT_KINDS",
    "CheckedSentence",
    "NothingToCheck",
    "TextCheck",
    "TextReadError",
    "TextSentence",
    "TextTooLarge",
    "check_text",
    "estimate_sentences",
    "find_sentences",
    "html_to_text",
    "markdown_to_text",
    "plain_text",
    "read_text_file",
    "read_text_stream",
    "read_within_limit",
    "sentence_claims",
    "text_of_bytes",
    "worthy_indexes",
]
