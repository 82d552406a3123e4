"""The name a sentence's opening pronoun stands for, so that a sentence of a text can be checked alone.

In a text, "Marie Curie was a Polish physicist. She won two Nobel Prizes." the second sentence is checked as "Marie
Curie won two Nobel Prizes.": a claim that starts with "She" finds no page. A small, visible rule on spaCy's parse
(no coreference model is installed), applied to the first word of a sentence only:

- "He" or "She" as its subject, or "His" or "Her" before its subject, stands for the person named as the subject
  of the nearest of the :data:`WINDOW` sentences before it whose subject is a name ("Barack Obama met Angela
  Merkel. He praised her." reads "He" as Barack Obama), passing over sentences whose subject is a pronoun or a common
  noun ("The film was a hit.");
- "It" as its subject, or "Its", stands for the named thing (a place, an organisation, a work, an event...) that
  was the subject of the sentence before, passing over pronoun subjects only: after "The city of Lyon is smaller."
  it stands for the city, so it is left as written; not an "it" that opens a clause ("It is true that...", "It
  takes two hours to...");
- a name of the other kind (a person for "It", a thing for "She") stops the search: the sentence is left as written,
  and so are "They", "This" and every other word (whom they stand for is too often unclear).

The sentence's text and offsets do not change; :attr:`~fever_core.text_check.sentences.TextSentence.checked_as`
holds the claim checked, and the page shows it beside the sentence.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
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


NAMED, COMMON, PASSED_OVER = "named", "common", "passed over"
"""What a sentence's subject was: a named person or thing; another noun ("The film"); or a pronoun, or none."""


@dataclass(frozen=True)
class _Subject:
    kind: str
    name: str = ""
    person: bool = False


class Antecedents:
    """The subjects of the last :data:`WINDOW` sentences of a text, read in order: :meth:`checked_as` a sentence,
    then :meth:`note` it."""

    def __init__(self) -> None:
        self._recent: deque[_Subject] = deque(maxlen=WINDOW)

    def note(self, span: Span) -> None:
        """Remember the subject of ``span`` (a parsed sentence), the last sentence read."""
        subject = next((t for t in span.root.children if t.dep_ in _SUBJECTS), None)
        if subject is None or subject.lower_ in SUBJECT_PRONOUNS or subject.pos_ == "PRON":
            self._recent.append(_Subject(PASSED_OVER))
            return
        entity = next((e for e in span.ents if e.root.i == subject.i), None)
        if entity is not None and (entity.label_ == PERSON or entity.label_ in THING_ENTITIES):
            self._recent.append(_Subject(NAMED, entity.text, entity.label_ == PERSON))
        else:
            self._recent.append(_Subject(COMMON))

    def checked_as(self, span: Span, text: str) -> str | None:
        """``text`` (the sentence as written, which ``span`` parses) with its opening pronoun replaced by the name it
        stands for; ``None`` when it opens with none of them or no name fits (the rules: the module's docstring)."""
        first = span[0]
        word = first.lower_
        if word in SUBJECT_PRONOUNS and first.dep_ in _SUBJECTS and not _opens_a_clause(span):
            person, suffix = SUBJECT_PRONOUNS[word], ""
        elif word in POSSESSIVE_PRONOUNS and first.dep_ == "poss" and first.head.dep_ in _SUBJECTS:
            person, suffix = POSSESSIVE_PRONOUNS[word], "'s"
        else:
            return None
        name = None
        for subject in reversed(self._recent):
            if subject.kind == NAMED:
                name = subject.name if subject.person == person else None
                break
            if subject.kind == COMMON and not person:  # "The city of Lyon is smaller. It has...": the city
                break
        if name is None or not text.startswith(first.text):
            return None
        return name[0].upper() + name[1:] + suffix + text[len(first.text) :]


def _opens_a_clause(span: Span) -> bool:
    """An "it" that stands for a clause after it ("It is true that...", "It takes two hours to get there")."""
    return span[0].lower_ == "it" and any(child.dep_ in ("ccomp", "xcomp", "csubj") for child in span.root.children)
