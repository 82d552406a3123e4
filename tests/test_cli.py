"""The command line, run as a user runs it (a subprocess), on the fixture corpus."""

import json
import os
import subprocess
import sys

import pytest

from fever_core.settings import PROJECT_ROOT


def run_cli(*args, env_extra=None):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "fever_core", *args], capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.fixture(scope="module")
def cli_env(settings, workspace, tiny_nli_model):
    return {"FEVER_DATA_DIR": str(settings.data_dir), "FEVER_VERIFIER_MODEL": str(tiny_nli_model)}


def test_corpus_info_and_search(cli_env):
    info = run_cli("corpus", "info", "fixture", env_extra=cli_env)
    assert info.returncode == 0, info.stderr
    data = json.loads(info.stdout)
    assert data["pages"] == 9 and data["dense_vectors"] == data["sentences"]
    search = run_cli("corpus", "search", "fixture", "Spielberg birthplace", "--mode", "dense", "-k", "2", env_extra=cli_env)
    assert search.returncode == 0 and "Steven Spielberg" in search.stdout


def test_check_json_and_errors(cli_env):
    result = run_cli("check", "Jaws is a film by Steven Spielberg.", "--corpus", "fixture", "--json", env_extra=cli_env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verdict"]["label"] in {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
    empty = run_cli("check", "  ", "--corpus", "fixture", env_extra=cli_env)
    assert empty.returncode == 2 and "claim is empty" in empty.stderr
    unknown = run_cli("corpus", "info", "no-such-corpus", env_extra=cli_env)
    assert unknown.returncode == 2 and "Unknown corpus" in unknown.stderr


def test_evaluate_writes_report_and_predictions(cli_env, claims_file, tmp_path):
    report, predictions = tmp_path / "r.json", tmp_path / "p.jsonl"
    result = run_cli("evaluate", "--claims", str(claims_file), "--corpus", "fixture", "--report", str(report),
                     "--predictions", str(predictions), env_extra=cli_env)
    assert result.returncode == 0, result.stderr
    assert json.loads(report.read_text())["n_claims"] == 4
    assert len(predictions.read_text().splitlines()) == 4


def test_check_on_live_wikipedia_then_offline(tmp_path, tiny_nli_model, recorded_wikipedia, offline_wikipedia_url):
    env = {"FEVER_DATA_DIR": str(tmp_path), "FEVER_VERIFIER_MODEL": str(tiny_nli_model)}
    claim = "Ada Lovelace worked on the Analytical Engine."
    online = run_cli("check", claim, "--corpus", "wikipedia", env_extra={**env, "FEVER_WIKIPEDIA_API_URL": recorded_wikipedia.url})
    assert online.returncode == 0, online.stderr
    assert "Ada Lovelace (" in online.stdout and "warning" not in online.stderr
    offline = run_cli("check", "Charles Babbage designed the Analytical Engine.", "--corpus", "wikipedia", "--json", env_extra={**env, "FEVER_WIKIPEDIA_API_URL": offline_wikipedia_url})
    assert offline.returncode == 0, offline.stderr
    assert "warning: Can't reach Wikipedia" in offline.stderr and "cached so far" in offline.stderr
    assert json.loads(offline.stdout)["warnings"] and json.loads(offline.stdout)["evidence"]


def test_train_lists_its_targets_and_generate_claims_has_its_own_help():
    help_text = run_cli("train", "generate-claims", "--help")
    assert help_text.returncode == 0 and "--sentences-per-page" in help_text.stdout
    unknown = run_cli("train", "selector")
    assert unknown.returncode != 0 and "'generate-claims'" in unknown.stderr
