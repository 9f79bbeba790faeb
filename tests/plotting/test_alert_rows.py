""":func:`budgetlab.plotting.plot_alerts` gives every evaluated group its tier rows when told the
groups (``groups=``, what the CLI's ``alerts``/``backtest --plot`` pass), also a group without any
episode (it was left out: nothing showed it had been evaluated). The groups are an argument, not an
attr of the episodes: pandas deep-copies ``attrs`` on every operation, and at 50,000 groups a list
of their keys there costs ~0.1 s per operation."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
from budgetlab.cli import main
from budgetlab.plotting import plot_alerts


def _two_regions() -> pd.DataFrame:
    # 2 h of minutes per region: fra fails minutes 30..39 (one 10 min page episode, as in
    # alert_episodes' own example), ams never fails (no episode)
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    ok = [not (30 <= i < 40) for i in range(120)] + [True] * 120
    return as_events(ts.append(ts), ok, groups={"region": ["fra"] * 120 + ["ams"] * 120})


def test_a_group_without_episodes_keeps_its_rows_and_filling_span():
    bins = bin_events(_two_regions(), "1min", by=["region"])
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    assert ep["region"].astype(str).tolist() == ["fra"]
    assert "groups" not in ep.attrs  # not carried (and deep-copied) with the episodes
    ax = plot_alerts(ep, groups=pd.DataFrame({"region": ["fra", "ams"]}))
    assert [(c.get_label(), len(c.patches)) for c in ax.containers] == [
        ("ams · page_10m", 0), ("fra · page_10m", 1)]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ams · page_10m (page)",
                                                            "fra · page_10m (page)"]
    # each row shaded over the first 10 minutes, while its long window filled
    assert sum(p.get_gid() == "filling" for p in ax.patches) == 2
    plt.close("all")
    # without groups=: the groups with episodes
    ax = plot_alerts(ep)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fra · page_10m (page)"]
    plt.close("all")


def test_groups_without_the_shown_keys_are_not_used():
    ep = alert_episodes(bin_events(_two_regions(), "1min", by=["region"]), 0.9,
                        AlertPolicy.single_window("10min", burn=4.5))
    ax = plot_alerts(ep, groups=pd.DataFrame({"sitekey": ["s1"]}))  # not the shown keys
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fra · page_10m (page)"]
    plt.close("all")


def test_the_alerts_command_draws_every_evaluated_group(tmp_path, monkeypatch):
    ev = _two_regions()
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ev["ts"], "outcome": ["success" if o else "error" for o in ev["ok"]],
                  "region": ev["region"]}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    pd.DataFrame({"incident_id": ["i1"], "start": ["2026-01-01T00:30:00Z"],
                  "end": ["2026-01-01T00:40:00Z"], "scope": ["region=fra"]}).to_csv(
        inc, index=False)
    labels = []
    import budgetlab._util.figures as figures

    real = figures.save_figure

    def keep(fig, path, **kw):
        labels.extend(t.get_text() for a in fig.axes for t in a.get_yticklabels())
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "save_figure", keep)
    assert main(["alerts", str(log), "--by", "region", "--incidents", str(inc), "--policy",
                 "single_window", "--plot", str(tmp_path / "a.png")]) == 0
    assert "ams · page_1h (page)" in labels and "fra · page_1h (page)" in labels
