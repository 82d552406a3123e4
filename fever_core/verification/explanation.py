"""Why a verdict: the card's one plain line, and the reason logs and the command line print, from its Decision.

:func:`explain` words every decider's :class:`~fever_core.verification.deciders.Decision`, naming the deciding
sentence by its page and saying what it says: "The sentence from Eiffel Tower says Paris, France, where the claim
says Berlin (this sentence alone: refutes 0.97)." What a refuting sentence says instead (:func:`says_instead`) comes
from the parses of the claim and the sentence: their numbers of one kind that differ, else their names (spaCy's
entities) of one kind that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fever_core.common.nlp import parse
from fever_core.common.text import WORD_RE, content_words
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence
from fever_core.verification.decision import ClaimPart, DecidedBy, Decision
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.numbers import number_mentions

if TYPE_CHECKING:
    from spacy.tokens import Span

QUOTE_CHARS = 200
"""A quoted sentence in a verdict's reason is cut to this many characters."""
_NUMERIC_ENTITIES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
_PLACES = {"GPE", "LOC", "FAC"}
_KINDS = (_PLACES, {"PERSON", "ORG"}, {"ORG", "PRODUCT", "WORK_OF_ART", "EVENT"})
"""Entity labels that stand for one another when no entity of the sentence has the claim's own label: places; people
and groups; groups and what they make (the small spaCy model tells these apart unreliably)."""


def quote(sentence: EvidenceSentence) -> str:
    """How a verdict's reason names a sentence: its page and its words, ``Munich: "Munich is the capital ..."``."""
    text = sentence.text if len(sentence.text) <= QUOTE_CHARS else sentence.text[: QUOTE_CHARS - 1].rstrip() + "…"
    return f'{sentence.title}: "{text}"'


def explain(decision: Decision, claim: ClaimAnalysis, evidence: Sequence[JudgedSentence]) -> tuple[str, str]:
    """The verdict's reason (one line for logs and the command line: the verdict, the deciding sentence quoted,
    why) and its why (the card's line, in plain words, without the quote: the card quotes the sentence itself)."""
    label, p = decision.label, decision.probabilities[decision.label]
    verb = "Supported" if label == SUPPORTS else "Refuted"
    if decision.undecided:
        why = _undecided(evidence, decision.deciding_evidence)
        return f"Undecided: {why[:1].lower()}{why[1:]}", why
    if not decision.deciding_evidence:  # NOT ENOUGH INFO: a grounded SUPPORTS or REFUTES has a deciding sentence
        if decision.decided_by == DecidedBy.RULE:
            why = (
                _unsettled(claim.names, evidence)
                if any(item.judged for item in evidence) and claim.names
                else "No trustworthy evidence was found in the corpus."
            )
            return why, why
        why = _unsettled(claim.names, evidence)
        return f"The evidence found does not settle the claim (P(NOT ENOUGH INFO) = {p:.2f}). {why}", why
    best = evidence[decision.deciding_evidence[0]]
    sentence, title = best.sentence, best.sentence.title
    if decision.decided_by == DecidedBy.BRIDGE:
        why = _bridge_why(decision, evidence)
        return f"{verb} through {title} (P = {p:.2f}). {why}", why
    if decision.decided_by == DecidedBy.CLAIM_PARTS:
        why = _parts_why(decision, evidence)
        return f"{verb} by its parts (P = {p:.2f}). {why}", why
    numbers = decision.numbers
    if decision.decided_by in (DecidedBy.NUMBER_CHECK, DecidedBy.CONTRAST_CHECK) and numbers is not None:
        if label != SUPPORTS:
            why = f"The sentence from {title} says {numbers.sentence_says}, where the claim says {numbers.claim_says}."
        elif numbers.sentence_says.lower() == numbers.claim_says.lower():
            why = f"The sentence from {title} says {numbers.sentence_says}, as the claim does."
        else:
            why = (
                f"The sentence from {title} says {numbers.sentence_says}, which fits the claim's {numbers.claim_says}."
            )
        return f"{verb} by {quote(sentence)} (P = {numbers.p_settled:.2f}). {why}", why
    stance = best.stance
    assert stance is not None  # a deciding sentence is a judged one
    if label == NEI:
        why = (
            f"The best evidence, from {title}, neither supports nor refutes the claim "
            f"(this sentence alone: not enough info {stance.not_enough_info:.2f})."
        )
        return (
            (
                f"The best evidence, {quote(sentence)}, neither supports nor refutes the claim "
                f"(P(NOT ENOUGH INFO) = {stance.not_enough_info:.2f})."
            ),
            why,
        )
    source = f"{title}, a page the claim names," if decision.decided_by == DecidedBy.PAGE_RULE else title
    own = f"(this sentence alone: {label.lower()} {stance.of(label):.2f})"
    instead = "" if label == SUPPORTS else says_instead(claim, sentence)
    said = "states what the claim says" if label == SUPPORTS else instead or "contradicts the claim"
    why = f"The sentence from {source} {said} {own}."
    if decision.decided_by == DecidedBy.LEARNED:
        return f"{verb} by {quote(sentence)} (P = {p:.2f}). {why}", why
    if decision.decided_by == DecidedBy.PAGE_RULE:
        return f"{verb} by {quote(sentence)}, a sentence of a page the claim names (P = {p:.2f}). {why}", why
    return f"{verb} by {quote(sentence)}. {why}", why


