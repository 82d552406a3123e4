"""Where a model's ONNX exports are kept and how one is known to be whole: a folder per export, written beside its place
and renamed into it, holding the graph and a JSON file with the graph's checksum that every load compares.

The sentence encoder (:mod:`fever_core.retrieval.encoder`) and the verifier (:mod:`fever_core.verification.onnx_nli`)
keep their exports this way, each in a folder of the data folder (``encoders/``, ``verifiers/``), or in the user's
cache where the data folder can't be written (:func:`user_cache_dir`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fever_core.common.checksums import file_checksum

log = logging.getLogger(__name__)

ONNX_FILE = "model.onnx"
"""The graph's file in an export folder."""


def export_key(name: str, parts: list[str]) -> str:
    """A folder name for an export: the end of ``name`` made safe for a file name, then a hash of ``parts`` (what
    makes the export: its model's checksum, the export's version, its precision)."""
    slug = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in Path(name).name)[-40:]
    return f"{slug}-{hashlib.sha1(chr(10).join(parts).encode()).hexdigest()[:12]}"


@contextmanager
def written_into_place(folder: Path) -> Iterator[Path]:
    """A fresh folder beside ``folder`` to write an export in: renamed to ``folder`` when the block ends well (one
    another process made meanwhile is kept), removed when it does not (e.g. half written on a full disk: its space is
    given back)."""
    tmp = folder.with_name(f".{folder.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        tmp.rename(folder)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)


def write_meta(folder: Path, meta_file: str, meta: dict[str, Any]) -> None:
    """Write an export's ``meta_file`` in ``folder``: ``meta`` with the checksum of the graph written there."""
    meta = {**meta, "checksum": file_checksum(folder / ONNX_FILE)}
    (folder / meta_file).write_text(json.dumps(meta, indent=2))


def intact(folder: Path, meta_file: str) -> bool:
    """Whether an export folder holds what was written (its graph's checksum, in ``meta_file``); a damaged one is
    removed, so that it is made again."""
    if not folder.is_dir():
        return False
    try:
        if file_checksum(folder / ONNX_FILE) == json.loads((folder / meta_file).read_text())["checksum"]:
            return True
        log.warning("The ONNX export in %s does not match its checksum: making it again.", folder)
    except (OSError, ValueError, KeyError) as exc:
        log.warning("The ONNX export in %s can't be read (%s): making it again.", folder, exc)
    shutil.rmtree(folder, ignore_errors=True)
    return False


def user_cache_dir(kind: str) -> Path:
    """Where exports of ``kind`` (``encoders``, ``verifiers``) are made when the data folder can't be written (a
    read-only mount): ``$XDG_CACHE_HOME/fever-workbench/<kind>``, by default under ``~/.cache``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fever-workbench" / kind


def export_caches(cache_dir: Path) -> list[Path]:
    """Where a model's exports are looked for, in order: ``cache_dir``, then :func:`user_cache_dir` of the same kind
    (``cache_dir``'s name) when ``cache_dir`` (or, before it is made, the nearest folder above it) can't be written;
    an export missing is made in the last."""
    cache_dir = Path(cache_dir)
    existing = next(path for path in (cache_dir, *cache_dir.parents) if path.exists())
    return [cache_dir] if os.access(existing, os.W_OK) else [cache_dir, user_cache_dir(cache_dir.name)]
