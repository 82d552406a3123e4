"""Verifying a claim against its evidence: each sentence's stance, then the claim's verdict.

:meth:`ClaimVerifier.verify_many` is the whole flow, for several claims at once (each model runs once over all of
them):

1. **Read** (:meth:`ClaimVerifier._read`): for each evidence sentence, the premise the verifier reads (its chain for
   a second-hop sentence, :func:`~fever_core.verification.evidence.chain_premise`), whether it is trusted (selection
   score at least the policy's ``min_evidence_score``) and whether it bears on the claim (mentions one of its
   names); the verifier judges the trusted ones: a :class:`~fever_core.verification.evidence.JudgedSentence` each.
2. **The joint verifier** reads the top sentences of each claim the learned verdict decides, together.
3. **Decide** (:meth:`ClaimVerifier._decide`): the decider the policy gives the check
   (:meth:`~fever_core.verification.policy.VerdictPolicy.decider`): the learned verdict, which the page rule may
   override and whose NOT ENOUGH INFO a sure sentence may, or the best-sentence rule
   (:mod:`~fever_core.verification.deciders`).
4. **The parts** (:meth:`ClaimVerifier._check_parts`): a claim that states several facts
   (:mod:`~fever_core.verification.claim_parts`) is decided by its parts where they settle it, each read on its own
   against the evidence; a two-hop claim still undecided, by the two facts it states through the page a second-hop
   sentence was reached through (:mod:`~fever_core.verification.bridges`). **The number check** (:meth:`ClaimVerifier._check_numbers`): where the verifier reads the claim, rewritten with a
   judged sentence's number, as stated by that sentence, the numbers decide instead
   (:mod:`~fever_core.verification.number_check`).
5. **Grounding** (:meth:`ClaimVerifier._conclude`): each sentence gets the reading it counted with, and a SUPPORTS or
   REFUTES decision that no deciding sentence's reading states becomes an undecided NOT ENOUGH INFO
   (:func:`~fever_core.verification.deciders.grounded`).
6. **Words**: the decision becomes the :class:`~fever_core.verification.verdict.Verdict` with its reason and its
   plain why (:mod:`~fever_core.verification.explanation`), its label withheld where it is too unsure to show, and
   the sentences to read (:mod:`~fever_core.verification.read_these`).

The verifier is called at most twice for a batch of claims (:attr:`~fever_core.verification.verdict.Verdict.verifier_calls`
counts each claim's): once over every claim's evidence, its parts and its number and contrast rewritings, all known
before anything is read; and once more over the bridges of the claims still NOT ENOUGH INFO after that, where any.

The oracle mode (``one_premise``) reads every given sentence together as one premise, the way the verifier was
trained on gold evidence groups, and the best-sentence rule decides.

One module (over 400 lines) because it is one flow: each step batches the model calls of every claim at once, and
what the steps decide lives in :mod:`~fever_core.verification.deciders` and the modules of each check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from fever_core.common.model_versions import active_choice_problem
from fever_core.common.names import mentions_a_name
from fever_core.common.settings import DEFAULT_VERIFIER, FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER, Settings
from fever_core.common.types import NEI, Stance
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence
from fever_core.verification.base_models import BaseModelError
from fever_core.verification.bridges import bridge_trial
from fever_core.verification.claim_parts import claim_parts
from fever_core.verification.contrasts import ContrastCandidate, contrast_trial, settle_contrast
from fever_core.verification.deciders import (
    CONTRAST_CHECK,
    Decision,
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
from fever_core.verification.evidence import JudgedSentence, chain_premise
from fever_core.verification.explanation import explain
from fever_core.verification.features import joint_premise
from fever_core.verification.model_integrity import ModelDamaged, finite_probabilities
from fever_core.verification.nli import NliModel
from fever_core.verification.number_check import NumberTrial, number_sentences, number_trial, settle
from fever_core.verification.numbers import number_mentions
from fever_core.verification.onnx_export import verifier_cache_dir
from fever_core.verification.policy import LEARNED, LEARNED_RETRIEVER, RULE, VerdictPolicy
from fever_core.verification.read_these import settling_sentences, withholds_label
from fever_core.verification.verdict import Verdict

PROBE_CLAIM = "Oslo is the capital of Norway."
"""What each model reads once when it is loaded: one whose probabilities are not finite is refused there."""
NUMBER_PROBE = "The Nile is more than 6,000 kilometres long."
"""What :meth:`ClaimVerifier.warm_up` parses once, so the number check's parsers are loaded before the first claim."""


