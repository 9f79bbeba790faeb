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
