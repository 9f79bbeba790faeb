"""The alert chart says what the score table says of silences (budgetlab.plotting.alert_blind):
each tier row's spans without an event in its long window are ruled grey over the hand-computed
span, an incident unseen by every tier is drawn apart from a missed one, and a tier that can
never fire at the target says so in its row.

Oracles: the silence's bounds worked out by hand from the bins (below), the unseen/missed
reading from the rule of budgetlab.alerts.unseen applied by hand, the threshold 14.4 x 0.1 =
1.44 of the workbook's page_1h at a 90 % target."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events  # noqa: E402
from budgetlab.cli import main  # noqa: E402
from budgetlab.errors import ConfigError  # noqa: E402
from budgetlab.plotting import plot_alerts  # noqa: E402

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")


def _bins() -> pd.DataFrame:
    """One event a minute from 00:00 to 05:59, all good, none from 02:00 to 03:59."""
    ts = [T0 + pd.Timedelta(minutes=m) for m in range(360) if not 120 <= m < 240]
    return bin_events(as_events(pd.DatetimeIndex(ts), [True] * len(ts)), "1min")


def _incidents() -> pd.DataFrame:
    """U inside the silence, M in traffic (all good: no alert matches it, a miss)."""
    return pd.DataFrame({"incident_id": ["U", "M"],
                         "start": [T0 + pd.Timedelta("2h30min"), T0 + pd.Timedelta("5h")],
                         "end": [T0 + pd.Timedelta("3h"), T0 + pd.Timedelta("5h10min")]})


def _num(minutes: float) -> float:
    return float(mdates.date2num((T0 + pd.Timedelta(minutes=minutes)).tz_localize(None)))


def test_silence_is_ruled_over_the_hand_computed_span() -> None:
    """10 min window, evaluated at each bin's end: the last event (bin 01:59) is in the window
    through the evaluation at 02:09 and out of it at 02:10; the next (bin 04:00, ending 04:01)
    is in it from 04:01. So the silence is [02:10, 04:01) on the tier's row (row 0), and
    nowhere else."""
    bins = _bins()
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    ax = plot_alerts(ep, incidents=_incidents(), bins=bins, grace="30min")
    marks = [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert len(marks) == 1
    (x0, y0), (x1, y1) = marks[0].get_paths()[0].get_extents().get_points()
    assert x0 == pytest.approx(_num(130), abs=1e-9)
    assert x1 == pytest.approx(_num(241), abs=1e-9)
    assert (y0, y1) == pytest.approx((-0.45, 0.45))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "no event in the tier's\nlong window: cannot fire" in labels
    plt.close("all")


def test_unseen_incident_is_drawn_apart_from_a_missed_one() -> None:
    """U: no event in the 10 min window from 02:30 to 03:30 (its end + 30 min grace; the
    silence runs to 04:01): unseen. M: traffic throughout, no alert: missed. Only U's bar has
    the unseen gid and is left unhatched; M's keeps the incident hatch."""
    bins = _bins()
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    assert len(ep) == 0  # nothing fired: M is a miss, U unseen
    ax = plot_alerts(ep, incidents=_incidents(), bins=bins, grace="30min")
    bars = next(c for c in ax.containers if c.get_label() == "incidents").patches
    assert [b.get_gid() for b in bars] == ["incident_unseen", None]
    assert [b.get_hatch() for b in bars] == [None, "//"]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "incident" in labels
    assert any(t.startswith("unseen: no traffic") for t in labels)
    plt.close("all")
    # without bins traffic is unknown: both drawn alike, hatched, and no silence is marked
    ax = plot_alerts(ep, incidents=_incidents())
    bars = next(c for c in ax.containers if c.get_label() == "incidents").patches
    assert [b.get_hatch() for b in bars] == ["//", "//"]
    assert not [c for c in ax.collections if c.get_gid() == "no_traffic"]
    plt.close("all")


def test_other_bins_are_refused() -> None:
    """Bins of another width than the episodes': silences would be drawn at wrong times."""
    bins = _bins()
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    ts = [T0 + pd.Timedelta(minutes=m) for m in range(360)]
    other = bin_events(as_events(pd.DatetimeIndex(ts), [True] * 360), "5min")
    with pytest.raises(ConfigError, match="bins= are not the bins"):
        plot_alerts(ep, incidents=_incidents(), bins=other)
    plt.close("all")


