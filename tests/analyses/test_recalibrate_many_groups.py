"""recalibrate's pages per day over ~200 groups of varied shapes (busy, thin, single events,
silences longer than the window, a group starting late, all failures) against a plain per-group
computation written here: each group's 1-minute bins, its trailing window sums, each tier's
condition, a Prometheus ``for`` / ``keep_firing_for`` state machine run bin by bin, the tiers
OR-ed and the rises counted where the bin's end lies in the group's evaluated time (the
brute-force clock loop of ``test_recalibrate.py``, over the seed tracker's port)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import AlertPolicy, AlertTier, as_events
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.analyses.recalibration.pages import page_counts
from budgetlab.analyses.recalibration.rolling import rolling_rates
from budgetlab.analyses.sorted_events import sort_events
from budgetlab.slo import SLO
from tests.analyses.test_recalibrate import clock_loop

T0 = pd.Timestamp("2026-03-02", tz="UTC")
MIN = 60 * 10**9
DAY = 86_400 * 10**9
TARGETS = (0.85, 0.9, 0.95, 0.99)


def many_groups(seed: int = 3) -> pd.DataFrame:
    """~200 groups over 4 days: 4 busy ones with failure dips, 150 thin ones (1-30 events), 20
    single events, 20 with a silence of two days, one starting on day 3, 4 all failures."""
    rng = np.random.default_rng(seed)
    ts, ok, key = [], [], []

    def add(name, t, good):
        ts.extend(t)
        ok.extend(good)
        key.extend([name] * len(t))

    for g in range(4):
        t = np.sort(rng.integers(0, 4 * DAY, 1500))
        dip = (t % DAY > 3 * 3600 * 10**9) & (t % DAY < 4 * 3600 * 10**9)
        add(f"busy{g}", t, rng.random(len(t)) > np.where(dip, 0.5, 0.02))
    for g in range(150):
        n = int(rng.integers(1, 31))
        t0 = int(rng.integers(0, 3 * DAY))
        t = np.sort(t0 + rng.integers(0, DAY, n))
        add(f"thin{g:03d}", t, rng.random(n) > 0.2)
    for g in range(20):
        add(f"single{g:02d}", [int(rng.integers(0, 4 * DAY))], [bool(g % 2)])
    for g in range(20):  # day 0 and day 3 only: a silence of two days
        t = np.sort(np.r_[rng.integers(0, DAY, 15), rng.integers(3 * DAY, 4 * DAY, 15)])
        add(f"silent{g:02d}", t, rng.random(30) > 0.3)
    add("late", np.sort(rng.integers(3 * DAY, 4 * DAY, 200)), rng.random(200) > 0.1)
    for g in range(4):
        add(f"allbad{g}", np.sort(rng.integers(DAY, 2 * DAY, 8)), [False] * 8)
    add("edges", [0, 4 * DAY], [True, True])  # the log's first and last instants
    t = T0 + pd.to_timedelta(np.asarray(ts, dtype=np.int64), unit="ns")
    return as_events(t, np.asarray(ok, dtype=bool), groups={"site": np.asarray(key)})


def fire(cond: np.ndarray, k_for: int, k_cool: int) -> np.ndarray:
    """Whether the tier fires at each evaluation: pending from a true evaluation, firing once it
    held ``k_for + 1`` evaluations in a row, held ``k_cool`` evaluations after its last true one
    (a true evaluation within them goes on firing); a state machine, one evaluation at a time."""
    out = np.zeros(len(cond), dtype=bool)
    on, run, last = False, 0, -(10**9)
    for j, c in enumerate(cond.tolist()):
        run = run + 1 if c else 0
        if c:
            last = j
            if not on and run >= k_for + 1:
                on = True
        elif on and j - last > k_cool:
            on = False
        out[j] = on
    return out


def trailing(x: np.ndarray, k: int) -> np.ndarray:
    """The sum over the ``k`` bins ending at each bin (fewer at the start of the grid)."""
    c = np.cumsum(x)
    return c - np.r_[np.zeros(k), c[:-k]][:len(c)]


def oracle_pages(t, bad, policy, targets, lo_ns, hi_ns, first_bin, n_bins):
    """Per target: the pages of one group (OR of the page tiers: a page is an evaluation firing
    after one that was not) whose bin end lies in its evaluated time; and its evaluated days."""
    _, _, spans = clock_loop(t, bad, SLO(window="1h"), lo_ns, hi_ns)
    b = (t - first_bin) // MIN
    tot = np.bincount(b, minlength=n_bins)
    nbad = np.bincount(b, weights=bad.astype(float), minlength=n_bins).astype(np.int64)
    errs = [[np.divide(s_bad, s_tot, out=np.zeros(n_bins), where=s_tot > 0)
             for s_bad, s_tot in ((trailing(nbad, int(w.value // MIN)),
                                   trailing(tot, int(w.value // MIN))) for w in tier.windows)]
            for tier in policy.tiers]
    pages = []
    for target in targets:
        any_fire = np.zeros(n_bins, dtype=bool)
        for tier, err in zip(policy.tiers, errs, strict=True):
            cond = np.logical_and.reduce([e > tier.burn * (1 - target) for e in err])
            any_fire |= fire(cond, int(tier.for_.value // MIN), int(tier.cooldown.value // MIN))
        rises = np.flatnonzero(any_fire & ~np.r_[False, any_fire[:-1]])
        ends = first_bin + (rises + 1) * MIN
        pages.append(sum(any(a <= e < z for a, z in spans) for e in ends.tolist()))
    return pages, sum(z - a for a, z in spans) / DAY


@pytest.mark.parametrize("for_, cooldown", [("0s", "0s"), ("2min", "3min")])
def test_pages_per_day_of_many_groups_equal_a_per_group_loop(for_, cooldown):
    events = many_groups()
    policy = AlertPolicy((AlertTier("page_fast", "page", "30min", "5min", 3.0, for_=for_,
                                    cooldown=cooldown),
                          AlertTier("page_slow", "page", "2h", "10min", 2.0, for_=for_,
                                    cooldown=cooldown),
                          AlertTier("ticket", "ticket", "6h", None, 1.0)), period="30D")
    r = recalibrate(events, window="1h", by="site", candidates=list(TARGETS), policy=policy,
                    n_boot=0, history="4D", show_progress=False)
    lo, hi = r.settings["span_start"].value, r.settings["span_end"].value
    t_all = events["ts"].array.asi8
    first_bin = (int(t_all.min()) // MIN) * MIN
    n_bins = int((int(t_all.max()) - first_bin) // MIN) + 1
    page_only = AlertPolicy(policy.tiers[:2], period="30D")
    # the counts of every group, also those whose figures the table withholds as too thin
    srt = sort_events(events, "site")
    rolling = rolling_rates(srt, SLO(window="1h").window_ns, lo, hi, np.array([0.5]))
    shown = np.ones((srt.n_groups, len(TARGETS)), dtype=bool)
    counts = page_counts(srt, policy, rolling, np.array(TARGETS), shown, False,
                         (int(t_all.min()), int(t_all.max())))
    names = srt.keys["site"].astype(str).tolist()
    labels = events["site"].astype(str).to_numpy()
    cand = r.candidates.assign(site=r.candidates["site"].astype(str))
    compared = paged = 0
    for g, name in enumerate(names):
        sub = events[labels == name]
        t, bad = sub["ts"].array.asi8, ~sub["ok"].to_numpy()
        pages, days = oracle_pages(t, bad, page_only, TARGETS, lo, hi, first_bin, n_bins)
        for c, (target, n) in enumerate(zip(TARGETS, pages, strict=True)):
            assert counts[g, c] == n, (name, target)
            paged += n > 0
            row = cand[(cand["site"] == name) & (cand["target"] == target)]
            got = row["pages_per_day"].iloc[0]
            if not np.isnan(got):  # a withheld group's figures are NaN, by design
                assert got == pytest.approx(n / days), (name, target)
                compared += 1
    assert len(names) == 200 and compared > 0 and paged > 20
