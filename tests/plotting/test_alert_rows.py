""":func:`budgetlab.plotting.plot_alerts` gives every evaluated group its tier rows, also a group
without any episode (it was left out: nothing showed it had been evaluated)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
from budgetlab.plotting import plot_alerts


def test_a_group_without_episodes_keeps_its_rows_and_filling_span():
    # 2 h of minutes per region: fra fails minutes 30..39 (one 10 min page episode, as in
    # alert_episodes' own example), ams never fails (no episode)
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    ok = [not (30 <= i < 40) for i in range(120)] + [True] * 120
    events = as_events(ts.append(ts), ok, groups={"region": ["fra"] * 120 + ["ams"] * 120})
    ep = alert_episodes(bin_events(events, "1min", by=["region"]), 0.9,
                        AlertPolicy.single_window("10min", burn=4.5))
    assert ep["region"].astype(str).tolist() == ["fra"]
    assert sorted(ep.attrs["groups"]) == [("ams",), ("fra",)]  # both were evaluated
    ax = plot_alerts(ep)
    assert [(c.get_label(), len(c.patches)) for c in ax.containers] == [
        ("ams · page_10m", 0), ("fra · page_10m", 1)]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ams · page_10m (page)",
                                                            "fra · page_10m (page)"]
    # each row shaded over the first 10 minutes, while its long window filled
    assert sum(p.get_gid() == "filling" for p in ax.patches) == 2
    plt.close("all")


def test_ungrouped_episodes_list_one_group_without_keys():
    ts = pd.date_range("2026-01-01", periods=30, freq="1min", tz="UTC")
    ep = alert_episodes(bin_events(as_events(ts, [True] * 30), "1min"), 0.9,
                        AlertPolicy.single_window("10min", burn=4.5))
    assert ep.attrs["groups"] == [()]


def test_groups_come_from_the_attrs_only_when_they_name_the_shown_keys():
    empty = pd.DataFrame({"region": pd.Series([], dtype=str), "tier": pd.Series([], dtype=str),
                          "severity": pd.Series([], dtype=str),
                          "start": pd.Series([], dtype="datetime64[ns, UTC]"),
                          "end": pd.Series([], dtype="datetime64[ns, UTC]")})
    empty.attrs.update(by=["region"], groups=[("fra",), ("ams",)], tiers=[("page_1h", "page")])
    ax = plot_alerts(empty)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ams · page_1h (page)",
                                                            "fra · page_1h (page)"]
    plt.close("all")
    empty.attrs.update(by=["region", "sitekey"], groups=[("fra", "s1")])  # not the shown keys
    ax = plot_alerts(empty)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["page_1h (page)"]
    plt.close("all")
