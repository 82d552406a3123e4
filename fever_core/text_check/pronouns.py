"""The name a sentence's opening pronoun stands for, so that a sentence of a text can be checked alone.

In a text, "Marie Curie was a Polish physicist. She won two Nobel Prizes." the second sentence is checked as "Marie
Curie won two Nobel Prizes.": a claim that starts with "She" finds no page. A small, visible rule on spaCy's parse
(no coreference model is installed), applied to the first word of a sentence only:

- "He" or "She" as its subject, or "His" or "Her" before its subject, stands for the last person named as the
  subject of one of the :data:`WINDOW` sentences before it ("Barack Obama met Angela Merkel. He praised her." reads
  "He" as Barack Obama);
- "It" as its subject, or "Its", stands for the last named thing (a place, an organisation, a work, an event...)
  that was such a subject; not an "it" that opens a clause ("It is true that...", "It takes two hours to...");
- "They", "This" and every other word are left as written (whom they stand for is too often unclear).

The sentence's text and offsets do not change; :attr:`~fever_core.text_check.worthiness.TextSentence.checked_as`
holds the claim checked, and the page shows it beside the sentence.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Span

WINDOW = 3
"""How many sentences back the name a pronoun stands for may be."""
PERSON = "PERSON"
THING_ENTITIES = frozenset({"FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW"})
"""spaCy's labels of the named things "It" may stand for."""
SUBJECT_PRONOUNS = {"he": True, "she": True, "it": False}
"""Subject pronouns read, and whether each stands for a person."""
POSSESSIVE_PRONOUNS = {"his": True, "her": True, "its": False}
"""Possessive pronouns read before the subject ("Her husband was..."), and whether each stands for a person."""
_SUBJECTS = ("nsubj", "nsubjpass")


class Antecedents:
    """The people and things named as subjects of the last :data:`WINDOW` sentences of a text, read in order:
    :meth:`checked_as` a sentence, then :meth:`note` it."""

    def __init__(self) -> None:
        self._recent: deque[list[tuple[str, bool]]] = deque(maxlen=WINDOW)

    def note(self, span: Span) -> None:
        """Remember the named subjects of ``span`` (a parsed sentence), the last sentence read."""
        subjects = [(entity.text, entity.label_ == PERSON) for entity in span.ents
                    if (entity.label_ == PERSON or entity.label_ in THING_ENTITIES) and entity.root.dep_ in _SUBJECTS
                    and entity.root.head.i == span.root.i]
        self._recent.append(subjects)

    def checked_as(self, span: Span, text: str) -> str | None:
        """``text`` (the sentence as written, which ``span`` parses) with its opening pronoun replaced by the name it
        stands for; ``None`` when it opens with none of them or no name fits."""
        first = span[0]
        word = first.lower_
        if word in SUBJECT_PRONOUNS and first.dep_ in _SUBJECTS and not _opens_a_clause(span):
            person, suffix = SUBJECT_PRONOUNS[word], ""
        elif word in POSSESSIVE_PRONOUNS and first.dep_ == "poss" and first.head.dep_ in _SUBJECTS:
            person, suffix = POSSESSIVE_PRONOUNS[word], "'s"
        else:
            return None
        name = next((name for subjects in reversed(self._recent) for name, is_person in reversed(subjects)
                     if is_person == person), None)
        if name is None or not text.startswith(first.text):
            return None
        return name[0].upper() + name[1:] + suffix + text[len(first.text):]


def _opens_a_clause(span: Span) -> bool:
    """An "it" that stands for a clause after it ("It is true that...", "It takes two hours to get there")."""
    return span[0].lower_ == "it" and any(child.dep_ in ("ccomp", "xcomp", "csubj") for child in span.root.children)
