"""Which sentences of a text are worth checking, and why: a transparent scorer on spaCy's parse.

:func:`judge` reads a parsed sentence (:func:`~fever_core.text_check.sentences.find_sentences` splits the text). A
sentence is **check-worthy** when it states something as a fact about named things (people, places, organisations,
works, events), numbers or dates: what the checker can look up. It is not when it is

- a question (it ends with ``?``);
- a fragment: under :data:`MIN_WORDS` words, or no verb that makes a clause (a heading, a caption);
- thanks or a greeting;
- an instruction: an imperative ("Sign the petition.", "Let me tell you a story.");
- the writer's own plans: a first-person subject with a future, an intention or a "can" ("We will cut taxes.", "I
  hope to start next spring.", "We can create jobs.");
- an opinion: the writer liking something ("I like the way..."), a verb of belief whoever believes ("I think",
  "critics believe"), the writer's feelings ("I'm proud of..."), or evaluative words ("wonderful", "a disgrace",
  "honestly", "never looked better") with no number or date to check;
- a recommendation, a prediction, a hypothesis or speculation: ``should``, ``must``, ``need to``, ``have got to``,
  ``will``, ``going to``, ``would``, ``may``, ``might``, ``could`` on its main verb; but where the sentence joins a
  fact to it ("Shakespeare wrote Hamlet, and the festival will stage it next summer."), the fact alone is worth
  checking, and is what is checked (:attr:`Judgement.part`: "Shakespeare wrote Hamlet.");
- an opinion reported: someone said, told or claimed something evaluative, with no number or date of its own ("The
  mayor said on Monday that the city had never looked better.": the day is when it was said, not what);
- about nothing named, counted or dated ("Things have changed a lot.", "He voted against it.").

The rules are checked in that order and the first that holds is the reason given; a check-worthy sentence's reason
names what it is about. How well this agrees with people: ``python -m benchmarks.check_worthiness``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

MIN_WORDS = 4
"""Fewer words than this (punctuation aside) is a fragment, not a claim."""
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
COMPARATIVE_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})
"""Penn tags of comparatives and superlatives."""
FINITE_VERB_TAGS = frozenset({"VBD", "VBP", "VBZ", "MD"})
"""Penn tags of a verb that makes a clause (a participle alone, as in a heading, does not)."""
MONTHS_AND_DAYS = frozenset(
    (
        "january february march april may june july august september october november december jan feb mar apr jun jul "
        "aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday century centuries decade"
    ).split()
)
SPEECH_VERBS = frozenset(
    "say tell claim add insist argue declare state announce boast admit remark reply explain note call describe".split()
)
"""Verbs that report what someone said (lemmas): what they report is checked for an opinion of its own."""
REPORTED_DEPS = frozenset({"ccomp", "xcomp", "oprd"})
"""Dependency labels of what a verb of :data:`SPEECH_VERBS` reports ("said [that the city...]", "called it [a
disgrace]")."""
CLOSING_MARKS = "\"')]»”’"
"""Marks that may close a sentence after its end mark (a quote's, a bracket's)."""
_JOINING = frozenset({"cc", "punct", "preconj"})
"""Dependency labels of what joins two clauses (", and", ";"), left out with the clause it joins."""


@dataclass(frozen=True)
class Judgement:
    """Whether a sentence is worth checking, why, and the part of it checked.

    Attributes:
        worthy: it states a fact about named things, numbers or dates (the module's rules).
        reason: why it is, or is not, in a few words ("a question", "names Paris, France; gives 2023").
        part: the fact of a sentence that joins it to a prediction, a recommendation or speculation, which alone is
            checked ("Shakespeare wrote Hamlet" of "Shakespeare wrote Hamlet, and the festival will stage it next
            summer."); ``None``: the whole sentence is.
    """

    worthy: bool
    reason: str
    part: Span | None = None

    @property
    def part_claim(self) -> str | None:
        """The part as a claim to check, ending with a full stop ("Shakespeare wrote Hamlet."); ``None`` without one."""
        return None if self.part is None else self.part.text.rstrip() + "."


