"""``buckets --plot`` builds only what its stack draws: the 3 groups of most failures apart and
the others added up as one group (:func:`budgetlab.plotting.bucket_drawn.drawn_burn_over_time`),
never the table of every group. Checked on a hand log of 5 groups and 2 buckets: the groups kept
are the ones the rule picks by hand, and the "other" lane's figures, bin by bin, are a pandas
computation over the groups it holds."""

from __future__ import annotations

import importlib.util

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab as bl  # noqa: E402
from budgetlab.cli import main  # noqa: E402
from budgetlab.plotting import plot_buckets  # noqa: E402

T0 = pd.Timestamp("2026-01-01", tz="UTC")

#: The hand log, per group: (hour, events, timeouts, solve errors). Failures: A 5, B 3, C 2,
#: D 2, E 1. The stack keeps the 3 of most failures apart: A, B, then C (tied with D, C first
#: in the table's group order: by name). "other" holds D and E. C has no event at 01:00, D and
#: E none at 02:00 (a lane each).
HAND = {"A": [(0, 4, 2, 0), (1, 4, 1, 1), (2, 2, 0, 1)],
        "B": [(0, 5, 1, 0), (1, 3, 0, 1), (2, 2, 1, 0)],
        "C": [(0, 2, 1, 0), (2, 3, 0, 1)],
        "D": [(0, 3, 0, 1), (1, 2, 1, 0)],
        "E": [(0, 2, 1, 0), (1, 1, 0, 0)]}


def _events(scale: int = 1) -> pd.DataFrame:
    """The hand log, each event ``scale`` times (a second apart, within its hour)."""
    ts, bucket, site = [], [], []
    for g, cells in HAND.items():
        for hour, n, timeouts, solve in cells:
            kinds = ["timeout"] * timeouts + ["solve_error"] * solve
            kinds += ["success"] * (n - len(kinds))
            for i, kind in enumerate(kinds * scale):
                ts.append(T0 + pd.Timedelta(hours=hour, minutes=1 + i % 50, seconds=i // 50))
                bucket.append(kind)
                site.append(g)
    return bl.as_events(ts, [b == "success" for b in bucket], bucket, groups={"site": site})


def _other_oracle(ev: pd.DataFrame, held: list[str]) -> pd.DataFrame:
    """pandas: per hour, the failures of each bucket of the groups ``held`` and their events, and
    every group's events (the stack's denominator)."""
    hour = ev["ts"].dt.floor("1h")
    mine = ev["site"].isin(held)
    fails = pd.crosstab(hour[mine], ev.loc[mine, "bucket"].astype(str))
    out = pd.DataFrame({"events": mine.groupby(hour).sum(), "all_events": hour.value_counts(),
                        "timeout": fails.get("timeout"), "solve_error": fails.get("solve_error")})
    return out.fillna(0).sort_index()


def _drawn(ev: pd.DataFrame, withheld: list[str]) -> pd.DataFrame:
    from budgetlab.plotting.bucket_drawn import drawn_burn_over_time

    span = {"start": ev["ts"].min().isoformat(), "end": ev["ts"].max().isoformat()}
    return drawn_burn_over_time([(bl.SLO(0.9), ev)], freq="1h", by=["site"], withheld=withheld,
                                span=span)


def test_the_groups_kept_are_the_rules_by_hand_and_other_adds_up_the_rest():
    ev = _events()
    over = _drawn(ev, [])
    others = over["others"].to_numpy(dtype=bool)
    assert sorted(set(over.loc[~others, "site"].astype(str))) == ["A", "B", "C"]  # by hand
    assert over.attrs["others"] == 2  # D and E
    oracle = _other_oracle(ev, ["D", "E"])
    rest = over[others]
    for bucket in ("timeout", "solve_error"):
        got = rest[rest["bucket"].astype(str) == bucket].set_index("bin_start")
        got = got[["events", "failures", "burn_rate"]].reindex(oracle.index, fill_value=0)
        assert got["events"].tolist() == oracle["events"].tolist()
        assert got["failures"].tolist() == oracle[bucket].tolist()
        want = np.divide(oracle[bucket], oracle["events"] * 0.1,
                         out=np.zeros(len(oracle)), where=oracle["events"].to_numpy() > 0)
        assert np.allclose(got["burn_rate"], want, rtol=1e-12, atol=0)
    # by hand: timeouts of D and E per hour 1, 1, 0 over 5, 3, 0 events
    assert rest[rest["bucket"].astype(str) == "timeout"]["failures"].tolist() == [1, 1]


def test_a_withheld_group_is_not_binned_and_four_left_are_all_kept():
    over = _drawn(_events(), ["E"])
    assert sorted(set(over["site"].astype(str))) == ["A", "B", "C", "D"]
    assert not over["others"].any() and over.attrs["others"] == 0


def _layers(ax) -> dict[str, np.ndarray]:
    return {p.get_label(): p.get_data().values - p.get_data().baseline for p in ax.patches
            if p.get_gid() == "bucket"}


def _lane_start(ax, gid: str) -> float:
    [lane] = [c for c in ax.collections if c.get_gid() == gid]
    return float(lane.get_paths()[0].vertices[:, 0].min())


def test_the_other_layers_and_lanes_equal_pandas_over_the_groups_it_holds():
    ev = _events()
    ax = plot_buckets(_drawn(ev, []), by="site")
    other = "other (2 groups)"
    layers = _layers(ax)
    assert sorted(layers) == sorted(f"{b} · {g}" for b in ("timeout", "solve_error")
                                    for g in ("A", "B", "C", other))
    oracle = _other_oracle(ev, ["D", "E"])
    for bucket in ("timeout", "solve_error"):
        want = oracle[bucket] / (oracle["all_events"] * 0.1)
        assert np.allclose(layers[f"{bucket} · {other}"], want.to_numpy(), rtol=1e-12)
    # by hand: 1 / (16 x 0.1), 1 / (10 x 0.1), 0; solve errors 1 / 1.6, 0, 0
    assert np.allclose(layers[f"timeout · {other}"], [0.625, 1.0, 0.0])
    assert np.allclose(layers[f"solve_error · {other}"], [0.625, 0.0, 0.0])
    # lanes: "other" silent from 02:00, C at 01:00 .. 02:00
    at = {h: float(mdates.date2num(T0.tz_localize(None) + pd.Timedelta(hours=h)))
          for h in (1, 2)}
    assert _lane_start(ax, "no_traffic/others") == pytest.approx(at[2])
    assert _lane_start(ax, "no_traffic:C") == pytest.approx(at[1])
    plt.close("all")


def test_the_full_table_draws_the_same_other_layer():
    # the figures that must not change: plot_buckets of every group's table (passes on the old
    # code too)
    ev = _events()
    ax = plot_buckets(bl.bucket_burn_over_time(ev, bl.SLO(0.9), freq="1h", by="site"), by="site")
    oracle = _other_oracle(ev, ["D", "E"])
    want = oracle["timeout"] / (oracle["all_events"] * 0.1)
    assert np.allclose(_layers(ax)["timeout · other (2 groups)"], want.to_numpy(), rtol=1e-12)
    plt.close("all")


def test_the_command_bins_only_the_groups_drawn_and_draws_the_oracle(tmp_path, monkeypatch):
    ev = _events(scale=40)  # enough events that no group is withheld as thin
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ev["ts"], "outcome": ev["bucket"].astype(str),
                  "site": ev["site"]}).to_csv(log, index=False)
    import budgetlab._util.figures as figures
    import budgetlab.analyses.bucket_burn as bucket_burn

    binned: list[int] = []  # the groups of each table built
    real = bucket_burn.bucket_burn_over_time

    def spy(events, slo, *, freq="1h", by=None):
        binned.append(int(events["site"].nunique()) if by else 1)
        return real(events, slo, freq=freq, by=by)

    monkeypatch.setattr(bucket_burn, "bucket_burn_over_time", spy)
    if importlib.util.find_spec("budgetlab.plotting.bucket_drawn") is not None:
        import budgetlab.plotting.bucket_drawn as drawn

        monkeypatch.setattr(drawn, "bucket_burn_over_time", spy)
    shown = []
    monkeypatch.setattr(figures, "save_figure", lambda fig, path, **kw: shown.append(
        _layers(fig.axes[0])))
    assert main(["buckets", str(log), "--by", "site", "--target", "0.9", "--freq", "1min",
                 "--plot", str(tmp_path / "b.png")]) == 0
    assert sorted(binned) == [1, 3]  # A, B, C; the others added up, without keys
    oracle = _other_oracle(ev, ["D", "E"])
    want = oracle["timeout"] / (oracle["all_events"] * 0.1)  # 40 times the events: the same
    assert np.allclose(shown[0]["timeout · other (2 groups)"], want.to_numpy(), rtol=1e-12)
    assert np.allclose(want, [0.625, 1.0, 0.0])


