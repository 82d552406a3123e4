"""The verdict as one cascade: every stage that may decide a claim's verdict, in the one order they run
(:data:`CASCADE`), and that order run over a batch of claims (:func:`run_cascade`).

Each stage is one :class:`Stage`: what it reads (the claim, its judged evidence and, where it asks for them, a
model's readings of pairs of its own), what it may decide (a :class:`~fever_core.verification.decision.Decision` in
place of the one so far, or nothing) and the one value of the check's
:class:`~fever_core.verification.policy.VerdictPolicy` that turns it on (:attr:`Stage.setting`). A stage that is
off reads nothing and decides nothing. In order:

1. ``learned`` (setting ``learned``: the verifier's learned verdict, which a check that asks for the rule, or whose
   evidence another retriever selected, runs without: :meth:`~fever_core.verification.policy.VerdictPolicy.decider`):
   the regression mixed with the joint verifier, which reads the top sentences together.
2. ``rule`` (on where ``learned`` is not): the best-ranked judged sentence that bears on the claim.
3. ``page_rule`` (``page_rule_min``): a page the claim names, whose sure first-hop sentences say otherwise.
4. ``sure_sentence`` (``sure_sentence_min``): where the verdict is NOT ENOUGH INFO, one sure sentence or chain.
5. ``claim_parts`` (``claim_parts_min``): a compound claim, by its facts read one by one.
6. ``bridge`` (``bridge_min``): where the verdict is still NOT ENOUGH INFO, a two-hop claim's two facts read
   through the linked page (read in a second verifier call: which claims need it depends on the stages before).
7. ``number_check`` (``number_check``): the claim's numbers, or its comparative or direction words, against a
   sentence's.
8. ``grounded`` (always): each sentence gets the reading it counted with, and a SUPPORTS or REFUTES that no deciding
   sentence's reading states becomes an undecided NOT ENOUGH INFO.

``page_rule_min``, ``sure_sentence_min``, ``claim_parts_min`` and ``bridge_min`` are thresholds in the learned
verdict's file (:class:`~fever_core.verification.learned.LearnedVerdict`), chosen with it: ``None`` (absent) is off.
What each decides by is :mod:`~fever_core.verification.deciders`'. A verifier reads a claim's pairs at most twice:
every claim's evidence and the pairs of the stages whose pairs are known before anything is read
(:attr:`Stage.first_call`: the parts, the number check) in one call; the bridges in another. Training replays this
same cascade on its held-out claims (:func:`fever_core.training.verdict.fit_learned_verdict`).

One module (over 400 lines) because it is the verdict's one map: every stage, what it reads and decides and the
setting that turns it on, with their one order and its run, read in one file.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

import numpy as np

from fever_core.common.types import NEI, REFUTES, SUPPORTS, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.verification.batches import Pair, Reader, predict_pairs, read_pairs, rows_by_claim
from fever_core.verification.bridges import BridgeCandidate, bridge_trial
from fever_core.verification.claim_parts import claim_parts
from fever_core.verification.contrasts import ContrastCandidate, contrast_trial, settle_contrast
from fever_core.verification.deciders import (
    best_sentence_rule,
    bridge_decision,
    counted_readings,
    grounded,
    learned_verdict,
    number_check,
    page_rule,
    part_of,
    parts_decision,
    sure_sentence,
)
from fever_core.verification.decision import DecidedBy, Decision
from fever_core.verification.evidence import JudgedSentence
from fever_core.verification.features import joint_premise
from fever_core.verification.model_integrity import finite_probabilities
from fever_core.verification.number_check import NumberTrial, number_sentences, number_trial, settle
from fever_core.verification.policy import VerdictPolicy


@dataclass
class ClaimInCascade:
    """One claim on its way through the cascade.

    Attributes:
        claim: the claim's analysis (its words, names and parse).
        policy: the check's policy: which stages are on, and their thresholds
            (:meth:`~fever_core.verification.policy.VerdictPolicy.for_check`, then
            :meth:`~fever_core.verification.policy.VerdictPolicy.for_decider`).
        evidence: the evidence, best first; each sentence's stance is ``None`` until the verifier has read it.
        unread: the (premise, claim) pairs of the evidence the verifier's first call reads, one for each trusted
            sentence in order (empty for evidence judged already; in the one-premise mode, every sentence read
            together as one premise, whose stance is reported on the first, the only one trusted).
        verifier_calls: the verifier calls the claim has taken so far (0, 1 or 2).
        notes: what its verdict should say of a check not tried in full (the number check's untried numbers).
    """

    claim: ClaimAnalysis
    policy: VerdictPolicy
    evidence: list[JudgedSentence]
    unread: list[Pair] = field(default_factory=list)
    verifier_calls: int = 0
    notes: tuple[str, ...] = ()

    def judged_bearing(self) -> list[int]:
        """The indexes of the sentences the verifier judges that bear on the claim, best first (known before they are
        read, so that the stages of the first call read against them)."""
        return [j for j, item in enumerate(self.evidence) if item.trusted and item.bears_on_claim]

    def judge(self, rows: Iterator[np.ndarray]) -> None:
        """Give the trusted sentences the stances of :attr:`unread`, taken from ``rows`` (the verifier's, in pair
        order)."""
        if not self.unread:
            return
        for item in self.evidence:
            if item.trusted:
                item.stance = Stance.from_row(next(rows))


@dataclass
class Asked:
    """The pairs a stage asks its model to read for one claim (:meth:`Stage.asks`)."""

    pairs: list[Pair]


AskedT = TypeVar("AskedT", bound=Asked)


class Stage(ABC, Generic[AskedT]):
    """One stage of the cascade: what it reads, what it may decide and the setting that turns it on.

    Attributes:
        name: the stage's name (for a stage that decides, the :class:`~fever_core.verification.decision.DecidedBy`
            its decisions carry).
        setting: the :class:`~fever_core.verification.policy.VerdictPolicy` value that turns it on (:meth:`on`).
        decides_as: what its decisions' ``decided_by`` may be (none: it holds the decision so far to its evidence).
        model: the model that reads the pairs it asks for: ``"verifier"`` or ``"joint_verifier"``.
        first_call: its pairs are known before anything is read, and the verifier reads them with the evidence;
            otherwise they are asked once the stages before it have decided, and read in a call of their own.
    """

    name: ClassVar[str]
    setting: ClassVar[str]
    decides_as: ClassVar[tuple[DecidedBy, ...]]
    model: ClassVar[Literal["verifier", "joint_verifier"]] = "verifier"
    first_call: ClassVar[bool] = False

    @abstractmethod
    def on(self, policy: VerdictPolicy) -> bool:
        """Whether the stage runs under ``policy``: its :attr:`setting` only."""

    def asks(self, claim: ClaimInCascade, decided: Decision) -> AskedT | None:
        """What the stage needs its model to read for ``claim`` (``decided``: the verdict so far; for a
        :attr:`first_call` stage, none yet); ``None``: nothing."""
        return None

    @abstractmethod
    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: AskedT | None, rows: np.ndarray | None
    ) -> Decision | None:
        """The stage's decision for ``claim`` in place of ``decided`` (the verdict so far), or ``None`` where it
        decides nothing. ``asked``: what :meth:`asks` gave; ``rows``: the model's probabilities for its pairs, in
        their order (``None``: not read)."""


class LearnedStage(Stage[Asked]):
    """The learned verdict (:func:`~fever_core.verification.deciders.learned_verdict`): the regression over the
    evidence, mixed with the joint verifier's reading of the top sentences together (where there is one)."""

    name, setting, decides_as, model = DecidedBy.LEARNED, "learned", (DecidedBy.LEARNED,), "joint_verifier"

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.learned is not None

    def asks(self, claim: ClaimInCascade, decided: Decision) -> Asked | None:
        if not claim.evidence:
            return None
        return Asked([(joint_premise([item.titled for item in claim.evidence]), claim.claim.claim)])

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: Asked | None, rows: np.ndarray | None
    ) -> Decision | None:
        learned = claim.policy.learned
        if learned is None:  # off: never asked to decide
            return None
        return learned_verdict(learned, claim.claim, claim.evidence, None if rows is None else rows[0])


