"""The service package's public face: every name in ``__all__`` resolves, and importing the package is light."""

import subprocess
import sys
from pathlib import Path

import pytest

from fever_core import service


@pytest.mark.parametrize("name", service.__all__)
def test_each_public_name_is_defined_where_the_package_says(name):
    value = getattr(service, name)
    assert name in dir(service)
    assert getattr(value, "__module__", service.__name__).startswith("fever_core.service")


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'create_ap'"):
        _ = service.create_ap


def test_importing_the_package_or_its_limits_imports_no_web_framework_and_no_torch():
    code = (
        "import sys, fever_core.service as s\n"
        "heavy = lambda: sorted(m for m in ('fastapi', 'uvicorn', 'torch') if m in sys.modules)\n"
        "before = heavy(); s.ServiceConfig; print(before, heavy())"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert run.stdout.strip() == "[] []"
