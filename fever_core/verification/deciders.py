"""The deciders: the rule each stage of the cascade decides by, turning a claim's judged evidence into one
:class:`~fever_core.verification.decision.Decision`; each has the line that decides (``# decides``). The stages, their
settings and their one order are :data:`~fever_core.verification.cascade.CASCADE`'s: these functions neither know
the order nor read a setting to switch themselves off.

- :func:`learned_verdict`: the learned verdict's mix (the regression over the evidence with the joint verifier that
  reads the top sentences together, :mod:`~fever_core.verification.learned`) decides by its likeliest label.
- :func:`page_rule`: overrides the learned verdict when a sure stance of a first-hop sentence from a page the claim
  names says otherwise. The regression learned FEVER's caution and read a claim's own page contradicting it as not
  enough info (``benchmarks/yardsticks/mpnet-page-rule/TABLE.md``: what it gains on hand-written claims and costs
  on FEVER).
- :func:`sure_sentence`: where the learned verdict (and the page rule) leave a claim NOT ENOUGH INFO, a sentence or
  two-hop chain that bears on the claim and whose own stance is sure of SUPPORTS or REFUTES, with none sure of the
  other, decides. The regression learned FEVER's caution and discarded sure readings of the sentence that settles a
  claim written in plain words (``benchmarks/yardsticks/verdict-grounded/README.md``: what it gains on the
  hand-written claims and costs on FEVER).
- :func:`parts_decision` and :func:`bridge_decision`: a claim that states several facts (compound, or two facts
  joined through a description of a linked page) is decided by its facts, each read on its own.
- :func:`best_sentence_rule`: the best-ranked judged sentence that bears on the claim decides, by the NEI rule. Why
  the best sentence alone: on FEVER the verifier often calls an on-topic sentence that says nothing about the claim
  SUPPORTS or REFUTES, so letting the most decisive of several sentences win turns NOT ENOUGH INFO claims into false
  verdicts (label accuracy 0.52 vs 0.60 for the best sentence on 300 fever-dev claims, commit db3345f).
- :func:`number_check`: overrides any of them where the claim's numbers settle it
  (:mod:`~fever_core.verification.number_check`).
- :func:`grounded`: the last stage, below.

Whichever decides, the decision names what it rests on, so that a reader can check it: the evidence *used* is the
judged sentences that bear on the claim (:attr:`~fever_core.verification.evidence.JudgedSentence.bears_on_claim`)
and whose own label is the verdict's; the *deciding* sentences are the best-ranked one or two of those. A sentence
that bears on nothing the claim names never decides, and no sentence marked used leans against the verdict.

:func:`grounded` holds every decision to that: a SUPPORTS or REFUTES verdict stands only on deciding sentences whose
own reading (:func:`counted_readings`: the one the card and the evidence table show) gives its label; one that no sentence
states on its own (the learned mix leaning one way over sentences that each say nothing) becomes an *undecided* NOT
ENOUGH INFO, pointing at the sentences to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from fever_core.common.names import mentions_a_name, names_page
from fever_core.common.types import LABELS, NEI, REFUTES, SUPPORTS, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.bridges import BridgeCandidate
from fever_core.verification.decision import ClaimPart, DecidedBy, Decision
from fever_core.verification.evidence import JudgedSentence, Reading
from fever_core.verification.learned import LearnedVerdict
from fever_core.verification.number_check import NumberCheck
from fever_core.verification.policy import stance_label

MAX_DECIDING = 2
"""A learned verdict is quoted with at most this many deciding sentences (the others rest on one)."""


def sentences_used(label: str, evidence: Sequence[JudgedSentence], nei_threshold: float | None = None) -> list[int]:
    """The indexes, best first, of the sentences a verdict of ``label`` uses: judged, bearing on the claim, and
    whose own label (:func:`~fever_core.verification.policy.stance_label` under ``nei_threshold``) is ``label``."""
    return [
        i
        for i, item in enumerate(evidence)
        if item.stance is not None and item.bears_on_claim and stance_label(item.stance, nei_threshold) == label
    ]


def learned_verdict(
    learned: LearnedVerdict, claim: ClaimAnalysis, evidence: Sequence[JudgedSentence], joint: np.ndarray | None = None
) -> Decision:
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
        return Decision(label, probabilities, DecidedBy.LEARNED, [], used)
    seconds = [i for i in used[1:] if mentions_a_name(claim.names, evidence[i].own_words)]
    return Decision(label, probabilities, DecidedBy.LEARNED, [used[0], *seconds][:MAX_DECIDING], used)


def page_rule(
    claim: ClaimAnalysis, evidence: Sequence[JudgedSentence], minimum: float, decided: Decision
) -> Decision | None:
    """The page rule's decision where it overrides ``decided`` (the learned verdict's), else ``None``: the judged
    first-hop sentences of pages the claim names (:func:`~fever_core.common.names.names_page`) whose stance gives
    SUPPORTS or REFUTES at least ``minimum`` all give one label, and it is not the learned
    verdict's. The best-ranked of them decides, with its stance as the probabilities."""
    found: dict[str, tuple[int, Stance]] = {}
    for i, item in enumerate(evidence):
        if item.stance is None or item.sentence.hop != 1 or not names_page(claim.claim, item.sentence.title):
            continue
        for label in (SUPPORTS, REFUTES):
            if item.stance.of(label) >= minimum:
                found.setdefault(label, (i, item.stance))
    if len(found) != 1:
        return None
    label, (best, stance) = next(iter(found.items()))
    if label == decided.label:  # decides: the page's sure sentences say otherwise than the learned verdict
        return None
    used = [best] + [i for i in sentences_used(label, evidence) if i != best]
    return Decision(label, stance.to_dict(), DecidedBy.PAGE_RULE, [best], used)


