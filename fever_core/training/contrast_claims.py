"""Contrastive claims for what people write and the verifier misreads: superlatives and ranks, capitals, roles.

Measured on plain-language claims whose settling sentence the verifier reads (``benchmarks/plain_claims.py``), the
shipped verifier is wrong most often, and most often with the opposite label, on three kinds:

- **superlatives said another way** ("No country in South America is larger than Brazil." against "Brazil is the
  largest country in South America." read REFUTES; "Surabaya is the largest city in Indonesia." against "... the
  second-largest city in Indonesia" read SUPPORTS);
- **capital against another city of the sentence** ("Shanghai is the capital of China." against "Beijing is the
  capital, while Shanghai is the most populous city" read SUPPORTS);
- **swapped roles** ("Saint Jerome commissioned Pope Damasus I." against "... Saint Jerome, who was commissioned by
  Pope Damasus I" read SUPPORTS).

Each generator here reads one parsed sentence of the embedded corpus (spaCy's dependency parse and entities) and
writes claims about it with their labels, true and false paraphrases of the *same* sentence together, so that the
only difference the verifier can learn from is the one that matters. :func:`contrast_pairs` adds, for each claim, a
sentence of the same page that does not hold its words as NOT ENOUGH INFO (the page is on topic; the fact is not
there), so the lesson is not "any sentence about the subject settles the claim".

Records are nli pair-file records (premise ``"Title: sentence"``, as the pipeline reads evidence) with the page's
``split`` (:func:`~fever_core.training.pairs.page_split`, the same 10 % held out as the generated claims): held-out
pages, and so the plain-language yardstick's pages, are never trained on.
Run ``python -m fever_core train generate-claims --contrast --out DIR``.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from fever_core.common.names import base_title
from fever_core.common.text import content_words, premise_text
from fever_core.common.types import NEI, REFUTES, SUPPORTS
from fever_core.training.distractors import PoolSentence
from fever_core.training.pairs import page_split

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token  # Span: in annotations

HELDOUT_PERCENT = 10
"""Share of pages held out, as for the generated claims (the same pages)."""
_IRREGULAR_COMPARATIVES = {"best": "better", "worst": "worse", "most": "more", "least": "less", "farthest": "farther"}
_ORDINAL_WORDS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_PAST_OF_PARTICIPLE = {
    "written": "wrote",
    "drawn": "drew",
    "sung": "sang",
    "taken": "took",
    "given": "gave",
    "begun": "began",
    "chosen": "chose",
    "spoken": "spoke",
    "driven": "drove",
    "shown": "showed",
    "known": "knew",
    "ridden": "rode",
}
"""Irregular past participles whose simple past differs ("written by" -> "wrote"); a participle in "-ed" or one
of the others spaCy tags VBN ("built", "made", "led", "won") is its own past."""
_SYMMETRIC_VERBS = frozenset("border marry neighbour neighbor join connect link share meet accompany".split())
"""Passives whose swap is as true as the sentence ("Uganda borders Rwanda")."""
_ASYMMETRIC_RELATIONS = frozenset(
    (
        "son daughter father mother parent child teacher student pupil mentor founder subsidiary successor predecessor "
        "capital owner"
    ).split()
)
"""Relation nouns for which "X is the N of Y" and "Y is the N of X" can't both hold."""


def _text(tokens: Sequence[Token] | Span) -> str:
    """Tokens as written, each with the space that follows it in the sentence."""
    return "".join(t.text_with_ws for t in tokens).strip(" ,;")


def _phrase(token: Token) -> str:
    """A noun phrase without its asides: appositions, relative clauses and what stands between commas."""
    dropped = {t.i for c in token.children if c.dep_ in ("appos", "relcl", "acl", "punct", "advcl") for t in c.subtree}
    return _text([t for t in token.subtree if t.i not in dropped])


def _subject(token: Token, title: str) -> str | None:
    """The written subject of the clause whose head is ``token`` (a pronoun subject is the page title), or None."""
    for child in token.children:
        if child.dep_ in ("nsubj", "nsubjpass"):
            if child.lower_ in ("it", "he", "she", "they"):
                return base_title(title)
            if child.pos_ in ("PROPN", "NOUN"):
                return _phrase(child)
    return None


