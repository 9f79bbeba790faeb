"""Latency profile and timeout trade-off: hand-computed cases, a loop oracle, and the sample data's
injected slow period."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.analyses.latency_profile import latency_profile
from budgetlab.analyses.survival import kaplan_meier, km_quantile
from budgetlab.analyses.timeout_tradeoff import timeout_tradeoff
from budgetlab.errors import ConfigError, SchemaError


def make(rows, day="2026-01-01"):
    """rows: (group, hour, bucket, seconds)."""
    ts = pd.to_datetime([f"{day}T{h:02d}:00:00Z" for _, h, _, _ in rows], utc=True).as_unit("ns")
    bucket = [b for _, _, b, _ in rows]
    return pd.DataFrame({
        "ts": ts, "ok": [b == "success" for b in bucket],
        "bucket": pd.Categorical(bucket, categories=["success", "timeout", "solve_error"],
                                 ordered=True),
        "g": pd.Categorical([g for g, _, _, _ in rows]),
        "duration": pd.to_timedelta([s for _, _, _, s in rows], unit="s").as_unit("ns"),
    }).sort_values("ts", kind="stable", ignore_index=True)


SMALL = make(
    [
        ("a", 0, "success", 1),
        ("a", 1, "success", 4),
        ("a", 2, "success", 12),
        ("a", 3, "timeout", 30),
        ("a", 4, "solve_error", 2),
        ("b", 0, "success", 3),
        ("b", 1, "success", 40),
        ("b", 2, "solve_error", 9),
    ]
)


def test_shares_by_hand():
    p = latency_profile(SMALL, thresholds=["5s", "30s"], by="g", freq=None)
    s = p.shares.set_index(["g", "threshold"])
    # a: 5 attempts, successes at 1, 4, 12 s; timeout in force 30 s (its timeout row)
    assert s.loc[("a", pd.Timedelta("5s")), "good"] == 2
    assert s.loc[("a", pd.Timedelta("30s")), "good"] == 3
    assert bool(s.loc[("a", pd.Timedelta("30s")), "at_or_above_timeout"])
    assert s.loc[("a", pd.Timedelta("5s")), "share"] == pytest.approx(2 / 5)
    # b: no timeout row, no client_timeout: uncensored; the 40 s success counts at 30 s? no (40 >
    # 30)
    assert s.loc[("b", pd.Timedelta("30s")), "good"] == 1
    assert not bool(s.loc[("b", pd.Timedelta("30s")), "at_or_above_timeout"])
    c = p.censoring.set_index("g")
    assert c.loc["a", "timeout"] == pd.Timedelta("30s") and pd.isna(c.loc["b", "timeout"])


def test_the_whole_log_row_states_the_span_it_counts():
    """freq=None: one period, the log's first to last event (all groups), stated in attrs; every
    row's period is that span's start, also for a group whose first event comes later."""
    ev = make([("a", 1, "success", 2), ("b", 3, "success", 2), ("a", 5, "timeout", 30),
               ("b", 9, "solve_error", 4)])
    p = latency_profile(ev, thresholds=["5s"], by="g", freq=None, quantiles=[0.5])
    first = pd.Timestamp("2026-01-01 01:00", tz="UTC")
    for table in (p.shares, p.quantiles):
        assert (table.attrs["start"], table.attrs["end"], table.attrs["freq"]) == (
            "2026-01-01T01:00:00+00:00", "2026-01-01T09:00:00+00:00", None)
        assert table["period"].tolist() == [first, first]  # b's first event is at 03:00
    # a: 1 of 2 within 5 s; b: 1 of 2
    assert p.shares["attempts"].tolist() == [2, 2] and p.shares["good"].tolist() == [1, 1]
    # per 6 h period: the same span counted, in periods starting at 00:00 and 06:00 UTC
    q = latency_profile(ev, thresholds=["5s"], by="g", freq="6h", quantiles=[0.5]).shares
    assert (q.attrs["start"], q.attrs["end"], q.attrs["freq"]) == (
        "2026-01-01T01:00:00+00:00", "2026-01-01T09:00:00+00:00", "6h")
    assert q["period"].dt.hour.tolist() == [0, 0, 6] and q["attempts"].tolist() == [2, 1, 1]


def test_a_client_timeout_shorter_than_a_success_is_refused():
    # a 10 s client timeout in force would have cut a's 12 s success and b's 40 s one: the log
    # contradicts it. Read as cut, they counted as not good within 60 s though the log shows
    # them good (2 and 1 instead of 3 and 2): refused, with the longest success (40 s) to give
    with pytest.raises(ConfigError, match=r"client_timeout='10s' is shorter than 2 successes of "
                       r"the log \(the longest 40 s\).*at least 40 s.*timeouts="):
        latency_profile(SMALL, thresholds=["60s"], by="g", freq=None, client_timeout="10s")
    # at the longest success or above, every success is within it: good as the log says
    p = latency_profile(SMALL, thresholds=["60s"], by="g", freq=None, client_timeout="40s")
    assert p.shares.set_index("g")["good"].to_dict() == {"a": 3, "b": 2}


def test_censored_quantile_by_hand():
    # a: durations read as min(d, 30): 1 S, 2 solve error (censored), 4 S, 12 S, 30 timeout
    # (censored).
    # KM: t=1: 5 at risk -> .8; t=4: 3 at risk -> .8 * 2/3 = .5333; t=12: 2 at risk -> .2667.
    # F: .2, .4667, .7333: median = 12 s; p90: F never reaches .9 before 30 s -> "> timeout"
    p = latency_profile(SMALL, thresholds=["5s"], by="g", freq=None, quantiles=[0.5, 0.9])
    q = p.quantiles[p.quantiles["g"] == "a"].set_index("quantile")
    assert q.loc[0.5, "value"] == pd.Timedelta("12s")
    assert bool(q.loc[0.9, "above_timeout"]) and pd.isna(q.loc[0.9, "value"])
    assert q.loc[0.5, "timeout"] == pd.Timedelta("30s")


def test_quantiles_match_the_curve_per_day():
    rng = np.random.default_rng(5)
    n = 400
    hours = rng.integers(0, 48, n)
    sec = np.round(rng.lognormal(2, 0.6, n), 3)
    kind = np.where(sec > 20, "timeout", np.where(rng.random(n) < 0.1, "solve_error", "success"))
    sec = np.where(kind == "timeout", 20, sec)
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(hours, unit="h")
    ev = pd.DataFrame(
        {
            "ts": ts.as_unit("ns"),
            "ok": kind == "success",
            "bucket": pd.Categorical(
                kind, categories=["success", "timeout", "solve_error"], ordered=True
            ),
            "duration": pd.to_timedelta(sec, unit="s").as_unit("ns"),
        }
    ).sort_values("ts", ignore_index=True)
    p = latency_profile(ev, thresholds=["10s"], quantiles=[0.5])
    for _, row in p.quantiles.iterrows():  # oracle: the loop-checked curve on the day's rows
        day = ev[ev["ts"].dt.floor("1D") == row["period"]]
        d = day["duration"].dt.total_seconds().to_numpy() * 1e9
        km = kaplan_meier(d, day["ok"].to_numpy())
        want = km_quantile(km, 0.5)[0]
        assert row["value"] == pd.Timedelta(want, unit="ns")
    s = p.shares  # shares: a plain count per day
    for _, row in s.iterrows():
        day = ev[ev["ts"].dt.floor("1D") == row["period"]]
        assert row["good"] == int((day["ok"] & (day["duration"] <= pd.Timedelta("10s"))).sum())


def test_tradeoff_by_hand():
    t = timeout_tradeoff(SMALL[SMALL["g"] == "a"], timeouts=["3s", "30s"])
    # candidate 3 s: cut 4 S, 12 S, 30 T (the 2 s solve error and 1 s success finish); lost 2;
    # saved (4-3) + (12-3) + (30-3) = 37 s; availability 1/5
    r = t.iloc[0]
    assert (r["timed_out"], r["successes_lost"]) == (3, 2)
    assert r["wait_saved"] == pd.Timedelta("37s") and r["availability"] == pytest.approx(0.2)
    r = t.iloc[1]  # the timeout in force: nothing changes
    assert (r["timed_out"], r["successes_lost"], r["wait_saved"]) == (1, 0, pd.Timedelta(0))
    assert r["availability"] == pytest.approx(0.6)
    t = timeout_tradeoff(SMALL[SMALL["g"] == "a"], timeouts=["30s"], threshold="5s")
    assert t["latency_sli"].iloc[0] == pytest.approx(0.4)


def test_tradeoff_refuses_a_longer_timeout_and_an_unknown_one():
    with pytest.raises(ConfigError) as err:
        timeout_tradeoff(SMALL[SMALL["g"] == "a"], timeouts=["45s"])
    # the durations as prose spells a length, never pandas' "0 days 00:00:45"
    assert str(err.value) == (
        "a client timeout of 45 s is longer than the one in force (30 s): the attempts cut there "
        "have unknown durations beyond it, so what a longer timeout would do is not in the data; "
        "give candidates at or below it.")


def test_tradeoff_withholds_a_group_without_timeout_rows_in_words():
    """SMALL's group b has no timeout row: its timeout in force is not in the log (the docs define
    none log-wide), so its trade-off is withheld, named in attrs; group a's rows are those of the
    hand case above (it raised ConfigError for the whole log)."""
    t = timeout_tradeoff(SMALL, timeouts=["3s", "30s"], by="g")
    assert t["g"].astype(str).tolist() == ["a", "a"]
    assert t["successes_lost"].tolist() == [2, 0] and t["timed_out"].tolist() == [3, 1]
    assert t["wait_saved"].tolist() == [pd.Timedelta("37s"), pd.Timedelta(0)]
    assert t["availability"].tolist() == pytest.approx([0.2, 0.6])
    assert t.attrs["withheld"] == [
        "g=b: no 'timeout' row that no success outlasts in its 3 attempts, so the timeout in "
        "force is not in the log; its "
        "trade-off is withheld (give client_timeout= if you know the one in force)"]
    assert timeout_tradeoff(SMALL, timeouts=["3s"], by="g",
                            client_timeout="40s").attrs["withheld"] == []


def test_a_log_without_timeout_rows_is_refused_once_in_words():
    with pytest.raises(ConfigError) as err:
        timeout_tradeoff(SMALL[SMALL["g"] == "b"], timeouts=["5s"])
    assert str(err.value) == ("the log shows no client timeout (no 'timeout' row that no "
                              "success outlasts); say the one "
                              "in force with client_timeout= (e.g. '60s').")


def test_no_quantile_is_above_a_timeout_the_curve_never_reaches():
    """Group c: one solve error of 7 s, no success, no timeout row: its median is not reached
    within 7 s, the longest duration, and no timeout is known, so it is not "above the timeout"
    (it read above_timeout=True with a NaT timeout). Group a's 04:00 hour holds one 2 s solve
    error: the 30 s timeout is known but no attempt of that hour reached it, so its median is
    beyond 2 s, not known to be above 30 s. The 03:00 hour's 30 s timeout is above it."""
    ev = pd.concat([SMALL, make([("c", 5, "solve_error", 7)])], ignore_index=True)
    ev["g"] = pd.Categorical(ev["g"].astype(str))
    p = latency_profile(ev, thresholds=["5s"], by="g", freq=None, quantiles=[0.5])
    c = p.quantiles.set_index("g").loc["c"]
    assert pd.isna(c["timeout"]) and pd.isna(c["value"]) and pd.isna(c["ci_high"])
    assert not c["above_timeout"] and not c["ci_high_above_timeout"]
    assert c["note"] == ("p50 withheld: 1 attempt cannot bound it from above (the lower 95 % "
                         "limit of the curve never reaches 50 % before it ends at the longest "
                         "duration, 7 s: no timeout in force in this group (no 'timeout' row "
                         "that no success outlasts); "
                         "Brookmeyer-Crowley); even successes alone need at least 6 attempts")
    assert p.quantiles.set_index("g").loc["a", "note"] == ""
    assert p.censoring.set_index("g").loc["c", "timeout_source"] == (
        "none: no timeout in this group's rows, durations read as uncensored")
    hourly = latency_profile(ev[ev["g"] == "a"], thresholds=["5s"], freq="1h", quantiles=[0.5])
    q = hourly.quantiles.set_index(hourly.quantiles["period"].dt.hour)
    assert bool(q.loc[3, "above_timeout"]) and q.loc[3, "note"] == ""
    assert not q.loc[4, "above_timeout"] and pd.isna(q.loc[4, "value"])
    assert q.loc[4, "note"].startswith("p50 withheld: 1 attempt cannot bound it from above")
    assert ("ends at the longest duration, 2 s: no attempt of the period reached the 30 s "
            "timeout;") in q.loc[4, "note"]


