"""Verifier versions: numbered folders, only finished ones listed, and the choice of the one in use, which
FEVER_VERIFIER_MODEL overrides."""

from __future__ import annotations

import pytest

from fever_core.common.model_versions import (
    ModelVersion,
    active_verifier,
    list_versions,
    next_version_dir,
    use_verifier,
    write_version,
)
from fever_core.common.settings import DEFAULT_VERIFIER, Settings


def finished_version(data_dir, table=None) -> ModelVersion:
    path = next_version_dir(data_dir)
    path.mkdir(parents=True)
    (path / "config.json").write_text("{}")
    version = ModelVersion(path.name, path, "base", 1.0, {"train": 3, "heldout": 1}, table or [], 2.0)
    write_version(version)
    return version


def test_versions_are_numbered_and_only_finished_ones_are_listed(tmp_path):
    first = finished_version(tmp_path, [{"name": "held-out", "n": 1, "before": 0.0, "after": 1.0}])
    unfinished = next_version_dir(tmp_path)
    unfinished.mkdir()  # a run that died before writing version.json
    second = finished_version(tmp_path)
    assert [first.name, unfinished.name, second.name] == ["verifier-v1", "verifier-v2", "verifier-v3"]
    assert list_versions(tmp_path) == [first, second]
    assert list_versions(tmp_path)[0].table[0]["after"] == 1.0


def test_the_version_in_use_is_the_data_folder_s_choice_unless_the_environment_pins_one(tmp_path):
    version = finished_version(tmp_path)
    shipped = DEFAULT_VERIFIER
    assert active_verifier(tmp_path) is None
    assert Settings.from_env({}, data_dir=tmp_path).verifier_model == shipped
    use_verifier(tmp_path, version.path)
    assert Settings.from_env({}, data_dir=tmp_path).verifier_model == str(version.path.resolve())
    assert Settings.from_env({"FEVER_VERIFIER_MODEL": "pinned"}, data_dir=tmp_path).verifier_model == "pinned"
    assert Settings.from_env({}, data_dir=tmp_path, verifier_model="explicit").verifier_model == "explicit"
    use_verifier(tmp_path, None)
    assert Settings.from_env({}, data_dir=tmp_path).verifier_model == shipped


def test_a_choice_whose_folder_is_gone_falls_back_to_the_shipped_verifier(tmp_path):
    version = finished_version(tmp_path)
    use_verifier(tmp_path, version.path)
    (version.path / "config.json").unlink()
    assert active_verifier(tmp_path) is None
    with pytest.raises(FileNotFoundError, match="not a verifier folder"):
        use_verifier(tmp_path, tmp_path / "nothing-here")
