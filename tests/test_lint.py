"""The lint rules of ``pyproject.toml`` (ruff, line length 100) hold on the package, the tests and
the benchmarks: the suite, which CI runs, checks them, so a change that breaks them cannot land
green (the notebooks have their own check in ``tests/test_notebook_sources.py``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (ROOT / "budgetlab").is_dir() or not (ROOT / "pyproject.toml").is_file(),
                    reason="needs the source tree (budgetlab/ and pyproject.toml beside tests/)")
def test_ruff_passes_on_the_package_tests_and_benchmarks():
    ruff = shutil.which("ruff")
    command = [ruff] if ruff else [sys.executable, "-m", "ruff"]  # ruff is in the test extra
    done = subprocess.run([*command, "check", "--no-cache", "budgetlab", "tests", "benchmarks"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
