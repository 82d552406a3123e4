"""``train improve`` and ``models``: the command-line way to improve the verifier with annotations, see the
versions, use one and switch back."""

from __future__ import annotations

import json

from fever_core.cli import main
from fever_core.common.settings import DEFAULT_VERIFIER, Settings
from fever_core.workbench.jobs import DONE, read_status

from ..training.test_improve import annotate


def test_improve_use_and_switch_back_from_the_command_line(
    tmp_path, settings, workspace, tiny_nli_model, capsys, monkeypatch
):
    monkeypatch.delenv("FEVER_VERIFIER_MODEL", raising=False)
    monkeypatch.setenv("FEVER_JOINT_VERIFIER_MODEL", "")
    annotate(tmp_path / "a.sqlite")
    data = ["--data-dir", str(settings.data_dir)]
    status = tmp_path / "improve.json"
    try:
        assert (
            main(
                [
                    *data,
                    "train",
                    "improve",
                    "--annotations",
                    str(tmp_path / "a.sqlite"),
                    "--corpus",
                    "fixture",
                    "--base",
                    str(tiny_nli_model),
                    "--epochs",
                    "1",
                    "--status",
                    str(status),
                    "--use",
                ]
            )
            == 0
        )
        made = json.loads(capsys.readouterr().out)
        assert made["in_use"] and made["table"][0]["name"] == "held-out annotations (claims)"
        assert read_status(status).state == DONE and read_status(status).result["version"] == made["version"]
        assert Settings.from_env(data_dir=settings.data_dir).verifier_model == made["path"]

        assert main([*data, "models", "list"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert listed["in_use"] == made["path"]
        assert [v["in_use"] for v in listed["versions"] if v["version"] == made["version"]] == [True]

        assert main([*data, "models", "shipped"]) == 0
        assert Settings.from_env(data_dir=settings.data_dir).verifier_model == DEFAULT_VERIFIER
        assert main([*data, "models", "use", made["version"]]) == 0
        assert Settings.from_env(data_dir=settings.data_dir).verifier_model == made["path"]
    finally:
        main([*data, "models", "shipped"])


def test_improve_with_nothing_annotated_says_what_to_do(tmp_path, settings, workspace, tiny_nli_model, capsys):
    status = tmp_path / "improve.json"
    code = main(
        [
            "--data-dir",
            str(settings.data_dir),
            "train",
            "improve",
            "--annotations",
            str(tmp_path / "none.sqlite"),
            "--corpus",
            "fixture",
            "--base",
            str(tiny_nli_model),
            "--status",
            str(status),
        ]
    )
    assert code == 2 and "annotate more claims" in capsys.readouterr().err
    assert read_status(status).state == "failed" and "annotate more claims" in read_status(status).message


def test_models_pack_stores_the_weights_as_int8_and_says_so_when_there_is_nothing_to_pack(
    tmp_path, tiny_nli_model, capsys
):
    import shutil

    from fever_core.verification.nli import NliModel

    folder = shutil.copytree(tiny_nli_model, tmp_path / "model")
    assert main(["models", "pack", str(folder)]) == 0
    assert "model.int8.safetensors" in capsys.readouterr().out
    assert NliModel.load(str(folder), "cpu").predict([("Oslo is in Norway.", "Oslo is in Peru.")]).shape == (1, 3)
    assert main(["models", "pack", str(folder)]) != 0
    assert "no model.safetensors to pack" in capsys.readouterr().err
