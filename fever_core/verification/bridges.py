"""Two-hop claims bridged: a claim that reaches a second page through a description, checked as the two facts it states.

"The Hobbit was written by an author born in South Africa." names neither J. R. R. Tolkien nor his page; the two-hop
retrieval follows the link of The Hobbit's sentence to Tolkien's page (:mod:`~fever_core.retrieval.two_hop`). Read
whole against that chain, the claim asks the verifier to resolve the description itself. :func:`bridge_trial` instead
takes each description in the claim (a noun phrase headed by a common noun: "an author born in South Africa", "the
world's most populous country", "a country whose capital is Apia") and each page a second-hop sentence was reached
through (the *bridge*), and states the claim as two facts:

- the claim with the bridge in the description's place: "The Hobbit was written by J. R. R. Tolkien.";
- the bridge as the description: "J. R. R. Tolkien is an author born in South Africa."

The verifier reads both against the chain (the first-hop sentence and the bridge's sentence); the caller settles them
(:func:`~fever_core.verification.deciders.bridge_decision`): SUPPORTS when it is sure of both, REFUTES when it is
sure of one and sure the other is refuted. A bridge the claim names, or a description that holds a name of the claim,
is not tried.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from fever_core.common.nlp import parse
from fever_core.verification.evidence import JudgedSentence

MAX_DESCRIPTIONS = 2
"""The most descriptions of a claim tried (the last ones: a description most often ends the claim)."""
MAX_BRIDGES = 3
"""The most bridges tried: the pages of the best-ranked second-hop sentences, one sentence each."""


@dataclass(frozen=True)
class BridgeCandidate:
    """A claim stated as two facts through one bridge.

    Attributes:
        evidence: the index of the second-hop sentence (read in its chain) in the evidence.
        bridge: the title of the page the description is taken to name.
        description: the claim's words that describe it ("an author born in South Africa").
        linked_claim: the claim with the bridge in the description's place.
        described_claim: the bridge stated as the description ("J. R. R. Tolkien is an author born in South Africa.").
        definite: the description names one thing ("the world's most populous country", "Peru's eastern
            neighbour"), not one of several ("a country whose capital is Apia"): only then does the bridge's fitting
            it refute a claim that puts something else in its place.
    """

    evidence: int
    bridge: str
    description: str
    linked_claim: str
    described_claim: str
    definite: bool = False


def descriptions(claim: str) -> list[tuple[int, int]]:
    """The character spans of the claim's descriptions: noun phrases headed by a common noun with a modifier (an
    adjective, a possessive, a prepositional phrase or a relative clause), with all their words; at most
    :data:`MAX_DESCRIPTIONS`, the last ones (a description inside another, "a country ..." in "the capital of a
    country ...", comes after it)."""
    doc = parse(claim)
    spans = []
    for chunk in doc.noun_chunks:
        root = chunk.root
        if root.pos_ != "NOUN" or root.dep_ in {"npadvmod", "compound"}:
            continue
        modifiers = [t for t in root.children if t.dep_ in {"amod", "poss", "prep", "relcl", "acl", "nummod"}]
        if not modifiers:
            continue
        tokens = list(root.subtree)
        start, end = tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)
        if tokens[0].lower_ in {"its", "his", "her", "their"}:
            continue
        spans.append((start, end))
    return sorted(spans)[-MAX_DESCRIPTIONS:]


def bridge_trial(claim: str, evidence: Sequence[JudgedSentence]) -> list[BridgeCandidate]:
    """Each description of ``claim`` (:func:`descriptions`) through each bridge (the page of a judged second-hop
    sentence reached by a link, at most :data:`MAX_BRIDGES`, the claim not naming it), as the two facts to read."""
    bridges: dict[str, int] = {}
    for i, item in enumerate(evidence):
        sentence = item.sentence
        if (
            item.judged
            and sentence.hop == 2
            and sentence.via is not None
            and sentence.title not in bridges
            and not names(claim, sentence.title)
        ):
            bridges[sentence.title] = i
    candidates = []
    for start, end in descriptions(claim) if bridges else ():
        description = claim[start:end]
        for bridge, index in list(bridges.items())[:MAX_BRIDGES]:
            linked = claim[:start] + bridge + claim[end:]
            described = f"{bridge} is {_lower_first(description)}."
            definite = description.split(" ", 1)[0].lower() not in {"a", "an", "one", "some", "any"}
            candidates.append(BridgeCandidate(index, bridge, description, linked, described, definite))
    return candidates


def names(claim: str, title: str) -> bool:
    """Whether ``claim`` names the page ``title`` itself: its words stand in the claim, not as part of a longer name
    ("Samoa" in "American Samoa lies near Samoa." but not in "American Samoa lies near a country ...")."""
    for match in re.finditer(rf"(?<!\w){re.escape(title)}(?!\w)", claim):
        before, after = claim[: match.start()].split()[-1:], claim[match.end() :].split()[:1]
        if not any(word[:1].isupper() for word in before + after):
            return True
    return False


def _lower_first(text: str) -> str:
    """A description that opened the claim ("The city that ...") as it reads after "is" ("the city that ...")."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first in {"The", "A", "An", "One"} else text
