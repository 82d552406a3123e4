"""A judged evidence sentence: the one form an evidence sentence has from the verifier to the verdict card.

:func:`chain_premise` is what the verifier reads for a sentence; :class:`JudgedSentence` is the sentence with that
premise, the verifier's stance, and whether it counts (trusted, bears on the claim). The deciders
(:mod:`~fever_core.verification.deciders`), the learned verdict's features (:mod:`~fever_core.verification.features`),
the number check, the explanation, the check's result, its JSON, the verdict's training runs and the app all read
this one type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fever_core.common.records import IN_PLACE, JSON_NAME, record_dict
from fever_core.common.text import premise_text
from fever_core.common.types import LABELS, Stance
from fever_core.retrieval.results import EvidenceSentence


def chain_premise(sentence: EvidenceSentence) -> str:
    """A second-hop sentence read after the first-hop sentence whose link led to it, as one premise
    (``"Kraftwerk: Kraftwerk was formed in Düsseldorf. Düsseldorf: Düsseldorf is the capital of ..."``):
    a claim that needs both is settled by neither alone. Any other sentence is read on its own
    (``"Title: sentence"``)."""
    own = premise_text(sentence.title, sentence.text)
    via = sentence.via
    if sentence.hop != 2 or via is None or not via.from_text:
        return own
    return f"{premise_text(via.from_title, via.from_text)} {own}"


@dataclass(frozen=True)
class Reading:
    """How one judged sentence counted in its claim's verdict: the one stance the card, the evidence table and the
    check's JSON show for it, so that none of them can say otherwise than the verdict read.

    Attributes:
        label: what the sentence says of the claim as the verdict read it: SUPPORTS, REFUTES or NOT ENOUGH INFO
            (its stance under the deciding rule: the likeliest label for the learned verdict, the NOT ENOUGH INFO
            threshold for the best-sentence rule; the number check's label for the sentence whose number decided).
        probability: that label's probability, in [0, 1].
        claim_read: the claim as the verifier read it against this sentence when that is not the claim as typed:
            the number check's rewritten claim ("Barack Obama was the 44th president of the United States."), or the
            part of a compound claim the sentence decided; "" when it read the claim as typed.
    """

    label: str
    probability: float
    claim_read: str = ""

    @classmethod
    def of_stance(cls, stance: Stance, label: str) -> Reading:
        """``stance`` read as ``label`` (with that label's probability)."""
        return cls(label, stance.of(label))


@dataclass
class JudgedSentence:
    """An evidence sentence as the verifier judged it.

    Attributes:
        sentence: the sentence: its page, line and words, its selection score, its hop and the link that led to it.
        premise: the text the verifier read for it: ``"Title: sentence"``, or for a second-hop sentence the chain
            (:func:`chain_premise`).
        stance: the verifier's stance; ``None`` when it was not judged (not trusted; in the one-premise mode, every
            sentence but the first, on which the joined premise's stance is reported).
        trusted: its selection score reached the minimum evidence score (the one-premise mode trusts every one).
        bears_on_claim: read with its page title and its chain, it mentions one of the claim's names
            (:func:`~fever_core.common.names.mentions_a_name`): only such a sentence is used by a verdict or
            decides it. The one-premise mode's gold evidence always bears on the claim.
        reading: how it counted in the verdict (:class:`Reading`), set once the verdict is decided; ``None`` when
            it was not judged.
    """

    sentence: EvidenceSentence = field(metadata={JSON_NAME: IN_PLACE})
    premise: str
    stance: Stance | None
    trusted: bool
    bears_on_claim: bool = True
    reading: Reading | None = None

    @property
    def judged(self) -> bool:
        return self.stance is not None

    @property
    def titled(self) -> str:
        """The sentence alone with its page title, ``"Title: sentence"``, never the chain: what the learned
        verdict's features and the joint verifier read of it."""
        return premise_text(self.sentence.title, self.sentence.text)

    @property
    def own_words(self) -> str:
        """The sentence's own words, without its page title (nor the title repeated at its start: page "Jaws",
        "Jaws: The Revenge is ..." -> "The Revenge is ..."): whether these name what the claim is about decides
        whether it may be a second deciding sentence."""
        return self.titled.rpartition(f"{self.sentence.title}: ")[2]

    def to_dict(self) -> dict[str, Any]:
        """As a check's JSON and the verdict's training runs write it: the sentence's fields in its place, then the
        others, the stance as ``{label: probability}`` (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> JudgedSentence:
        """The inverse of :meth:`to_dict`. A check kept before ``bears_on_claim`` was written bears on its claim; one
        kept before ``reading`` was written is read by its likeliest label."""
        stance = Stance.from_dict(record["stance"]) if record["stance"] else None
        reading = record.get("reading")
        if reading:
            reading = Reading(**reading)
        elif stance is not None:
            reading = Reading.of_stance(stance, LABELS[int(stance.as_row().argmax())])
        return cls(
            EvidenceSentence.from_dict(record),
            record["premise"],
            stance,
            record["trusted"],
            record.get("bears_on_claim", True),
            reading,
        )
