"""A flag that the run would not use is refused, not ignored (docs/cli.md), by every analysis:
``alerts`` took ``--window``, ``--warning``, ``--critical`` and ``--min-events`` and printed
tables identical to a run without them (its policies read the SLO's target and period only);
``compare-windows`` took ``--window`` (it replays ``--windows``); ``incident --id`` without
``--incidents``, ``buckets --plot-freq`` without ``--plot``, ``latency --freq`` without
``--out`` or the shares ``--plot`` and ``alerts --show-groups`` without ``--plot`` were dropped
without a word. Each is refused with exit 2, one line naming the flags, before anything is
printed on stdout."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main

OUTCOMES = ["--outcomes", "success=success,error=error"]


@pytest.fixture
def files(tmp_path):
    """One event a minute for 12 h from 2026-03-02T00:00:30Z, errors at minutes 360..389, with a
    duration column; one incident over those minutes."""
    m = np.arange(720)
    pd.DataFrame({"ts": (pd.Timestamp("2026-03-02T00:00:30Z") + pd.to_timedelta(m, "min"))
                  .strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where((m >= 360) & (m < 390), "error", "success"),
                  "dur": 0.5}).to_csv(tmp_path / "log.csv", index=False)
    (tmp_path / "inc.csv").write_text("incident_id,start,end\n"
                                      "A,2026-03-02T06:00:00Z,2026-03-02T06:30:00Z\n")
    return {"log": str(tmp_path / "log.csv"), "inc": str(tmp_path / "inc.csv")}


def _refused(capsys, argv):
    assert main(argv) == 2
    said = capsys.readouterr()
    assert said.out == ""  # nothing printed first
    lines = said.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("budgetlab: error: ")
    return lines[0]


def test_alerts_refuses_the_tracker_flags(files, capsys):
    line = _refused(capsys, ["alerts", files["log"], "--incidents", files["inc"], *OUTCOMES,
                             "--window", "5min", "--warning", "0.9", "--critical", "0.5",
                             "--min-events", "50"])
    assert "--window, --warning, --critical and --min-events would do nothing" in line
    assert line.endswith("leave them out.")
    line = _refused(capsys, ["alerts", files["log"], "--incidents", files["inc"], *OUTCOMES,
                             "--min-events", "0"])  # given, even at the default's value
    assert "--min-events would do nothing" in line and line.endswith("leave it out.")
    # the run without them goes on
    assert main(["alerts", files["log"], "--incidents", files["inc"], *OUTCOMES]) == 0


def test_alerts_refuses_show_groups_without_plot(files, capsys):
    line = _refused(capsys, ["alerts", files["log"], "--incidents", files["inc"], *OUTCOMES,
                             "--by", "outcome", "--show-groups", "1"])
    assert "--show-groups would do nothing" in line and "--plot" in line


@pytest.mark.parametrize(("argv", "flag", "used"), [
    (["compare-windows", "{log}", *OUTCOMES, "--windows", "1h,2h", "--window", "5min"], "--window",
     None),
    (["incident", "{log}", *OUTCOMES, "--start", "2026-03-02T06:00:00Z", "--end",
      "2026-03-02T06:30:00Z", "--id", "A"], "--id", None),
    (["buckets", "{log}", *OUTCOMES, "--plot-freq", "5min"], "--plot-freq",
     ["--plot", "{tmp}/b.png"]),
    (["latency", "{log}", *OUTCOMES, "--duration", "dur", "--duration-unit", "s",
      "--thresholds", "1s", "--freq", "1h"], "--freq", ["--out", "{tmp}/l.csv"]),
])
def test_other_commands_refuse_the_flags_they_would_drop(files, tmp_path, capsys, argv, flag,
                                                          used):
    where = {**files, "tmp": str(tmp_path)}
    line = _refused(capsys, [a.format(**where) for a in argv])
    assert f"{flag} would do nothing" in line
    if used:  # with the output that reads it, the flag is taken
        assert main([a.format(**where) for a in [*argv, *used]]) == 0