class RuleStage(Stage[Asked]):
    """The best-sentence rule (:func:`~fever_core.verification.deciders.best_sentence_rule`): on where there is no
    learned verdict, so that one of the two always decides."""

    name, setting, decides_as = DecidedBy.RULE, "learned", (DecidedBy.RULE,)

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.learned is None

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: Asked | None, rows: np.ndarray | None
    ) -> Decision | None:
        return best_sentence_rule(claim.evidence, claim.policy.nei_threshold)


class PageRuleStage(Stage[Asked]):
    """The page rule (:func:`~fever_core.verification.deciders.page_rule`)."""

    name, setting, decides_as = DecidedBy.PAGE_RULE, "page_rule_min", (DecidedBy.PAGE_RULE,)

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.page_rule_min is not None

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: Asked | None, rows: np.ndarray | None
    ) -> Decision | None:
        minimum = claim.policy.page_rule_min
        return None if minimum is None else page_rule(claim.claim, claim.evidence, minimum, decided)


class SureSentenceStage(Stage[Asked]):
    """The sure-sentence rule (:func:`~fever_core.verification.deciders.sure_sentence`)."""

    name, setting, decides_as = DecidedBy.SURE_SENTENCE, "sure_sentence_min", (DecidedBy.SURE_SENTENCE,)

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.sure_sentence_min is not None

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: Asked | None, rows: np.ndarray | None
    ) -> Decision | None:
        minimum = claim.policy.sure_sentence_min
        return None if minimum is None else sure_sentence(claim.evidence, minimum, decided)


