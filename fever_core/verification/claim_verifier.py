"""Verifying a claim against its evidence: each sentence's stance, then the claim's verdict.

:class:`ClaimVerifier` holds the verdict policy in one place. The verifier (an NLI cross-encoder) judges each
trustworthy sentence (selection score at least the rule's ``min_evidence_score``); then either the learned verdict
decides (a regression over the evidence, mixed with the joint verifier that reads the top sentences together:
:class:`~fever_core.verification.verdict.LearnedVerdict`), or the best trustworthy sentence does by the NEI rule
(:func:`~fever_core.verification.verdict.rule_verdict`). Either way the verdict names the evidence it used
and the sentences that decide it, among those that bear on the claim (read with their chain, :func:`chain_premise`;
the oracle mode's gold evidence always counts). The learned verdict was trained on the ``fused``
retriever's selection scores, so the caller says when it may be used; a check that sets its own NEI threshold,
and the oracle mode, use the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from fever_core.common.model_versions import active_choice_problem
from fever_core.retrieval.results import EvidenceSentence
from fever_core.common.settings import DEFAULT_VERIFIER, FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER, Settings
from fever_core.common.text import premise_text
from fever_core.common.types import NEI, REFUTES, SUPPORTS, Stance
from fever_core.verification.base_models import BaseModelError
from fever_core.verification.model_integrity import ModelDamaged, finite_probabilities
from fever_core.verification.nli import NliModel
from fever_core.verification.numbers import NumberCheck, NumberTrial, number_check, number_mentions, number_trial
from fever_core.verification.verdict import (
    DecisionRule,
    EvidenceView,
    LearnedVerdict,
    Verdict,
    bears_on_claim,
    claim_names,
    joint_premise,
    load_decision_rule,
    rule_verdict,
)


def chain_premise(sentence: EvidenceSentence) -> str:
    """A second-hop sentence read after the first-hop sentence whose link led to it, as one premise
    (``"Kraftwerk: Kraftwerk was formed in Düsseldorf. Düsseldorf: Düsseldorf is the capital of ..."``):
    a claim that needs both is settled by neither alone. Any other sentence is read on its own."""
    own = premise_text(sentence.title, sentence.text)
    via = sentence.via
    if sentence.hop != 2 or via is None or not via.from_text:
        return own
    return f"{premise_text(via.from_title, via.from_text)} {own}"


PROBE_CLAIM = "Oslo is the capital of Norway."
"""What each model reads once when it is loaded: one whose probabilities are not finite is refused there."""
NUMBER_PROBE = "The Nile is more than 6,000 kilometres long."
"""What :meth:`ClaimVerifier.warm_up` parses once, so the number check's parsers are loaded before the first claim."""
NUMBER_SENTENCES = 3
"""The number check reads this many of the best judged sentences that bear on the claim."""
QUOTE_CHARS = 200
"""A quoted sentence in a verdict's reason is cut to this many characters."""


def quote(sentence: EvidenceSentence) -> str:
    """How a verdict's reason names a sentence: its page and its words, ``Munich: "Munich is the capital ..."``."""
    text = sentence.text if len(sentence.text) <= QUOTE_CHARS else sentence.text[: QUOTE_CHARS - 1].rstrip() + "…"
    return f'{sentence.title}: "{text}"'


@dataclass
class EvidenceResult:
    """An evidence sentence as the verifier judged it.

    Attributes:
        sentence: the sentence, with its selection score.
        stance: the verifier's stance, ``None`` when it was not trusted (not judged).
        trusted: its selection score reached the minimum evidence score (or the oracle trusts it).
        premise: the text the verifier read for it (``"Title: sentence"``, or a two-hop chain).
    """

    sentence: EvidenceSentence
    stance: Stance | None
    trusted: bool
    premise: str = ""

    def view(self) -> EvidenceView:
        """What the learned verdict sees of it (and what its training runs record): its score, hop and stance,
        and the sentence itself as ``"Title: sentence"`` (the joint verifier reads those together)."""
        sentence = self.sentence
        return EvidenceView(sentence.score, sentence.hop, self.stance, premise_text(sentence.title, sentence.text))


