"""A text's sentences, and which of them are worth checking: a transparent scorer on spaCy's parse.

:func:`find_sentences` splits a plain text into sentences (spaCy's parser, paragraph by paragraph), each with its
character offsets into the text, and judges each one. A sentence is **check-worthy** when it states something as a
fact about named things (people, places, organisations, works, events), numbers or dates: what the checker can look
up. It is not when it is

- a question (it ends with ``?``);
- a fragment: under :data:`MIN_WORDS` words, or no verb that makes a clause (a heading, a caption);
- thanks or a greeting;
- an instruction: an imperative ("Sign the petition.", "Let me tell you a story.");
- the writer's own plans: a first-person subject with a future, an intention or a "can" ("We will cut taxes.", "I
  hope to start next spring.", "We can create jobs.");
- an opinion: the writer liking something ("I like the way..."), a verb of belief whoever believes ("I think",
  "critics believe"), the writer's feelings ("I'm proud of..."), or evaluative words ("wonderful", "a disgrace",
  "honestly") with no number or date to check;
- a recommendation, a prediction, a hypothesis or speculation: ``should``, ``must``, ``need to``, ``have got to``,
  ``will``, ``going to``, ``would``, ``may``, ``might``, ``could`` on its main verb;
- about nothing named, counted or dated ("Things have changed a lot.", "He voted against it.").

The rules are checked in that order and the first that holds is the reason given; a check-worthy sentence's reason
names what it is about. How well this agrees with people: ``python -m benchmarks.check_worthiness``.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fever_core.common.nlp import load_spacy
from fever_core.text_check.pronouns import Antecedents
from fever_core.text_check.reading import TextReadError

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

MIN_WORDS = 4
"""Fewer words than this (punctuation aside) is a fragment, not a claim."""
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
NAMED_ENTITIES = frozenset({"PERSON", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"})
"""spaCy's entity labels of named things (not ``NORP``: "American", "Democrats" name no one in particular)."""
COUNTED_ENTITIES = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "CARDINAL"})
"""spaCy's entity labels of numbers, amounts and dates (not ``ORDINAL``: "the second point", "number two")."""
COUNTING_WORDS = frozenset(
    (
        "hundreds thousands millions billions trillions dozens half twice double doubled triple tripled quadrupled "
        "halved percent"
    ).split()
)
"""Words that give an amount without a digit ("millions of jobs", "prices doubled")."""
BELIEF_VERBS = frozenset("think believe feel guess suppose reckon doubt suspect bet imagine wonder".split())
"""Verbs that make their sentence an opinion, whoever is their subject ("critics believe")."""
INTENTION_VERBS = frozenset({"plan", "intend", "hope", "want", "aim", "promise", "wish", "mean", "expect", "vow"})
"""Verbs that, with a first-person subject, make their sentence the writer's plans."""
LIKING_VERBS = frozenset({"like", "love", "hate", "prefer", "admire", "appreciate", "agree", "disagree", "enjoy"})
"""Verbs that, with a first-person subject, make their sentence the writer's opinion ("I like the way...")."""
MODAL_REASONS = {
    "will": "a prediction (will)",
    "shall": "a prediction (shall)",
    "'ll": "a prediction (will)",
    "wo": "a prediction (will)",
    "would": "a hypothesis (would)",
    "'d": "a hypothesis (would)",
    "should": "a recommendation (should)",
    "ought": "a recommendation (ought to)",
    "must": "a recommendation (must)",
    "may": "speculation (may)",
    "might": "speculation (might)",
    "could": "speculation (could)",
}
"""What a modal verb on the main verb makes a sentence ("can" makes nothing but the writer's plans: "Solar panels
can cut bills by 30%" is checked, "We can create jobs" is not)."""
FUTURE_MODALS = frozenset({"will", "shall", "'ll", "wo"})
EVALUATIVE_WORDS = {
    "ADJ": frozenset(
        (
            "amazing awesome awful bad beautiful best better brave brilliant clever crazy dangerous delicious "
            "disappointing disastrous disgraceful disgusting dreadful dumb embarrassing excellent extraordinary "
            "fabulous fair fantastic fine foolish glorious good gorgeous great greatest horrible horrific important "
            "impressive incredible insane lovely magical magnificent marvellous marvelous misguided nice outrageous "
            "pathetic perfect pointless poor remarkable ridiculous right sad scandalous shameful shocking silly "
            "splendid stunning stupid superb terrible terrific tragic ugly unfair unacceptable useless wonderful worse "
            "worst wrong"
        ).split()
    ),
    "NOUN": frozenset(
        ("absurdity betrayal chaos disaster disgrace fantasy joke mess nonsense scandal shame tragedy").split()
    ),
    "ADV": frozenset(
        (
            "absolutely clearly frankly honestly hopefully incredibly luckily obviously sadly seriously surely "
            "thankfully unfortunately"
        ).split()
    ),
}
"""Words that judge rather than state (lemmas, lower case), by their part of speech: "right" judges as an adjective
("the right answer"), not as a noun ("the right to vote")."""
GREETINGS = re.compile(
    r"^(?:\W*(?:well|and|oh|so)\W+)?(?:thanks?|good (?:morning|afternoon|evening|night)|welcome|"
    r"hello|hi|dear|congratulations)\b",
    re.IGNORECASE,
)
"""How thanks, greetings and the like start."""
OPINION_PHRASES = re.compile(
    r"\b(?:in my (?:opinion|view)|to my mind|it seems to me|i'm sure|i am sure)\b", re.IGNORECASE
)
FINITE_VERB_TAGS = frozenset({"VBD", "VBP", "VBZ", "MD"})
"""Penn tags of a verb that makes a clause (a participle alone, as in a heading, does not)."""
MONTHS_AND_DAYS = frozenset(
    (
        "january february march april may june july august september october november december jan feb mar apr jun jul "
        "aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday century centuries decade"
    ).split()
)
_SENTENCE_END = tuple(".!?…")
_CLOSING = "\"')]»”’"
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
        worthy: it states a fact about named things, numbers or dates (see the module's rules).
        reason: why it is, or is not, in a few words ("a question", "names Paris, France; gives 2023").
        checked_as: the claim checked for it when that is not ``text``: its opening pronoun replaced by the name it
            stands for (:mod:`~fever_core.text_check.pronouns`: "She won..." as "Marie Curie won..."); ``None``: the
            sentence as written.
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

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "worthy": self.worthy,
            "reason": self.reason,
            "checked_as": self.checked_as,
        }


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
    """The sentences of a plain text (:func:`~fever_core.text_check.reading.plain_text`), in order, each judged.

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
    opens with "She", "It", "His"... gets the claim checked for it (:mod:`~fever_core.text_check.pronouns`).
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
                worthy, reason = judge(sentence)
                checked_as = antecedents.checked_as(sentence, text[start:end])
                sentences.append(TextSentence(len(sentences), text[start:end], start, end, worthy, reason, checked_as))
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


def _joined_sentences(doc) -> Iterator[Span]:
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
        if sent.text.rstrip().rstrip(_CLOSING).endswith(_SENTENCE_END):
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


def judge(span: Span) -> tuple[bool, str]:
    """Whether a parsed sentence is check-worthy, and why (the module's rules, in order)."""
    words = [t for t in span if not (t.is_punct or t.is_space)]
    text = span.text.strip()
    if text.rstrip(_CLOSING).endswith("?"):
        return False, "a question"
    if len(words) < MIN_WORDS:
        return False, f"a fragment (under {MIN_WORDS} words)"
    if GREETINGS.match(text):
        return False, "thanks or a greeting"
    root = span.root
    verbs = [root, *(t for t in root.conjuncts if t.pos_ in ("VERB", "AUX"))]
    if _imperative(root):
        return False, "an instruction"
    if not any(t.tag_ in FINITE_VERB_TAGS for t in words):
        return False, "a fragment (no verb): a heading or a caption"
    writer = _first_person(root)
    if writer and (
        root.lemma_.lower() in INTENTION_VERBS
        or _modal_word(root) in ("can", "ca")
        or any(_modal_word(verb) in FUTURE_MODALS or _going_to(verb) for verb in verbs)
    ):
        return False, "the writer's own plans"
    if writer and root.lemma_.lower() in LIKING_VERBS:
        return False, f"an opinion ({root.text})"
    belief = next((t.text for t in span if t.lemma_.lower() in BELIEF_VERBS and t.pos_ == "VERB"), None)
    phrase = OPINION_PHRASES.search(text)
    if belief or phrase:
        return False, f"an opinion ({belief or phrase.group()})"
    feeling = next((t for t in root.children if t.dep_ == "acomp" and t.pos_ == "ADJ"), None)
    if writer and feeling is not None:
        return False, f"the writer's feelings ({feeling.text})"
    modal = _modal(verbs)
    if modal:
        return False, modal
    named, counted = _anchors(span)
    judging = next((t for t in words if _judges(t)), None)
    if judging is not None and not counted:
        return False, f"an opinion ({judging.text})"
    if not named and not counted:
        return False, "names no person, place or thing, and gives no number or date"
    parts = [f"{verb} {', '.join(found[:3])}" for verb, found in (("names", named), ("gives", counted)) if found]
    return True, "; ".join(parts)


def _judges(token: Token) -> bool:
    """An evaluative word (:data:`EVALUATIVE_WORDS`), not part of a name ("the great white shark", "Good Friday":
    followed by another adjective or a proper noun)."""
    evaluative = EVALUATIVE_WORDS.get(token.pos_, ())
    if token.lemma_.lower() not in evaluative and token.lower_ not in evaluative:
        return False
    following = token.nbor() if token.i + 1 < len(token.doc) else None
    return following is None or following.pos_ not in ("ADJ", "PROPN")


def _subject(verb: Token) -> Token | None:
    return next((t for t in verb.children if t.dep_ in ("nsubj", "nsubjpass", "expl")), None)


def _first_person(verb: Token) -> bool:
    subject = _subject(verb)
    return subject is not None and subject.lower_ in ("i", "we")


def _imperative(root: Token) -> bool:
    """A main verb in its base form with no subject and no modal ("Get out and vote.", "Don't forget.")."""
    return (
        root.tag_ == "VB"
        and _subject(root) is None
        and not any(t.dep_ == "aux" and t.tag_ == "MD" for t in root.children)
        and not any(t.dep_ == "aux" and t.lower_ == "to" for t in root.children)
    )


def _going_to(verb: Token) -> bool:
    """ "going to" as a future ("We're going to bring it down")."""
    return verb.lemma_ == "go" and verb.tag_ == "VBG" and any(t.dep_ == "xcomp" for t in verb.children)


def _modal_word(verb: Token) -> str:
    """The modal verb on ``verb``, lower case ("" when it has none)."""
    return next((t.lower_ for t in verb.children if t.dep_ == "aux" and t.tag_ == "MD"), "")


def _modal(verbs: list[Token]) -> str:
    """What the main verbs' modal, or a present "need to" / "have to", makes the sentence ("" for a statement)."""
    for verb in verbs:
        reason = MODAL_REASONS.get(_modal_word(verb))
        if reason:
            return reason
        obliged = (
            verb.lemma_ in ("need", "have")
            and verb.tag_ in ("VB", "VBP", "VBZ")
            or (verb.lemma_ == "get" and verb.tag_ == "VBN" and any(t.dep_ == "aux" for t in verb.children))
        )
        if obliged and any(t.dep_ == "xcomp" and any(c.lower_ == "to" for c in t.children) for t in verb.children):
            return f"a recommendation ({verb.text} to)"
        if _going_to(verb):
            return "a prediction (going to)"
    return ""


def _anchors(span: Span) -> tuple[list[str], list[str]]:
    """What a sentence is about that can be looked up: its named things (each run of words in a named entity, or
    tagged a proper noun outside any entity and past the sentence's first word) and its numbers and dates. Not: the person
    spoken to ("Thank you, Jim"), nor "today", "last year" or a bare "one", which can't be looked up."""
    addressed = {t.i for head in span if head.dep_ == "npadvmod" and head.pos_ == "PROPN" for t in head.subtree}
    entities = [e for e in span.ents if not any(t.i in addressed for t in e)]
    in_entities = {t.i for e in span.ents for t in e} | addressed
    in_names = {t.i for e in entities if e.label_ in NAMED_ENTITIES for t in e}
    in_names |= {t.i for t in span if t.pos_ == "PROPN" and t.i != span.start and t.i not in in_entities}
    named: list[str] = []
    for i in sorted(in_names):
        token = span.doc[i]
        if i - 1 in in_names:
            named[-1] += token.nbor(-1).whitespace_ + token.text
        else:
            named.append(token.text)
    counted = [e.text for e in entities if e.label_ in COUNTED_ENTITIES and _definite(e)]
    counted += [
        t.text
        for t in span
        if t.i not in in_entities and (t.like_num and t.lower_ != "one" or t.lower_ in COUNTING_WORDS or t.text == "%")
    ]
    return list(dict.fromkeys(named)), list(dict.fromkeys(counted))


def _definite(entity: Span) -> bool:
    """A number or date entity that pins something down: it has a digit, a number word other than "one", a month,
    a weekday, a century or a decade."""
    return any(
        t.like_num and t.lower_ != "one" or t.lower_ in MONTHS_AND_DAYS or t.lower_ in COUNTING_WORDS for t in entity
    )