@dataclass
class PartsAsked(Asked):
    """A compound claim's parts, each against every judged sentence that bears on the claim (``sentences``)."""

    sentences: list[int]
    parts: tuple[str, ...]


class ClaimPartsStage(Stage[PartsAsked]):
    """A compound claim's facts (:func:`~fever_core.verification.claim_parts.claim_parts`), each read against every
    judged sentence that bears on the claim (:func:`~fever_core.verification.deciders.parts_decision`): they decide
    where they settle it, and are shown beside the verdict where they do not."""

    name, setting, decides_as, first_call = DecidedBy.CLAIM_PARTS, "claim_parts_min", (DecidedBy.CLAIM_PARTS,), True

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.claim_parts_min is not None

    def asks(self, claim: ClaimInCascade, decided: Decision) -> PartsAsked | None:
        parts = claim_parts(claim.claim.claim)
        read = claim.judged_bearing()
        if not parts:  # read against no sentence, the parts are shown beside the verdict all the same
            return None
        return PartsAsked([(claim.evidence[j].premise, part) for part in parts for j in read], read, tuple(parts))

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: PartsAsked | None, rows: np.ndarray | None
    ) -> Decision | None:
        minimum = claim.policy.claim_parts_min
        if asked is None or rows is None or minimum is None:
            return None
        stances = iter(rows)
        judged = []
        for part in asked.parts:
            read = {j: Stance.from_row(next(stances)) for j in asked.sentences}
            judged.append(part_of(part, [read.get(j) for j in range(len(claim.evidence))], claim.evidence, minimum))
        return parts_decision(judged, decided)


@dataclass
class BridgeAsked(Asked):
    """A two-hop claim's bridges, each read as its two facts against its chain."""

    candidates: list[BridgeCandidate]


class BridgeStage(Stage[BridgeAsked]):
    """A two-hop claim still NOT ENOUGH INFO, read as the two facts it states through the page a second-hop sentence
    was reached through (:func:`~fever_core.verification.bridges.bridge_trial`,
    :func:`~fever_core.verification.deciders.bridge_decision`)."""

    name, setting, decides_as = DecidedBy.BRIDGE, "bridge_min", (DecidedBy.BRIDGE,)

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.bridge_min is not None

    def asks(self, claim: ClaimInCascade, decided: Decision) -> BridgeAsked | None:
        if decided.label != NEI:
            return None
        candidates = bridge_trial(claim.claim.claim, claim.evidence)
        if not candidates:
            return None
        pairs = [
            (claim.evidence[c.evidence].premise, read)
            for c in candidates
            for read in (c.linked_claim, c.described_claim)
        ]
        return BridgeAsked(pairs, candidates)

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: BridgeAsked | None, rows: np.ndarray | None
    ) -> Decision | None:
        minimum = claim.policy.bridge_min
        if asked is None or rows is None or minimum is None:
            return None
        stances = [Stance.from_row(row) for row in rows]
        return bridge_decision(asked.candidates, stances[0::2], stances[1::2], minimum, decided)


