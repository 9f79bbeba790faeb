"""The incident figure's lines under per-group SLOs are the focus group's window steps: every
drawn point equals a brute-force count of that group's events in ``[x - window, x]``, with
points at expiries that change no status. Oracle: the count, one event at a time."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, AlertPolicy, PerGroup, incident_report  # noqa: E402


def test_the_per_group_incident_figure_draws_the_focus_group_s_steps():
    t0 = pd.Timestamp("2026-01-05", tz="UTC")
    # ams: an event every 7 min over 6 h, every 4th fails; fra: every 5 min, all succeed
    ams = t0 + pd.to_timedelta(np.arange(0, 360, 7), unit="min")
    fra = t0 + pd.to_timedelta(np.arange(0, 360, 5), unit="min")
    ev = pd.DataFrame({"ts": ams.append(fra),
                       "ok": [i % 4 != 0 for i in range(len(ams))] + [True] * len(fra),
                       "region": ["ams"] * len(ams) + ["fra"] * len(fra)})
    ev["ts"] = ev["ts"].astype("datetime64[ns, UTC]")  # nanoseconds: the counts below use them
    ev = ev.sort_values("ts", kind="stable").reset_index(drop=True)
    slos = PerGroup({"fra": SLO(target=0.99, window="1h"), "ams": SLO(target=0.9, window="1h")})
    rep = incident_report(ev, slos, t0 + pd.Timedelta("3h"), t0 + pd.Timedelta("4h"),
                          by="region", policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.steps is not None and rep.steps.attrs["steps"]
    assert rep.focus() == {"region": "ams"}  # the premise: the failing group is drawn
    fig = rep.plot()
    (line,) = [ln for ln in fig.axes[0].get_lines() if ln.get_gid() == "success_rate"]
    x = pd.to_datetime(np.asarray(line.get_xdata())).tz_localize("UTC").asi8
    y = np.asarray(line.get_ydata(), dtype=float)
    mine = ev[ev["region"] == "ams"]
    ts, ok = mine["ts"].array.asi8, mine["ok"].to_numpy(dtype=bool)
    w = pd.Timedelta("1h").value
    expiries = 0
    for xi, yi in zip(x[:-1].tolist(), y[:-1].tolist(), strict=True):
        inside = [o for t, o in zip(ts.tolist(), ok.tolist(), strict=True) if xi - w <= t <= xi]
        want = 100.0 * sum(inside) / len(inside) if inside else np.nan
        assert yi == pytest.approx(want, nan_ok=True), xi
        expiries += int((xi - w - 1) in set(ts.tolist()))
    assert expiries > 5  # points at expiries (1 ns after ts + window), not only at events
    plt.close(fig)
