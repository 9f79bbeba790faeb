"""The harness itself: a case that should pass does, and each promise it checks can fail."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from tests.adversarial.harness import Case, run_case

LOG = b"ts,outcome\n2026-11-29T02:00:00Z,success\n2026-11-29T02:10:00Z,ivan@example.org\n"


def test_a_personal_outcome_label_passes_every_check(tmp_path, capsys, monkeypatch):
    case = Case("personal-label", argv=["replay", "{d}/log.csv"], files={"log.csv": LOG},
                needles=("personal data",),
                api=lambda d: read_events(d / "log.csv"), forbidden=("ivan@example.org",))
    run_case(case, tmp_path, capsys, monkeypatch)


def test_the_harness_catches_a_leaked_value(tmp_path, capsys, monkeypatch):
    case = Case("leak", argv=["replay", "{d}/log.csv"], files={"log.csv": LOG},
                forbidden=("declared",))
    with pytest.raises(AssertionError, match="personal value"):
        run_case(case, tmp_path, capsys, monkeypatch)


def test_the_harness_catches_a_wrong_exit_code(tmp_path, capsys, monkeypatch):
    case = Case("exit", argv=["replay", "{d}/log.csv"], files={"log.csv": LOG}, exit=0)
    with pytest.raises(AssertionError, match="exit 2"):
        run_case(case, tmp_path, capsys, monkeypatch)
