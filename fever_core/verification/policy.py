"""The verdict policy: every value that turns one verifier's stances into verdicts, read once from its folder.

A verifier's folder holds two files the policy is read from. ``config.json`` (beside the weights) carries the
**NEI rule**: training chooses ``nei_threshold`` on held-out data and saves it with the weights, so a model and the
rule it was calibrated for travel together: a stance is NOT ENOUGH INFO when P(NEI) reaches the threshold, else the
larger of SUPPORTS and REFUTES (:func:`stance_label`); a model without it (a hub NLI model) gets plain argmax. It also
carries ``min_evidence_score``, the selection score from which a sentence is judged at all (DOMLIN's finding: only
trustworthy evidence counts). :data:`~fever_core.verification.learned.VERDICT_FILE` carries the learned verdict
(:class:`~fever_core.verification.learned.LearnedVerdict`) with the page rule's threshold; a verifier without it
has the best-sentence rule decide.

A check may change the policy's values (:meth:`VerdictPolicy.for_check`: the thresholds, the number check), never
which decider runs: that is :meth:`VerdictPolicy.decider`'s answer to what the check asks for. Each stage of the
verdict's cascade (:data:`~fever_core.verification.cascade.CASCADE`) is on or off by one value of the policy (its
:attr:`~fever_core.verification.cascade.Stage.setting`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from fever_core.common.settings import CHECK_SETTING
from fever_core.common.types import LABELS, NEI, Stance
from fever_core.verification.calibration import Calibration
from fever_core.verification.decision import DecidedBy
from fever_core.verification.learned import VERDICT_FILE, LearnedVerdict
from fever_core.verification.model_integrity import ModelDamaged

DECIDERS = CHECK_SETTING["verdict"].choices
"""What a check may ask for, as the ``verdict`` check setting declares it: :data:`LEARNED` or :data:`RULE`."""
LEARNED, RULE = DecidedBy.LEARNED, DecidedBy.RULE
""":data:`LEARNED`: the learned verdict decides (:func:`~fever_core.verification.deciders.learned_verdict`), with the
stages fit with it; :data:`RULE`: the best trustworthy sentence decides
(:func:`~fever_core.verification.deciders.best_sentence_rule`). The same strings as :data:`DECIDERS`, as the
cascade's stage names (:class:`~fever_core.verification.decision.DecidedBy`)."""
LEARNED_RETRIEVER = "fused"
"""The retriever whose selection scores the learned verdict was fit on: evidence another one selected is decided by
the best-sentence rule."""
MIN_EVIDENCE_SCORE = 0.25
"""The minimum selection score (bi-encoder cosine) of a verifier whose ``config.json`` does not say."""
NEI_INDEX = LABELS.index(NEI)
"""NOT ENOUGH INFO's column in a probability row."""


def decide(probs: np.ndarray, nei_threshold: float | None = None) -> np.ndarray:
    """Label indices (in ``LABELS`` order) for ``(n, 3)`` probabilities under the NEI rule (``None``: argmax).

    Returns:
        int64 array of shape ``(n,)``; ties between SUPPORTS and REFUTES go to SUPPORTS.
    """
    probs = np.asarray(probs)
    if nei_threshold is None:
        labels: np.ndarray = probs.argmax(axis=1).astype(np.int64)
        return labels
    stance = np.where(probs[:, 0] >= probs[:, 1], 0, 1)
    labels = np.where(probs[:, NEI_INDEX] >= nei_threshold, NEI_INDEX, stance).astype(np.int64)
    return labels


def stance_label(stance: Stance, nei_threshold: float | None = None) -> str:
    """One sentence's own label: its stance under the NEI rule (``None``: the likeliest label)."""
    return LABELS[int(decide(stance.as_row()[None, :], nei_threshold)[0])]


