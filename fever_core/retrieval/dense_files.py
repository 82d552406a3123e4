"""A dense sentence index's files: their names, the checksums ``dense.json`` records of them, the encoder it records,
the files written atomically, and the ``dense.json`` of an earlier version upgraded.

A folder holds :data:`INDEX_FILE` (the FAISS index), :data:`IDS_FILE` (each row's sentence id), :data:`KEYS_FILE`
(each row's text key, to reuse its vector in a rebuild), a compressed index's lists
(:data:`~fever_core.retrieval.dense_plan.IVFDATA_FILE`) and :data:`META_FILE`, written last: what the index was made
from (store fingerprint, encoder, precision, plan) and each file's checksum, verified when the index is opened.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fever_core.common.checksums import file_checksum
from fever_core.retrieval.dense_plan import IVFDATA_FILE, IndexPlan
from fever_core.retrieval.encoder import EncoderIdentity, identity_name

if TYPE_CHECKING:
    import faiss

INDEX_FILE = "dense.faiss"
IDS_FILE = "dense_ids.npy"
META_FILE = "dense.json"
KEYS_FILE = "dense_keys.npy"
CHECKED_FILES = (INDEX_FILE, IDS_FILE, KEYS_FILE, IVFDATA_FILE)
"""The files whose checksums ``dense.json`` records when they are written (those present) and that are verified at
open."""
ENCODER_CHECKSUM = "encoder_checksum"
"""The key of ``dense.json`` with the encoder's checksum (beside ``encoder``, its name): an index without it was written
when encoders were recorded by their path."""


class DenseIndexDamaged(ValueError):
    """A dense index file does not hold what was written (checksum), or gives impossible scores."""


def damaged_files(folder: Path, meta: dict[str, Any]) -> list[str]:
    """The index files in ``folder`` whose bytes differ from the checksums in ``meta`` (missing files count).
    An index written before checksums were kept has none to compare and counts as intact."""
    sums = meta.get("checksums") or {}
    return [
        name
        for name, expected in sums.items()
        if not (folder / name).is_file() or file_checksum(folder / name) != expected
    ]


def made_by(meta: dict[str, Any], identity: EncoderIdentity) -> bool | None:
    """Whether the index whose ``dense.json`` is ``meta`` was made by the encoder ``identity``: by their checksums. An
    index written when encoders were recorded by their path is compared by the checksum of the folder at that path;
    ``None`` when there is none (the path of another install): only embedding some of its sentences again can tell
    (:func:`~fever_core.retrieval.dense_build.embeds_alike`)."""
    if ENCODER_CHECKSUM in meta:
        return EncoderIdentity(str(meta.get("encoder", "")), str(meta[ENCODER_CHECKSUM])).same_model(identity)
    recorded = str(meta.get("encoder", ""))
    if not recorded:
        return False
    if identity_name(recorded) != recorded and not Path(recorded).expanduser().is_dir():
        return None
    return EncoderIdentity.of(recorded).same_model(identity)


def identity_meta(identity: EncoderIdentity) -> dict[str, str]:
    """What ``dense.json`` records of its encoder."""
    return {"encoder": identity.name, ENCODER_CHECKSUM: identity.checksum}


def built_with(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` (an index's ``dense.json``) with its encoder precision said: an index written before precisions
    were kept is fp32."""
    return {**meta, "encoder_precision": meta.get("encoder_precision", "fp32")}


def write_index(folder: Path, index: faiss.Index, ids: np.ndarray, keys: np.ndarray, meta: dict[str, Any]) -> None:
    """Write an index's files, each through a temporary file, the meta file last with each file's checksum:
    a crash leaves either the old meta (so the next open sees a stale or damaged index and rebuilds) or a
    complete index. A compressed index's lists (:data:`IVFDATA_FILE`) are already in place, written by its build."""
    import faiss

    compressed = IndexPlan.from_meta(meta.get("index")).compressed
    checksums: dict[str, str] = {IVFDATA_FILE: file_checksum(folder / IVFDATA_FILE)} if compressed else {}

    def replace(name: str, write: Callable[[Path], object]) -> None:
        tmp = folder / f"{name}.tmp"
        try:
            write(tmp)
        except BaseException:
            tmp.unlink(missing_ok=True)  # e.g. half written on a full disk: give its room back
            raise
        if name in CHECKED_FILES:
            checksums[name] = file_checksum(tmp)
        os.replace(tmp, folder / name)

    def save_array(array: np.ndarray) -> Callable[[Path], None]:
        def write(path: Path) -> None:
            with path.open("wb") as fh:
                np.save(fh, array)

        return write

    replace(INDEX_FILE, lambda path: faiss.write_index(index, str(path)))
    replace(IDS_FILE, save_array(ids))
    replace(KEYS_FILE, save_array(keys))
    replace(META_FILE, lambda path: path.write_text(json.dumps({**meta, "checksums": checksums}, indent=2)))
    if not compressed:
        (folder / IVFDATA_FILE).unlink(missing_ok=True)  # the lists of a compressed index this one replaces


def upgraded_meta(folder: Path, meta: dict[str, Any], identity: EncoderIdentity) -> dict[str, Any]:
    """``meta`` with what an index written by an earlier version lacks: its files' checksums (trusted from now on)
    and its encoder's identity (where it recorded the encoder's path, which :func:`made_by` or a spot check found
    to be ``identity``'s model). Written to ``dense.json`` where the folder can be written; a read-only folder (or a
    full disk) is left as it is, and the next open finds what this one found."""
    upgraded = {**meta, **identity_meta(identity)} if ENCODER_CHECKSUM not in meta else dict(meta)
    writable = os.access(folder, os.W_OK) and os.access(folder / META_FILE, os.W_OK)
    if "checksums" not in meta and writable:
        upgraded["checksums"] = {
            name: file_checksum(folder / name) for name in CHECKED_FILES if (folder / name).is_file()
        }
    if writable and upgraded.keys() != meta.keys():
        tmp = folder / f"{META_FILE}.tmp"
        with suppress(OSError):
            tmp.write_text(json.dumps(upgraded, indent=2))
            os.replace(tmp, folder / META_FILE)
        tmp.unlink(missing_ok=True)
    return upgraded