def _predicate_noun(noun: Token) -> tuple[Token, Token] | None:
    """``(noun, copula)`` when ``noun`` is what a "be" clause says its subject is (an attribute, or one joined to
    it by "and"), else None."""
    head = noun
    while head.dep_ == "conj":
        head = head.head
    if head.dep_ in ("attr", "appos") and head.head.lemma_ == "be":
        return noun, head.head
    return None


def comparative_of(superlative: str) -> str | None:
    """ "largest" -> "larger", "heaviest" -> "heavier", "best" -> "better"; None for what is not a superlative."""
    word = superlative.lower()
    if word in _IRREGULAR_COMPARATIVES:
        return _IRREGULAR_COMPARATIVES[word]
    return word[:-3] + "er" if word.endswith("est") and len(word) > 4 else None


def superlative_claims(doc: Doc, title: str) -> Iterator[tuple[str, str, str]]:
    """``(claim, label, kind)`` from a sentence that ranks its subject ("Brazil is the largest country in South
    America.", "Surabaya is ... the second-largest city in Indonesia."): the rank said as a negation or a
    comparison, true and false."""
    for token in doc:
        most = [c for c in token.children if c.lower_ == "most" and c.dep_ == "advmod"]
        if not (token.tag_ == "JJS" or (token.pos_ == "ADJ" and most)) or token.dep_ != "amod":
            continue
        noun = token.head
        found = _predicate_noun(noun) if noun.pos_ == "NOUN" else None
        if found is None:
            continue
        copula = found[1]
        subject = _subject(copula, title)
        if subject is None or len(subject.split()) > 6:
            continue
        if subject.startswith("The "):
            subject = "the" + subject[3:]
        ordinal = next((c for c in noun.children if c.lower_ in _ORDINAL_WORDS or c.ent_type_ == "ORDINAL"), None)
        if ordinal is None:  # "second-largest" is one hyphenated compound of the adjective
            ordinal = next((c for c in token.children if c.lower_ in _ORDINAL_WORDS), None)
        rank = (
            1
            if ordinal is None
            else (_ORDINAL_WORDS.index(ordinal.lower_) + 2 if ordinal.lower_ in _ORDINAL_WORDS else None)
        )
        if rank is None:
            continue
        superlative = f"most {token.text}" if most else token.text
        comparative = f"more {token.text}" if most else comparative_of(token.text)
        if comparative is None:
            continue
        modifiers = [
            t for c in noun.children if token.i < c.i < noun.i and c.dep_ in ("amod", "compound") for t in c.subtree
        ]
        scope = [t for c in noun.children if c.dep_ == "prep" and c.i > noun.i for t in c.subtree]
        group = _text([*modifiers, noun, *scope]).rstrip(".")
        if (
            len(group.split()) > 8
            or len(group.split()) < 2
            or any(c.dep_ in ("poss", "conj") for c in noun.children)
            or re.search(r"\b(?:and|or)$", group)
        ):
            continue  # "the country's largest city", "youngest son ... and": no group a claim can name alone
        if rank == 1:
            yield f"No {group} is {comparative} than {subject}.", SUPPORTS, "superlative-negated"
            yield f"No other {group} is {comparative} than {subject}.", SUPPORTS, "superlative-negated"
            yield f"{subject} is the second-{superlative.replace('most ', 'most-')} {group}.", REFUTES, "rank"
            yield f"Another {group} is {comparative} than {subject}.", REFUTES, "superlative-negated"
        else:
            yield f"{subject} is the {superlative} {group}.", REFUTES, "rank"
            yield f"No {group} is {comparative} than {subject}.", REFUTES, "superlative-negated"
            yield f"At least one {group} is {comparative} than {subject}.", SUPPORTS, "superlative-negated"


