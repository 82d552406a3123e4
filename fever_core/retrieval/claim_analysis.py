"""Claim analysis: the claim parsed once, and the mentions in it that document retrieval looks up.

spaCy entities and noun chunks, runs of capitalised words, and the prefix before the first
lower-case verb (Columbia's trick for titles like "Soul Food"); dates and numbers are kept aside.
The verdict reads the same analysis: the claim's names (which evidence bears on it) and its parse (its numbers).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fever_core.common.names import claim_names
from fever_core.common.nlp import parse
from fever_core.common.records import record_dict

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_NUMERIC_ENTS = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
_CONNECTORS = {"of", "the", "and", "de", "la", "von", "van", "du", "del", "&", "-", "'s", ":"}


@dataclass
class ClaimAnalysis:
    """What claim analysis found; every field lists strings in claim order, without duplicates."""

    claim: str
    entities: list[str] = field(default_factory=list)
    noun_chunks: list[str] = field(default_factory=list)
    capitalised: list[str] = field(default_factory=list)
    prefix: str = ""
    numbers: list[str] = field(default_factory=list)

    @property
    def doc(self) -> Doc:
        """The claim's spaCy parse (:func:`~fever_core.common.nlp.parse`: made once, by :func:`analyse_claim`)."""
        return parse(self.claim)

    @property
    def names(self) -> list[str]:
        """What the claim is about, as it writes them (:func:`~fever_core.common.names.claim_names`)."""
        return claim_names(self.claim)

    @property
    def mentions(self) -> list[str]:
        """Candidate page names: entities, capitalised spans, the prefix, then noun chunks."""
        out: list[str] = []
        for text in [*self.entities, *self.capitalised, self.prefix, *self.noun_chunks]:
            if text and text not in out:
                out.append(text)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every field, by its name (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)


def _unique(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        item = item.strip(" ,.;:!?\"'")
        if item and item not in out:
            out.append(item)
    return out


def analyse_claim(claim: str) -> ClaimAnalysis:
    """Run spaCy over the claim and collect its mentions (see :class:`ClaimAnalysis`)."""
    doc = parse(claim)
    entities = [e.text for e in doc.ents if e.label_ not in _NUMERIC_ENTS]
    numbers = [e.text for e in doc.ents if e.label_ in _NUMERIC_ENTS]
    chunks = []
    for chunk in doc.noun_chunks:
        tokens = [t for t in chunk if t.dep_ != "det" and not t.is_punct]
        if tokens:
            chunks.append(doc[tokens[0].i : tokens[-1].i + 1].text)
    capitalised: list[list[Token]] = []
    run: list[Token] = []
    for token in doc:
        if token.text[:1].isupper() or (token.text[:1].isdigit() and run) or run and token.lower_ in _CONNECTORS:
            run.append(token)
        else:
            if run:
                capitalised.append(run)
            run = []
    if run:
        capitalised.append(run)
    spans = []
    for tokens in capitalised:
        while tokens and tokens[-1].lower_ in _CONNECTORS:
            tokens = tokens[:-1]
        if tokens:
            spans.append(doc[tokens[0].i : tokens[-1].i + 1].text)
    prefix = ""
    for token in doc:
        if token.pos_ in {"VERB", "AUX"} and token.text.islower() and token.i > 0:
            prefix = doc[: token.i].text
            break
    return ClaimAnalysis(
        claim=claim,
        entities=_unique(entities),
        noun_chunks=_unique(chunks),
        capitalised=_unique(spans),
        prefix=prefix.strip(),
        numbers=_unique(numbers),
    )