@dataclass
class VerificationTask:
    """One claim and its evidence (best first) for :meth:`ClaimVerifier.verify_many`; the other fields are
    :meth:`ClaimVerifier.verify`'s options."""

    claim: str
    evidence: list[EvidenceSentence]
    learned: bool = True
    min_evidence_score: float | None = None
    nei_threshold: float | None = None
    as_one_premise: bool = False
    number_check: bool = True


@dataclass
class _Plan:
    """What the verifier reads for one task: each sentence's premise and whether it is judged, the pairs to
    predict (one joined pair in the one-premise mode), and whether the learned verdict decides."""

    task: VerificationTask
    premises: list[str]
    trusted: list[bool]
    pairs: list[tuple[str, str]]
    joined: bool
    learned: bool


class ClaimVerifier:
    """The verifier, its decision rule, and the learned verdict with its joint verifier when it has one.

    Args:
        verifier: the one-premise NLI model.
        rule: its NEI decision rule and minimum evidence score (plain argmax and 0.25 by default).
        learned_verdict: the learned verdict (``None``: the rule decides).
        joint_verifier: the model that reads the top evidence together with the claim, mixed into the
            learned verdict's probabilities (``None``: the learned verdict alone).

    Attributes:
        warnings: what every check made with it should say about its models (e.g. that a damaged verifier was
            refused and the shipped one used instead: :meth:`load`).
    """

    def __init__(
        self,
        verifier: NliModel,
        rule: DecisionRule | None = None,
        learned_verdict: LearnedVerdict | None = None,
        joint_verifier: NliModel | None = None,
    ):
        self.warnings: list[str] = []
        self.verifier = verifier
        self.rule = rule or DecisionRule()
        self.learned_verdict = learned_verdict
        self.joint_verifier = joint_verifier if learned_verdict is not None else None
        self.two_hop_chains = learned_verdict.two_hop_chains if learned_verdict is not None else True
        """Read second-hop sentences as chains (:func:`chain_premise`): as the learned verdict was fit, and
        always without one."""

    @classmethod
    def load(cls, settings: Settings) -> ClaimVerifier:
        """The configured verifier with its rule and learned verdict (:data:`~fever_core.verification.verdict.VERDICT_FILE` beside it), and the
        joint verifier when the learned verdict gives it a weight.

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
                what = ("shipped joint verifier" if shipped.verifier_model == settings.verifier_model
                        else "small shipped verifier (MiniLM)")
                warnings.append(f"{exc} The {what} was used instead.")
                settings = shipped
        problem = active_choice_problem(settings.data_dir)
        if problem is not None and any(_same_model(settings.verifier_model, shipped)
                                       for shipped in (DEFAULT_VERIFIER, FALLBACK_VERIFIER)):
            warnings.insert(0, problem)
        verification.warnings = warnings
        return verification

    @classmethod
    def _load(cls, settings: Settings) -> ClaimVerifier:
        """The models ``settings`` name, each run once on :data:`PROBE_CLAIM`. Raises :class:`ModelDamaged`."""
        verifier = _load_model(settings.verifier_model, settings.device)
        learned_verdict = LearnedVerdict.load(settings.verifier_model)
        joint = None
        if settings.joint_verifier_model and learned_verdict is not None and learned_verdict.joint_weight > 0:
            joint = _load_model(settings.joint_verifier_model, settings.device)
        verification = cls(verifier, load_decision_rule(settings.verifier_model), learned_verdict, joint)
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
        claim: str,
        evidence: list[EvidenceSentence],
        learned: bool = True,
        min_evidence_score: float | None = None,
        nei_threshold: float | None = None,
        as_one_premise: bool = False,
        number_check: bool = True,
    ) -> tuple[list[EvidenceResult], Verdict]:
        """Judge ``evidence`` (best first) and decide the claim.

        Args:
            learned: the learned verdict may decide (when there is one); ``False`` makes the rule decide.
            min_evidence_score: overrides the rule's minimum selection score for evidence to be judged.
            nei_threshold: overrides the rule's P(NOT ENOUGH INFO) threshold; setting it makes the rule decide.
            as_one_premise: every sentence is trusted and read together as one premise, the way the verifier
                was trained on gold evidence groups (the oracle mode); the stance is reported on the first.
            number_check: the claim's numbers, dates and ordinals are compared with the evidence's
                (:meth:`check_numbers`), and decide where they settle the claim.
        """
        task = VerificationTask(claim, evidence, learned, min_evidence_score, nei_threshold, as_one_premise,
                                number_check)
        return self.verify_many([task])[0]

    def verify_many(self, tasks: list[VerificationTask]) -> list[tuple[list[EvidenceResult], Verdict]]:
        """Judge several claims' evidence and decide each claim, as :meth:`verify` does one by one, but running
        the verifier once over every claim's (premise, claim) pairs and the joint verifier once over every claim's
        top sentences: fewer, fuller model batches. On a GPU a batch takes about the time of one claim; on a CPU,
        whose models are compute-bound, about the time of its claims one by one. With several tasks the pairs are
        read shortest first, so each model batch pads less; a claim's outcome is then :meth:`verify`'s up to float
        rounding.

        Returns:
            For each task, in order: the evidence as judged, and the claim's verdict.
        """
        plans = [self._plan(task) for task in tasks]
        by_length = len(tasks) > 1
        rows = iter(_predict(self.verifier, [pair for plan in plans for pair in plan.pairs], by_length))
        judged: list[tuple[list[EvidenceResult], list[Stance | None], list[EvidenceView]]] = []
        for plan in plans:
            if plan.joined:
                stances = [Stance.from_row(next(rows))] + [None] * (len(plan.task.evidence) - 1)
            else:
                stances = [Stance.from_row(next(rows)) if ok else None for ok in plan.trusted]
            results = [EvidenceResult(e, stance, ok, premise) for e, stance, ok, premise
                       in zip(plan.task.evidence, stances, plan.trusted, plan.premises)]
            judged.append((results, stances, [result.view() for result in results] if plan.learned else []))
        joint_pairs = {i: (joint_premise([view.text for view in views]), plan.task.claim)
                       for i, (plan, (_, _, views)) in enumerate(zip(plans, judged))
                       if plan.learned and views and self.joint_verifier is not None}
        joint_rows = dict(zip(joint_pairs, _predict(self.joint_verifier, list(joint_pairs.values()), by_length)))
        outcomes = []
        for i, (plan, (results, stances, views)) in enumerate(zip(plans, judged)):
            names = [quote(e) for e in plan.task.evidence]
            texts = None if plan.task.as_one_premise else [(e.title, chain_premise(e)) for e in plan.task.evidence]
            if plan.learned:
                verdict = self.learned_verdict.verdict(plan.task.claim, views, names, joint_rows.get(i), texts)
            else:
                threshold = self.rule.nei_threshold if plan.task.nei_threshold is None else plan.task.nei_threshold
                verdict = rule_verdict(stances, names, threshold, plan.task.claim, texts)
            finite_probabilities(np.array(list(verdict.probabilities.values())), self.verifier.name,
                                 "verdict of the verifier")
            outcomes.append((results, verdict))
        return self._checked_numbers(plans, outcomes, by_length)

    def _checked_numbers(self, plans: list[_Plan], outcomes: list[tuple[list[EvidenceResult], Verdict]],
                         by_length: bool) -> list[tuple[list[EvidenceResult], Verdict]]:
        """The outcomes with the verdict of each claim whose numbers settle it replaced by what they settle
        (:mod:`~fever_core.verification.numbers`): the verifier reads every task's rewritten claims in one batch."""
        trials: dict[int, tuple[NumberTrial, list[int]]] = {}
        for i, (plan, (results, verdict)) in enumerate(zip(plans, outcomes)):
            if plan.task.number_check:
                trial, sentences = self.number_trial(plan.task.claim, results)
                if trial.candidates:
                    trials[i] = (trial, sentences)
        if not trials:
            return outcomes
        pairs = [(outcomes[i][0][sentences[c.evidence]].premise, c.rewritten_claim)
                 for i, (trial, sentences) in trials.items() for c in trial.candidates]
        p_supports = iter(_predict(self.verifier, pairs, by_length)[:, 0])
        checked = list(outcomes)
        for i, (trial, sentences) in trials.items():
            check = number_check(trial, [next(p_supports) for _ in trial.candidates])
            results, verdict = outcomes[i]
            if check is not None:
                checked[i] = (results, numbers_verdict(check, results, sentences))
        return checked

    def number_trial(self, claim: str, results: list[EvidenceResult]) -> tuple[NumberTrial, list[int]]:
        """The claim's numbers tried against those of its best judged evidence that bears on it (at most
        :data:`NUMBER_SENTENCES`), and those sentences' indexes in ``results`` (a candidate's ``evidence`` indexes
        this list)."""
        names = claim_names(claim)
        sentences = [i for i, r in enumerate(results)
                     if r.stance is not None and bears_on_claim(names, r.premise)][:NUMBER_SENTENCES]
        return number_trial(claim, [results[i].sentence.text for i in sentences]), sentences

    def _plan(self, task: VerificationTask) -> _Plan:
        min_score = self.rule.min_evidence_score if task.min_evidence_score is None else task.min_evidence_score
        trusted = [task.as_one_premise or e.score >= min_score for e in task.evidence]
        premises = [self.premise_of(e) for e in task.evidence]
        pairs = [(premise, task.claim) for premise, ok in zip(premises, trusted) if ok]
        joined = task.as_one_premise and len(pairs) > 1
        if joined:
            pairs = [(" ".join(p for p, _ in pairs), task.claim)]
            trusted = [True] + [False] * (len(task.evidence) - 1)
        learned = (self.learned_verdict is not None and task.learned and task.nei_threshold is None
                   and not task.as_one_premise)
        return _Plan(task, premises, trusted, pairs, joined, learned)

    def premise_of(self, sentence: EvidenceSentence) -> str:
        """The text the verifier reads for one evidence sentence."""
        return chain_premise(sentence) if self.two_hop_chains else premise_text(sentence.title, sentence.text)