@dataclass
class VerificationTask:
    """One claim and its evidence (best first) for :meth:`ClaimVerifier.verify_many`.

    Attributes:
        claim: the claim's analysis (its words, names and parse; ``ClaimAnalysis(claim)`` parses it when needed).
        evidence: the evidence sentences, best first.
        verdict: the decider the check asks for: ``"learned"`` (default) or ``"rule"``
            (:meth:`~fever_core.verification.policy.VerdictPolicy.decider` says which it gets).
        retriever: the retriever that selected the evidence (the learned verdict was fit on ``fused``'s scores).
        min_evidence_score, nei_threshold, number_check: the check's own policy values (``None``: the verifier's;
            :meth:`~fever_core.verification.policy.VerdictPolicy.for_check`).
        one_premise: the oracle mode: every sentence is trusted and read together as one premise; the stance is
            reported on the first.
    """

    claim: ClaimAnalysis
    evidence: list[EvidenceSentence]
    verdict: str = LEARNED
    retriever: str = LEARNED_RETRIEVER
    min_evidence_score: float | None = None
    nei_threshold: float | None = None
    number_check: bool | None = None
    one_premise: bool = False


@dataclass
class _Reading:
    """One task on its way through :meth:`ClaimVerifier.verify_many`: its policy and decider, what the verifier reads
    (the pairs; one joined pair in the one-premise mode), and its evidence as judged."""

    task: VerificationTask
    policy: VerdictPolicy
    decider: str
    premises: list[str]
    trusted: list[bool]
    bears: list[bool]
    pairs: list[tuple[str, str]]
    joined: bool
    evidence: list[JudgedSentence] | None = None

    def judged_bearing(self) -> list[int]:
        """The indexes of the sentences the verifier judges that bear on the claim, best first (known before they are
        read: the parts and number checks read them in the same call)."""
        return [j for j, (judged, bears) in enumerate(zip(self.trusted, self.bears)) if judged and bears]


@dataclass
class _Asked:
    """What a check beyond the evidence asks the verifier to read for one claim: the indexes of the sentences it is
    read against, and the (premise, claim) ``pairs``."""

    sentences: list[int]
    pairs: list[tuple[str, str]]


@dataclass
class _PartsAsked(_Asked):
    """A compound claim's parts (:func:`claim_parts`), each against every judged sentence that bears on the claim."""

    parts: tuple[str, ...]


@dataclass
class _NumbersAsked(_Asked):
    """A claim rewritten with its sentences' numbers (``trial``) and with its contrast words' opposites
    (``contrasts``)."""

    trial: NumberTrial
    contrasts: list[ContrastCandidate]


