"""Training the workbench's own models and their data.

:mod:`~fever_core.training.verifier` (the 3-way NLI verifier, whole or as a LoRA adapter: :func:`train_verifier`;
its settings, model, checkpoints and scores in the ``verifier_*`` modules beside it),
:mod:`~fever_core.training.verdict` (the learned verdict fit on end-to-end runs: :func:`fit_learned_verdict`),
:mod:`~fever_core.training.joint` (the joint verifier's pairs), :mod:`~fever_core.training.improve` (a new
verifier version from people's annotations: :func:`improve_verifier`), and the pair data they read:
:mod:`~fever_core.training.prepare`, :mod:`~fever_core.training.pairs`, :mod:`~fever_core.training.generated_claims`,
:mod:`~fever_core.training.distractors`, :mod:`~fever_core.training.augmentation`,
:mod:`~fever_core.training.minimal_pairs`, :mod:`~fever_core.training.runs`.
"""

from __future__ import annotations

from fever_core.training.generated_claims import generate_pairs, write_generated
from fever_core.training.improve import ImproveConfig, improve_verifier
from fever_core.training.joint import write_joint_minimal_pairs, write_joint_pairs
from fever_core.training.prepare import prepare
from fever_core.training.verdict import collect_runs, fit_learned_verdict
from fever_core.training.verifier import train_verifier
from fever_core.training.verifier_config import TrainConfig

__all__ = [
    "ImproveConfig",
    "TrainConfig",
    "collect_runs",
    "fit_learned_verdict",
    "generate_pairs",
    "improve_verifier",
    "prepare",
    "train_verifier",
    "write_generated",
    "write_joint_minimal_pairs",
    "write_joint_pairs",
]
