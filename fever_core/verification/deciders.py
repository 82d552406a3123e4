"""The deciders: each turns a claim's judged evidence into one :class:`Decision`, and each has the line that decides.

- :func:`learned_verdict`: the learned verdict's mix (the regression over the evidence with the joint verifier that
  reads the top sentences together, :mod:`~fever_core.verification.learned`) decides by its likeliest label.
- :func:`page_rule`: overrides the learned verdict when a sure stance of a first-hop sentence from a page the claim
  names says otherwise. The regression learned FEVER's caution and read a claim's own page contradicting it as not
  enough info (``benchmarks/yardsticks/mpnet-page-rule/TABLE.md``: what it gains on hand-written claims and costs
  on FEVER).
- :func:`best_sentence_rule`: the best-ranked judged sentence that bears on the claim decides, by the NEI rule. Why
  the best sentence alone: on FEVER the verifier often calls an on-topic sentence that says nothing about the claim
  SUPPORTS or REFUTES, so letting the most decisive of several sentences win turns NOT ENOUGH INFO claims into false
  verdicts (label accuracy 0.52 vs 0.60 for the best sentence on 300 fever-dev claims, commit db3345f).
- :func:`number_check`: overrides any of them where the claim's numbers settle it
  (:mod:`~fever_core.verification.number_check`).

Whichever decides, the decision names what it rests on, so that a reader can check it: the evidence *used* is the
judged sentences that bear on the claim (:attr:`~fever_core.verification.evidence.JudgedSentence.bears_on_claim`)
and whose own label is the verdict's; the *deciding* sentences are the best-ranked one or two of those. A sentence
that bears on nothing the claim names never decides, and no sentence marked used leans against the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from fever_core.common.names import mentions_a_name, names_page
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.number_check import NumberCheck
from fever_core.verification.policy import LEARNED, RULE, stance_label

PAGE_RULE = "page_rule"
"""The decider of :func:`page_rule` (:data:`~fever_core.verification.policy.LEARNED` and
:data:`~fever_core.verification.policy.RULE` name the other base deciders)."""
NUMBER_CHECK = "number_check"
"""The decider of :func:`number_check`."""
MAX_DECIDING = 2
"""A learned verdict is quoted with at most this many deciding sentences (the others rest on one)."""


@dataclass(frozen=True)
class Decision:
    """What one decider concluded for a claim.

    Attributes:
        label: SUPPORTS, REFUTES or NOT ENOUGH INFO.
        probabilities: ``{label: probability}``, in [0, 1], summing to 1: how likely the decider holds each label
            for the claim. The learned verdict: its mix of the regression and the joint verifier. The best-sentence
            rule and the page rule: the deciding sentence's stance (the claim is as settled as the sentence that
            settles it), and NOT ENOUGH INFO 1 when no sentence could decide. The number check: on its label, the
            verifier's P(SUPPORTS) that the sentence states the claim up to the number, the rest on NOT ENOUGH INFO.
        decider: which decided: :data:`~fever_core.verification.policy.LEARNED`,
            :data:`~fever_core.verification.policy.RULE`, :data:`PAGE_RULE` or :data:`NUMBER_CHECK`.
        deciding: indexes into the evidence of the one or two sentences it rests on, best first (none: no single
            sentence decides, e.g. a learned NOT ENOUGH INFO).
        used: indexes of every sentence the verdict used, best first, the deciding ones leading.
        numbers: what the numbers settled, for the number check.
    """

    label: str
    probabilities: dict[str, float]
    decider: str
    deciding: list[int] = field(default_factory=list)
    used: list[int] = field(default_factory=list)
    numbers: NumberCheck | None = None


def sentences_used(label: str, evidence: Sequence[JudgedSentence], nei_threshold: float | None = None) -> list[int]:
    """The indexes, best first, of the sentences a verdict of ``label`` uses: judged, bearing on the claim, and
    whose own label (:func:`~fever_core.verification.policy.stance_label` under ``nei_threshold``) is ``label``."""
    return [i for i, item in enumerate(evidence)
            if item.stance is not None and item.bears_on_claim and stance_label(item.stance, nei_threshold) == label]


def learned_verdict(learned: LearnedVerdict, claim: ClaimAnalysis, evidence: Sequence[JudgedSentence],
                    joint: np.ndarray | None = None) -> Decision:
    """The learned verdict's decision: its mix's likeliest label (``joint``: the joint verifier's probabilities for
    the claim, ``None`` without one). It reads each sentence by its likeliest label, as it was fit. A SUPPORTS or
    REFUTES verdict rests on the best sentence used and, when another names what the claim is about in its own
    words (not only through its page title or chain), the best of those; a NOT ENOUGH INFO verdict, or one that no
    single sentence says, rests on none."""
    row = learned.probabilities(claim.claim, evidence, joint)
    label = LABELS[int(row.argmax())]  # decides
    probabilities = dict(zip(LABELS, (float(p) for p in row)))
    used = sentences_used(label, evidence)
    if label == NEI or not used:
        return Decision(label, probabilities, LEARNED, [], used)
    seconds = [i for i in used[1:] if mentions_a_name(claim.names, evidence[i].own_words)]
    return Decision(label, probabilities, LEARNED, [used[0], *seconds][:MAX_DECIDING], used)


def page_rule(claim: ClaimAnalysis, evidence: Sequence[JudgedSentence], minimum: float | None,
              decided: Decision) -> Decision | None:
    """The page rule's decision where it overrides ``decided`` (the learned verdict's), else ``None``: the judged
    first-hop sentences of pages the claim names (:func:`~fever_core.common.names.names_page`) whose stance gives
    SUPPORTS or REFUTES at least ``minimum`` (``None``: no page rule) all give one label, and it is not the learned
    verdict's. The best-ranked of them decides, with its stance as the probabilities."""
    if minimum is None:
        return None
    found: dict[str, int] = {}
    for i, item in enumerate(evidence):
        if item.stance is None or item.sentence.hop != 1 or not names_page(claim.claim, item.sentence.title):
            continue
        for label in (SUPPORTS, REFUTES):
            if item.stance.of(label) >= minimum:
                found.setdefault(label, i)
    if len(found) != 1:
        return None
    label, best = next(iter(found.items()))
    if label == decided.label:  # decides: the page's sure sentences say otherwise than the learned verdict
        return None
    used = [best] + [i for i in sentences_used(label, evidence) if i != best]
    return Decision(label, evidence[best].stance.to_dict(), PAGE_RULE, [best], used)


