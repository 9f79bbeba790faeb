"""A group whose traffic starts late fills its long window then, not at the grid's start: the
pages of its own warm-up are set apart (scored apart, ``episodes_filling``), and so are those of
a return after a silence of at least one long window. Hand-built log, hand-computed figures.

Bins of one minute, target 90 % (budget 0.1), ``single_window("1h", burn=4.6)``: page_1h fires
while more than 46 % of the last hour's events failed (28 of 60 does, 27 of 60 does not; 1 of 2
does, 1 of 3 does not).

Group A: one event a minute from 2026-01-01 00:00 to 2026-01-04 23:59, failing 2026-01-02
12:00-12:29 (incident I1). The first evaluation with 28 failures in its hour is 12:28 (window
11:28-12:28: 12:00..12:27); the last is 13:02 (window 12:02-13:02: 12:02..12:29), so the episode
is [12:28, 13:03): a true page.

Group B starts three days later, on 2026-01-04 00:00 (the grid starts at A's first bin):

* 00:00 fails, then one good event a minute to 05:59. 00:01 reads 1 of 1 failing, 00:02 1 of 2,
  00:03 1 of 3: the episode [00:01, 00:03), over before B's window filled (00:00 + 1 h = 01:00):
  set apart. The old rule counted it (the grid's window filled on 2026-01-01 01:00).
* silent 06:00-08:59; 09:00 fails, then good events to 14:59. Its bin starts 3 h 01 min after
  B's previous one (05:59), at least one window: a new stretch, filled at 10:00. 09:01 reads 1
  of 1, 09:02 1 of 2, 09:03 1 of 3: [09:01, 09:03), set apart.
* 15:00 fails, silent 15:01-15:58, 15:59 fails, then good events to 23:59. 15:59 starts 59 min
  after 15:00: no new stretch (the window at 16:00 still holds 15:00). Evaluations 15:02..15:58
  read 1 failure in at most 58 + 1 events; 15:59 reads 14:59 and 15:00: 1 of 2, firing; 16:00
  reads 15:00 and 15:59: 2 of 2; 16:01 reads 15:59 and 16:00: 1 of 2; 16:02 reads 1 of 3. The
  episode [15:59, 16:02) is a false page, counted.

Scores of page_1h over both groups (grace 1 h): 2 pages counted (A's, true; B's 15:59, false),
precision 1/2, 2 episodes apart (none met an incident). Under the old rule: 4 counted, 1 true,
precision 1/4, none apart.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd

from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.filling import episodes_filling, unfilled_tiers
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import score_alerts

matplotlib.use("Agg")

DAY0 = pd.Timestamp("2026-01-01", tz="UTC")
DAY3 = pd.Timestamp("2026-01-04", tz="UTC")
END = pd.Timestamp("2026-01-05", tz="UTC")
POLICY = AlertPolicy.single_window("1h", burn=4.6)


def at(day: pd.Timestamp, hhmm: str) -> pd.Timestamp:
    return day + pd.Timedelta(hours=int(hhmm[:2]), minutes=int(hhmm[3:]))


def bins() -> pd.DataFrame:
    a = pd.date_range(DAY0, END, freq="1min", inclusive="left")
    a_bad = (a >= at(DAY0 + pd.Timedelta("1D"), "12:00")) & (
        a < at(DAY0 + pd.Timedelta("1D"), "12:30"))
    b = pd.date_range(DAY3, END, freq="1min", inclusive="left")
    quiet = ((b >= at(DAY3, "06:00")) & (b < at(DAY3, "09:00"))) | (
        (b >= at(DAY3, "15:01")) & (b < at(DAY3, "15:59")))
    b = b[~quiet]
    b_bad = b.isin([at(DAY3, t) for t in ("00:00", "09:00", "15:00", "15:59")])
    out = pd.concat([
        pd.DataFrame({"g": "A", "bin_start": a, "total": 1, "good": (~a_bad).astype(int),
                      "bad": a_bad.astype(int), "bad_timeout": 0}),
        pd.DataFrame({"g": "B", "bin_start": b, "total": 1, "good": (~b_bad).astype(int),
                      "bad": b_bad.astype(int), "bad_timeout": 0}),
    ], ignore_index=True)
    out["g"] = pd.Categorical(out["g"])
    out.attrs.update({"freq": "1min", "by": ["g"]})
    return out


INCIDENTS = pd.DataFrame({"incident_id": ["I1"], "scope": ["g=A"], "kind": ["outage"],
                          "start": [at(DAY0 + pd.Timedelta("1D"), "12:00")],
                          "end": [at(DAY0 + pd.Timedelta("1D"), "12:30")]})


def test_the_hand_computed_episodes():
    ep = alert_episodes(bins(), 0.9, POLICY)
    day1 = DAY0 + pd.Timedelta("1D")
    got = list(zip(ep["g"].astype(str), ep["start"], ep["end"], strict=True))
    assert got == [("A", at(day1, "12:28"), at(day1, "13:03")),
                   ("B", at(DAY3, "00:01"), at(DAY3, "00:03")),
                   ("B", at(DAY3, "09:01"), at(DAY3, "09:03")),
                   ("B", at(DAY3, "15:59"), at(DAY3, "16:02"))]


def test_a_late_group_and_a_return_fill_their_own_window():
    ep = alert_episodes(bins(), 0.9, POLICY)
    assert episodes_filling(ep).tolist() == [False, True, True, False]
    assert unfilled_tiers(ep.attrs) == {}


def test_scores_set_the_late_group_s_warm_up_pages_apart():
    b = bins()
    ep = alert_episodes(b, 0.9, POLICY)
    s = score_alerts(ep, INCIDENTS, bins=b, target=0.9)
    every = s[(s["g"] == "*") & (s["tier"] == "page_1h")].iloc[0]
    assert (every["episodes"], every["true_episodes"]) == (2, 1)
    assert every["precision"] == 0.5
    assert (every["episodes_filling"], every["true_episodes_filling"]) == (2, 0)
    late = s[(s["g"] == "B") & (s["tier"] == "page_1h")].iloc[0]
    assert (late["episodes"], late["true_episodes"], late["episodes_filling"]) == (1, 0, 2)
    # the same from the episodes' attrs alone (no bins)
    alone = score_alerts(ep, INCIDENTS)
    again = alone[(alone["g"] == "*") & (alone["tier"] == "page_1h")].iloc[0]
    assert (again["episodes"], again["true_episodes"], again["episodes_filling"]) == (2, 1, 2)


def test_the_plot_shades_each_group_s_own_filling():
    import matplotlib.pyplot as plt

    from budgetlab.plotting import plot_alerts

    ax = plot_alerts(alert_episodes(bins(), 0.9, POLICY))
    shaded = sorted((round(p.get_y() + 0.45), p.get_x(), p.get_x() + p.get_width())
                    for p in ax.patches if p.get_gid() == "filling")
    num = matplotlib.dates.date2num
    hours = [(at(DAY0, "00:00"), at(DAY0, "01:00")), (at(DAY3, "00:00"), at(DAY3, "01:00")),
             (at(DAY3, "09:00"), at(DAY3, "10:00"))]
    want = [(row, num(lo.tz_localize(None)), num(hi.tz_localize(None)))
            for row, (lo, hi) in zip([0, 1, 1], hours, strict=True)]
    assert len(shaded) == 3
    assert np.allclose(np.array(shaded), np.array(want))
    plt.close("all")


def test_bucket_breakdown_leaves_the_late_group_s_warm_up_pages_out():
    # the same log as events, one at each bin's start: A's one page counted; B's two warm-up
    # pages left out (alerts_filling, pages_filling: per group, on each of its bucket rows),
    # its 15:59 page counted
    from budgetlab.analyses.failure_buckets import bucket_breakdown
    from budgetlab.events.schema import as_events
    from budgetlab.slo import SLO

    b = bins()
    ev = as_events(b["bin_start"], b["bad"] == 0, groups={"g": b["g"].astype(str)})
    t = bucket_breakdown(ev, SLO(target=0.9, window="1h"), by="g", policy=POLICY)
    got = {g: t.loc[t["g"] == g, ["alerts", "pages", "alerts_filling", "pages_filling"]]
           .drop_duplicates().values.tolist() for g in ("A", "B")}
    assert got == {"A": [[1, 1, 0, 0]], "B": [[1, 1, 2, 2]]}