def _bridge_why(decision: Decision, evidence: Sequence[JudgedSentence]) -> str:
    """Why a bridge decides a two-hop claim: the two facts it was read as, and what the chain says of each."""
    chain = evidence[decision.deciding_evidence[0]].sentence
    via = chain.via.from_title if chain.via is not None else ""
    facts = "; ".join(f"“{part.claim}” ({part.label.lower()} {part.probability:.2f})" for part in decision.parts)
    return f"Read through {chain.title}, reached by a link from {via}, the claim states two facts: {facts}."


def _parts_why(decision: Decision, evidence: Sequence[JudgedSentence]) -> str:
    """Why a compound claim's parts decide it: the refuted part and its sentence, or each part and the sentence that
    supports it."""

    def by(part: ClaimPart) -> str:
        assert part.deciding is not None  # a part that settles the claim has its sentence
        title = evidence[part.deciding].sentence.title
        return f"the sentence from {title} ({part.label.lower()} {part.probability:.2f})"

    facts = f"The claim states {len(decision.parts)} facts"
    if decision.label == SUPPORTS:
        return (
            f"{facts}, and a sentence supports each: "
            + "; ".join(f"“{part.claim}” by {by(part)}" for part in decision.parts)
            + "."
        )
    part = next(
        part for part in decision.parts if part.deciding == decision.deciding_evidence[0] and part.label == REFUTES
    )
    return f"{facts}; {by(part)} refutes “{part.claim}”"


def _undecided(evidence: Sequence[JudgedSentence], leaning: Sequence[int]) -> str:
    """Why an undecided verdict: the sentences that lean one way, which no sentence settles on its own."""
    read = [(evidence[i].sentence.title, evidence[i].reading) for i in leaning]
    said = [
        f"the sentence from {title} leans to {reading.label.lower()} ({reading.probability:.2f})"
        for title, reading in read
        if reading is not None  # a leaning sentence is one read as leaning
    ]
    these = "this sentence" if len(leaning) == 1 else f"these {len(leaning)} sentences"
    return f"No sentence settles the claim on its own; read {these} ({'; '.join(said)}). Counted as not enough info."


def _unsettled(names: Sequence[str], evidence: Sequence[JudgedSentence]) -> str:
    """Why a NOT ENOUGH INFO verdict: no sentence about the claim's names, or none that settles it."""
    if not any(item.bears_on_claim for item in evidence):
        return f"No evidence found mentions {' or '.join(names[:3])}: the corpus may not have a page about it."
    return f"The sentences found about {' and '.join(names[:3])} neither state nor contradict what the claim says."


