"""Alert-tier rates per day are over observed time: the bins whose long window holds traffic
(issue 28). observed_days checked by a loop over the dense counts; a silent log's pages are
per day of traffic, not per day of silence."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.scoring import score_alerts
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events
from budgetlab.windows.bins import read_bins
from tests.alerts.sre_oracle_data import fast_policy, incidents_for, make_events

DAY_NS = 86_400 * 10**9


def _observed_by_loop(total: np.ndarray, k: int, first: int = 0) -> np.ndarray:
    """Bins from index ``first`` per row of ``total`` at whose end the last ``k`` bins hold an
    event."""
    n = total.shape[1]
    return np.array(
        [
            sum(total[g, max(0, j - k + 1) : j + 1].sum() > 0 for j in range(first, n))
            for g in range(len(total))
        ]
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_observed_days_equal_a_loop_over_the_bins(seed):
    ev = make_events(30, seed=seed, hours=8, per_group=40)
    bins = bin_events(ev, "1min", by="sitekey")
    pol = fast_policy()
    episodes = alert_episodes(bins, 0.95, pol)
    assert episodes.attrs["tier_windows"] == {t.name: t.long_window.value for t in pol.tiers}
    inc = incidents_for(ev, seed=seed, n=6)
    # the windows from the episodes' attrs, or from the policy; every bin, or (filling='apart')
    # the bins from the first one the row's long window is full before (index k: it starts at
    # grid start + k bins)
    for kw in ({}, {"policy": pol}, {"filling": "count"}):
        sc = score_alerts(episodes, inc, bins=bins, target=0.95, **kw)
        grid = read_bins(bins)
        total = grid.total
        long_min = {t.name: int(t.long_window / pd.Timedelta("1min")) for t in pol.tiers}
        selections = {**{n: k for n, k in long_min.items()}, "*": max(long_min.values())}
        for row in sc.itertuples(index=False):
            k = (
                selections[row.tier]
                if row.tier != "*"
                else (
                    max(
                        k
                        for n, k in long_min.items()
                        if row.severity in ("*", {t.name: t.severity for t in pol.tiers}[n])
                    )
                )
            )
            first = 0 if kw.get("filling") == "count" else k
            if row.sitekey == "*":
                want = _observed_by_loop(total.sum(axis=0)[None, :], k, first)[0]
            else:
                want = _observed_by_loop(
                    total[list(grid.keys["sitekey"].astype(str)).index(row.sitekey)][None, :], k,
                    first)[0]
            assert row.observed_days * DAY_NS == pytest.approx(want * 60e9, rel=1e-12)
            if row.observed_days >= 1:
                assert row.alerts_per_day == pytest.approx(row.episodes / row.observed_days,
                                                          rel=1e-12)
            else:  # under a day of observed time: withheld
                assert np.isnan(row.alerts_per_day) and row.rates_note.startswith("withheld")


def test_two_pages_on_one_busy_day_then_months_of_silence():
    """The log of issue 28: traffic on one day, a silence of nine months, one more day. Two pages
    on the first day are about one page per observed day, not 2 / 270."""
    rng = np.random.default_rng(4)
    day1 = pd.Timestamp("2026-01-10", tz="UTC")
    day2 = day1 + pd.Timedelta("270D")
    ts = (day1 + pd.to_timedelta(np.sort(rng.uniform(0, 86_400, 3000)), unit="s")).append(
        day2 + pd.to_timedelta(np.sort(rng.uniform(0, 86_400, 3000)), unit="s"))
    secs = ((ts - day1) / pd.Timedelta("1s")).to_numpy()
    # two outages on day 1
    ok = ~(((secs > 3600) & (secs < 5400)) | ((secs > 40_000) & (secs < 42_000)))
    bins = bin_events(as_events(ts, ok), "1min")
    pol = fast_policy(period="30D")
    ep = alert_episodes(bins, 0.95, pol)
    inc = pd.DataFrame({"incident_id": ["a"], "start": [day1 + pd.Timedelta("1h")],
                        "end": [day1 + pd.Timedelta("90min")]})
    sc = score_alerts(ep, inc, bins=bins, target=0.95, policy=pol)
    fast = sc[sc["tier"] == "page_fast"].iloc[0]
    assert fast["episodes"] >= 2  # the outages (one may page twice at ~2 events a minute)
    # observed: the two days with traffic plus one long window after each (10 minutes), less the
    # first 10 minutes (the window filling), not 270 days
    assert 2.0 - 10 / 1440 <= fast["observed_days"] <= 2.0 + 10 / 1440 + 1e-9
    assert fast["alerts_per_day"] == pytest.approx(fast["episodes"] / fast["observed_days"])
    assert fast["alerts_per_day"] > 0.9


def _two_days(ep: pd.DataFrame) -> pd.DataFrame:
    """``ep`` on a grid of two days from 2026-01-01 (no bins); the one incident, 10:00-10:30 on
    the first day."""
    ep.attrs.update({"grid_start": pd.Timestamp("2026-01-01", tz="UTC"),
                     "grid_end": pd.Timestamp("2026-01-03", tz="UTC")})
    return pd.DataFrame({"incident_id": ["i"],
                         "start": pd.to_datetime(["2026-01-01 10:00"], utc=True),
                         "end": pd.to_datetime(["2026-01-01 10:30"], utc=True)})


def test_without_bins_the_rates_are_over_the_span():
    ep = pd.DataFrame({"tier": pd.Categorical(["p"]), "severity": ["page"],
                       "start": pd.to_datetime(["2026-01-01 10:05"], utc=True),
                       "end": pd.to_datetime(["2026-01-01 11:00"], utc=True)})
    inc = _two_days(ep)
    sc = score_alerts(ep, inc, filling="count")
    assert sc["observed_days"].tolist() == [2.0, 2.0, 2.0]
    assert sc["alerts_per_day"].tolist() == [0.5, 0.5, 0.5]
    # with the tier's 1 h long window known: the span after it filled, 47 h, holds the page
    ep.attrs["tier_windows"] = {"p": pd.Timedelta("1h").value}
    sc = score_alerts(ep, inc)
    assert sc["observed_days"].tolist() == [47 / 24] * 3
    assert sc["alerts_per_day"].tolist() == [1 / (47 / 24)] * 3


def test_a_ticket_rows_rate_is_alerts_not_pages():
    # 2 days without bins: one ticket 10:05-11:00 on day 1 (meets the incident 10:00-10:30), one
    # page 10:05-11:00 on day 2 (meets none). Per row, over the 2 days: each tier 1 alert (0.5 a
    # day), the all-tiers row 2 (1.0 a day); the page is false: 1 / (2 / 7) = 3.5 a week, the
    # ticket 0. The ticket rows count tickets: the column says alerts, and no column says pages.
    ep = pd.DataFrame({"tier": pd.Categorical(["t", "p"]), "severity": ["ticket", "page"],
                       "start": pd.to_datetime(["2026-01-01 10:05", "2026-01-02 10:05"], utc=True),
                       "end": pd.to_datetime(["2026-01-01 11:00", "2026-01-02 11:00"], utc=True)})
    inc = _two_days(ep)
    sc = score_alerts(ep, inc, filling="count")
    assert not any("pages" in c for c in sc.columns)
    got = {(str(r.tier), str(r.severity)): (r.alerts_per_day, r.false_alerts_per_week)
           for r in sc.itertuples()}
    assert got == {("p", "page"): (0.5, 3.5), ("t", "ticket"): (0.5, 0.0),
                   ("*", "page"): (0.5, 3.5), ("*", "ticket"): (0.5, 0.0),
                   ("*", "*"): (1.0, 3.5)}