class ClaimVerifier:
    """The verifier, its verdict policy, and the joint verifier when the learned verdict mixes one in.

    Args:
        verifier: the one-premise NLI model.
        policy: the verdict policy (:class:`~fever_core.verification.policy.VerdictPolicy`; default: plain argmax,
            minimum evidence score 0.25, no learned verdict: the best-sentence rule decides).
        joint_verifier: the model that reads the top evidence together with the claim, mixed into the
            learned verdict's probabilities (``None``: the learned verdict alone).

    Attributes:
        warnings: what every check made with it should say about its models (e.g. that a damaged verifier was
            refused and the shipped one used instead: :meth:`load`).
    """

    def __init__(self, verifier: NliModel, policy: VerdictPolicy | None = None, joint_verifier: NliModel | None = None):
        self.warnings: list[str] = []
        self.verifier = verifier
        self.policy = policy or VerdictPolicy()
        self.joint_verifier = joint_verifier if self.policy.learned is not None else None

    @classmethod
    def load(cls, settings: Settings) -> ClaimVerifier:
        """The configured verifier with its verdict policy (:meth:`~fever_core.verification.policy.VerdictPolicy.load`,
        from the files beside it), and the joint verifier when the learned verdict gives it a weight.

        A model that is damaged (:class:`~fever_core.verification.model_integrity.ModelDamaged`: a file differs
        from its checksum or is missing, a shipped model has no checksums, its folder's files can't be loaded, or its
        probabilities for :data:`PROBE_CLAIM` are not finite) or can't be loaded (its base's packages are missing,
        or its base is damaged: :class:`~fever_core.verification.base_models.BaseModelError`) is refused, and a
        shipped one in its place is used (a verifier: the small :data:`~fever_core.common.settings.FALLBACK_VERIFIER`),
        saying so in :attr:`warnings`; so does a choice of
        verifier in the data folder that can't be used (:func:`~fever_core.common.model_versions.active_choice_problem`).

        Raises:
            ModelDamaged: the fallback verifier or the shipped joint verifier is damaged (nothing to fall back on).
        """
        warnings = []
        while True:
            try:
                verification = cls._load(settings)
                break
            except ModelDamaged as exc:
                shipped = _shipped_instead(settings, exc.model)
                if shipped is None:
                    raise
                what = (
                    "shipped joint verifier"
                    if shipped.verifier_model == settings.verifier_model
                    else "small shipped verifier (MiniLM)"
                )
                warnings.append(f"{exc} The {what} was used instead.")
                settings = shipped
        problem = active_choice_problem(settings.data_dir)
        if problem is not None and any(
            _same_model(settings.verifier_model, shipped) for shipped in (DEFAULT_VERIFIER, FALLBACK_VERIFIER)
        ):
            warnings.insert(0, problem)
        verification.warnings = warnings
        return verification

    @classmethod
    def _load(cls, settings: Settings) -> ClaimVerifier:
        """The models ``settings`` name, each run once on :data:`PROBE_CLAIM`. Raises :class:`ModelDamaged`."""
        verifier = _load_model(settings.verifier_model, settings)
        policy = VerdictPolicy.load(settings.verifier_model)
        joint = None
        if settings.joint_verifier_model and policy.learned is not None and policy.learned.joint_weight > 0:
            joint = _load_model(settings.joint_verifier_model, settings)
        verification = cls(verifier, policy, joint)
        verification.warm_up(PROBE_CLAIM)
        return verification

    def warm_up(self, claim: str) -> None:
        """Run each model once on ``claim`` (its first pass loads lazily), and the number check's parsers once, so the
        first real check is as fast as the next."""
        for model in (self.verifier, self.joint_verifier):
            if model is not None:
                model.predict([(claim, claim)])
        number_mentions(NUMBER_PROBE)

    def verify(
        self,
        claim: ClaimAnalysis | str,
        evidence: list[EvidenceSentence],
        verdict: str = LEARNED,
        min_evidence_score: float | None = None,
        nei_threshold: float | None = None,
        number_check: bool | None = None,
        one_premise: bool = False,
    ) -> tuple[list[JudgedSentence], Verdict]:
        """Judge ``evidence`` (best first) and decide the claim (a ``str`` is taken as ``ClaimAnalysis(claim)``); the
        other arguments are :class:`VerificationTask`'s."""
        analysis = claim if isinstance(claim, ClaimAnalysis) else ClaimAnalysis(claim)
        task = VerificationTask(
            analysis, evidence, verdict, LEARNED_RETRIEVER, min_evidence_score, nei_threshold, number_check, one_premise
        )
        return self.verify_many([task])[0]

    def verify_many(
        self, tasks: list[VerificationTask], cancelled: Callable[[int], bool] | None = None
    ) -> list[tuple[list[JudgedSentence], Verdict]]:
        """Judge several claims' evidence and decide each claim (the module's docstring: the flow), running the
        verifier once over every claim's (premise, claim) pairs and the joint verifier once over every claim's top
        sentences: fewer, fuller model batches. On a GPU a batch takes about the time of one claim; on a CPU, whose
        models are compute-bound, about the time of its claims one by one. With several tasks the pairs are read
        shortest first, so each model batch pads less; a claim's outcome is then :meth:`verify`'s up to float
        rounding. ``cancelled``, when given, says whether the ``i``-th task is no longer wanted: asked before each model
        batch (:func:`_predict`), a task no longer wanted is read no further (its pairs left unread, no joint verifier,
        no bridges), and its verdict, decided without them, is for the caller to throw away.

        Returns:
            For each task, in order: the evidence as judged, and the claim's verdict.
        """
        readings = [self._read(task) for task in tasks]
        by_length = len(tasks) > 1
        parts = self._parts_asked(readings)
        numbers = self._numbers_asked(readings)
        # the first verifier call: every claim's evidence, parts and number and contrast rewritings
        evidence_pairs = [pair for reading in readings for pair in reading.pairs]
        part_pairs = [pair for asked in parts.values() for pair in asked.pairs]
        number_pairs = [pair for asked in numbers.values() for pair in asked.pairs]
        owners = [i for i, reading in enumerate(readings) for _ in reading.pairs] + [
            i for asked in (parts, numbers) for i, claim_asked in asked.items() for _ in claim_asked.pairs
        ]
        rows = _predict(
            self.verifier,
            evidence_pairs + part_pairs + number_pairs,
            by_length,
            cancelled and (lambda n: cancelled(owners[n])),
        )
        evidence_rows, part_rows, number_rows = np.split(
            rows, [len(evidence_pairs), len(evidence_pairs) + len(part_pairs)]
        )
        calls = [
            int(bool(reading.pairs or (i in parts and parts[i].pairs) or i in numbers))
            for i, reading in enumerate(readings)
        ]
        judged_rows = iter(evidence_rows)
        for reading in readings:
            reading.evidence = _judged(reading, judged_rows)

        def wanted() -> list[bool]:
            return [not (cancelled and cancelled(i)) for i in range(len(tasks))]

        joint_pairs = {
            i: (joint_premise([item.titled for item in reading.evidence]), reading.task.claim.claim)
            for i, (reading, still_wanted) in enumerate(zip(readings, wanted()))
            if still_wanted and reading.decider == LEARNED and reading.evidence and self.joint_verifier is not None
        }
        joint_rows = dict(zip(joint_pairs, _predict(self.joint_verifier, list(joint_pairs.values()), by_length)))
        decisions = [self._decide(reading, joint_rows.get(i)) for i, reading in enumerate(readings)]
        decisions = self._parts_decide(readings, decisions, parts, part_rows)
        decisions, bridged = self._check_bridges(readings, decisions, by_length, wanted())  # the second call, if any
        decisions = self._numbers_decide(readings, decisions, numbers, number_rows)
        for i in bridged:
            calls[i] += 1
        return [
            self._conclude(reading, decision, called, _notes(numbers.get(i)))
            for i, (reading, decision, called) in enumerate(zip(readings, decisions, calls))
        ]

    @staticmethod
    def _conclude(
        reading: _Reading, decision: Decision, verifier_calls: int, notes: tuple[str, ...]
    ) -> tuple[list[JudgedSentence], Verdict]:
        """The claim's verdict: ``decision`` held to its own evidence (:func:`~fever_core.verification.deciders.grounded`),
        each sentence given the reading it counted with, the verdict put in words and its probability calibrated
        (where the policy has a calibration), with the verifier calls it took and its notes, whether its label is
        withheld and the sentences to read (:mod:`~fever_core.verification.read_these`)."""
        evidence = reading.evidence
        counted = counted_readings(decision, evidence, reading.policy.nei_threshold)
        decision = grounded(decision, counted, evidence)
        for item, counted_reading in zip(evidence, counted):
            item.reading = counted_reading
        calibration = reading.policy.calibration
        calibrated = (
            None
            if calibration is None
            else calibration.probability(
                decision.probabilities[decision.label],
                decision.label,
                decision.decided_by != LEARNED,
                decision.undecided,
            )
        )
        verdict = Verdict.of(
            decision, *explain(decision, reading.task.claim, evidence), calibrated, verifier_calls, notes
        )
        return evidence, replace(
            verdict,
            label_withheld=withholds_label(verdict.probability, verdict.undecided),
            read_these=settling_sentences(reading.task.claim.claim, evidence),
        )

    def _read(self, task: VerificationTask) -> _Reading:
        """What the verifier reads for ``task``, under the check's policy."""
        policy = self.policy.for_check(task.min_evidence_score, task.nei_threshold, task.number_check)
        decider = policy.decider(task.verdict, task.retriever, task.one_premise)
        claim, evidence = task.claim.claim, task.evidence
        premises = [chain_premise(e) for e in evidence]
        trusted = [task.one_premise or e.score >= policy.min_evidence_score for e in evidence]
        bears = [task.one_premise or mentions_a_name(task.claim.names, premise) for premise in premises]
        pairs = [(premise, claim) for premise, ok in zip(premises, trusted) if ok]
        joined = task.one_premise and len(pairs) > 1
        if joined:
            pairs = [(" ".join(premise for premise, _ in pairs), claim)]
            trusted = [True] + [False] * (len(evidence) - 1)
        return _Reading(task, policy, decider, premises, trusted, bears, pairs, joined)

    def _decide(self, reading: _Reading, joint: np.ndarray | None) -> Decision:
        """The decision of the claim's decider: the best-sentence rule, or the learned verdict (``joint``: the joint
        verifier's probabilities) unless the page rule overrides it, and where they leave the claim NOT ENOUGH INFO,
        the sure-sentence rule."""
        claim, evidence, policy = reading.task.claim, reading.evidence, reading.policy
        if reading.decider == RULE:
            decision = best_sentence_rule(evidence, policy.nei_threshold)
        else:
            decision = learned_verdict(policy.learned, claim, evidence, joint)
            decision = page_rule(claim, evidence, policy.page_rule_min, decision) or decision
            decision = sure_sentence(evidence, policy.sure_sentence_min, decision) or decision
        finite_probabilities(
            np.array(list(decision.probabilities.values())), self.verifier.name, "verdict of the verifier"
        )
        return decision

    @staticmethod
    def _parts_asked(readings: list[_Reading]) -> dict[int, _PartsAsked]:
        """For each compound claim (:func:`claim_parts`) the learned verdict decides under the sure-sentence rule's
        threshold (a verifier without one reads claims whole): each part against every sentence the verifier judges
        that bears on the claim."""
        asked = {}
        for i, reading in enumerate(readings):
            if reading.decider == LEARNED and reading.policy.sure_sentence_min is not None:
                parts = claim_parts(reading.task.claim.claim)
                read = reading.judged_bearing()
                if parts:  # read against no sentence, the parts are shown beside the verdict all the same
                    asked[i] = _PartsAsked(
                        read, [(reading.premises[j], part) for part in parts for j in read], tuple(parts)
                    )
        return asked

    @staticmethod
    def _parts_decide(
        readings: list[_Reading], decisions: list[Decision], asked: dict[int, _PartsAsked], rows: np.ndarray
    ) -> list[Decision]:
        """``decisions`` with that of each compound claim whose parts settle it replaced by the parts' decision
        (:func:`~fever_core.verification.deciders.parts_decision`); ``rows``: the verifier's for the parts' pairs, in
        :meth:`_parts_asked`'s order."""
        stances = iter(rows)
        checked = list(decisions)
        for i, parts in asked.items():
            evidence, minimum = readings[i].evidence, readings[i].policy.sure_sentence_min
            judged = []
            for part in parts.parts:
                read = {j: Stance.from_row(next(stances)) for j in parts.sentences}
                judged.append(part_of(part, [read.get(j) for j in range(len(evidence))], evidence, minimum))
            checked[i] = parts_decision(judged, decisions[i]) or decisions[i]
        return checked

    def _check_bridges(
        self, readings: list[_Reading], decisions: list[Decision], by_length: bool, wanted: list[bool]
    ) -> tuple[list[Decision], list[int]]:
        """``decisions`` with that of each claim still NOT ENOUGH INFO that a bridge settles replaced by the bridge's
        (:func:`~fever_core.verification.deciders.bridge_decision`): each candidate's two facts
        (:func:`~fever_core.verification.bridges.bridge_trial`) read against its chain, all claims' in one batch (a
        second verifier call: which claims need it depends on the first). Only the learned verdict's claims, under
        the sure-sentence rule's threshold, and only those still ``wanted``. Also returns the claims read in that
        call."""
        trials = {}
        for i, (reading, decision) in enumerate(zip(readings, decisions)):
            if (
                wanted[i]
                and reading.decider == LEARNED
                and reading.policy.sure_sentence_min is not None
                and decision.label == NEI
            ):
                candidates = bridge_trial(reading.task.claim.claim, reading.evidence)
                if candidates:
                    trials[i] = candidates
        if not trials:
            return decisions, []
        pairs = [
            (readings[i].evidence[c.evidence].premise, claim)
            for i, candidates in trials.items()
            for c in candidates
            for claim in (c.linked_claim, c.described_claim)
        ]
        rows = iter(_predict(self.verifier, pairs, by_length))
        checked = list(decisions)
        for i, candidates in trials.items():
            stances = [(Stance.from_row(next(rows)), Stance.from_row(next(rows))) for _ in candidates]
            bridged = bridge_decision(
                candidates,
                [s for s, _ in stances],
                [s for _, s in stances],
                readings[i].policy.sure_sentence_min,
                decisions[i],
            )
            checked[i] = bridged or decisions[i]
        return checked, list(trials)

    @staticmethod
    def _numbers_asked(readings: list[_Reading]) -> dict[int, _NumbersAsked]:
        """For each claim under the number check: the claim rewritten with each judged sentence's numbers
        (:func:`~fever_core.verification.number_check.number_trial`) and contrast words
        (:mod:`~fever_core.verification.contrasts`), each against its sentence."""
        asked = {}
        for i, reading in enumerate(readings):
            if reading.policy.number_check:
                sentences = number_sentences(reading.judged_bearing())
                texts = [reading.task.evidence[j].text for j in sentences]
                trial = number_trial(reading.task.claim, texts)
                contrasts = contrast_trial(reading.task.claim.claim, texts)
                if trial.candidates or contrasts:
                    pairs = [
                        (reading.premises[sentences[c.evidence]], c.rewritten_claim)
                        for c in (*trial.candidates, *contrasts)
                    ]
                    asked[i] = _NumbersAsked(sentences, pairs, trial, contrasts)
        return asked

    @staticmethod
    def _numbers_decide(
        readings: list[_Reading], decisions: list[Decision], asked: dict[int, _NumbersAsked], rows: np.ndarray
    ) -> list[Decision]:
        """``decisions`` with that of each claim whose numbers, or contrast words, settle it replaced by the number
        check's: the numbers are settled first; the contrast words where they settle nothing. ``rows``: the
        verifier's for the rewritten claims, in :meth:`_numbers_asked`'s order."""
        p_supports = iter(rows[:, 0])
        checked = list(decisions)
        for i, numbers in asked.items():
            trial, contrasts = numbers.trial, numbers.contrasts
            settled = settle(trial, [next(p_supports) for _ in trial.candidates])
            contrasted = settle_contrast(contrasts, [next(p_supports) for _ in contrasts])
            if settled is not None:
                checked[i] = number_check(settled, numbers.sentences)
            elif contrasted is not None:
                checked[i] = number_check(contrasted, numbers.sentences, CONTRAST_CHECK)
        return checked


