"""Verifying a claim against its evidence: each sentence's stance, then the claim's verdict.

:class:`ClaimVerifier` holds the verdict policy in one place. The verifier (an NLI cross-encoder) judges each
trustworthy sentence (selection score at least the rule's ``min_evidence_score``); then either the learned
claim-level verdict decides (a regression over the evidence, mixed with the joint verifier that reads the top
sentences together: :mod:`~fever_core.verification.aggregator`), or the best trustworthy sentence does by the
NEI rule (:func:`~fever_core.verification.verdict.aggregate`). The learned verdict was trained on the ``fused``
retriever's selection scores, so the caller says when it may be used; a check that sets its own NEI threshold,
and the oracle mode, use the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from fever_core.retrieval.results import EvidenceSentence
from fever_core.settings import Settings
from fever_core.text import premise_text
from fever_core.types import Stance
from fever_core.verification.aggregator import EvidenceView, LearnedAggregator, joint_premise
from fever_core.verification.decision import DecisionRule, load_decision_rule
from fever_core.verification.nli import NliModel
from fever_core.verification.verdict import Verdict, aggregate, aggregate_learned


@dataclass
class EvidenceResult:
    """An evidence sentence as the verifier judged it (``stance`` is ``None`` when it was not trusted)."""

    sentence: EvidenceSentence
    stance: Stance | None
    trusted: bool

    def view(self) -> EvidenceView:
        """What the learned verdict sees of it (and what its training runs record)."""
        sentence = self.sentence
        return EvidenceView(sentence.score, sentence.hop, self.stance, premise_text(sentence.title, sentence.text))


class ClaimVerifier:
    """The verifier, its decision rule, and the learned verdict with its joint verifier when it has one.

    Args:
        verifier: the one-premise NLI model.
        rule: its NEI decision rule and minimum evidence score (plain argmax and 0.25 by default).
        aggregator: the learned claim-level verdict (``None``: the rule decides).
        joint_verifier: the model that reads the top evidence together with the claim, mixed into the
            aggregator's probabilities (``None``: the aggregator alone).
    """

    def __init__(
        self,
        verifier: NliModel,
        rule: DecisionRule | None = None,
        aggregator: LearnedAggregator | None = None,
        joint_verifier: NliModel | None = None,
    ):
        self.verifier = verifier
        self.rule = rule or DecisionRule()
        self.aggregator = aggregator
        self.joint_verifier = joint_verifier if aggregator is not None else None

    @classmethod
    def load(cls, settings: Settings) -> ClaimVerifier:
        """The configured verifier with its rule and learned verdict (``aggregator.json`` beside it), and the
        joint verifier when the learned verdict gives it a weight."""
        verifier = NliModel.load(settings.verifier_model, settings.device)
        aggregator = LearnedAggregator.load(settings.verifier_model)
        joint = None
        if settings.joint_verifier_model and aggregator is not None and aggregator.joint_weight > 0:
            joint = NliModel.load(settings.joint_verifier_model, settings.device)
        return cls(verifier, load_decision_rule(settings.verifier_model), aggregator, joint)

    def verify(
        self,
        claim: str,
        evidence: list[EvidenceSentence],
        learned: bool = True,
        min_evidence_score: float | None = None,
        nei_threshold: float | None = None,
        as_one_premise: bool = False,
    ) -> tuple[list[EvidenceResult], Verdict]:
        """Judge ``evidence`` (best first) and decide the claim.

        Args:
            learned: the learned verdict may decide (when there is one); ``False`` makes the rule decide.
            min_evidence_score: overrides the rule's minimum selection score for evidence to be judged.
            nei_threshold: overrides the rule's P(NOT ENOUGH INFO) threshold; setting it makes the rule decide.
            as_one_premise: every sentence is trusted and read together as one premise, the way the verifier
                was trained on gold evidence groups (the oracle mode); the stance is reported on the first.
        """
        min_score = self.rule.min_evidence_score if min_evidence_score is None else min_evidence_score
        threshold = self.rule.nei_threshold if nei_threshold is None else nei_threshold
        trusted = [as_one_premise or e.score >= min_score for e in evidence]
        pairs = [(premise_text(e.title, e.text), claim) for e, ok in zip(evidence, trusted) if ok]
        if as_one_premise and len(pairs) > 1:
            joined = self.verifier.predict([(" ".join(p for p, _ in pairs), claim)])[0]
            stances = [Stance.from_row(joined)] + [None] * (len(evidence) - 1)
            trusted = [True] + [False] * (len(evidence) - 1)
        else:
            probs = iter(self.verifier.predict(pairs) if pairs else [])
            stances = [Stance.from_row(next(probs)) if ok else None for ok in trusted]
        names = [f"{e.title}, sentence {e.line}" for e in evidence]
        results = [EvidenceResult(e, s, ok) for e, s, ok in zip(evidence, stances, trusted)]
        if self.aggregator is not None and learned and nei_threshold is None and not as_one_premise:
            views = [result.view() for result in results]
            joint = None
            if self.joint_verifier is not None and views:
                joint = self.joint_verifier.predict([(joint_premise([v.text for v in views]), claim)])[0]
            return results, aggregate_learned(self.aggregator, claim, views, names, joint)
        return results, aggregate(stances, names, threshold)