def test_a_tier_that_can_never_fire_says_so_in_its_row() -> None:
    """Workbook at 90 %: page_1h needs an error ratio above 14.4 x 0.1 = 1.44 (row 0 says so);
    page_6h needs 6 x 0.1 = 0.6, it can fire (no text on its row)."""
    bins = _bins()
    ep = alert_episodes(bins, 0.9, "workbook")
    ax = plot_alerts(ep)
    said = [t for t in ax.texts if t.get_gid() == "cannot_fire"]
    assert len(said) == 1
    assert said[0].get_position()[1] == 0
    assert said[0].get_text() == "cannot fire at target 0.9: needs an error ratio above 1.44"
    plt.close("all")


def test_cli_plot_marks_silence_unseen_and_cannot_fire(tmp_path) -> None:
    """``alerts --plot`` (an svg, whose ids are the artists' gids): the silence, the unseen
    incident and the can-never-fire row are in the figure. No event from 02:00 to 03:59: the 1 h
    window of single_window's page_1h is silent from 03:00 to 04:01, so U (03:10 to 03:20, 30
    min grace) is unseen by it, its only tier; the workbook's longer windows hold events then
    (U is not unseen there: one unseen bar in all)."""
    ts = [T0 + pd.Timedelta(minutes=m) for m in range(360) if not 120 <= m < 240]
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in ts],
                  "outcome": "success"}).to_csv(log, index=False)
    inc = tmp_path / "inc.csv"
    pd.DataFrame({"incident_id": ["U"], "start": ["2026-03-02T03:10Z"],
                  "end": ["2026-03-02T03:20Z"]}).to_csv(inc, index=False)
    out = tmp_path / "al.svg"
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--freq",
                 "1min", "--policy", "single_window,workbook", "--grace", "30min",
                 "--plot", str(out)]) == 0
    svg = out.read_text()
    assert 'id="no_traffic' in svg
    assert svg.count('id="incident_unseen"') == 1  # the bar (its shading: ..._shade)
    assert 'id="cannot_fire' in svg
    assert "cannot fire at target 0.9" in svg


def test_per_group_targets_say_it_on_their_own_rows_only() -> None:
    """Group a at 90 %, b at 99 %: page_1h needs 14.4 x 0.1 = 1.44 in a (never), 14.4 x 0.01 =
    0.144 in b (it can fire). The attrs name the tier, burn, target and group a; the chart's
    rows are a's four tiers then b's four (groups without an episode drawn too: groups=), so
    only row 0 says it."""
    from budgetlab import SLO, PerGroup

    ts = pd.DatetimeIndex([T0 + pd.Timedelta(minutes=m) for m in range(600)]).repeat(2)
    ok = [not 400 <= i // 2 < 500 for i in range(1200)]  # both fail from 06:40 to 08:19
    bins = bin_events(as_events(ts, ok, groups={"k": ["a", "b"] * 600}), "1min", by=["k"])
    per = PerGroup({"a": 0.9}, default=0.99, base=SLO(target=0.99, window="1h"))
    ep = alert_episodes(bins, per, "workbook")
    assert set(ep["k"]) == {"a", "b"}  # both have a row
    assert ep.attrs["cannot_fire"] == [["page_1h", 14.4, 0.9, [["a"]]]]
    ax = plot_alerts(ep, groups=bins[["k"]].drop_duplicates())
    said = [t for t in ax.texts if t.get_gid() == "cannot_fire"]
    assert [t.get_position()[1] for t in said] == [0]
    assert said[0].get_text().startswith("cannot fire at target 0.9:")
    plt.close("all")
    # one row per tier for every group (no episode: no group rows): the row names group a
    quiet = bin_events(as_events(ts, [True] * 1200, groups={"k": ["a", "b"] * 600}), "1min",
                       by=["k"])
    ax = plot_alerts(alert_episodes(quiet, per, "workbook"))
    said = [t for t in ax.texts if t.get_gid() == "cannot_fire"]
    assert [t.get_position()[1] for t in said] == [0]
    assert said[0].get_text().startswith("cannot fire at target 0.9 (group a):")
    plt.close("all")


def test_no_alert_fired_is_not_written_over_a_row_that_cannot_fire() -> None:
    """A 1 h tier of burn 14.4 at 90 % needs an error ratio above 1.44: it can never fire, and
    with all-good traffic nothing fired. Its one row is the middle of the panel, where "no alert
    fired" was centred: that line is in the legend (gid no_alert), no text of the panel says
    it, and no two texts of the panel overlap once drawn."""
    bins = _bins()
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("1h", burn=14.4))
    assert len(ep) == 0
    ax = plot_alerts(ep, ax=plt.figure(figsize=(8, 1.6)).add_subplot())
    assert [t.get_gid() for t in ax.texts] == ["cannot_fire"]
    assert "no alert fired" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert [h.get_label() for h in ax.alert_keys if h.get_gid() == "no_alert"] == [
        "no alert fired"]
    plt.close("all")
    # a tier that can fire: said in the middle of the panel, as before
    ax = plot_alerts(alert_episodes(bins, 0.9, AlertPolicy.single_window("1h", burn=4.5)),
                     ax=plt.figure().add_subplot())
    assert [(t.get_gid(), t.get_text()) for t in ax.texts] == [("no_alert", "no alert fired")]
    plt.close("all")