def best_sentence_rule(evidence: Sequence[JudgedSentence], nei_threshold: float | None = None) -> Decision:
    """The best-sentence rule's decision: the best-ranked judged sentence that bears on the claim decides, by the NEI
    rule (``nei_threshold``; ``None``: the likeliest label), with its stance as the probabilities; with none, NOT
    ENOUGH INFO."""
    candidates = [i for i, item in enumerate(evidence) if item.stance is not None and item.bears_on_claim]
    if not candidates:
        return Decision(NEI, {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}, RULE)
    best = candidates[0]
    stance = evidence[best].stance
    label = stance_label(stance, nei_threshold)  # decides
    used = [best] + [i for i in sentences_used(label, evidence, nei_threshold) if i != best]
    return Decision(label, stance.to_dict(), RULE, [best], used)


def number_check(check: NumberCheck, sentences: Sequence[int]) -> Decision:
    """The decision the claim's numbers settle (:func:`~fever_core.verification.number_check.settle`), resting on
    the sentence whose number decides (``sentences``: the evidence indexes of the sentences the check read)."""
    best = sentences[check.evidence]
    probabilities = {SUPPORTS: 0.0, REFUTES: 0.0, NEI: round(1.0 - check.p_settled, 6)}
    probabilities[check.label] = round(check.p_settled, 6)
    return Decision(check.label, probabilities, NUMBER_CHECK, [best], [best], check)