def _capital_and_place(doc: Doc, title: str) -> tuple[str, str] | None:
    """``(capital, place)`` from "C is the capital (and largest city) of P", "Its capital (and largest city) is C"
    or "P's capital is C"; None when the sentence says neither."""
    for token in doc:
        if (
            token.lemma_ != "capital"
            or token.pos_ != "NOUN"
            or any(
                c.dep_ == "amod"
                and c.lower_
                in (
                    "state",
                    "provincial",
                    "regional",
                    "judicial",
                    "former",
                    "cultural",
                    "financial",
                    "administrative",
                    "historic",
                    "ancient",
                )
                for c in token.children
            )
        ):
            continue
        joined = [token, *(c for c in token.children if c.dep_ == "conj")]
        ofs = [
            g
            for n in joined
            for p in n.children
            if p.dep_ == "prep" and p.lower_ == "of"
            for g in p.children
            if g.dep_ == "pobj"
        ]
        if any(g.ent_type_ not in ("GPE", "LOC") for g in ofs):
            continue  # "the capital of East Java province", "of the region": not the country's
        owner = next((c for c in token.children if c.dep_ == "poss"), None)
        place: str | None
        if ofs:
            place = _phrase(ofs[0])
        elif owner is not None:
            place = (
                base_title(title)
                if owner.lower_ == "its"
                else (owner.text if owner.ent_type_ in ("GPE", "LOC") else None)
            )
        else:
            place = base_title(title)
        if place is None:
            continue
        verb = token.head
        if token.dep_ == "attr" and verb.lemma_ == "be":
            capital = _subject(verb, title)
        elif token.dep_ == "nsubj" and verb.lemma_ == "be":
            capital = next(
                (_text(list(c.subtree)) for c in verb.children if c.dep_ == "attr" and c.pos_ == "PROPN"), None
            )
        else:
            capital = None
        if capital and capital != place and len(capital.split()) <= 4 and not capital.lower().startswith("it"):
            return capital, place
    return None


def capital_claims(doc: Doc, title: str) -> Iterator[tuple[str, str, str]]:
    """``(claim, label, kind)`` from a sentence that names a place's capital: the capital said two ways (SUPPORTS),
    and each other city or place the sentence names as that capital (REFUTES: "Shanghai is the capital of China."
    against "Beijing is the capital, while Shanghai is the most populous city")."""
    found = _capital_and_place(doc, title)
    if found is None:
        return
    capital, place = found
    yield f"The capital of {place} is {capital}.", SUPPORTS, "capital"
    yield f"{capital} is {place}'s capital city.", SUPPORTS, "capital"
    others = {
        e.text
        for e in doc.ents
        if e.label_ == "GPE" and e.text not in (capital, place) and e.text not in capital and place not in e.text
    }
    for other in sorted(others)[:2]:
        yield f"{other} is the capital of {place}.", REFUTES, "capital"


def _past(participle: Token) -> str | None:
    """The simple past of a passive's participle ("commissioned", "written" -> "wrote"), None when unknown."""
    word = participle.lower_
    if word in _PAST_OF_PARTICIPLE:
        return _PAST_OF_PARTICIPLE[word]
    return (
        word
        if word.endswith("ed")
        or participle.tag_ == "VBN"
        and word in ("built", "made", "led", "won", "held", "found", "sold", "bought", "taught", "brought", "fought")
        else None
    )


