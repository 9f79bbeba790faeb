"""Any set of test folders collects, not only the whole suite.

Oracle: pytest's own collection. ``--doctest-modules`` (in ``addopts``) imports every
``conftest.py`` once more as a module; two conftests outside packages are both named
``conftest``, and pytest refused the second ("import file mismatch") when both folders were
given on one command line (``pytest tests/interop tests/docs``), while the whole suite collected.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_conftest_of_the_tests_is_in_a_package():
    loose = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("conftest.py")
             if not (p.parent / "__init__.py").is_file()]
    assert loose == []


def test_two_folders_with_their_own_conftest_collect_together():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "tests/interop", "tests/docs"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
