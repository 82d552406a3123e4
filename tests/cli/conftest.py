"""The command line run as a user runs it (``python -m fever_core`` in a subprocess), for the tests that need
the whole way in; the others call :func:`fever_core.cli.main` in-process."""

import os
import subprocess
import sys

import pytest

from fever_core.common.settings import PROJECT_ROOT


def run_cli(*args, env_extra=None):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "fever_core", *args], capture_output=True, text=True, env=env, timeout=300, check=False
    )


@pytest.fixture(scope="session")
def cli_env(settings, workspace, tiny_nli_model):
    """Environment for a subprocess on the fixture corpus (built first) with the tiny verifier."""
    return {"FEVER_DATA_DIR": str(settings.data_dir), "FEVER_VERIFIER_MODEL": str(tiny_nli_model)}