def test_every_group_withheld_draws_the_words_over_the_logs_span():
    ev = _events()
    breakdown = pd.DataFrame({"site": list("ABCDE"), "note": ["withheld: too thin"] * 5})
    breakdown.attrs["by"] = ["site"]
    ax = plot_buckets(_drawn(ev, list("ABCDE")), by="site", breakdown=breakdown)
    assert not _layers(ax)
    assert "every group too thin for a verdict: not drawn" in [t.get_text() for t in ax.texts]
    # by hand: the first event at 00:01, the last at 02:03 (C's third event of hour 2)
    naive = T0.tz_localize(None)
    want = [mdates.date2num(naive + pd.Timedelta(m, "min")) for m in (1, 123)]
    assert ax.get_xlim() == pytest.approx(want)
    plt.close("all")


def test_groups_added_up_already_stay_in_other_counted_as_they_were():
    # a table of 5 groups and 3 groups added up (others rows): the 3 of most burn kept (by hand:
    # B 4, D 3, A 2), C and E joining the 3: "other (5 groups)"
    burn = {"A": 2.0, "B": 4.0, "C": 1.0, "D": 3.0, "E": 0.5, None: 5.0}
    rows = [{"bin_start": T0, "bucket": "timeout", "site": g, "events": 10, "burn_rate": b,
             "others": g is None} for g, b in burn.items()]
    over = pd.DataFrame(rows)
    over.attrs.update({"freq": "1h", "others": 3})
    layers = _layers(plot_buckets(over, by="site"))
    assert sorted(layers) == sorted(f"timeout · {g}" for g in ("A", "B", "D", "other (5 groups)"))
    # by hand: (1 + 0.5 + 5) x 10 failures' burn over the bin's 60 events
    assert layers["timeout · other (5 groups)"] == pytest.approx([65 / 60])
    plt.close("all")
