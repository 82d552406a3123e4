"""The verification layer: each evidence sentence's stance towards the claim (NLI), and the claim's verdict.

Read in this order: :mod:`~fever_core.verification.claim_verifier` (:class:`ClaimVerifier`: the flow, from evidence
to verdict), :mod:`~fever_core.verification.evidence` (:class:`JudgedSentence`, the one form of a judged sentence),
:mod:`~fever_core.verification.cascade` (the verdict's stages in their one order, :data:`CASCADE`),
:mod:`~fever_core.verification.policy` (:class:`VerdictPolicy`: every value, each stage's setting, and which decider
a check gets), :mod:`~fever_core.verification.decision` (:class:`Decision`, what a stage decides, named by
:class:`DecidedBy`), :mod:`~fever_core.verification.deciders` (the rule each stage decides by),
:mod:`~fever_core.verification.explanation` (the decision in words), :mod:`~fever_core.verification.verdict`
(:class:`Verdict`, what a check reports), :mod:`~fever_core.verification.read_these` (a label too unsure to show, and
the sentences to read instead). Beneath them: :mod:`~fever_core.verification.nli` (:class:`NliModel`: a
stance per premise), :mod:`~fever_core.verification.learned` and :mod:`~fever_core.verification.features` (the
learned verdict's file and what it reads, shared with training), :mod:`~fever_core.verification.numbers` and
:mod:`~fever_core.verification.number_check` (the claim's numbers against the evidence's),
:mod:`~fever_core.verification.base_models` (the models training starts from) and
:mod:`~fever_core.verification.model_integrity` (model folders checked before they are loaded).
"""

from __future__ import annotations

from fever_core.verification.cascade import CASCADE
from fever_core.verification.claim_verifier import ClaimVerifier, VerificationTask
from fever_core.verification.classifiers import adapter_base
from fever_core.verification.decision import DecidedBy, Decision
from fever_core.verification.evidence import JudgedSentence, Reading
from fever_core.verification.learned import VERDICT_FILE, LearnedVerdict
from fever_core.verification.model_integrity import ModelDamaged
from fever_core.verification.nli import NliModel
from fever_core.verification.policy import DECIDERS, LEARNED, RULE, VerdictPolicy, stance_label
from fever_core.verification.read_these import SHOWN_LABEL_MIN
from fever_core.verification.verdict import Verdict

__all__ = [
    "CASCADE",
    "DECIDERS",
    "LEARNED",
    "RULE",
    "SHOWN_LABEL_MIN",
    "VERDICT_FILE",
    "ClaimVerifier",
    "DecidedBy",
    "Decision",
    "JudgedSentence",
    "LearnedVerdict",
    "ModelDamaged",
    "NliModel",
    "Reading",
    "Verdict",
    "VerdictPolicy",
    "VerificationTask",
    "adapter_base",
    "stance_label",
]
