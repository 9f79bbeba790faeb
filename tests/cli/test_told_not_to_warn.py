"""The commands say a window longer than the log, a partial compliance period and a Prometheus
span widened to whole bins in their own words (a header note, "how it was read", the withheld
budget's note); they used to silence the package's warnings with ``warnings.catch_warnings``
(the whole process's filters). Now they tell the functions not to warn: ``replay_table(...,
warn_partial=False)``, ``period_budget(..., warn=False)``, ``read_counts(...,
warn_widened=False)``. The functions still return the fact; the commands print the same words,
and no Python warning reaches stderr (the CLI run in a subprocess with ``-W error``)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from budgetlab import SLO, PerGroup, as_events, bin_events
from budgetlab.budget.period import period_budget
from budgetlab.budget.tracker_replay import replay_table
from budgetlab.errors import BudgetlabWarning, PartialWindowWarning
from budgetlab.interop.prometheus_span import Span, SpanWidenedWarning
from tests.interop.test_prometheus_hostile import (
    _Handler,
    _matrix,
    _values,
    fake,  # noqa: F401  (the fixture)
)

ROOT = Path(__file__).resolve().parents[2]
# 180 events a minute apart, 00:00 .. 02:59 UTC: a span of 2 h 59 min, shorter than 24 h
TS = pd.date_range("2026-01-05 00:00", periods=180, freq="1min", tz="UTC")


def _recorded(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call()
    return out, [(w.category, str(w.message)) for w in seen]


def test_replay_told_not_to_warn_a_partial_window_still_warns_an_unused_group():
    events = as_events(TS, [True] * 180, groups={"region": ["eu", "us"] * 90})
    slo = PerGroup({"eu": SLO(target=0.9, window="24h"), "xx": SLO(target=0.9, window="24h")},
                   default=SLO(target=0.9, window="24h"))
    states, said = _recorded(lambda: replay_table(events, slo, by="region", warn_partial=False))
    assert len(states) == 180
    assert [c for c, _ in said] == [BudgetlabWarning]  # the unused group only
    assert "xx" in said[0][1]
    _, said = _recorded(lambda: replay_table(events, SLO(target=0.9, window="24h")))
    assert said == [(PartialWindowWarning, "the window (24 h) is longer than the data "
                                           "(2 h 59 min); every window is partial.")]


def test_period_budget_told_not_to_warn_keeps_period_observed():
    bins = bin_events(as_events(TS, [True] * 180), "1min")
    quiet, said = _recorded(lambda: period_budget(bins, 0.99, period="30D", warn=False))
    assert said == []
    # 3 h of a 30 d period observed at most: every row partial, as the warning would say
    assert (quiet["period_observed"] < 1).all()
    _, said = _recorded(lambda: period_budget(bins, 0.99, period="30D"))
    assert [c for c, _ in said] == [PartialWindowWarning]


def test_a_widened_span_told_not_to_warn_returns_its_note():
    start, end = "2026-01-05 00:00:30", "2026-01-05 00:10"
    span = Span.over("1min", start, end)
    note, said = _recorded(lambda: span.widened(start, end, warn=False))
    assert said == []
    assert note == ("span widened to whole 1 min bins: 2026-01-05 00:00:30 .. 2026-01-05 "
                    "00:10:00 UTC asked, 2026-01-05 00:00:00 .. 2026-01-05 00:10:00 UTC counted "
                    "(a counter is read at the bin ends only); give start= and end= on the 1 min "
                    "grid to count exactly the span asked")
    _, said = _recorded(lambda: span.widened(start, end))
    assert said == [(SpanWidenedWarning, note + ".")]


def _cli(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-W", "error", "-m", "budgetlab", *argv],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)


def _log(tmp_path: Path) -> str:
    # failures 01:00 .. 01:14
    out = ["timeout" if 60 <= i < 75 else "success" for i in range(180)]
    pd.DataFrame({"ts": TS, "outcome": out}).to_csv(tmp_path / "short.csv", index=False)
    return "short.csv"


def _no_warning(err: str) -> None:
    assert "warning" not in err.lower(), err  # neither Python's nor the CLI's "budgetlab: warning"


@pytest.mark.slow
def test_replay_says_the_partial_window_in_its_header_and_warns_nothing(tmp_path):
    run = _cli(tmp_path, "replay", _log(tmp_path), "--window", "24h", "--target", "0.95")
    assert run.returncode == 0, run.stderr
    _no_warning(run.stderr)
    assert ("note: the window (24 h) is longer than the data (2 h 59 min); every window is "
            "partial.") in run.stdout.splitlines()


@pytest.mark.slow
def test_incident_replays_a_window_longer_than_the_log_and_warns_nothing(tmp_path):
    run = _cli(tmp_path, "incident", _log(tmp_path), "--start", "2026-01-05 01:00", "--end",
               "2026-01-05 01:15", "--window", "24h", "--target", "0.95")
    assert run.returncode == 0, run.stderr
    _no_warning(run.stderr)
    assert "short.csv: 180 events; replaying 1 incident" in run.stdout


def _counts(h: _Handler, body: dict) -> None:
    value = "10" if "h_count" in body["query"][0] else "1"
    h.send(200, _matrix([{"metric": {}, "values": _values(value)}]))


@pytest.mark.slow
def test_backtest_says_the_widened_span_and_the_partial_period_and_warns_nothing(
        tmp_path, fake):  # noqa: F811
    fake.act = _counts
    run = _cli(tmp_path, "backtest", "--prometheus", fake.url, "--total", "h_count", "--errors",
               "h_errors", "--target", "0.99", "--policy", "workbook", "--start",
               "2026-01-05T00:00:30", "--end", "2026-01-05T00:10", "--freq", "1min")
    assert (run.returncode, run.stderr) == (0, "")
    said = " ".join(run.stdout.split())
    assert "(widened to whole bins; see how it was read)" in said
    assert ("span widened to whole 1 min bins: 2026-01-05 00:00:30 .. 2026-01-05 00:10:00 UTC "
            "asked, 2026-01-05 00:00:00 .. 2026-01-05 00:10:00 UTC counted") in said
    assert "each began less than the 30 d period after the span's start" in said
