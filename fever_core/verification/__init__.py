"""The verification layer: each evidence sentence's stance towards the claim (NLI), and the claim's verdict.

:mod:`~fever_core.verification.nli` (:class:`NliModel`: a stance per premise),
:mod:`~fever_core.verification.verdict` (evidence stances -> :class:`Verdict`: the NOT ENOUGH INFO decision rule,
the best-sentence rule and the :class:`LearnedVerdict`), :mod:`~fever_core.verification.claim_verifier`
(:class:`ClaimVerifier`, the verdict policy: the stances of a claim's evidence, and which verdict decides),
:mod:`~fever_core.verification.base_models` (the models training starts from) and
:mod:`~fever_core.verification.model_integrity` (model folders checked before they are loaded).
"""

from __future__ import annotations

from fever_core.verification.claim_verifier import ClaimVerifier, EvidenceResult, VerificationTask
from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.nli import NliModel, adapter_base
from fever_core.verification.verdict import (
    VERDICT_FILE,
    DecisionRule,
    LearnedVerdict,
    Verdict,
    load_decision_rule,
    rule_verdict,
    stance_label,
)

__all__ = [
    "VERDICT_FILE", "ClaimVerifier", "DecisionRule", "EvidenceResult", "LearnedVerdict", "ModelDamaged", "NliModel",
    "VerificationTask", "Verdict", "adapter_base", "load_decision_rule", "rule_verdict", "stance_label",
]