def one_sure_label(
    stances: Sequence[Stance | None], evidence: Sequence[JudgedSentence], minimum: float
) -> tuple[str, int, Stance] | None:
    """The one label (SUPPORTS or REFUTES) that the stances (``None``: not read) of the sentences that bear on the
    claim are sure of, its likeliest label's probability at least ``minimum``: the label, the best-ranked such
    sentence's index and its stance; ``None`` when no stance is sure, or stances are sure of both labels."""
    found: dict[str, tuple[int, Stance]] = {}
    for i, (stance, item) in enumerate(zip(stances, evidence)):
        if stance is None or not item.bears_on_claim:
            continue
        label = stance_label(stance)
        if label != NEI and stance.of(label) >= minimum:
            found.setdefault(label, (i, stance))
    if len(found) != 1:  # decides: one sure label, none sure of the other
        return None
    label, (best, stance) = next(iter(found.items()))
    return label, best, stance


def settled_probabilities(label: str, p: float) -> dict[str, float]:
    """A rule's probabilities when it settles ``label`` as sure as ``p``: ``p`` on it, the rest on NOT ENOUGH INFO."""
    probabilities = {SUPPORTS: 0.0, REFUTES: 0.0, NEI: round(1.0 - p, 6)}
    probabilities[label] = round(p, 6)
    return probabilities


def sure_sentence(evidence: Sequence[JudgedSentence], minimum: float, decided: Decision) -> Decision | None:
    """The sure-sentence rule's decision where it overrides ``decided`` (a NOT ENOUGH INFO verdict of the learned
    verdict or the page rule), else ``None``: the judged sentences that bear on the claim (a second-hop sentence read
    in its chain) whose likeliest label is SUPPORTS or REFUTES with a probability of at least ``minimum`` all give
    one label. The best-ranked of them decides, with its stance as the probabilities."""
    if decided.label != NEI:
        return None
    sure = one_sure_label([item.stance for item in evidence], evidence, minimum)
    if sure is None:
        return None
    label, best, stance = sure
    used = [best] + [i for i in sentences_used(label, evidence) if i != best]
    return Decision(label, stance.to_dict(), DecidedBy.SURE_SENTENCE, [best], used)


