"""``buckets --plot`` with per-group targets: one panel per target, each group's burn against its
own target (a burn of 2 under 99 % and one under 90 % are not one unit and are not stacked)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab as bl  # noqa: E402
from budgetlab.cli import main  # noqa: E402
from budgetlab.cli.buckets import _burn_over_time  # noqa: E402


def _events() -> pd.DataFrame:
    # one hour, 100 events per group: a (target 99 %) 2 timeouts, b (target 90 %) 20 timeouts;
    # by hand both burn 2: 2 / (100 x 0.01) and 20 / (100 x 0.1)
    ts = pd.date_range("2026-01-01", periods=100, freq="30s", tz="UTC")
    ok = [i >= 2 for i in range(100)] + [i >= 20 for i in range(100)]
    bucket = ["timeout" if not o else "success" for o in ok]
    return bl.as_events(ts.append(ts), ok, bucket, groups={"g": ["a"] * 100 + ["b"] * 100})


def test_each_target_is_its_own_table_with_its_groups_burn():
    panels = _burn_over_time(_events(), bl.PerGroup({"a": 0.99, "b": 0.9}), "1h", ["g"])
    assert [t for t, _ in panels] == [0.99, 0.9]  # the highest target first
    for (_, over), group in zip(panels, ["a", "b"], strict=True):
        assert set(over["g"]) == {group}
        timeout = over[over["bucket"].astype(str) == "timeout"]
        assert timeout["burn_rate"].tolist() == [pytest.approx(2.0, rel=1e-12)]


def test_one_slo_is_one_panel():
    panels = _burn_over_time(_events(), bl.SLO(0.9), "1h", ["g"])
    assert [t for t, _ in panels] == [0.9]
    timeout = panels[0][1][panels[0][1]["bucket"].astype(str) == "timeout"]
    assert timeout.set_index("g")["burn_rate"].to_dict() == pytest.approx({"a": 0.2, "b": 2.0},
                                                                         rel=1e-12)


def test_the_command_draws_one_panel_per_target(tmp_path, monkeypatch):
    log = tmp_path / "log.csv"
    ev = _events()
    pd.DataFrame({"ts": ev["ts"], "outcome": ev["bucket"].astype(str), "g": ev["g"]}).to_csv(
        log, index=False)
    drawn = []
    import budgetlab._util.figures as figures

    real = figures.save_figure

    def keep(fig, path, **kw):
        drawn.append([a.get_ylabel() for a in fig.axes if a.get_ylabel()])
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "save_figure", keep)
    assert main(["buckets", str(log), "--by", "g", "--target", "a=0.99,b=0.9", "--freq", "1min",
                 "--plot", str(tmp_path / "b.png")]) == 0
    assert drawn == [["burn rate per 1 h bin\n(1 = allowed pace, target 99%)",
                      "burn rate per 1 h bin\n(1 = allowed pace, target 90%)"]]


def test_a_panel_of_several_slos_spans_all_their_events():
    # a (1 h window) and b (2 h window) share the target 90 %: one panel of two parts. a's events
    # run 00:00 .. 00:49:30, b's (the same, 1 h later) 01:00 .. 01:49:30: the panel's span is
    # 00:00 .. 01:49:30 (it said a's, 00:00 .. 00:49:30)
    ev = _events()
    ev.loc[ev["g"] == "b", "ts"] += pd.Timedelta("1h")
    ev = ev.sort_values("ts", kind="stable", ignore_index=True)
    per = bl.PerGroup({"a": bl.SLO(0.9, window="1h"), "b": bl.SLO(0.9, window="2h")})
    [(target, over)] = _burn_over_time(ev, per, "1h", ["g"])
    assert target == 0.9 and set(over["g"]) == {"a", "b"}
    assert (over.attrs["start"], over.attrs["end"]) == ("2026-01-01T00:00:00+00:00",
                                                        "2026-01-01T01:49:30+00:00")
    assert over.attrs["freq"] == "1h" and over.attrs["target"] == 0.9


def _late_group_log(tmp_path) -> str:
    # a (target 99 %): one event a minute 00:00 .. 02:59, a timeout every 20th; b (target 90 %):
    # one every 30 s 02:00 .. 02:59:30 only (120: enough for a verdict), a timeout every 10th.
    # b's bins of 00:00 and 01:00 (1 h) hold none of its events: in its panel, bins without
    # events
    a = pd.date_range("2026-01-01 00:00", periods=180, freq="1min", tz="UTC")
    b = pd.date_range("2026-01-01 02:00", periods=120, freq="30s", tz="UTC")
    frame = pd.DataFrame({
        "ts": a.append(b), "g": ["a"] * 180 + ["b"] * 120,
        "outcome": ["timeout" if i % 20 == 0 else "success" for i in range(180)]
        + ["timeout" if i % 10 == 0 else "success" for i in range(120)]})
    path = tmp_path / "log.csv"
    frame.sort_values("ts", kind="stable").to_csv(path, index=False)
    return str(path)


def test_a_panel_spans_the_whole_log():
    # the panel of b (90 %) spans the log's first to last event, 00:00 .. 02:59, not b's own
    ev = _events()
    ev.loc[ev["g"] == "b", "ts"] += pd.Timedelta("1h")
    ev = ev.sort_values("ts", kind="stable", ignore_index=True)
    panels = _burn_over_time(ev, bl.PerGroup({"a": 0.99, "b": 0.9}), "1h", ["g"])
    assert [(t, o.attrs["start"], o.attrs["end"]) for t, o in panels] == [
        (0.99, "2026-01-01T00:00:00+00:00", "2026-01-01T01:49:30+00:00"),
        (0.9, "2026-01-01T00:00:00+00:00", "2026-01-01T01:49:30+00:00")]


def test_each_panel_rules_the_bins_its_groups_are_silent_in(tmp_path, monkeypatch):
    import matplotlib.dates as mdates

    import budgetlab._util.figures as figures

    ruled: dict[str, list[tuple[str, str]]] = {}
    legends: dict[str, list[str]] = {}
    real = figures.save_figure

    def keep(fig, path, **kw):
        for ax in fig.axes:
            if "target" not in ax.get_ylabel():
                continue
            name = ax.get_ylabel().rsplit("target ", 1)[1].rstrip(")")
            spans = []
            for c in ax.collections:
                if c.get_gid() == "no_traffic":
                    for p in c.get_paths():
                        x = p.vertices[:, 0]
                        spans.append(tuple(f"{mdates.num2date(v):%H:%M}"
                                           for v in (x.min(), x.max())))
            ruled[name] = sorted(set(spans))
            legend = ax.get_legend()
            legends[name] = [t.get_text() for t in legend.get_texts()] if legend else []
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "save_figure", keep)
    assert main(["buckets", _late_group_log(tmp_path), "--by", "g", "--target", "a=0.99,b=0.9",
                 "--plot-freq", "1h", "--plot", str(tmp_path / "b.png")]) == 0
    # b's panel: ruled from the log's first event (00:00) to b's first bin (02:00); a's: none
    assert ruled == {"99%": [], "90%": [("00:00", "02:00")]}
    assert "no traffic (bin empty)" in legends["90%"]
    assert "no traffic (bin empty)" not in legends["99%"]
