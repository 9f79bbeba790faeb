"""The SLO line every log-reading command prints describes the SLOs that apply to the log's groups:
a per-group target naming a group the log lacks (the warning says "not used") is named once as
not used, never listed as if it applied; a default SLO is listed only when a group takes it.
Before cli55 the line listed every target given (``target a 0.9, b 0.95, zz 0.9``) beside the
warning that zz is not used. Expected lines written by hand from the flags and the log's groups
(a and b)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, PerGroup
from budgetlab.cli import main
from budgetlab.cli.reading import describe_slo

TARGETS = "a=0.9,b=0.95,zz=0.9"
LINE = ("SLO: target a 0.9, b 0.95 (zz: not in the log, not used); window 1 h, warning < 0.5, "
        "critical < 0.1, --min-events 0, by region")
TARGET_ONLY = ("SLO: target a 0.9, b 0.95 (zz: not in the log, not used), by region SLOs bound "
               "to groups:")  # nothing of the tracker between
NO_WINDOW = ("SLO: target a 0.9, b 0.95 (zz: not in the log, not used); warning < 0.5, "
             "critical < 0.1, --min-events 0, by region")


def _log(tmp_path):
    """One event a minute for 6 h in regions a and b (durations 0.1 s); b fails minutes 60..69."""
    ts = pd.date_range("2026-01-05", periods=360, freq="1min", tz="UTC")
    minute = np.arange(360)
    frames = [pd.DataFrame({"ts": ts, "region": r, "duration": 0.1, "outcome": np.where(
        (r == "b") & (minute >= 60) & (minute < 70), "solve_error", "success")})
        for r in ("a", "b")]
    log = tmp_path / "log.csv"
    pd.concat(frames).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end,scope\ni1,2026-01-05T01:00:00Z,2026-01-05T01:10:00Z,"
                   "region=b\n")
    return log, inc


COMMANDS = {
    "replay": ["replay"],
    "recalibrate": ["recalibrate", "--n-boot", "0"],
    "compare-windows": ["compare-windows", "--windows", "1h,2h"],
    "buckets": ["buckets"],
    "incident": ["incident", "--start", "2026-01-05T01:00", "--end", "2026-01-05T01:10"],
    "alerts": ["alerts", "--incidents", "INC", "--policy", "single_window"],
    "latency": ["latency", "--duration", "duration", "--duration-unit", "s", "--thresholds",
                "1s", "--n-boot", "0"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_slo_line_names_the_unused_target_once_as_unused(tmp_path, capsys, command):
    log, inc = _log(tmp_path)
    first, *rest = COMMANDS[command]
    rest = [str(inc) if a == "INC" else a for a in rest]
    # compare-windows replays --windows and alerts reads the target only: both refuse --window
    window = [] if command in ("compare-windows", "alerts") else ["--window", "1h"]
    assert main([first, str(log), *rest, "--by", "region", *window, "--target", TARGETS]) == 0
    captured = capsys.readouterr()
    out = " ".join(captured.out.split())  # the line is wrapped at 100 columns
    expected = {"compare-windows": NO_WINDOW,  # latency has no --min-events: the field's name
                "alerts": TARGET_ONLY,
                "latency": "current " + NO_WINDOW.replace("--min-events", "min_events")
                }.get(command, LINE)
    assert expected in out
    assert "zz 0.9" not in out
    assert ("budgetlab: warning: --target names zz, which the log does not have (its groups: a, "
            "b): not used.") in captured.err


EVENTS = pd.DataFrame({"t": ["a", "b"]})


def test_a_default_is_listed_only_when_a_group_takes_it():
    base = SLO(window="1h")
    assert describe_slo(PerGroup({"a": 0.9, "zz": 0.99}, default=0.95, base=base), ["t"],
                        events=EVENTS) == (
        "SLO: target a 0.9, other groups 0.95 (zz: not in the log, not used); window 1 h, "
        "warning < 0.5, critical < 0.1, min_events 0, by t")
    assert describe_slo(PerGroup({"a": 0.9, "b": 0.99}, default=0.95, base=base), ["t"],
                        events=EVENTS) == (
        "SLO: target a 0.9, b 0.99; window 1 h, warning < 0.5, critical < 0.1, min_events 0, "
        "by t")
    assert describe_slo(PerGroup({"zz": 0.99}, default=0.95, base=base), ["t"],
                        events=EVENTS) == (
        "SLO: target all groups 0.95 (zz: not in the log, not used); window 1 h, "
        "warning < 0.5, critical < 0.1, min_events 0, by t")


def test_the_fields_are_those_of_the_slos_that_apply():
    """The unused SLO's other window does not make the window read "by group"."""
    slos = PerGroup({"a": SLO(target=0.9, window="1h"), "b": SLO(target=0.95, window="1h"),
                     "zz": SLO(target=0.9, window="2h")})
    assert describe_slo(slos, ["t"], events=EVENTS) == (
        "SLO: target a 0.9, b 0.95 (zz: not in the log, not used); window 1 h, warning < 0.5, "
        "critical < 0.1, min_events 0, by t")
