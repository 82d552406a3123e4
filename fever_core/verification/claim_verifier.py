"""Verifying a claim against its evidence: each sentence's stance, then the claim's verdict.

:meth:`ClaimVerifier.verify_many` is the whole flow, for several claims at once (each model runs once over all of
them):

1. **Read** (:meth:`ClaimVerifier._read`): for each evidence sentence, the premise the verifier reads (its chain for
   a second-hop sentence, :func:`~fever_core.verification.evidence.chain_premise`), whether it is trusted (selection
   score at least the policy's ``min_evidence_score``) and whether it bears on the claim (mentions one of its
   names); the check's policy, with the decider it gets
   (:meth:`~fever_core.verification.policy.VerdictPolicy.decider`).
2. **Decide**: the verdict's cascade (:func:`~fever_core.verification.cascade.run_cascade`): the verifier judges the
   trusted sentences, and each stage of :data:`~fever_core.verification.cascade.CASCADE` that the policy turns on
   may decide in turn, grounding last.
3. **Words**: the decision becomes the :class:`~fever_core.verification.verdict.Verdict` with its reason and its
   plain why (:mod:`~fever_core.verification.explanation`), its probability calibrated, its label withheld where it
   is too unsure to show, and the sentences to read (:mod:`~fever_core.verification.read_these`).

The oracle mode (``one_premise``) reads every given sentence together as one premise, the way the verifier was
trained on gold evidence groups, and the best-sentence rule decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from fever_core.common.model_versions import active_choice_problem
from fever_core.common.names import mentions_a_name
from fever_core.common.settings import DEFAULT_VERIFIER, FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER, Settings
from fever_core.retrieval.claim_analysis import ClaimAnalysis
from fever_core.retrieval.results import EvidenceSentence
from fever_core.verification.base_models import BaseModelError
from fever_core.verification.cascade import ClaimInCascade, run_cascade
from fever_core.verification.decision import Decision
from fever_core.verification.evidence import JudgedSentence, chain_premise
from fever_core.verification.explanation import explain
from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.nli import NliModel
from fever_core.verification.numbers import number_mentions
from fever_core.verification.onnx_export import verifier_cache_dir
from fever_core.verification.policy import LEARNED, LEARNED_RETRIEVER, VerdictPolicy
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
        batch, a task no longer wanted is read no further (its pairs left unread, no joint verifier, no bridges), and
        its verdict, decided without them, is for the caller to throw away.

        Returns:
            For each task, in order: the evidence as judged, and the claim's verdict.
        """
        claims = [self._read(task) for task in tasks]
        decisions = run_cascade(claims, self.verifier, self.joint_verifier, len(tasks) > 1, cancelled)
        return [self._conclude(claim, decision) for claim, decision in zip(claims, decisions)]

    def _read(self, task: VerificationTask) -> ClaimInCascade:
        """``task``'s claim under the check's policy, with the decider it gets, and what the verifier reads of its
        evidence."""
        policy = self.policy.for_check(task.min_evidence_score, task.nei_threshold, task.number_check)
        policy = policy.for_decider(policy.decider(task.verdict, task.retriever, task.one_premise))
        claim, evidence = task.claim.claim, task.evidence
        premises = [chain_premise(e) for e in evidence]
        trusted = [task.one_premise or e.score >= policy.min_evidence_score for e in evidence]
        bears = [task.one_premise or mentions_a_name(task.claim.names, premise) for premise in premises]
        pairs = [(premise, claim) for premise, ok in zip(premises, trusted) if ok]
        if task.one_premise and len(pairs) > 1:
            pairs = [(" ".join(premise for premise, _ in pairs), claim)]
            trusted = [True] + [False] * (len(evidence) - 1)
        judged = [
            JudgedSentence(e, premise, None, ok, bears_on_claim)
            for e, premise, ok, bears_on_claim in zip(evidence, premises, trusted, bears)
        ]
        return ClaimInCascade(task.claim, policy, judged, pairs)

    @staticmethod
    def _conclude(claim: ClaimInCascade, decision: Decision) -> tuple[list[JudgedSentence], Verdict]:
        """The claim's verdict: its grounded ``decision`` put in words and its probability calibrated (where the
        policy has a calibration), with the verifier calls it took and its notes, whether its label is withheld and
        the sentences to read (:mod:`~fever_core.verification.read_these`)."""
        evidence, calibration = claim.evidence, claim.policy.calibration
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
            decision, *explain(decision, claim.claim, evidence), calibrated, claim.verifier_calls, claim.notes
        )
        return evidence, replace(
            verdict,
            label_withheld=withholds_label(verdict.probability, verdict.undecided),
            read_these=settling_sentences(claim.claim.claim, evidence),
        )


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
