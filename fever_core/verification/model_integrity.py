"""Whether a model folder holds what was written: checksums of its files, and outputs that are numbers.

A model folder (a whole model, or a LoRA adapter with its head) keeps :data:`CHECKSUMS_FILE` beside its files: the
SHA-256 of every weight file it has (:data:`WEIGHT_SUFFIXES`) and of the files its verdict needs (a verifier's
learned verdict, ``verdict.json``). They are written when the model is saved (training, ``train
improve``, ``train verdict``) and compared before its weights are read (:func:`check_model_folder`): a file whose
bytes differ, or a listed file that is missing, makes the model :class:`ModelDamaged`. A folder without the file (a
model made before checksums were kept, a hub download) has nothing to compare; any model whose probabilities are
not finite numbers is refused all the same (:func:`finite_probabilities`), so no verdict ever rests on NaN.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from fever_core.common.jsonl import write_json
from fever_core.verification.base_models import sha256_of

CHECKSUMS_FILE = "checksums.json"
WEIGHT_SUFFIXES = (".safetensors", ".bin")
"""Files with these endings in a model folder are weights (whole models, sharded models and adapters alike)."""


class ModelDamaged(RuntimeError):
    """A model that must not give verdicts: a file differs from its checksum or is missing, or its probabilities
    are not finite. The message names the model, the file and what to do.

    Attributes:
        model: the model's folder or hub id, as it was named when loaded.
    """

    def __init__(self, model: str, message: str):
        super().__init__(message)
        self.model = model


def weight_files(folder: str | Path) -> list[str]:
    """The names of the weight files directly in ``folder``, sorted."""
    return sorted(p.name for p in Path(folder).iterdir() if p.is_file() and p.name.endswith(WEIGHT_SUFFIXES))


def record_checksums(folder: str | Path, names: Iterable[str], fresh: bool = False) -> Path:
    """Write the SHA-256 of the files ``names`` of ``folder`` into its :data:`CHECKSUMS_FILE`, keeping the checksums
    of its other files unless ``fresh`` (new weights: what was recorded before belongs to other ones). Returns it."""
    folder = Path(folder)
    sums = {} if fresh else _recorded(folder) or {}
    sums.update({name: sha256_of(folder / name) for name in names})
    path = folder / CHECKSUMS_FILE
    write_json(path, {"sha256": dict(sorted(sums.items()))})
    return path


def _recorded(folder: Path) -> dict[str, str] | None:
    """The checksums recorded in ``folder`` (``None``: no :data:`CHECKSUMS_FILE`). Raises :class:`ModelDamaged` for
    one that can't be read."""
    path = folder / CHECKSUMS_FILE
    if not path.is_file():
        return None
    try:
        sums = json.loads(path.read_text(encoding="utf-8"))["sha256"]
        if isinstance(sums, dict) and all(isinstance(v, str) for v in sums.values()):
            return dict(sums)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    raise ModelDamaged(str(folder), f"The model folder {folder} is damaged: its {CHECKSUMS_FILE} can't be read, so "
                       "its files can't be checked. Restore the folder from a copy, or train the model again.")


def check_model_folder(name_or_path: str) -> None:
    """Compare a local model folder's files with the checksums written with them; nothing for a hub id or a folder
    without :data:`CHECKSUMS_FILE`. Reads every listed file (about 0.2 s for 45 MB of weights).

    Raises:
        ModelDamaged: a listed file is missing or its bytes differ, or the checksums can't be read.
    """
    folder = Path(name_or_path).expanduser()
    if not folder.is_dir():
        return
    sums = _recorded(folder)
    for name, expected in (sums or {}).items():
        path = folder / name
        if not path.is_file():
            raise ModelDamaged(name_or_path, f"The model folder {folder} lacks {name}: it was saved with the model "
                               f"({CHECKSUMS_FILE} lists it) and the model's verdict needs it. Restore the folder from "
                               "a copy, or make the model again.")
        if sha256_of(path) != expected:
            raise ModelDamaged(name_or_path, f"The model folder {folder} is damaged: {name} does not match the "
                               f"checksum written with it ({CHECKSUMS_FILE}), so its bytes changed since it was saved. "
                               "Restore the folder from a copy, or make the model again.")


def finite_probabilities(probabilities: np.ndarray, model: str, what: str = "model") -> np.ndarray:
    """``probabilities`` when every one is a finite number.

    Raises:
        ModelDamaged: naming ``what`` and ``model`` (e.g. "the model assets/models/verifier"), when one is NaN or
            infinite (what damaged weights give).
    """
    if not np.isfinite(probabilities).all():
        raise ModelDamaged(model, f"The {what} {model} gives probabilities that are not numbers (NaN or infinity), "
                           "as damaged weights do: no verdict is made from them. Restore its folder from a copy, or "
                           "make the model again.")
    return probabilities