def _notes(numbers: _NumbersAsked | None) -> tuple[str, ...]:
    """What a claim's verdict says of the checks it did not try in full: its number trial's untried numbers."""
    note = None if numbers is None else numbers.trial.untried_note()
    return () if note is None else (note,)


def _judged(reading: _Reading, rows) -> list[JudgedSentence]:
    """The reading's evidence with the stances of its pairs, taken from ``rows`` (the verifier's, in pair order)."""
    if reading.joined:
        stances = [Stance.from_row(next(rows))] + [None] * (len(reading.task.evidence) - 1)
    else:
        stances = [Stance.from_row(next(rows)) if ok else None for ok in reading.trusted]
    return [
        JudgedSentence(e, premise, stance, ok, bears)
        for e, premise, stance, ok, bears in zip(
            reading.task.evidence, reading.premises, stances, reading.trusted, reading.bears
        )
    ]


def _same_model(a: str, b: str) -> bool:
    return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()


def _load_model(model: str, settings: Settings) -> NliModel:
    """:meth:`NliModel.load` on the device and runtime of ``settings`` (ONNX exports in its data folder), with a base
    that can't be found (its packages missing) refused as a model that must not give verdicts (:class:`ModelDamaged`),
    so that a shipped one is used in its place."""
    try:
        return NliModel.load(
            model, settings.device, runtime=settings.verifier_runtime, cache_dir=verifier_cache_dir(settings.data_dir)
        )
    except BaseModelError as exc:
        raise ModelDamaged(model, f"The verifier {model} can't be loaded: {exc}") from exc