def role_claims(doc: Doc, title: str) -> Iterator[tuple[str, str, str]]:
    """``(claim, label, kind)`` from a passive with its agent ("The Vulgate was commissioned by Pope Damasus I"),
    said actively the right way round (SUPPORTS) and the wrong way (REFUTES); and from "X is the N of Y" with an
    asymmetric relation N (:data:`_ASYMMETRIC_RELATIONS`), swapped (REFUTES)."""
    for token in doc:
        predicate = _predicate_noun(token.head) if token.tag_ == "VBN" and token.dep_ == "acl" else None
        if token.tag_ == "VBN" and (predicate is not None or any(c.dep_ == "auxpass" for c in token.children)):
            # "Jaws is a 1975 film directed by Steven Spielberg": the film is the subject of "is"
            patient = (
                next((c for c in predicate[1].children if c.dep_ == "nsubj"), None)
                if predicate is not None
                else next((c for c in token.children if c.dep_ == "nsubjpass"), None)
            )
            agent = next((g for a in token.children if a.dep_ == "agent" for g in a.children if g.dep_ == "pobj"), None)
            past = _past(token)
            if patient is None or agent is None or past is None:
                continue
            if patient.lower_ in ("who", "which", "that") and token.dep_ == "relcl" and token.head.pos_ == "PROPN":
                patient_text = _phrase(token.head)
            elif patient.lower_ in ("it", "he", "she", "they"):
                patient_text = base_title(title)
            elif patient.text[:1].isupper():
                patient_text = _phrase(patient)
            else:
                continue
            agent_text = _phrase(agent)
            if token.lemma_ in _SYMMETRIC_VERBS or any(c.dep_ == "conj" for c in agent.children):
                continue  # "bordered by" holds both ways; "founded by A, B and C" names no one agent
            if not agent_text[:1].isupper() or agent.lower_ in ("he", "she", "it", "they", "them", "him", "her"):
                continue
            if len(agent_text.split()) > 5 or len(patient_text.split()) > 5:
                continue
            yield f"{agent_text} {past} {patient_text}.", SUPPORTS, "role"
            yield f"{patient_text} {past} {agent_text}.", REFUTES, "role"
            return
        if token.lemma_ in _ASYMMETRIC_RELATIONS and token.dep_ == "attr" and token.head.lemma_ == "be":
            holder = _subject(token.head, title)
            other = next(
                (
                    _text(list(g.subtree))
                    for p in token.children
                    if p.dep_ == "prep" and p.lower_ == "of"
                    for g in p.children
                    if g.dep_ == "pobj" and g.pos_ == "PROPN"
                ),
                None,
            )
            if holder and other and len(holder.split()) <= 5 and len(other.split()) <= 5 and holder != other:
                yield f"{holder} is the {token.text} of {other}.", SUPPORTS, "role"
                yield f"{other} is the {token.text} of {holder}.", REFUTES, "role"
                return


GENERATORS = (superlative_claims, capital_claims, role_claims)
"""Each reads a parsed sentence and its page title, and yields ``(claim, label, kind)``."""


def _record(title: str, sentence: str, claim: str, label: str, kind: str) -> dict[str, Any]:
    return {
        "premise": premise_text(title, sentence),
        "hypothesis": claim[:1].upper() + claim[1:],
        "label": label,
        "source": f"contrast-{kind}" if label != NEI else f"contrast-{kind}-nei",
        "split": page_split(title, HELDOUT_PERCENT),
        "title": title,
    }


def contrast_pairs(pool: Sequence[PoolSentence], seed: int = 0, batch_size: int = 256) -> list[dict[str, Any]]:
    """The contrastive pairs of every sentence of ``pool`` that a generator reads (see the module's docstring), each
    claim also against a same-page sentence that holds none of the claim's content words beyond the page's title as
    NOT ENOUGH INFO (one per sentence)."""
    from fever_core.common.nlp import load_spacy

    rng = random.Random(seed)
    by_page: dict[str, list[str]] = defaultdict(list)
    for item in pool:
        if "\n" not in item.text:
            by_page[item.title].append(item.text)
    wanted = re.compile(r"\b(?:capital|[a-z]+est|most|by|son|daughter|father|mother|founder|teacher)\b")
    chosen = [(item.title, item.text) for item in pool if "\n" not in item.text and wanted.search(item.text)]
    nlp = load_spacy()
    records = []
    docs = tqdm(
        nlp.pipe((text for _, text in chosen), batch_size=batch_size),
        total=len(chosen),
        desc="parsing sentences",
        unit="sent",
    )
    for (title, text), doc in zip(chosen, docs):
        claims = [claim for generate in GENERATORS for claim in generate(doc, title)]
        if not claims:
            continue
        for claim, label, kind in claims:
            records.append(_record(title, text, claim, label, kind))
        claim, _, kind = rng.choice(claims)
        title_words = set(content_words(title))
        words = set(content_words(claim)) - title_words
        others = [s for s in by_page[title] if s != text and not words & set(content_words(s))]
        if others:
            records.append(_record(title, rng.choice(others), claim, NEI, kind))
    return records
