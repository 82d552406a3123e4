"""The verification layer: each evidence sentence's stance towards the claim (NLI), and the claim's verdict.

:mod:`~fever_core.verification.nli` (:class:`NliModel`: a stance per premise),
:mod:`~fever_core.verification.claim_verifier` (:class:`ClaimVerifier`: the stances of a claim's evidence and its
verdict), :mod:`~fever_core.verification.verdict` (evidence stances -> :class:`Verdict`),
:mod:`~fever_core.verification.aggregator` and :mod:`~fever_core.verification.decision` (the learned verdict and the
NOT ENOUGH INFO threshold), :mod:`~fever_core.verification.base_models` (the models training starts from) and
:mod:`~fever_core.verification.model_integrity` (model folders checked before they are loaded).
"""

from __future__ import annotations

from fever_core.verification.claim_verifier import ClaimVerifier, EvidenceResult, VerificationTask
from fever_core.verification.decision import DecisionRule, load_decision_rule
from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.nli import NliModel
from fever_core.verification.verdict import Verdict, stance_label

__all__ = [
    "ClaimVerifier", "DecisionRule", "EvidenceResult", "ModelDamaged", "NliModel", "VerificationTask", "Verdict",
    "load_decision_rule", "stance_label",
]