def _shipped_instead(settings: Settings, damaged: str) -> Settings | None:
    """``settings`` with a shipped model in place of the ``damaged`` one (a verifier: the fallback); None when that
    is the fallback verifier or the shipped joint verifier."""
    if _same_model(damaged, settings.verifier_model) and not _same_model(damaged, FALLBACK_VERIFIER):
        return replace(settings, verifier_model=FALLBACK_VERIFIER)
    joint = settings.joint_verifier_model
    if joint and _same_model(damaged, joint) and not _same_model(damaged, SHIPPED_JOINT_VERIFIER):
        return replace(settings, joint_verifier_model=SHIPPED_JOINT_VERIFIER)
    return None


def _predict(
    model: NliModel | None, pairs: list[tuple[str, str]], by_length: bool, unwanted: Callable[[int], bool] | None = None
) -> np.ndarray:
    """``model``'s probabilities for ``pairs`` (none asked: no call); ``by_length`` reads them shortest first, so
    the model's batches hold pairs of like length and pad less, and returns the rows in the pairs' order.
    ``unwanted``, when given, is asked of each pair before each of the model's batches (``model.batch_size`` pairs):
    a pair no longer wanted is not read, its row left at 1/3 each (for nobody to read)."""
    if not pairs or model is None:
        return np.zeros((0, 3), dtype=np.float32)
    order = list(range(len(pairs)))
    if by_length:
        order.sort(key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    if unwanted is None:
        rows = np.empty((len(pairs), 3), dtype=np.float32)
        rows[order] = model.predict([pairs[i] for i in order])
        return rows
    rows = np.full((len(pairs), 3), 1 / 3, dtype=np.float32)
    for start in range(0, len(order), model.batch_size):
        wanted = [i for i in order[start : start + model.batch_size] if not unwanted(i)]
        if wanted:
            rows[wanted] = model.predict([pairs[i] for i in wanted])
    return rows