@dataclass
class NumbersAsked(Asked):
    """A claim rewritten with its sentences' numbers (``trial``) and with its contrast words' opposites
    (``contrasts``), each against its sentence (``sentences``: the evidence indexes the check read)."""

    sentences: list[int]
    trial: NumberTrial
    contrasts: list[ContrastCandidate]


class NumberCheckStage(Stage[NumbersAsked]):
    """The number check (:mod:`~fever_core.verification.number_check`,
    :func:`~fever_core.verification.deciders.number_check`): the numbers are settled first; the contrast words
    (:mod:`~fever_core.verification.contrasts`) where they settle nothing."""

    name, setting, first_call = DecidedBy.NUMBER_CHECK, "number_check", True
    decides_as = (DecidedBy.NUMBER_CHECK, DecidedBy.CONTRAST_CHECK)

    def on(self, policy: VerdictPolicy) -> bool:
        return policy.number_check

    def asks(self, claim: ClaimInCascade, decided: Decision) -> NumbersAsked | None:
        sentences = number_sentences(claim.judged_bearing())
        texts = [claim.evidence[j].sentence.text for j in sentences]
        trial = number_trial(claim.claim, texts)
        contrasts = contrast_trial(claim.claim.claim, texts)
        if not trial.candidates and not contrasts:
            return None
        rewritten = [(c.evidence, c.rewritten_claim) for c in trial.candidates]
        rewritten += [(c.evidence, c.rewritten_claim) for c in contrasts]
        pairs = [(claim.evidence[sentences[index]].premise, text) for index, text in rewritten]
        return NumbersAsked(pairs, sentences, trial, contrasts)

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: NumbersAsked | None, rows: np.ndarray | None
    ) -> Decision | None:
        if asked is None or rows is None:
            return None
        note = asked.trial.untried_note()
        claim.notes = () if note is None else (note,)
        p_supports = list(rows[:, 0])
        settled = settle(asked.trial, p_supports[: len(asked.trial.candidates)])
        if settled is not None:
            return number_check(settled, asked.sentences)
        contrasted = settle_contrast(asked.contrasts, p_supports[len(asked.trial.candidates) :])
        if contrasted is not None:
            return number_check(contrasted, asked.sentences, DecidedBy.CONTRAST_CHECK)
        return None


class GroundedStage(Stage[Asked]):
    """The last stage, always on (:func:`~fever_core.verification.deciders.grounded`): each judged sentence gets the
    reading it counted with (:func:`~fever_core.verification.deciders.counted_readings`), and the verdict stands
    only on deciding sentences whose readings state it."""

    name, setting, decides_as = "grounded", "", ()

    def on(self, policy: VerdictPolicy) -> bool:
        return True

    def decide(
        self, claim: ClaimInCascade, decided: Decision, asked: Asked | None, rows: np.ndarray | None
    ) -> Decision | None:
        counted = counted_readings(decided, claim.evidence, claim.policy.nei_threshold)
        for item, reading in zip(claim.evidence, counted):
            item.reading = reading
        return grounded(decided, counted, claim.evidence)


CASCADE: tuple[Stage[Any], ...] = (
    LearnedStage(),
    RuleStage(),
    PageRuleStage(),
    SureSentenceStage(),
    ClaimPartsStage(),
    BridgeStage(),
    NumberCheckStage(),
    GroundedStage(),
)
"""The stages of the verdict, in the one order they run (the module's docstring: what each reads and decides)."""
UNDECIDED = Decision(NEI, {SUPPORTS: 0.0, REFUTES: 0.0, NEI: 1.0}, DecidedBy.UNRECORDED)
"""Where every claim starts: the learned verdict or, without one, the best-sentence rule always decides after."""


