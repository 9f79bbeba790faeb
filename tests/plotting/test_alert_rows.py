""":func:`budgetlab.plotting.plot_alerts` shows every evaluated group when told the groups
(``groups=``, what the CLI's ``alerts``/``backtest --plot`` pass): those with an episode get their
tier rows, those without one are named in a line of the legend (they were left out: nothing
showed they had been evaluated); without ``groups=`` that line says they are not drawn. The
groups are an argument, not an attr of the episodes: pandas deep-copies ``attrs`` on every
operation, and at 50,000 groups a list of their keys there costs ~0.1 s per operation. The
legend keys only the severities drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from budgetlab import AlertPolicy, AlertTier, alert_episodes, as_events, bin_events
from budgetlab.cli import main
from budgetlab.plotting import plot_alerts
from budgetlab.plotting.alert_chart import QUIET_NOT_DRAWN, alert_rows

# a figure left open is the next test's plt.gca() (plot_timeline drew on these bars under -n 2)
pytestmark = pytest.mark.usefixtures("close_figures")


def _two_regions() -> pd.DataFrame:
    # 2 h of minutes per region: fra fails minutes 30..39 (one 10 min page episode, as in
    # alert_episodes' own example), ams never fails (no episode)
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    ok = [not (30 <= i < 40) for i in range(120)] + [True] * 120
    return as_events(ts.append(ts), ok, groups={"region": ["fra"] * 120 + ["ams"] * 120})


def _quiet(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()
            if t.get_text().startswith(("no alert in", "groups without an alert"))]


def test_a_group_without_episodes_is_named_in_the_legend():
    bins = bin_events(_two_regions(), "1min", by=["region"])
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    assert ep["region"].astype(str).tolist() == ["fra"]
    assert "groups" not in ep.attrs  # not carried (and deep-copied) with the episodes
    ax = plot_alerts(ep, groups=pd.DataFrame({"region": ["fra", "ams"]}))
    assert [(c.get_label(), len(c.patches)) for c in ax.containers] == [("fra · page_10m", 1)]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fra · page_10m (page)"]
    assert _quiet(ax) == ["no alert in 1 group:\nams"]
    # the row shaded over the first 10 minutes, while its long window filled
    assert sum(p.get_gid() == "filling" for p in ax.patches) == 1
    plt.close("all")
    # without groups=: the groups with episodes, and a line that says the others are not drawn
    ax = plot_alerts(ep)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fra · page_10m (page)"]
    assert _quiet(ax) == [QUIET_NOT_DRAWN]
    plt.close("all")


def test_many_quiet_groups_are_named_three_and_counted():
    # 6 regions, only fra fails: the 5 others, sorted, named by three and counted
    regions = ["fra", "ams", "lis", "osl", "ber", "vie"]
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    ok = [not (30 <= i < 40) for i in range(120)] + [True] * 120 * 5
    ev = as_events(ts.repeat(1).append([ts] * 5), ok,
                   groups={"region": [r for r in regions for _ in range(120)]})
    bins = bin_events(ev, "1min", by=["region"])
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    ax = plot_alerts(ep, groups=bins[["region"]].drop_duplicates())
    assert _quiet(ax) == ["no alert in 5 groups:\nams, ber, lis and 2 more"]
    plt.close("all")
    ax = plot_alerts(ep, groups=bins)  # the bins themselves: their key columns, once per group
    assert _quiet(ax) == ["no alert in 5 groups:\nams, ber, lis and 2 more"]
    assert alert_rows(ep, groups=bins[["region"]].drop_duplicates()) == 1
    plt.close("all")


def test_the_legend_keys_only_the_severities_drawn():
    # at a 90 % target the ten bad minutes of fra burn at most 1.0 / 0.1 = 10 over 10 minutes:
    # the ticket tier (4.5) fires, the page tier (10.5) cannot; "page" is not keyed
    tiers = (AlertTier("page_10m", "page", pd.Timedelta("10min"), None, 10.5),
             AlertTier("ticket_10m", "ticket", pd.Timedelta("10min"), None, 4.5))
    bins = bin_events(_two_regions(), "1min", by=["region"])
    ep = alert_episodes(bins, 0.9, AlertPolicy(tiers))
    assert ep["tier"].astype(str).tolist() == ["ticket_10m"]
    ax = plot_alerts(ep, groups=bins[["region"]].drop_duplicates())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "ticket" in labels and "page" not in labels
    # both tiers keep their rows (the page row empty)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fra · page_10m (page)",
                                                            "fra · ticket_10m (ticket)"]
    plt.close("all")


def test_groups_without_the_shown_keys_are_not_used():
    ep = alert_episodes(bin_events(_two_regions(), "1min", by=["region"]), 0.9,
                        AlertPolicy.single_window("10min", burn=4.5))
    ax = plot_alerts(ep, groups=pd.DataFrame({"sitekey": ["s1"]}))  # not the shown keys
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fra · page_10m (page)"]
    assert _quiet(ax) == [QUIET_NOT_DRAWN]
    plt.close("all")


def test_the_alerts_command_shows_every_evaluated_group(tmp_path, monkeypatch):
    ev = _two_regions()
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ev["ts"], "outcome": ["success" if o else "error" for o in ev["ok"]],
                  "region": ev["region"]}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    pd.DataFrame({"incident_id": ["i1"], "start": ["2026-01-01T00:30:00Z"],
                  "end": ["2026-01-01T00:40:00Z"], "scope": ["region=fra"]}).to_csv(
        inc, index=False)
    labels, legend = [], []
    import budgetlab._util.figures as figures

    real = figures.save_figure

    def keep(fig, path, **kw):
        labels.extend(t.get_text() for a in fig.axes for t in a.get_yticklabels())
        legend.extend(t.get_text() for a in fig.axes for t in a.get_legend().get_texts())
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "save_figure", keep)
    assert main(["alerts", str(log), "--by", "region", "--incidents", str(inc), "--policy",
                 "single_window", "--plot", str(tmp_path / "a.png")]) == 0
    assert "fra · page_1h (page)" in labels and not any("ams" in t for t in labels)
    assert "no alert in 1 group:\nams" in legend


def test_the_rows_are_the_groups_scoring_reads_with_or_without_attrs():
    """The chart reads the group keys as budgetlab.score_alerts does (alerts' episode_keys): from
    attrs["by"], or without attrs (a table read back from a file) every column that is not an
    episode's own. Hand-stated: fra has the one 10 min page episode, so its row is
    ``fra · page_10m`` in both cases."""
    bins = bin_events(_two_regions(), "1min", by=["region"])
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    bare = ep.copy()
    bare.attrs = {}
    for table in (ep, bare):
        fig, ax = plt.subplots()
        plot_alerts(table, ax=ax)
        assert [c.get_label() for c in ax.containers] == ["fra · page_10m"]
        plt.close(fig)


def test_each_episode_is_drawn_on_its_own_groups_tier_row_in_the_tables_order():
    """A hand-made table, its episodes out of order: two groups, two tiers (one never fired in
    group a). Stated by hand: the rows, group by group and tier by tier, and on each the bars of
    its episodes, [start, end) in the table's order, at the row's height, in its severity's
    colour (page vermillion, ticket orange)."""
    t = pd.Timestamp("2026-01-01", tz="UTC")
    ep = pd.DataFrame({
        "k": ["b", "a", "b", "a"],
        "tier": ["slow", "fast", "fast", "fast"],
        "severity": ["ticket", "page", "page", "page"],
        "start": [t + pd.Timedelta(m, "min") for m in (120, 60, 30, 10)],
        "end": [t + pd.Timedelta(m, "min") for m in (180, 90, 40, 20)]})
    ep.attrs["tiers"] = [("fast", "page"), ("slow", "ticket")]
    ax = plot_alerts(ep)
    drawn = [(c.get_label(),
              [(mdates.num2date(p.get_x()).strftime("%H:%M"),
                mdates.num2date(p.get_x() + p.get_width()).strftime("%H:%M"),
                p.get_y() + p.get_height() / 2, matplotlib.colors.to_hex(p.get_facecolor()))
               for p in c.patches]) for c in ax.containers]
    assert drawn == [
        ("a · fast", [("01:00", "01:30", 0, "#d55e00"), ("00:10", "00:20", 0, "#d55e00")]),
        ("a · slow", []),
        ("b · fast", [("00:30", "00:40", 2, "#d55e00")]),
        ("b · slow", [("02:00", "03:00", 3, "#e69f00")])]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "a · fast (page)", "a · slow (ticket)", "b · fast (page)", "b · slow (ticket)"]
    plt.close("all")


def test_the_groups_drawn_keep_the_span_and_tier_windows_of_their_episodes():
    # --show-groups cuts the episodes to the groups drawn; the chart still needs the evaluated
    # span (its x range) and the tiers' long windows (the filling spans) from their attrs
    from budgetlab.cli.alert_figure import drawn_groups

    bins = bin_events(_two_regions(), "1min", by=["region"])
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    groups = bins[["region"]].drop_duplicates()
    drawn, kept, line = drawn_groups(groups, {"p": ep}, pd.DataFrame(), ["region"], 1)
    assert drawn["region"].tolist() == ["fra"] and line is not None
    assert kept["p"]["region"].tolist() == ["fra"]
    for name in ("grid_start", "grid_end", "tier_windows"):
        assert kept["p"].attrs[name] == ep.attrs[name]
    ax = plot_alerts(kept["p"], ax=plt.subplots()[1], groups=drawn)
    assert ax.get_xlim() == (mdates.datestr2num("2026-01-01 00:00"),
                             mdates.datestr2num("2026-01-01 02:00"))
    assert [p.get_gid() for p in ax.patches].count("filling") == 1