def part_of(
    claim: str, stances: Sequence[Stance | None], evidence: Sequence[JudgedSentence], minimum: float
) -> ClaimPart:
    """One part's verdict from the verifier's ``stances`` of it against each sentence (``None``: not read): the
    best-ranked sentence that bears on the claim and is sure (its likeliest label's probability at least ``minimum``)
    of SUPPORTS or REFUTES decides it, when no such sentence is sure of the other; else NOT ENOUGH INFO."""
    sure = one_sure_label(stances, evidence, minimum)
    if sure is None:
        return ClaimPart(claim, NEI)
    label, best, stance = sure
    return ClaimPart(claim, label, round(stance.of(label), 6), best)


def parts_decision(parts: Sequence[ClaimPart], decided: Decision) -> Decision | None:
    """The decision of a compound claim's parts where they settle it, overriding ``decided``; else ``None`` (the
    claim's own decision stands, with the parts shown beside it). REFUTES when a part is refuted (the surest such
    part decides); SUPPORTS when every part is supported (each part's sentence decides, the probability is the least
    sure part's). The deciding sentences' readings are the parts' (:func:`counted_readings`)."""
    if not parts:
        return None
    refuted = [part for part in parts if part.label == REFUTES]
    if refuted:
        part = max(refuted, key=lambda p: p.probability)
        deciding, label, p = _deciding([part]), REFUTES, part.probability
    elif all(part.label == SUPPORTS for part in parts):
        deciding, label, p = _deciding(parts), SUPPORTS, min(part.probability for part in parts)
    else:
        return replace(decided, parts=tuple(parts))
    return Decision(
        label, settled_probabilities(label, p), DecidedBy.CLAIM_PARTS, deciding, deciding, parts=tuple(parts)
    )


def _deciding(parts: Sequence[ClaimPart]) -> list[int]:
    """The sentences that settled ``parts`` (each settled part has one), each once, in the parts' order."""
    return list(dict.fromkeys(part.deciding for part in parts if part.deciding is not None))


def bridge_decision(
    candidates: Sequence[BridgeCandidate],
    linked: Sequence[Stance],
    described: Sequence[Stance],
    minimum: float,
    decided: Decision,
) -> Decision | None:
    """The decision of a two-hop claim read through a bridge (:func:`~fever_core.verification.bridges.bridge_trial`)
    where ``decided`` is NOT ENOUGH INFO, else ``None``. ``linked`` and ``described`` are the verifier's stances of
    each candidate's two facts against its chain. A candidate settles the claim when the verifier is sure (at least
    ``minimum``) of both facts (SUPPORTS), or sure of one and sure the other is refuted (REFUTES; the bridge fitting
    the description refutes the claim's own words only for a description of one thing); the surest candidate
    decides (its least sure fact), and candidates that settle both ways decide nothing."""
    if decided.label != NEI:
        return None
    settled = []
    for candidate, first, second in zip(candidates, linked, described):
        labels = (stance_label(first), stance_label(second))
        sure = min(first.of(labels[0]), second.of(labels[1]))
        if (
            sure < minimum
            or NEI in labels
            or labels == (REFUTES, REFUTES)
            or (labels == (REFUTES, SUPPORTS) and not candidate.definite)
        ):  # "a city in Canada" is not only Ottawa
            continue
        label = SUPPORTS if labels == (SUPPORTS, SUPPORTS) else REFUTES
        parts = (
            ClaimPart(candidate.linked_claim, labels[0], round(first.of(labels[0]), 6), candidate.evidence),
            ClaimPart(candidate.described_claim, labels[1], round(second.of(labels[1]), 6), candidate.evidence),
        )
        settled.append((sure, label, candidate, parts))
    if not settled or len({label for _, label, _, _ in settled}) > 1:  # decides: one way, surely
        return None
    sure, label, candidate, parts = max(settled, key=lambda item: item[0])
    return Decision(
        label,
        settled_probabilities(label, sure),
        DecidedBy.BRIDGE,
        [candidate.evidence],
        [candidate.evidence],
        parts=parts,
    )