def numbers_verdict(check: NumberCheck, results: list[EvidenceResult], sentences: list[int]) -> Verdict:
    """The verdict the claim's numbers settle (:func:`~fever_core.verification.numbers.number_check`), resting on the
    sentence whose number decides. Its probability is the verifier's P(SUPPORTS) that the sentence states the claim
    up to the number; the rest is NOT ENOUGH INFO (the numbers themselves are not in doubt)."""
    best = sentences[check.evidence]
    sentence = results[best].sentence
    label = check.label
    probabilities = {SUPPORTS: 0.0, REFUTES: 0.0, NEI: round(1.0 - check.p_settled, 6)}
    probabilities[label] = round(check.p_settled, 6)
    why = check.why(sentence.title)
    verb = "Supported" if label == SUPPORTS else "Refuted"
    return Verdict(label, probabilities, f"{verb} by {quote(sentence)} (P = {check.p_settled:.2f}). {why}",
                   [best], [best], why)


def _same_model(a: str, b: str) -> bool:
    return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()


def _load_model(model: str, device: str) -> NliModel:
    """:meth:`NliModel.load`, with a base that can't be found (its packages missing) refused as a model that must
    not give verdicts (:class:`ModelDamaged`), so that a shipped one is used in its place."""
    try:
        return NliModel.load(model, device)
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


def _predict(model: NliModel | None, pairs: list[tuple[str, str]], by_length: bool) -> np.ndarray:
    """``model``'s probabilities for ``pairs`` (none asked: no call); ``by_length`` reads them shortest first, so
    the model's batches hold pairs of like length and pad less, and returns the rows in the pairs' order."""
    if not pairs or model is None:
        return np.zeros((0, 3), dtype=np.float32)
    if not by_length:
        return model.predict(pairs)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    rows = np.empty((len(pairs), 3), dtype=np.float32)
    rows[order] = model.predict([pairs[i] for i in order])
    return rows