def _words(text: str) -> set[str]:
    return set(WORD_RE.findall(text.lower()))


def _joined(phrases: Sequence[str]) -> str:
    """The first two of ``phrases`` (without repeats), joined with "and"."""
    return " and ".join(list(dict.fromkeys(phrases))[:2])


def says_instead(claim: ClaimAnalysis, sentence: EvidenceSentence) -> str:
    """What a refuting sentence says where the claim says something else: ``"says 1975, where the claim says 1980"``,
    ``"says Paris, France, where the claim says Berlin"``; "" when they differ in no number and no name of one kind.

    Numbers first: each number of the claim that is not part of the page's name, against the nearest comparable
    one of the sentence (:meth:`~fever_core.verification.numbers.NumberMention.comparable`) that it does not hold.
    Then names: each named entity of the claim whose words the sentence (with its page title) lacks, against the
    sentence's entities of the same kind (:data:`_KINDS`: a place for a place) whose words neither the claim nor the
    page's title has; a place written after another with a comma ("Paris, France") is quoted with it.
    """
    said, instead = [], []
    stated = None
    subject, claimed = _words(sentence.title), _words(claim.claim)
    mentioned = subject | _words(sentence.text)
    for number in number_mentions(claim.claim):
        if _words(number.text) <= subject:
            continue  # part of the page's name ("Blade Runner 2049")
        stated = number_mentions(sentence.text, as_written=True) if stated is None else stated
        others = [m for m in stated if number.comparable(m)]
        if others and not any(number.contains(m) for m in others):
            said.append(number.text)
            instead.append(min(others, key=lambda m: abs(m.reference - number.reference)).text)
    if said:
        return f"says {_joined(instead)}, where the claim says {_joined(said)}"
    names = [
        e
        for e in parse(sentence.text).ents
        if e.label_ not in _NUMERIC_ENTITIES and not _name_words(e) <= claimed | subject
    ]
    for entity in claim.doc.ents:
        if entity.label_ in _NUMERIC_ENTITIES or _name_words(entity) <= mentioned:
            continue
        alike = [e for e in names if e.label_ == entity.label_] or [
            e for e in names if any({e.label_, entity.label_} <= kind for kind in _KINDS)
        ]
        if alike:
            said.append(_bare(entity))
            instead += _phrases(alike, sentence.text)
    if said:
        return f"says {_joined(instead)}, where the claim says {_joined(said)}"
    return ""


def _bare(span: Span) -> str:
    """An entity's name without the lower-case words and punctuation spaCy took in before it and a possessive or
    punctuation after it ("the Champ de Mars" -> "Champ de Mars", "stars Ryan Gosling" -> "Ryan Gosling", "Ian
    Fleming's" -> "Ian Fleming")."""
    start, end = span.start, span.end
    while end - start > 1 and (span.doc[end - 1].tag_ == "POS" or span.doc[end - 1].is_punct):
        end -= 1
    while end - start > 1 and (span.doc[start].text.islower() or span.doc[start].is_punct):
        start += 1
    return str(span.doc[start:end].text)


def _name_words(span: Span) -> set[str]:
    """The words of an entity's name that say something (:func:`_bare`, without stop words)."""
    return set(content_words(_bare(span)))


def _phrases(entities: Sequence[Span], text: str) -> list[str]:
    """The entities' names; a place written after another with a comma between is one with it ("Paris, France")."""
    phrases: list[str] = []
    previous: Span | None = None
    for entity in sorted(entities, key=lambda e: e.start_char):
        if (
            previous is not None
            and text[previous.end_char : entity.start_char] in (", ", ",")
            and {previous.label_, entity.label_} <= _PLACES
            and ", " not in phrases[-1]
        ):
            phrases[-1] += ", " + _bare(entity)
        else:
            phrases.append(_bare(entity))
        previous = entity
    return phrases
