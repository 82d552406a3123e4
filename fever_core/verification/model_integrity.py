"""Whether a model folder holds what was written: checksums of the files it reads, and outputs that are numbers.

A model folder (a whole model, or a LoRA adapter with its head) keeps :data:`CHECKSUMS_FILE` beside its files: the
SHA-256 of every file that changes what the model says (:func:`model_files`: its weights, ``config.json`` with the
labels and the NEI rule, an adapter's ``adapter_config.json``, the tokenizer's files, the learned verdict
``verdict.json``). They are written when the model is saved (training, ``train improve``, ``train verdict``) and
compared before anything of it is read (:func:`check_model_folder`): a file whose bytes differ, or a listed file that
is missing, makes the model :class:`ModelDamaged`, and so does a JSON file of the folder that can't be read as JSON.
A shipped model (a folder in ``assets/models``) is refused without its checksums, or with a file it reads that they do
not list. Another folder without them (a model saved before checksums were kept) has nothing to compare; any model
whose probabilities are not finite numbers is refused all the same (:func:`finite_probabilities`), so no verdict ever
rests on NaN.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from fever_core.common.checksums import model_checksum
from fever_core.common.jsonl import write_json
from fever_core.common.model_versions import VERSION_FILE
from fever_core.common.settings import BUNDLED_MODELS_DIR
from fever_core.verification.base_models import sha256_of

CHECKSUMS_FILE = "checksums.json"
WEIGHT_SUFFIXES = (".safetensors", ".bin")
"""Files with these endings in a model folder are weights (whole models, sharded models and adapters alike)."""
READ_SUFFIXES = (*WEIGHT_SUFFIXES, ".json", ".txt", ".model")
"""Files with these endings directly in a model folder may be read when its model is loaded, so they change what it
says: weights, configurations (``config.json``, ``adapter_config.json``), the tokenizer's files (``tokenizer.json``,
``tokenizer_config.json``, ``special_tokens_map.json``, vocabularies, merges, SentencePiece models) and the learned
verdict (``verdict.json``)."""
TRAINING_REPORT_FILE = "verifier.json"
"""What training writes about a model it made (its settings, data counts, losses, evaluation reports)."""
NOT_READ = (CHECKSUMS_FILE, TRAINING_REPORT_FILE, VERSION_FILE)
"""Files of a model folder with a :data:`READ_SUFFIXES` ending that no loading reads: the checksums themselves and
the reports about the model (training's, a version's comparison with its base)."""


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


def model_files(folder: str | Path) -> list[str]:
    """The names of the files directly in ``folder`` that loading its model may read (:data:`READ_SUFFIXES`, less
    :data:`NOT_READ`), sorted: what :data:`CHECKSUMS_FILE` covers."""
    return sorted(
        p.name
        for p in Path(folder).iterdir()
        if p.is_file() and p.name.endswith(READ_SUFFIXES) and p.name not in NOT_READ
    )


def is_shipped_model(folder: str | Path) -> bool:
    """Whether ``folder`` is one of the models shipped with the workbench (in :data:`BUNDLED_MODELS_DIR`)."""
    return Path(folder).expanduser().resolve().is_relative_to(BUNDLED_MODELS_DIR.resolve())


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
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        pass
    raise ModelDamaged(
        str(folder),
        f"The model folder {folder} is damaged: its {CHECKSUMS_FILE} can't be read, so "
        "its files can't be checked. Restore the folder from a copy, or train the model again.",
    )


def model_fingerprint(name_or_path: str | Path) -> str:
    """What a model folder's files are, the same for a copy of it anywhere: ``sha256:`` of its :data:`CHECKSUMS_FILE`
    when it has one (reads that small file only), else ``blake2b-128:`` of its content
    (:func:`~fever_core.common.checksums.model_checksum`, once a process); "" for a hub id (not a folder here)."""
    folder = Path(name_or_path).expanduser()
    if not folder.is_dir():
        return ""
    recorded = folder / CHECKSUMS_FILE
    return f"sha256:{sha256_of(recorded)}" if recorded.is_file() else f"blake2b-128:{model_checksum(folder)}"


def check_model_folder(name_or_path: str) -> None:
    """Compare a local model folder's files with the checksums written with them, and read its JSON files; nothing
    for a hub id. Reads every listed file (about 0.2 s for 45 MB of weights).

    A shipped model (:func:`is_shipped_model`) must have :data:`CHECKSUMS_FILE`, listing every file it reads
    (:func:`model_files`). Another folder without it (saved before checksums were kept) has only its JSON files read.

    Raises:
        ModelDamaged: a listed file is missing or its bytes differ, or the checksums can't be read; a shipped model's
            checksums are missing or leave out a file it reads; a JSON file is not a JSON object.
    """
    folder = Path(name_or_path).expanduser()
    if not folder.is_dir():
        return
    sums = _recorded(folder)
    restore = "Restore the folder from a copy, or make the model again."
    if is_shipped_model(folder):
        as_shipped = f"Restore the folder as it was shipped (`git checkout -- assets/models/{folder.name}`)."
        if sums is None:
            raise ModelDamaged(
                name_or_path,
                f"The shipped model {folder} has no {CHECKSUMS_FILE}, so its files "
                f"can't be checked: it is not used without them. {as_shipped}",
            )
        unlisted = [name for name in model_files(folder) if name not in sums]
        if unlisted:
            raise ModelDamaged(
                name_or_path,
                f"The shipped model {folder} has {', '.join(unlisted)}, which its "
                f"{CHECKSUMS_FILE} does not list: a file it reads was added or renamed since it was "
                f"shipped. {as_shipped} Remove the files git does not know.",
            )
    for name, expected in (sums or {}).items():
        path = folder / name
        if not path.is_file():
            raise ModelDamaged(
                name_or_path,
                f"The model folder {folder} lacks {name}: it was saved with the model "
                f"({CHECKSUMS_FILE} lists it) and the model's verdict needs it. {restore}",
            )
        if sha256_of(path) != expected:
            raise ModelDamaged(
                name_or_path,
                f"The model folder {folder} is damaged: {name} does not match the "
                f"checksum written with it ({CHECKSUMS_FILE}), so its bytes changed since it was saved. "
                f"{restore}",
            )
    for name in model_files(folder):
        if name.endswith(".json"):
            _check_json(folder / name, name_or_path, restore)


def _check_json(path: Path, model: str, restore: str) -> None:
    """Raises :class:`ModelDamaged` naming ``path`` when it is not a JSON object (a damaged or emptied file)."""
    try:
        if isinstance(json.loads(path.read_text(encoding="utf-8")), dict):
            return
        problem = "it holds no JSON object"
    except (OSError, ValueError, RecursionError) as exc:
        problem = f"{exc.__class__.__name__}: {exc}"
    raise ModelDamaged(
        model,
        f"The model folder {path.parent} is damaged: its {path.name} can't be read as JSON ({problem}). {restore}",
    )


def finite_probabilities(probabilities: np.ndarray, model: str, what: str = "model") -> np.ndarray:
    """``probabilities`` when every one is a finite number.

    Raises:
        ModelDamaged: naming ``what`` and ``model`` (e.g. "the model assets/models/verifier"), when one is NaN or
            infinite (what damaged weights give).
    """
    if not np.isfinite(probabilities).all():
        raise ModelDamaged(
            model,
            f"The {what} {model} gives probabilities that are not numbers (NaN or infinity), "
            "as damaged weights do: no verdict is made from them. Restore its folder from a copy, or "
            "make the model again.",
        )
    return probabilities
