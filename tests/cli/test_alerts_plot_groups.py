"""``alerts --plot`` with more groups than ``--show-groups`` (default 40) draws that many: those
an incident's scope names, then the most alert episodes, and says so in one line. It drew every
group's tiers: at 5,000 sitekeys (a log of 1 M events over 14 days) a 20,000-row figure that had
not been written after 13 minutes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def _log(tmp_path):
    """One event a minute for 6 h in each of regions a, b, c; only c fails, minutes 60..69
    (the single-window policy's one episode, as in test_analyses_cli's reset test)."""
    ts = pd.date_range("2026-01-05", periods=360, freq="1min", tz="UTC")
    minute = np.arange(360)
    frames = [pd.DataFrame({"ts": ts, "region": r, "outcome": np.where(
        (r == "c") & (minute >= 60) & (minute < 70), "solve_error", "success")})
        for r in ("a", "b", "c")]
    log = tmp_path / "log.csv"
    pd.concat(frames).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end,scope\ni1,2026-01-05T04:00:00Z,2026-01-05T04:30:00Z,"
                   "region=b\n")
    return log, inc


def test_the_plot_draws_the_named_group_then_the_most_alerted(tmp_path, capsys):
    """--show-groups 2 of 3: b (the incident's scope) and c (the only group with an episode);
    a is left out, and the line says so."""
    log, inc = _log(tmp_path)
    assert main(["alerts", str(log), "--by", "region", "--incidents", str(inc), "--target",
                 "0.9", "--policy", "single_window", "--show-groups", "2",
                 "--plot", str(tmp_path / "a.png")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("the plot: showing 2 of 3 groups (--by region), those an incident's scope names "
            "first, then the most alert episodes; 1 more group not shown: --out FILE writes "
            "every group's scores; --show-groups 0 draws them all") in out  # a plot: draws
    assert (tmp_path / "a.png").exists()


def test_every_group_is_drawn_under_the_limit(tmp_path, capsys):
    log, inc = _log(tmp_path)
    assert main(["alerts", str(log), "--by", "region", "--incidents", str(inc), "--target",
                 "0.9", "--policy", "single_window", "--plot",
                 str(tmp_path / "a.png")]) == 0
    assert "the plot: showing" not in capsys.readouterr().out