@dataclass(frozen=True, eq=False)
class VerdictPolicy:
    """How one verifier's evidence becomes a verdict. One per verifier (:meth:`load`); a check's own values come
    from :meth:`for_check`.

    Attributes:
        nei_threshold: the NEI rule's P(NOT ENOUGH INFO), in [0, 1], from which one sentence's stance counts as NOT
            ENOUGH INFO (:func:`stance_label`); ``None``: the likeliest label. The best-sentence rule reads stances
            by it.
        min_evidence_score: the selection score (bi-encoder cosine) from which a sentence is trusted, i.e. judged
            by the verifier and able to count in a verdict; those below are shown, not judged. Default 0.25.
        learned: the learned verdict with its joint weight and the thresholds of the stages fit with it (the page
            rule, the sure sentence, the parts, the bridges: :attr:`page_rule_min` ...); ``None``: the best-sentence
            rule decides, and none of those stages runs.
        number_check: the claim's numbers are compared with the evidence's and decide where they settle it (the
            number check's stage).
        calibration: how often a verdict is right, from its decider's probability
            (:class:`~fever_core.verification.calibration.Calibration`, in the learned verdict's file); ``None``: the
            decider's probability is reported as it is.
    """

    nei_threshold: float | None = None
    min_evidence_score: float = MIN_EVIDENCE_SCORE
    learned: LearnedVerdict | None = None
    number_check: bool = CHECK_SETTING["number_check"].default
    calibration: Calibration | None = None

    @classmethod
    def load(cls, model: str | Path) -> VerdictPolicy:
        """The policy of a local verifier folder (its ``config.json`` and its learned verdict), or the defaults
        for a hub model.

        Raises:
            ModelDamaged: its learned verdict's file can't be used (see
                :meth:`~fever_core.verification.learned.LearnedVerdict.load`).
        """
        learned = LearnedVerdict.load(model)
        return replace(
            cls.from_config(model),
            learned=learned,
            calibration=None if learned is None else _calibration(Path(model) / VERDICT_FILE),
        )

    @classmethod
    def from_config(cls, model: str | Path) -> VerdictPolicy:
        """The values in the verifier's ``config.json`` alone (the NEI rule and the minimum evidence score), without
        its learned verdict: what scoring the verifier on pairs and the app's default settings read."""
        path = Path(model) / "config.json"
        config = json.loads(path.read_text()) if path.is_file() else {}
        threshold = config.get("nei_threshold")
        return cls(
            None if threshold is None else float(threshold), float(config.get("min_evidence_score", MIN_EVIDENCE_SCORE))
        )

    def for_check(
        self,
        min_evidence_score: float | None = None,
        nei_threshold: float | None = None,
        number_check: bool | None = None,
    ) -> VerdictPolicy:
        """This policy with a check's own values (``None``: the verifier's). They change values, never the decider."""
        return replace(
            self,
            min_evidence_score=self.min_evidence_score if min_evidence_score is None else min_evidence_score,
            nei_threshold=self.nei_threshold if nei_threshold is None else nei_threshold,
            number_check=self.number_check if number_check is None else number_check,
        )

    def for_decider(self, decider: str) -> VerdictPolicy:
        """The policy a check decided by ``decider`` (:meth:`decider`'s answer) runs under: as it is for
        :data:`LEARNED`; for :data:`RULE`, without the learned verdict, so that the best-sentence rule decides and
        none of the stages fit with the learned verdict runs (their thresholds were chosen on its verdicts)."""
        return self if decider == LEARNED else replace(self, learned=None)

    def decider(self, asked: str = LEARNED, retriever: str = LEARNED_RETRIEVER, one_premise: bool = False) -> DecidedBy:
        """Which decider a check gets, settled here only: :data:`LEARNED` when the check asks for it (the default),
        the verifier has a learned verdict, the evidence was selected by :data:`LEARNED_RETRIEVER` (the scores it
        was fit on) and is read sentence by sentence (not ``one_premise``, the oracle mode); else :data:`RULE`.
        The thresholds never change it."""
        if asked not in DECIDERS:
            raise ValueError(f"The verdict must be one of {', '.join(DECIDERS)}, not {asked!r}.")
        fits = self.learned is not None and retriever == LEARNED_RETRIEVER and not one_premise
        return LEARNED if asked == LEARNED and fits else RULE

    @property
    def page_rule_min(self) -> float | None:
        """The page rule's threshold (:func:`~fever_core.verification.deciders.page_rule`), ``subject_stance_min`` in
        the learned verdict's file; ``None``: no page rule."""
        return None if self.learned is None else self.learned.subject_stance_min

    @property
    def sure_sentence_min(self) -> float | None:
        """The sure-sentence rule's threshold (:func:`~fever_core.verification.deciders.sure_sentence`); ``None``: no
        such rule."""
        return None if self.learned is None else self.learned.sure_sentence_min

    @property
    def claim_parts_min(self) -> float | None:
        """How sure a sentence must be of a compound claim's part to settle it
        (:func:`~fever_core.verification.deciders.part_of`); ``None``: claims are read whole."""
        return None if self.learned is None else self.learned.claim_parts_min

    @property
    def bridge_min(self) -> float | None:
        """How sure the verifier must be of both facts of a bridge
        (:func:`~fever_core.verification.deciders.bridge_decision`); ``None``: no bridges are read."""
        return None if self.learned is None else self.learned.bridge_min


def _calibration(path: Path) -> Calibration | None:
    """The calibration in a learned verdict's file (``None``: it has none). Raises :class:`ModelDamaged` for one that
    can't be read."""
    data = json.loads(path.read_text(encoding="utf-8")).get("calibration")
    if data is None:
        return None
    try:
        return Calibration.from_dict(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelDamaged(
            str(path.parent),
            f"{path} holds a calibration that can't be read ({exc}): restore the verifier folder from a copy.",
        ) from exc
