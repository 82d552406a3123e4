"""What a stage of the verdict's cascade decides: a :class:`Decision`, named by its stage (:class:`DecidedBy`).

The stages themselves, and the one order they run in, are :mod:`~fever_core.verification.cascade`'s; what each
decides by, :mod:`~fever_core.verification.deciders`'. This module is beneath both, so that each can name a stage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fever_core.common.records import record_dict
from fever_core.common.settings import CHECK_SETTING
from fever_core.verification.number_check import NumberCheck


class DecidedBy(StrEnum):
    """Which stage of the cascade (:data:`~fever_core.verification.cascade.CASCADE`) decided a verdict: each value is
    the string a check's JSON, the service's answer and the history record as ``decided_by``."""

    LEARNED = CHECK_SETTING["verdict"].choices[0]
    """"learned": the learned verdict's mix (:func:`~fever_core.verification.deciders.learned_verdict`); also the
    ``verdict`` check setting's choice that asks for it."""
    RULE = CHECK_SETTING["verdict"].choices[1]
    """"rule": the best-sentence rule (:func:`~fever_core.verification.deciders.best_sentence_rule`); also the
    ``verdict`` check setting's choice that asks for it."""
    PAGE_RULE = "page_rule"
    """A sure sentence of a page the claim names, over the learned verdict
    (:func:`~fever_core.verification.deciders.page_rule`)."""
    SURE_SENTENCE = "sure_sentence"
    """A sure sentence, where the verdict so far is NOT ENOUGH INFO
    (:func:`~fever_core.verification.deciders.sure_sentence`)."""
    CLAIM_PARTS = "claim_parts"
    """The facts a compound claim states, each checked on its own (:func:`~fever_core.verification.deciders.parts_decision`)."""
    BRIDGE = "bridge"
    """A two-hop claim read as the two facts it states through a linked page
    (:func:`~fever_core.verification.deciders.bridge_decision`)."""
    NUMBER_CHECK = "number_check"
    """The claim's numbers against a sentence's (:func:`~fever_core.verification.deciders.number_check`)."""
    CONTRAST_CHECK = "contrast_check"
    """The claim's comparative or direction word against its opposite (:mod:`~fever_core.verification.contrasts`),
    decided by the number check's stage."""
    UNRECORDED = ""
    """A verdict kept before its decider was recorded."""


@dataclass(frozen=True)
class ClaimPart:
    """One fact of a compound claim (:func:`~fever_core.verification.claim_parts.claim_parts`), checked on its own.

    Attributes:
        claim: the part as a sentence of its own ("Marie Curie died in France.").
        label: SUPPORTS or REFUTES when a sentence is sure of it (see
            :func:`~fever_core.verification.deciders.parts_decision`), else NOT ENOUGH INFO.
        probability: that sentence's probability of ``label``, in [0, 1] (0 for NOT ENOUGH INFO).
        deciding: the evidence index of that sentence; ``None`` when none settles the part.
    """

    claim: str
    label: str
    probability: float = 0.0
    deciding: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Every field, by its name (:func:`~fever_core.common.records.record_dict`)."""
        return record_dict(self)


@dataclass(frozen=True)
class Decision:
    """What one stage of the cascade concluded for a claim: the verdict before it is put in words
    (:class:`~fever_core.verification.verdict.Verdict` is a decision with its words).

    Attributes:
        label: SUPPORTS, REFUTES or NOT ENOUGH INFO.
        probabilities: ``{label: probability}``, in [0, 1], summing to 1: how likely the stage holds each label
            for the claim. The learned verdict: its mix of the regression and the joint verifier. The best-sentence
            rule, the page rule and the sure-sentence rule: the deciding sentence's stance (the claim is as settled
            as the sentence that settles it), and NOT ENOUGH INFO 1 when no sentence could decide. The parts, the
            bridge and the number check: on their label, how sure the verifier is of what settles it, the rest on
            NOT ENOUGH INFO.
        decided_by: the stage that decided (:class:`DecidedBy`).
        deciding_evidence: indexes into the evidence of the one or two sentences it rests on, best first (none: no
            single sentence decides, e.g. a learned NOT ENOUGH INFO).
        used_evidence: indexes of every sentence the verdict used, best first, the deciding ones leading.
        numbers: what the numbers settled, for the number check.
        undecided: the evidence bears on the claim but no sentence settles it on its own
            (:func:`~fever_core.verification.deciders.grounded`): the label is NOT ENOUGH INFO, and
            ``deciding_evidence`` names the sentences that lean one way, for a person to read.
        parts: the facts of a compound claim, each with its own verdict
            (:func:`~fever_core.verification.deciders.parts_decision`), or the two facts of a bridge; empty for a
            claim that states one fact.
    """

    label: str
    probabilities: dict[str, float]
    decided_by: DecidedBy = DecidedBy.UNRECORDED
    deciding_evidence: list[int] = field(default_factory=list)
    used_evidence: list[int] = field(default_factory=list)
    numbers: NumberCheck | None = field(default=None, compare=False)
    undecided: bool = False
    parts: tuple[ClaimPart, ...] = ()

    def __post_init__(self) -> None:
        # a stage named by its string (a check kept as JSON, a caller outside the library) is that stage: an unknown
        # name raises ValueError here, not later in whatever reads it
        object.__setattr__(self, "decided_by", DecidedBy(self.decided_by))
