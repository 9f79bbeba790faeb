"""The timeout in force read from the log (no ``client_timeout``): the smallest duration of a
group's ``timeout`` rows that no success of the group outlasts. A timeout row shorter than a
success ended before the timeout in force and is read at its own duration (stop 57: a log with
timeouts at 30 ms and 5 s read 30 ms as the timeout and every success as cut there, "within
250 ms: 0.40 %" where pandas counts 39.5 %)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.analyses.latency_profile import latency_profile
from tests.latency_rows import events


def stranger_log() -> pd.DataFrame:
    """The stranger's log: 1,000 attempts, 95 % successes (lognormal around 300 ms), the
    timeouts alternately 30 ms and 5 s."""
    rng = np.random.default_rng(0)
    n = 1000
    out = np.where(rng.random(n) < 0.95, "success", "timeout")
    ms = np.round(rng.lognormal(np.log(300), 0.8, n), 1)
    ms = np.where(out == "timeout", np.where(np.arange(n) % 2 == 0, 30.0, 5000.0), ms)
    return pd.DataFrame({"ts": pd.date_range("2026-10-05", periods=n, freq="1min", tz="UTC"),
                         "outcome": out, "dur_ms": ms})


def test_the_strangers_log_counts_what_pandas_counts():
    raw = stranger_log()
    ok = raw["outcome"] == "success"
    # the oracle: plain pandas counts over all attempts
    want = {t: float((ok & (raw["dur_ms"] <= t)).mean()) for t in (250, 1000, 5000)}
    assert (want[250], want[1000], want[5000]) == (0.395, 0.88, 0.952)
    ev = pd.DataFrame({"ts": raw["ts"].dt.as_unit("ns"), "ok": ok.to_numpy(),
                       "bucket": pd.Categorical(raw["outcome"]),
                       "duration": pd.to_timedelta(raw["dur_ms"], unit="ms")})
    p = latency_profile(ev, thresholds=["250ms", "1s", "5s"], freq=None, quantiles=[0.5])
    assert p.shares["share"].tolist() == [want[250], want[1000], want[5000]]
    assert p.shares["at_or_above_timeout"].tolist() == [False, False, True]
    early = int(((~ok) & (raw["dur_ms"] == 30.0)).sum())
    longest = raw.loc[ok, "dur_ms"].max()
    assert (early, longest) == (28, 2991.1)
    assert p.censoring["timeout"].iloc[0] == pd.Timedelta("5s")
    assert p.censoring["timeout_source"].iloc[0] == (
        "the smallest duration of the group's timeouts that no success outlasts; 28 timeouts of "
        "the group, from 30 ms, shorter than its longest success, 2.9911 s: ended before the "
        "timeout in force, read at their own duration")


def test_a_short_timeout_row_is_read_at_its_own_duration_by_hand():
    """Group a: successes at 1, 2 and 3 s, timeouts at 0.5 s and 10 s. The 0.5 s row is shorter
    than the 3 s success, so the timeout in force is 10 s. Shares: within 2 s, 2 of 5 = 40 %.
    Kaplan-Meier: 0.5 s censored; at 1 s 4 at risk, S = 3/4; at 2 s 3 at risk, S = 1/2: the
    median is 2 s. (The 0.5 s reading cut every success: 0 % within 2 s, median "> 0.5 s".)"""
    ev = events([("a", "success", 1), ("a", "success", 2), ("a", "success", 3),
                 ("a", "timeout", 0.5), ("a", "timeout", 10)])
    p = latency_profile(ev, thresholds=["2s"], by="g", freq=None, quantiles=[0.5])
    assert p.censoring["timeout"].tolist() == [pd.Timedelta("10s")]
    assert p.shares[["good", "share"]].to_numpy().tolist() == [[2, 0.4]]
    q = p.quantiles.iloc[0]
    assert q["value"] == pd.Timedelta("2s") and not q["above_timeout"]


def test_every_timeout_row_shorter_than_a_success_leaves_no_timeout_in_force():
    """Group b: successes at 1 and 4 s, a timeout at 2 s: no timeout row is at least 4 s, so
    the group has none in force (said), and within 5 s counts 2 of 3; group c, whose timeout
    rows no success outlasts, keeps its 30 s."""
    ev = events([("b", "success", 1), ("b", "success", 4), ("b", "timeout", 2),
                 ("c", "success", 1), ("c", "timeout", 30), ("c", "timeout", 31)])
    p = latency_profile(ev, thresholds=["5s"], by="g", freq=None, quantiles=[0.5])
    cens = p.censoring.set_index("g")
    assert pd.isna(cens.loc["b", "timeout"]) and cens.loc["c", "timeout"] == pd.Timedelta("30s")
    assert cens.loc["b", "timeout_source"] == (
        "none: 1 timeout of the group, from 2 s, shorter than its longest success, 4 s: ended "
        "before the timeout in force, read at its own duration; durations read as uncensored")
    assert cens.loc["c", "timeout_source"] == "the smallest duration of the group's timeouts"
    shares = p.shares.set_index("g")
    assert shares.loc["b", "good"] == 2 and shares.loc["c", "good"] == 1
