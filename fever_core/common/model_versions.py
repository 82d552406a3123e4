"""Verifier versions made on this machine, and which verifier is in use.

Improving the verifier (``train improve``, the app's Models page) never overwrites a model: each run
writes a new folder ``models/verifier-vN/`` in the data folder, with ``version.json`` saying what it was
made from and how it compares with its base. ``models/active.json`` names the version in use; without
it (or after "switch back") the shipped verifier is used. ``FEVER_VERIFIER_MODEL`` pins a verifier and
wins over the choice (see :meth:`fever_core.common.settings.Settings.from_env`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fever_core.common.jsonl import write_json

MODELS_DIR = "models"
ACTIVE_FILE = "active.json"
VERSION_FILE = "version.json"
VERSION_PREFIX = "verifier-v"
_VERSION_NAME = re.compile(rf"^{VERSION_PREFIX}(\d+)$")


@dataclass(frozen=True)
class ModelVersion:
    """A verifier made on this machine.

    Attributes:
        name: ``verifier-vN``.
        path: its folder.
        base: the verifier it was fine-tuned from (path).
        created_at: Unix seconds.
        annotations: annotations it learned from (``train``) and held out to compare on (``heldout``).
        table: comparison rows with its base, ``{"name", "n", "before", "after"}`` (accuracies in [0, 1]).
        wall_s: seconds the run took.
    """

    name: str
    path: Path
    base: str
    created_at: float
    annotations: dict[str, int] = field(default_factory=dict)
    table: list[dict[str, Any]] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def number(self) -> int:
        return int(self.name.removeprefix(VERSION_PREFIX))  # a version's name is made by _VERSION_NAME's pattern


def models_dir(data_dir: Path) -> Path:
    return Path(data_dir) / MODELS_DIR


def read_version(folder: Path) -> ModelVersion | None:
    """The version in ``folder``, or None when it is not a finished one (no readable ``version.json``)."""
    try:
        data = json.loads((folder / VERSION_FILE).read_text(encoding="utf-8"))
        return ModelVersion(
            folder.name,
            folder,
            str(data["base"]),
            float(data["created_at"]),
            dict(data.get("annotations", {})),
            list(data.get("table", [])),
            float(data.get("wall_s", 0.0)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_version(version: ModelVersion) -> None:
    """Write ``version.json`` into the version's folder: the step that makes a version finished."""
    write_json(
        version.path / VERSION_FILE,
        {
            "base": version.base,
            "created_at": version.created_at,
            "annotations": version.annotations,
            "table": version.table,
            "wall_s": version.wall_s,
        },
    )


def list_versions(data_dir: Path) -> list[ModelVersion]:
    """The finished versions in the data folder, oldest first (unfinished runs' folders are skipped)."""
    folder = models_dir(data_dir)
    found = [read_version(path) for path in folder.glob(f"{VERSION_PREFIX}*") if _VERSION_NAME.match(path.name)]
    return sorted((v for v in found if v is not None), key=lambda v: v.number)


def next_version_dir(data_dir: Path) -> Path:
    """A new folder name ``verifier-vN`` (N one more than any folder there, finished or not); not created."""
    folder = models_dir(data_dir)
    numbers = [int(m.group(1)) for p in folder.glob(f"{VERSION_PREFIX}*") if (m := _VERSION_NAME.match(p.name))]
    return folder / f"{VERSION_PREFIX}{max(numbers, default=0) + 1}"


def active_verifier(data_dir: Path) -> str | None:
    """The verifier chosen in the data folder (a version's path), or None: the shipped one. A choice that can't be
    used (an unreadable ``active.json``, a folder that has gone) is None too: :func:`active_choice_problem` says why."""
    return _active_choice(data_dir)[0]


def active_choice_problem(data_dir: Path) -> str | None:
    """Why the data folder's ``active.json`` can't be used (so the shipped verifier is), with the fix; None when
    there is no choice or it is usable."""
    return _active_choice(data_dir)[1]


def _active_choice(data_dir: Path) -> tuple[str | None, str | None]:
    """The chosen verifier's path, and why there is none when ``active.json`` is there but can't be used."""
    target = models_dir(data_dir) / ACTIVE_FILE
    fix = (
        "the shipped verifier is used. Choose a version on the Models page or with `python -m fever_core models "
        "use NAME` (`models shipped` to keep the shipped one)."
    )
    try:
        path = json.loads(target.read_text(encoding="utf-8"))["verifier"]
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"{target} can't be read as the choice of verifier ({exc.__class__.__name__}): {fix}"
    if not isinstance(path, str):
        return None, f"{target} names no verifier folder: {fix}"
    if not (Path(path) / "config.json").is_file():
        return None, f"{target} chooses {path}, which is not a verifier folder (any more): {fix}"
    return path, None


def use_verifier(data_dir: Path, path: str | Path | None) -> None:
    """Choose the verifier in use for this data folder: a model folder, or None for the shipped one.

    Raises:
        FileNotFoundError: when ``path`` is not a model folder (no ``config.json``).
    """
    target = models_dir(data_dir) / ACTIVE_FILE
    if path is None:
        target.unlink(missing_ok=True)
        return
    if not (Path(path) / "config.json").is_file():
        raise FileNotFoundError(f"{path} is not a verifier folder (it has no config.json)")
    write_json(target, {"verifier": str(Path(path).resolve())})