def test_no_duration_column_is_refused():
    with pytest.raises(SchemaError, match="duration="):
        latency_profile(SMALL.drop(columns="duration"), thresholds=["5s"])


def test_the_sample_incident_is_found_and_costs_what_the_table_says():
    from budgetlab.datasets.synth import PRESETS, generate

    events, incidents = generate(**PRESETS["demo"]["args"], client_timeout="60s")
    p = latency_profile(events, thresholds=["30s"], by="captcha_type", freq="1h", quantiles=[0.5])
    q = p.quantiles[p.quantiles["captcha_type"] == "recaptcha_v2"].set_index("period")
    inc = incidents.iloc[0]
    hour = pd.Timedelta("1h")
    inside = (q.index >= inc["start"]) & (q.index + hour <= inc["end"])  # hours wholly inside
    outside = (q.index + hour <= inc["start"]) | (q.index >= inc["end"])  # wholly outside
    med = q["value"].dt.total_seconds()
    # reCAPTCHA v2's median (14 s) is 3x slower in the incident's hours, and only there
    assert inside.sum() == 3 and med[inside].min() > 2.5 * med[outside].max()
    inside = (q.index + hour > inc["start"]) & (q.index < inc["end"])  # every hour it touches
    s = p.shares[p.shares["captcha_type"] == "recaptcha_v2"].set_index("period")
    lost = (s["attempts"] - s["good"])[inside].sum()
    hours = events["ts"].dt.floor("1h")
    ev = events[(events["captcha_type"] == "recaptcha_v2") & hours.isin(q.index[inside])]
    assert lost == int((~(ev["ok"] & (ev["duration"] <= pd.Timedelta("30s")))).sum())
