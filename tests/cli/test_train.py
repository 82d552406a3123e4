"""``train ...``: one parser for every training command, and the global options reach them."""

import json

import pytest

from fever_core.cli import main
from fever_core.common.formats import load_pairs
from tests.conftest import write_jsonl


def test_a_training_command_has_its_own_help_after_the_global_options(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--data-dir", str(tmp_path), "train", "generate-claims", "--help"])
    assert exit_.value.code == 0
    help_text = capsys.readouterr().out
    assert "--sentences-per-page" in help_text and "training/embedded-generated in the data folder" in help_text


def test_an_unknown_training_target_lists_the_known_ones(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "selector"])
    assert exit_.value.code == 2
    assert "'generate-claims'" in capsys.readouterr().err


def test_the_global_data_dir_reaches_training(tmp_path, capsys):
    training = tmp_path / "training"
    training.mkdir()
    # the embedded summaries' sentences, cached where --data-dir says training data lives: read, not rebuilt
    write_jsonl(
        training / "pool-embedded.jsonl",
        [
            {"title": "Stanley Kubrick", "text": "Stanley Kubrick was an American filmmaker and photographer."},
            {"title": "Stanley Kubrick", "text": "He was born in Manhattan, New York City."},
            {"title": "Akira Kurosawa", "text": "Akira Kurosawa was a Japanese filmmaker and painter."},
            {"title": "Akira Kurosawa", "text": "He directed thirty films in a career spanning 57 years."},
        ],
    )
    assert main(["--data-dir", str(tmp_path), "train", "generate-claims"]) == 0
    out = training / "embedded-generated"
    assert json.loads(capsys.readouterr().out)["out"] == str(out)
    pairs = [p for name in ("train", "heldout") for p in load_pairs(out / f"{name}.jsonl")]
    assert "Stanley Kubrick was an American filmmaker." in {p.hypothesis for p in pairs}


def test_prepare_data_without_the_nli_folder_says_where_to_point_it(tmp_path, capsys):
    missing = tmp_path / "no-nli"
    assert main(["--data-dir", str(tmp_path), "train", "prepare-data", "--nli", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"error: {missing / 'fever-train.jsonl'} is missing: point --nli at the shared data's nli/ folder.\n"
    )
    assert not (tmp_path / "training").exists()


def test_train_verifier_names_the_bad_line_of_a_data_file(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"premise": "a", "hypothesis": "b", "label": "SUPPORTS"}\nnot json\n')
    assert (
        main(
            ["train", "verifier", "--data", str(bad), "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "c")]
        )
        == 2
    )
    assert f"{bad}:2" in capsys.readouterr().err
