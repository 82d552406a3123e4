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


def chain_premise(sentence: EvidenceSentence) -> str:
    """A second-hop sentence read after the first-hop sentence whose link led to it, as one premise
    (``"Kraftwerk: Kraftwerk was formed in Düsseldorf. Düsseldorf: Düsseldorf is the capital of ..."``):
    a claim that needs both is settled by neither alone. Any other sentence is read on its own."""
    own = premise_text(sentence.title, sentence.text)
    via = sentence.via
    if sentence.hop != 2 or via is None or not via.from_text:
        return own
    return f"{premise_text(via.from_title, via.from_text)} {own}"


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
        self.two_hop_chains = aggregator.two_hop_chains if aggregator is not None else True
        """Read second-hop sentences as chains (:func:`chain_premise`): as the learned verdict was fit, and
        always without one."""

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
        premises = [self.premise_of(e) for e in evidence]
        pairs = [(premise, claim) for premise, ok in zip(premises, trusted) if ok]
        if as_one_premise and len(pairs) > 1:
            joined = self.verifier.predict([(" ".join(p for p, _ in pairs), claim)])[0]
            stances = [Stance.from_row(joined)] + [None] * (len(evidence) - 1)
            trusted = [True] + [False] * (len(evidence) - 1)
        else:
            probs = iter(self.verifier.predict(pairs) if pairs else [])
            stances = [Stance.from_row(next(probs)) if ok else None for ok in trusted]
        names = [quote(e) for e in evidence]
        results = [EvidenceResult(e, s, ok, p) for e, s, ok, p in zip(evidence, stances, trusted, premises)]
        if self.aggregator is not None and learned and nei_threshold is None and not as_one_premise:
            views = [result.view() for result in results]
            joint = None
            if self.joint_verifier is not None and views:
                joint = self.joint_verifier.predict([(joint_premise([v.text for v in views]), claim)])[0]
            return results, aggregate_learned(self.aggregator, claim, views, names, joint)
        return results, aggregate(stances, names, threshold)

    def premise_of(self, sentence: EvidenceSentence) -> str:
        """The text the verifier reads for one evidence sentence."""
        return chain_premise(sentence) if self.two_hop_chains else premise_text(sentence.title, sentence.text)
