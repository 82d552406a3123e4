"""The contrast check: a claim's comparative, direction or order word against its opposite in the evidence.

"A boat is generally bigger than a ship." against "A boat is ... generally smaller than a ship": the verifier reads
the two as alike (they share every word but one) and supports the claim. As the number check does for numbers
(:mod:`~fever_core.verification.number_check`), the contrast check rewrites the claim with the sentence's word in
place of the claim's (its opposite, from the closed list :data:`OPPOSITES`: longer/shorter, north/south,
before/after, larger/smaller ...) and lets the verifier read the rewritten claim against the sentence. Where it is
sure (P(SUPPORTS) at least :data:`~fever_core.verification.number_check.SETTLED`) the sentence states the claim's
fact with the opposite word, and the claim is refuted: "The sentence from Boat says smaller, where the claim says
bigger." A sentence that also holds the claim's own word is tried only where its opposite compares what the claim
compares ("south of Saint Vincent and ... north of Trinidad" for "north of Saint Vincent"), and the check never
supports a claim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from fever_core.common.text import content_words
from fever_core.common.types import REFUTES
from fever_core.verification.number_check import SETTLED, NumberCheck

_PAIRS = (
    ("longer", "shorter"),
    ("longest", "shortest"),
    ("larger", "smaller"),
    ("largest", "smallest"),
    ("bigger", "smaller"),
    ("biggest", "smallest"),
    ("taller", "shorter"),
    ("tallest", "shortest"),
    ("higher", "lower"),
    ("highest", "lowest"),
    ("older", "younger"),
    ("oldest", "youngest"),
    ("heavier", "lighter"),
    ("heaviest", "lightest"),
    ("wider", "narrower"),
    ("widest", "narrowest"),
    ("faster", "slower"),
    ("fastest", "slowest"),
    ("hotter", "colder"),
    ("hottest", "coldest"),
    ("warmer", "cooler"),
    ("earlier", "later"),
    ("before", "after"),
    ("most", "least"),
    ("above", "below"),
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("rise", "fall"),
    ("north", "south"),
    ("east", "west"),
    ("northern", "southern"),
    ("eastern", "western"),
    ("northernmost", "southernmost"),
    ("easternmost", "westernmost"),
    ("northward", "southward"),
    ("eastward", "westward"),
    ("northeast", "southwest"),
    ("northwest", "southeast"),
    ("upstream", "downstream"),
    ("maximum", "minimum"),
)
OPPOSITES: dict[str, tuple[str, ...]] = {
    word: tuple(b if a == word else a for a, b in _PAIRS if word in (a, b)) for pair in _PAIRS for word in pair
}
"""Each contrast word and its opposites (lower case): comparatives and superlatives, directions, order in time
("shorter": "longer" and "taller"). Numbers and ordinals ("more than", "the first") are the number check's. A closed
list, so the rewritten claim says exactly the other thing."""
MAX_CONTRASTS = 2
"""The most contrast words of a claim tried (the first ones)."""
COMPARED_WORDS = 6
"""How many words after a contrast word are read as what it compares with (:func:`_compared_alike`)."""
CONVERSE_WORDS = 12
"""How many words after a sentence's opposite word are looked at for the claim's subject (:func:`_converse`)."""
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class ContrastCandidate:
    """A claim's contrast word tried against its opposite in one evidence sentence.

    Attributes:
        evidence: the sentence's index in the list the caller gave.
        claim_word, sentence_word: the claim's word as written and its opposite as the sentence writes it.
        rewritten_claim: the claim with the opposite in the place of its word.
    """

    evidence: int
    claim_word: str
    sentence_word: str
    rewritten_claim: str


def contrast_trial(claim: str, sentences: Sequence[str]) -> list[ContrastCandidate]:
    """Each contrast word of ``claim`` (at most :data:`MAX_CONTRASTS`) against each sentence that holds its opposite
    and not the word itself (``sentences``: their own words), as the claim rewritten with the opposite. A sentence
    that says the converse is not tried: where what the claim puts before its word (its subject) follows the
    sentence's opposite ("The small intestine is longer than the large intestine." against "... it is shorter than
    the small intestine"), the two agree."""
    words = [m for m in _WORD.finditer(claim) if m.group().lower() in OPPOSITES][:MAX_CONTRASTS]
    candidates = []
    for index, sentence in enumerate(sentences if words else ()):
        said = [w.lower() for w in _WORD.findall(sentence)]
        present = set(said)
        for match in words:
            word = match.group()
            for opposite in OPPOSITES[word.lower()]:
                if (
                    opposite in present
                    and _compared_alike(content_words(claim[match.end() :]), said, word.lower(), opposite)
                    and not _converse(content_words(claim[: match.start()]), said, opposite)
                ):
                    written = opposite.capitalize() if word[0].isupper() else opposite
                    rewritten = claim[: match.start()] + written + claim[match.end() :]
                    candidates.append(ContrastCandidate(index, word, written, rewritten))
    return candidates


def _compared_alike(compared: Sequence[str], said: Sequence[str], word: str, opposite: str) -> bool:
    """Whether the sentence (its words ``said``) compares with its ``opposite`` what the claim compares with its
    ``word`` (``compared``: the claim's words after it): always when the sentence lacks ``word``; else when more of
    ``compared`` follows the opposite than follows the word ("longer than that of visible light but shorter than
    microwaves" compares with visible light by "longer")."""
    if word not in said:
        return True

    def following(target: str) -> int:
        return max(
            len(set(compared) & set(said[i + 1 : i + 1 + COMPARED_WORDS])) for i, w in enumerate(said) if w == target
        )

    return following(opposite) > following(word)


def _converse(subject: Sequence[str], said: Sequence[str], opposite: str) -> bool:
    """Whether a word of the claim's ``subject`` follows the ``opposite`` in the sentence's words ``said`` (within
    :data:`CONVERSE_WORDS`): the sentence then says the converse of the claim's relation, e.g. "B is shorter than
    A" for "A is longer than B"."""
    start = said.index(opposite) + 1
    return bool(set(subject) & set(said[start : start + CONVERSE_WORDS]))


def settle_contrast(
    candidates: Sequence[ContrastCandidate], p_supports: Sequence[float], settled: float = SETTLED
) -> NumberCheck | None:
    """REFUTES where the verifier is sure (P(SUPPORTS) at least ``settled``) that a sentence states the claim with
    its contrast word's opposite (the best-ranked such sentence, then the surest reading), else ``None``."""
    sure = [(c.evidence, -p, c) for c, p in zip(candidates, p_supports) if p >= settled]
    if not sure:
        return None
    _, minus_p, c = min(sure, key=lambda item: item[:2])
    return NumberCheck(REFUTES, c.evidence, float(-minus_p), c.claim_word, c.sentence_word, c.rewritten_claim)