def best_sentence_rule(evidence: Sequence[JudgedSentence], nei_threshold: float | None = None) -> Decision:
    """The best-sentence rule's decision: the best-ranked judged sentence that bears on the claim decides, by the NEI
    rule (``nei_threshold``; ``None``: the likeliest label), with its stance as the probabilities; with none, NOT
    ENOUGH INFO."""
    candidates = [
        (i, item.stance) for i, item in enumerate(evidence) if item.stance is not None and item.bears_on_claim
    ]
    if not candidates:
        return Decision(NEI, {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}, DecidedBy.RULE)
    best, stance = candidates[0]
    label = stance_label(stance, nei_threshold)  # decides
    used = [best] + [i for i in sentences_used(label, evidence, nei_threshold) if i != best]
    return Decision(label, stance.to_dict(), DecidedBy.RULE, [best], used)


def number_check(check: NumberCheck, sentences: Sequence[int], decider: DecidedBy = DecidedBy.NUMBER_CHECK) -> Decision:
    """The decision the claim's numbers settle (:func:`~fever_core.verification.number_check.settle`), or with
    ``decider`` :attr:`~fever_core.verification.decision.DecidedBy.CONTRAST_CHECK` its contrast word (:func:`~fever_core.verification.contrasts.settle_contrast`),
    resting on the sentence whose number or word decides (``sentences``: the evidence indexes of the sentences the
    check read)."""
    best = sentences[check.evidence]
    return Decision(check.label, settled_probabilities(check.label, check.p_settled), decider, [best], [best], check)


def counted_readings(
    decision: Decision, evidence: Sequence[JudgedSentence], nei_threshold: float | None = None
) -> list[Reading | None]:
    """How each sentence counted in ``decision`` (``None``: not judged): its stance under the rule its decider reads
    stances by (the best-sentence rule: ``nei_threshold``; the others: the likeliest label), and for the sentence
    whose number decided, the number check's reading of the rewritten claim."""
    threshold = nei_threshold if decision.decided_by == DecidedBy.RULE else None
    read = [
        None if item.stance is None else Reading.of_stance(item.stance, stance_label(item.stance, threshold))
        for item in evidence
    ]
    if decision.numbers is not None and decision.deciding_evidence:
        numbers = decision.numbers
        read[decision.deciding_evidence[0]] = Reading(
            numbers.label, round(numbers.p_settled, 6), numbers.rewritten_claim
        )
    if decision.decided_by in (DecidedBy.CLAIM_PARTS, DecidedBy.BRIDGE):
        # a deciding sentence shows the part it decided of the verdict's label
        for part in sorted(decision.parts, key=lambda part: part.label == decision.label):
            if part.deciding is not None and (
                part.label == decision.label or part.deciding in decision.deciding_evidence
            ):
                read[part.deciding] = Reading(part.label, part.probability, part.claim)
    return read


def grounded(decision: Decision, read: Sequence[Reading | None], evidence: Sequence[JudgedSentence]) -> Decision:
    """``decision`` if it stands on its own evidence: NOT ENOUGH INFO, or SUPPORTS / REFUTES with deciding
    sentences whose readings (``read``, :func:`counted_readings`) all give that label. Otherwise the verdict is no single
    sentence's, and it is *undecided*: NOT ENOUGH INFO with the decider's probabilities, resting on the best one or
    two sentences that bear on the claim and lean to SUPPORTS or REFUTES (those a person should read). A NOT ENOUGH
    INFO verdict with such sentences is marked undecided too, naming them."""
    if (
        decision.label != NEI
        and decision.deciding_evidence
        and all((shown := read[i]) is not None and shown.label == decision.label for i in decision.deciding_evidence)
    ):
        return decision
    leaning = [
        i
        for i, (item, reading) in enumerate(zip(evidence, read))
        if reading is not None and item.bears_on_claim and reading.label != NEI
    ][:MAX_DECIDING]
    if decision.label == NEI and not leaning:
        return decision
    return replace(
        decision, label=NEI, deciding_evidence=leaning, used_evidence=leaning, numbers=None, undecided=bool(leaning)
    )
