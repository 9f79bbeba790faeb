"""``replay --plot`` draws each group's lines from the window's steps (every event and every
expiry): the drawn group's success line takes the hand-computed value after an expiry that
changes no status. Oracle: the log of the issue worked out by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def test_replay_plot_draws_the_expiry_that_changes_no_status(tmp_path, monkeypatch):
    # group a: 00:00 ok, 00:10 ok, 00:20 fail, 05:00 ok (target 0.5, window 1 h): at 01:10 + 1 ns
    # the 00:10 success leaves, 0 of 1 (exhausted before and after: no status change) until
    # 01:20 + 1 ns; group b: one success at 02:00
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", "2026-01-01T00:20:00Z",
                         "2026-01-01T02:00:00Z", "2026-01-01T05:00:00Z"],
                  "ok": [True, True, False, True, True],
                  "g": ["a", "a", "a", "b", "a"]}).to_csv(log, index=False)
    import budgetlab.plotting as plotting
    from budgetlab.plotting.clock_lines import clock_line

    seen = {}
    real = plotting.plot_timeline

    def spy(states, **kw):
        seen[len(seen)] = kw["spans"]
        return real(states, **kw)

    monkeypatch.setattr(plotting, "plot_timeline", spy)
    assert main(["replay", str(log), "--ok", "ok", "--by", "g", "--target", "0.5", "--window",
                 "1h", "--plot", str(tmp_path / "t.png")]) == 0
    (a,) = [sp for sp in seen.values() if set(sp["g"].astype(str)) == {"a"}]
    x, y = clock_line(a, "success_rate", columns=1000, max_points=10**6)
    at = np.searchsorted(x.view(np.int64),
                         pd.Timestamp("2026-01-01 01:10").value + np.array([0, 1]), side="right")
    assert y[at - 1].tolist() == [0.5, 0.0]  # 1 of 2 through 01:10, 0 of 1 from 1 ns later
    assert (tmp_path / "t.png").stat().st_size > 0


def test_replay_plot_hands_each_group_only_its_events_after_the_steps(tmp_path, monkeypatch):
    """Issue 30: the timeline is drawn from each group's steps; of its per-event rows it gets only
    those outside the steps' observation, here group a's two events at the log's last instant
    (05:00) after a silence: its dot. By hand (target 0.5): after the success and the failure at
    05:00 the window holds 1 success of 2: 50 %, burn 1, budget 0 %. Group b (02:00) has none."""
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", "2026-01-01T00:20:00Z",
                         "2026-01-01T02:00:00Z", "2026-01-01T05:00:00Z", "2026-01-01T05:00:00Z"],
                  "ok": [True, True, False, True, True, False],
                  "g": ["a", "a", "a", "b", "a", "a"]}).to_csv(log, index=False)
    import budgetlab.plotting as plotting

    seen = []
    real = plotting.plot_timeline

    def spy(states, **kw):
        ax = real(states, **kw)
        dots = {ln.get_gid(): ln.get_ydata().tolist() for p in ax.panels for ln in p.get_lines()
                if str(ln.get_gid()).endswith("_lone")}
        seen.append((states["ts"].tolist(), set(kw["spans"]["g"].astype(str)), dots))
        return ax

    monkeypatch.setattr(plotting, "plot_timeline", spy)
    assert main(["replay", str(log), "--ok", "ok", "--by", "g", "--target", "0.5", "--window",
                 "1h", "--plot", str(tmp_path / "t.png")]) == 0
    end = pd.Timestamp("2026-01-01T05:00:00Z")
    assert seen == [([end, end], {"a"}, {"success_rate_lone": [50.0], "burn_rate_lone": [1.0],
                                         "budget_remaining_lone": [0.0]}),
                    ([], {"b"}, {})]
