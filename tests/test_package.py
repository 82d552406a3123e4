"""The library as a package (pyproject.toml): every package of it declared, a wheel that builds, installs and answers
a check through its console script, with its bundled models inside it, from a folder that is no checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from setuptools import find_packages

from fever_core.common.settings import PROJECT_ROOT

PYPROJECT = PROJECT_ROOT / "pyproject.toml"


def test_every_package_of_the_library_and_its_assets_are_declared():
    declared = set(tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["packages"])
    found = set(find_packages(str(PROJECT_ROOT), include=["fever_core", "fever_core.*"]))
    assert found <= declared, f"add to pyproject.toml's packages: {sorted(found - declared)}"
    assert {p for p in declared - found} == {
        "fever_core.assets",
        "fever_core.assets.claims",
        "fever_core.assets.jsonld",
        "fever_core.assets.models",
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The wheel built from a copy of the checkout's package files (so that no build folder is left in the checkout)
    and installed (without its dependencies, which this venv has) into a folder of its own: what ``pip install .``
    puts in a fresh environment."""
    source, wheels = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    target = tmp_path_factory.mktemp("installed")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(PROJECT_ROOT / name, source / name)
    for name in ("fever_core", "assets"):
        shutil.copytree(PROJECT_ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run(
        [*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", str(wheels), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    [wheel] = list(wheels.glob("fever_workbench-*.whl"))
    subprocess.run(
        [*pip, "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return target


def _run(installed: Path, args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(installed), "HF_HUB_OFFLINE": "1", **env}
    return subprocess.run(args, cwd=cwd, env=environment, capture_output=True, text=True, timeout=600, check=False)


def test_the_installed_library_finds_its_bundled_models_inside_itself(installed, tmp_path):
    shown = _run(
        installed,
        [
            sys.executable,
            "-c",
            (
                "import json; from fever_core.common import settings as s; "
                "from fever_core.verification.model_integrity import check_model_folder; "
                "[check_model_folder(m) for m in (s.DEFAULT_VERIFIER, s.FALLBACK_VERIFIER, s.SHIPPED_JOINT_VERIFIER)]; "
                "print(json.dumps({'installed': s.INSTALLED, 'assets': str(s.ASSETS_DIR), 'data': str(s.default_data_dir()),"
                " 'claims': s.HAND_CLAIMS.is_file(), 'vectors': (s.SHIPPED_VECTORS_DIR / 'embedded.npz').is_file()}))"
            ),
        ],
        tmp_path,
        XDG_DATA_HOME=str(tmp_path / "share"),
    )
    assert shown.returncode == 0, shown.stderr[-2000:]
    found = json.loads(shown.stdout)
    assert found["installed"] and Path(found["assets"]) == installed / "fever_core" / "assets"
    assert found["data"] == str(tmp_path / "share" / "fever-workbench")  # not a folder beside site-packages
    assert found["claims"] and found["vectors"]


def test_the_console_script_checks_a_claim(installed, tmp_path, settings, workspace, tiny_nli_model):
    answered = _run(
        installed,
        [
            str(installed / "bin" / "fever-workbench"),
            "check",
            "--corpus",
            workspace.name,
            "--model",
            str(tiny_nli_model),
            "--json",
            "Fox 2000 Pictures released the film Soul Food.",
        ],
        tmp_path,
        FEVER_DATA_DIR=str(settings.data_dir),
    )
    assert answered.returncode == 0, answered.stderr[-2000:]
    result = json.loads(answered.stdout)
    assert result["claim"] == "Fox 2000 Pictures released the film Soul Food." and result["evidence"]
    assert result["verdict"]["label"] in {"SUPPORTS", "REFUTES", "NOT ENOUGH INFO"}