def test_policy_figure_with_bins_rules_silences_and_rows_every_binned_group() -> None:
    """Notebook 02's call: policy_figure(episodes, incidents, bins=bins, grace=...) without
    groups=. Groups fra and ams, all good, both silent from 02:00 to 03:59: no alert anywhere,
    so one set of tier rows stands for both, ruled where no group's 10 min window holds an event
    ([02:10, 04:01), as in the ungrouped log); the legend names both groups as evaluated without
    an alert (the bins' groups) instead of saying groups without an alert are not drawn."""
    from budgetlab.cli.alert_figure import policy_figure

    ts = [T0 + pd.Timedelta(minutes=m) for m in range(360) if not 120 <= m < 240]
    ev = as_events(pd.DatetimeIndex(ts).repeat(2), [True] * (2 * len(ts)),
                   groups={"region": ["fra", "ams"] * len(ts)})
    bins = bin_events(ev, "1min", by="region")
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    fig, _ = policy_figure({"p": ep}, _incidents(), bins=bins, grace="30min")
    ax = fig.axes[0]
    marks = [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert len(marks) == 1
    (x0, _), (x1, _) = marks[0].get_paths()[0].get_extents().get_points()
    assert (x0, x1) == pytest.approx((_num(130), _num(241)), abs=1e-9)
    quiet = [h.get_label() for h in ax.alert_keys if h.get_gid() == "quiet"]
    assert quiet == ["no alert in 2 groups:\nams, fra"]
    plt.close(fig)
    # ams with an event every minute: some group's window always holds one, nothing is ruled
    ams = [T0 + pd.Timedelta(minutes=m) for m in range(360)]
    ev = as_events(pd.DatetimeIndex([*ts, *ams]), [True] * (len(ts) + len(ams)),
                   groups={"region": ["fra"] * len(ts) + ["ams"] * len(ams)})
    bins = bin_events(ev, "1min", by="region")
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    fig, _ = policy_figure({"p": ep}, None, bins=bins)
    assert not [c for c in fig.axes[0].collections if c.get_gid() == "no_traffic"]
    plt.close(fig)


def test_cli_plot_of_groups_without_any_alert_rules_their_silence(tmp_path) -> None:
    """``alerts --plot --by region`` where no group alerted (every event good; both groups
    silent from 02:00 to 03:59): one set of tier rows stands for both groups (it crashed with a
    KeyError before stop 58), ruled where no group's 1 h window holds an event, from 03:00 (the
    01:59 bins leave the window) to 04:01."""
    ts = [T0 + pd.Timedelta(minutes=m) for m in range(360) if not 120 <= m < 240]
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in ts for _ in "ab"],
                  "outcome": "success", "region": ["fra", "ams"] * len(ts)}).to_csv(log,
                                                                                   index=False)
    inc = tmp_path / "inc.csv"
    pd.DataFrame({"incident_id": ["U"], "start": ["2026-03-02T03:10Z"],
                  "end": ["2026-03-02T03:20Z"]}).to_csv(inc, index=False)
    out = tmp_path / "al.svg"
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--freq",
                 "1min", "--by", "region", "--policy", "single_window", "--plot", str(out)]) == 0
    assert out.read_text().count('id="no_traffic"') == 1