def run_cascade(
    claims: Sequence[ClaimInCascade],
    verifier: Reader | None,
    joint_verifier: Reader | None = None,
    by_length: bool = False,
    cancelled: Callable[[int], bool] | None = None,
) -> list[Decision]:
    """Each claim's decision: :data:`CASCADE` run stage by stage over every claim at once, each model reading every
    claim's pairs of a stage in one batch (the verifier's first call: every claim's :attr:`~ClaimInCascade.unread`
    evidence with the pairs of the :attr:`~Stage.first_call` stages). ``by_length`` reads the pairs shortest first,
    so the models' batches pad less. ``cancelled``, when given, says whether the ``i``-th claim is no longer wanted:
    asked before each model batch, a claim no longer wanted is read no further (its verdict, decided without, is for
    the caller to throw away). Counts each claim's :attr:`~ClaimInCascade.verifier_calls`.

    Raises:
        ModelDamaged: a stage's probabilities are not finite.
    """
    models = {"verifier": verifier, "joint_verifier": joint_verifier}
    decided = [UNDECIDED] * len(claims)
    first = {stage: _asked(stage, claims, decided) for stage in CASCADE if stage.first_call}
    first_rows = _first_call(claims, first, verifier, by_length, cancelled)
    for stage in CASCADE:
        if stage.first_call:
            asked, rows = first[stage], first_rows[stage]
        else:
            asked = _asked(stage, claims, decided, cancelled)
            rows = read_pairs(models[stage.model], _pairs(asked), by_length)
            if stage.model == "verifier":
                for i in rows:
                    claims[i].verifier_calls += 1
        for i, claim in enumerate(claims):
            if stage.on(claim.policy):
                decision = stage.decide(claim, decided[i], asked.get(i), rows.get(i))
                if decision is not None:
                    name = "the verifier" if verifier is None else verifier.name
                    probabilities = np.array(list(decision.probabilities.values()))
                    finite_probabilities(probabilities, name, "verdict of the verifier")
                    decided[i] = decision
    return decided


def _asked(
    stage: Stage[Any],
    claims: Sequence[ClaimInCascade],
    decided: Sequence[Decision],
    cancelled: Callable[[int], bool] | None = None,
) -> dict[int, Asked]:
    """What ``stage`` asks its model to read for each claim it is on for (by the claim's index), given the
    verdicts so far; none for a claim no longer wanted (``cancelled``)."""
    asked = {}
    for i, claim in enumerate(claims):
        if stage.on(claim.policy) and not (cancelled and cancelled(i)):
            claim_asked = stage.asks(claim, decided[i])
            if claim_asked is not None:
                asked[i] = claim_asked
    return asked


def _first_call(
    claims: Sequence[ClaimInCascade],
    first: dict[Stage[Any], dict[int, Asked]],
    verifier: Reader | None,
    by_length: bool,
    cancelled: Callable[[int], bool] | None,
) -> dict[Stage[Any], dict[int, np.ndarray]]:
    """The verifier's first call: every claim's unread evidence, then each :attr:`~Stage.first_call` stage's pairs
    (``first``), in one batch. Judges the evidence, counts the call for each claim it read for, and returns each
    stage's rows by claim."""
    owners = [i for i, claim in enumerate(claims) for _ in claim.unread]
    owners += [i for asked in first.values() for i, claim_asked in asked.items() for _ in claim_asked.pairs]
    pairs = [pair for claim in claims for pair in claim.unread]
    pairs += [pair for asked in first.values() for claim_asked in asked.values() for pair in claim_asked.pairs]
    unwanted = None if cancelled is None else (lambda n: cancelled(owners[n]))
    rows = iter(predict_pairs(verifier, pairs, by_length, unwanted))
    for claim in claims:
        claim.judge(rows)
    for i in set(owners):
        claims[i].verifier_calls = 1
    return {stage: rows_by_claim(rows, _pairs(asked)) for stage, asked in first.items()}


def _pairs(asked: dict[int, Asked]) -> dict[int, list[Pair]]:
    """Each claim's pairs of ``asked``."""
    return {i: claim_asked.pairs for i, claim_asked in asked.items()}