def judge(span: Span) -> Judgement:
    """Whether a parsed sentence is check-worthy, why, and the part checked when not the whole (the module's rules,
    in order)."""
    words = [t for t in span if not (t.is_punct or t.is_space)]
    text = span.text.strip()
    if text.rstrip(CLOSING_MARKS).endswith("?"):
        return Judgement(False, "a question")
    if len(words) < MIN_WORDS:
        return Judgement(False, f"a fragment (under {MIN_WORDS} words)")
    if GREETINGS.match(text):
        return Judgement(False, "thanks or a greeting")
    root = span.root
    verbs = _clause_verbs(root)
    if _imperative(root):
        return Judgement(False, "an instruction")
    if not any(t.tag_ in FINITE_VERB_TAGS for t in words):
        return Judgement(False, "a fragment (no verb): a heading or a caption")
    writer = _first_person(root)
    if writer and (
        root.lemma_.lower() in INTENTION_VERBS
        or _modal_word(root) in ("can", "ca")
        or any(_modal_word(verb) in FUTURE_MODALS or _going_to(verb) for verb in verbs)
    ):
        return Judgement(False, "the writer's own plans")
    if writer and root.lemma_.lower() in LIKING_VERBS:
        return Judgement(False, f"an opinion ({root.text})")
    belief = next((t.text for t in span if t.lemma_.lower() in BELIEF_VERBS and t.pos_ == "VERB"), None)
    phrase = OPINION_PHRASES.search(text)
    opinion = belief or (phrase.group() if phrase else "")
    if opinion:
        return Judgement(False, f"an opinion ({opinion})")
    feeling = next((t for t in root.children if t.dep_ == "acomp" and t.pos_ == "ADJ"), None)
    if writer and feeling is not None:
        return Judgement(False, f"the writer's feelings ({feeling.text})")
    modal = _modal(verbs)
    if not modal:
        return _statement(span)
    part = _fact_part(span, verbs)
    fact = _statement(part) if part is not None else None
    if fact is None or not fact.worthy:
        return Judgement(False, modal)
    return Judgement(True, f"{fact.reason}; checked without {modal}", part)


def _statement(span: Span) -> Judgement:
    """A statement's last rules: an opinion reported, or evaluative words with nothing counted; else what it names
    and counts, or that it names and counts nothing."""
    words = [t for t in span if not (t.is_punct or t.is_space)]
    reported = _reported_opinion(span)
    if reported:
        return Judgement(False, reported)
    named, counted = _anchors(span)
    judging = next((t for t in words if _judges(t)), None)
    if judging is not None and not counted:
        return Judgement(False, f"an opinion ({judging.text})")
    if not named and not counted:
        return Judgement(False, "names no person, place or thing, and gives no number or date")
    parts = [f"{verb} {', '.join(found[:3])}" for verb, found in (("names", named), ("gives", counted)) if found]
    return Judgement(True, "; ".join(parts))


def _clause_verbs(root: Token) -> list[Token]:
    """The main verb and the verbs coordinated with it ("wrote ... and will stage"), in text order."""
    return [root, *(t for t in root.conjuncts if t.pos_ in ("VERB", "AUX"))]


def _fact_part(span: Span, verbs: list[Token]) -> Span | None:
    """The fact of a sentence whose coordinated clauses are facts, then predictions or the like ("Shakespeare wrote
    Hamlet, and the festival will stage it next summer."), or the other way round ("The festival will stage Hamlet,
    and Shakespeare wrote it in 1600."): the fact clauses without what joins them to the rest; ``None`` when every
    clause has a modal, or they are mixed otherwise, or the fact clause that comes second has no subject of its own
    or a pronoun as its subject (it could not be checked alone)."""
    ordered = sorted(verbs, key=lambda verb: verb.i)
    modal = [bool(_modal([verb])) for verb in ordered]
    cut = next((i for i in range(1, len(ordered)) if modal[i] != modal[i - 1]), None)
    if cut is None or modal[cut:] != [modal[cut]] * (len(ordered) - cut):
        return None  # every clause alike, or facts and predictions taking turns
    if modal[cut]:  # facts first: up to the first prediction's clause, without its ", and"
        end = ordered[cut].left_edge.i
        while end > span.start and span.doc[end - 1].dep_ in _JOINING:
            end -= 1
        return span.doc[span.start : end] if end > span.start else None
    first = ordered[cut]
    subject = _subject(first)
    if subject is None or subject.pos_ == "PRON" or first.left_edge.i <= span.start:
        return None
    end = span.end
    while end > first.left_edge.i and span.doc[end - 1].is_punct:
        end -= 1
    return span.doc[first.left_edge.i : end]


def _reported_opinion(span: Span) -> str:
    """ "a reported opinion (said: better)" when a verb of :data:`SPEECH_VERBS` reports something evaluative with no
    number or date of its own (:func:`_judges`, :func:`_anchors`); "" otherwise."""
    for verb in _clause_verbs(span.root):
        if verb.lemma_.lower() not in SPEECH_VERBS:
            continue
        for reported in (child for child in verb.children if child.dep_ in REPORTED_DEPS):
            said = span.doc[reported.left_edge.i : reported.right_edge.i + 1]
            judging = next((t for t in said if _judges(t)), None)
            if judging is not None and not _anchors(said)[1]:
                return f"a reported opinion ({verb.text}: {judging.text})"
    return ""


def _judges(token: Token) -> bool:
    """An evaluative word (:data:`EVALUATIVE_WORDS`; "better", "worst" whatever spaCy tags them: "never looked
    better" reads "better" as the adverb of "well"), not part of a name ("the great white shark", "Good Friday":
    followed by another adjective or a proper noun)."""
    evaluative = EVALUATIVE_WORDS.get(token.pos_, ())
    comparative = token.tag_ in COMPARATIVE_TAGS and token.lower_ in EVALUATIVE_WORDS["ADJ"]
    if token.lemma_.lower() not in evaluative and token.lower_ not in evaluative and not comparative:
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
