"""When an earlier claim is the claim checked again (:func:`same_claim`):

- its normalised text is the claim's (:func:`normalised_claim`: letter case, spacing, Unicode NFC and the punctuation
  at the end set aside): an exact match; or
- the corpus's encoder (the bi-encoder of its dense index, :mod:`fever_core.retrieval.encoder`) puts the two at a
  cosine of at least :data:`THRESHOLD`, *and* they agree on what a bi-encoder barely sees (:data:`AGREEMENT_CHECKS`):
  the same numbers, dates and ordinals ("45th" is not "44th": :mod:`fever_core.verification.numbers`), no name
  swapped for another ("South India" is not "North India"), the same negation, the same roles for the same two
  parties ("Spain is larger than France." is not "France is larger than Spain.": :func:`roles_agree`), and no thing
  swapped for another in otherwise the same words ("fructose" is not "galactose": :func:`things_agree`).

The threshold and the checks were measured on hand-written paraphrases and same-topic claims that differ in one
fact (``benchmarks/checked_before/``): a wrong "checked before" misleads, so the threshold is set for a precision
of 0.95 at least, and a paraphrase that rewords much is missed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from fever_core.common.nlp import parse
from fever_core.common.text import NEGATION_WORDS, STOP_WORDS, WORD_RE

if TYPE_CHECKING:
    from spacy.tokens import Token

THRESHOLD = 0.80
"""The cosine (of the corpus's encoder, in [-1, 1]) from which an earlier claim that agrees on numbers, names,
negation, roles and things (:data:`AGREEMENT_CHECKS`) counts as the same claim: the lowest at which "checked before"
is right at least 95 times in 100 on half of the benchmark's topics (0.91 before the things check, which let it
fall: "William Shakespeare is the author of Hamlet." is "Shakespeare wrote Hamlet." at 0.89). Measured:
``python -m benchmarks.checked_before`` (``report.txt``)."""
_NOT_SUFFIX = re.compile(r"n['’]t\b")


def normalised_claim(text: str) -> str:
    """A claim's text as exact matching compares it: Unicode NFC, letter case folded, spaces folded, and the
    punctuation (and spaces) at its end left out. ``"  The Nile is LONG!! "`` -> ``"the nile is long"``."""
    text = " ".join(unicodedata.normalize("NFC", text).casefold().split())
    end = len(text)
    while end and (text[end - 1].isspace() or unicodedata.category(text[end - 1]).startswith("P")):
        end -= 1
    return text[:end]


@lru_cache(maxsize=4096)
def _numbers(text: str) -> tuple[tuple[object, ...], ...]:
    """The numbers ``text`` states as a claim does (:func:`~fever_core.verification.numbers.number_mentions`), each as
    the interval it asserts, sorted: "more than 7,000 km" and "over 7,000 kilometres" give the same."""
    from fever_core.verification.numbers import number_mentions

    return tuple(sorted((m.kind, m.low, m.high, m.low_open, m.high_open, m.unit) for m in number_mentions(text)))


def numbers_agree(claim: str, other: str) -> bool:
    """Whether two claims state the same numbers, dates and ordinals ("45th" and "forty-fifth" do; "45th" and "44th",
    or "in 1997" and nothing, do not)."""
    return _numbers(claim) == _numbers(other)


def _names(text: str) -> set[str]:
    """The lower-cased words of ``text`` written with a capital (but function words such as a first "The")."""
    return {w.lower() for w in WORD_RE.findall(text) if w[:1].isupper() and w.lower() not in STOP_WORDS}


def _has_word(word: str, words: set[str]) -> bool:
    """Whether ``words`` hold ``word``, or the same word with up to three letters more or less at its end (plurals,
    possessives: "Rotaviruses" and "rotavirus"), for words of four letters or more."""
    return word in words or (
        len(word) >= 4
        and any(
            len(w) >= 4 and abs(len(w) - len(word)) <= 3 and (w.startswith(word) or word.startswith(w)) for w in words
        )
    )


def names_agree(claim: str, other: str) -> bool:
    """Whether no name of one claim was swapped for another in the other: false when *each* claim has a capitalised
    word the other lacks ("Polish is a West Slavic language." against "... an East Slavic language."). A name only one
    of them has ("Putin" against "Vladimir Putin") is not a swap."""
    claim_words = {w.lower() for w in WORD_RE.findall(claim)}
    other_words = {w.lower() for w in WORD_RE.findall(other)}
    return not (
        any(not _has_word(n, other_words) for n in _names(claim))
        and any(not _has_word(n, claim_words) for n in _names(other))
    )


def _negations(text: str) -> int:
    lowered = text.lower()
    return sum(w in NEGATION_WORDS for w in WORD_RE.findall(lowered)) + len(_NOT_SUFFIX.findall(lowered))


def negation_agrees(claim: str, other: str) -> bool:
    """Whether both claims are negated, or neither ("Amber is not fossilized tree resin." is not "Amber is fossilized
    tree resin."): the parity of their negation words (not, no, never, n't ...)."""
    return _negations(claim) % 2 == _negations(other) % 2


_SECOND_PARTIES = ("dative", "dobj", "nsubjpass")
"""Dependencies of the claim's second party, first found first ("taught *Helen Keller* reading": the dative)."""
_NAME_PARTS = ("compound", "amod", "flat", "nummod", "poss")
"""Words that belong to a party's name ("*white blood* cells", "*Umayyad* Caliphate")."""
_LINKS = frozenset({"than", "of", "into", "to", "on", "from"})
"""Prepositions whose object is the claim's second party when it has no object ("larger *than* Y", "the capital *of*
Y", "flows *into* Y", "feed *on* Y", "evolved *from* Y"); not "with", "in", "at", "by" ("ended *with* the treaty")."""


def _party(token: Token) -> str:
    """A party as lemmas: its head word with the words of its name, lower case ("red blood cell")."""
    return " ".join(
        t.lemma_.lower() for t in token.subtree if t.i == token.i or (t.head.i == token.i and t.dep_ in _NAME_PARTS)
    )


def _roles(text: str) -> tuple[str, str, str] | None:
    """The claim's relation and its two parties, in the order the relation reads them: ``("defeat", "wellington",
    "napoleon")`` for "Wellington defeated Napoleon." and for "Napoleon was defeated by Wellington."; for "X is larger
    than Y" the relation is the comparative with its "more"/"less" ("more populous"); a preposition's object is the
    second party when there is no object (:data:`_LINKS`). ``None`` when the parse shows no subject and second
    party."""
    root = next(iter(parse(text).sents)).root
    relation = next((c for c in root.children if c.dep_ in ("acomp", "attr")), None) if root.lemma_ == "be" else root
    if relation is None:
        return None
    first = second = None
    for child in root.children:
        if child.dep_ == "nsubj":
            first = child
        elif child.dep_ == "agent":
            first = next((c for c in child.children if c.dep_ == "pobj"), first)
    second = next((c for dep in _SECOND_PARTIES for c in root.children if c.dep_ == dep), None)
    for prep in (c for c in relation.children if c.dep_ == "prep" and c.lower_ in _LINKS):
        second = second or next((c for c in prep.children if c.dep_ == "pobj"), None)
    if first is None or second is None:
        return None
    degree = " ".join(
        c.lower_ for c in relation.children if c.dep_ == "advmod" and c.lower_ in ("more", "less", "most", "least")
    )
    return f"{degree} {relation.lemma_.lower()}".strip(), _party(first), _party(second)


def roles_agree(claim: str, other: str) -> bool:
    """Whether the two claims give their parties the same roles: false when both read the same relation with the
    parties swapped ("Spain is larger than France." is not "France is larger than Spain."; "Napoleon was defeated by
    Wellington." is "Wellington defeated Napoleon."). Claims whose relations differ ("larger" against "smaller") or
    whose parties the parse can't find are not judged."""
    ours, theirs = _roles(claim), _roles(other)
    if ours is None or theirs is None or ours[0] != theirs[0] or ours[1] == ours[2]:
        return True
    return not (ours[1] == theirs[2] and ours[2] == theirs[1])


_THING_TAGS = frozenset({"NOUN", "PROPN", "NUM", "ADJ"})
"""The parts of speech of words that name a thing, or say which one (spaCy's universal tags)."""
SWAP_WORDS = 2
"""The most words on each side of the one place two claims differ for it to be a thing swapped for another."""


def _tagged_words(text: str) -> list[tuple[str, str]]:
    """The claim's words, lower case, each with its part of speech; punctuation left out."""
    return [(t.lower_, t.pos_) for t in parse(text) if not (t.is_punct or t.is_space)]


def things_agree(claim: str, other: str) -> bool:
    """Whether neither claim is the other with one thing swapped for another: false when the two differ in one place
    only, by one or two words (:data:`SWAP_WORDS`) on each side, and on each side one of them names a thing (a noun, a
    name, a number, an adjective): "galactose" for "fructose", "the blue whale" for "the sperm whale", "one tenth" for
    "one twelfth". A verb swapped for another is a rewording ("began" for "started", "run by" for "managed by"); so
    is a place differing by more words ("wrote" for "is the author of"), or words only added."""
    ours, theirs = _tagged_words(claim), _tagged_words(other)
    shortest = min(len(ours), len(theirs))
    start = next((i for i in range(shortest) if ours[i][0] != theirs[i][0]), shortest)
    end = next((j for j in range(shortest - start) if ours[-1 - j][0] != theirs[-1 - j][0]), shortest - start)
    ours, theirs = ours[start : len(ours) - end], theirs[start : len(theirs) - end]
    return not all(
        0 < len(words) <= SWAP_WORDS and any(tag in _THING_TAGS for _, tag in words) for words in (ours, theirs)
    )


AGREEMENT_CHECKS: dict[str, Callable[[str, str], bool]] = {
    "numbers": numbers_agree,
    "names": names_agree,
    "negation": negation_agrees,
    "roles": roles_agree,
    "things": things_agree,
}
"""What two claims close in meaning must also agree on to be the same claim, by name (the benchmark measures each)."""


def same_claim(
    claim: str,
    other: str,
    similarity: float,
    threshold: float = THRESHOLD,
    checks: Iterable[str] = tuple(AGREEMENT_CHECKS),
) -> bool:
    """Whether ``other`` is ``claim`` checked before: the same normalised text, or a cosine ``similarity`` of at least
    ``threshold`` with every one of ``checks`` (names of :data:`AGREEMENT_CHECKS`; default all) agreeing."""
    if normalised_claim(claim) == normalised_claim(other):
        return True
    return similarity >= threshold and all(AGREEMENT_CHECKS[name](claim, other) for name in checks)
