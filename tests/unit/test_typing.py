"""The package type-checks: mypy, with the configuration in pyproject.toml ([tool.mypy]:
strict, the pydantic plugin), reports nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # mypy, ~25 s cold
def test_mypy_reports_no_errors() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
