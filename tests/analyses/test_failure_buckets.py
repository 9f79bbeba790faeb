"""bucket_breakdown / bucket_burn_over_time: counts against plain pandas, the tracker variants
against replay() of the filtered events, "caused by a bucket alone" against a loop that follows
the definition, hand-built alert cases, and the generator's ground truth."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetlab import (
    SLO,
    AlertPolicy,
    as_events,
    bin_events,
    bucket_breakdown,
    bucket_burn_over_time,
    replay,
    synth,
    transitions,
)
from budgetlab.analyses.bucket_variants import Groups, TrackerVariants, closed_overlap
from budgetlab.errors import ConfigError, InputError, OutcomeError, SchemaError
from budgetlab.windows.binning import bucket_codes

pytestmark = pytest.mark.filterwarnings("ignore::budgetlab.errors.PartialWindowWarning")

T0 = pd.Timestamp("2026-03-02", tz="UTC")
BUCKETS = ["success", "timeout", "solve_error"]


def make(seconds, bucket, region=None, ctype=None):
    groups = {}
    if region is not None:
        groups["region"] = region
    if ctype is not None:
        groups["captcha_type"] = ctype
    ts = T0 + pd.to_timedelta(np.asarray(seconds, dtype=float), unit="s")
    return as_events(ts, [b == "success" for b in bucket], bucket, groups=groups or None)


@st.composite
def event_tables(draw, max_n=80):
    n = draw(st.integers(1, max_n))
    gaps = draw(st.lists(st.sampled_from([0, 0, 1, 2, 5, 10, 30, 60, 61]), min_size=n, max_size=n))
    seconds = np.cumsum(gaps)
    bucket = draw(st.lists(st.sampled_from(BUCKETS + ["success", "success"]), min_size=n,
                           max_size=n))
    region = draw(st.lists(st.sampled_from(["fra", "ams"]), min_size=n, max_size=n))
    slo = SLO(
        target=draw(st.sampled_from([0.5, 0.8, 0.9, 0.95])),
        window=f"{draw(st.sampled_from([10, 30, 60, 120]))}s",
        min_events=draw(st.sampled_from([0, 0, 3])),
    )
    return make(seconds, bucket, region), slo


# ------------------------------------------------------------------------------------------------
# counts


def test_counts_against_pandas_groupby_and_burn_rates_add_up():
    rng = np.random.default_rng(11)
    n = 5000
    bucket = rng.choice(BUCKETS, size=n, p=[0.9, 0.06, 0.04])
    ev = make(np.sort(rng.uniform(0, 86400, n)), bucket, rng.choice(["fra", "ams"], n),
              rng.choice(["image", "turnstile"], n))
    slo = SLO(target=0.95, window="1h")
    t = bucket_breakdown(ev, slo, by=["captcha_type", "region"])
    # oracle: plain pandas
    cnt = ev.groupby(["captcha_type", "region", "bucket"],
                     observed=True).size().unstack(fill_value=0)
    for _, row in t.iterrows():
        c = cnt.loc[(row["captcha_type"], row["region"])]
        events = int(c.sum())
        fails = int(c["timeout"] + c["solve_error"])
        assert row["events"] == events
        assert row["failures"] == c[row["bucket"]]
        assert row["share_of_failures"] == pytest.approx(c[row["bucket"]] / fails)
        assert row["burn_rate"] == pytest.approx(c[row["bucket"]] / (events * 0.05))
        assert row["sli"] == pytest.approx(1 - fails / events)
        rest = events - c[row["bucket"]]
        assert row["sli_without"] == pytest.approx((events - fails) / rest)
        assert row["burn_rate_without"] == pytest.approx((fails - c[row["bucket"]]) / (rest * 0.05))
    # invariant: per-bucket burn rates add up to the group's burn rate; shares to 1
    g = t.groupby(["captcha_type", "region"], observed=True)
    np.testing.assert_allclose(g["burn_rate"].sum(), g["group_burn_rate"].first(), rtol=1e-12)
    np.testing.assert_allclose(g["share_of_failures"].sum(), 1.0)
    assert t["share_of_all_failures"].sum() == pytest.approx(1.0)
    assert t["failures"].sum() == int((~ev["ok"]).sum())


@settings(max_examples=40)
@given(event_tables())
def test_burn_rates_add_up_and_nothing_is_nan(case):
    ev, slo = case
    t = bucket_breakdown(ev, slo, by="region", policy=AlertPolicy.single_window("1min", 2.0))
    num = t.select_dtypes("number")
    assert np.isfinite(num.to_numpy(dtype=float)).all()
    g = t.groupby("region", observed=True)
    np.testing.assert_allclose(g["burn_rate"].sum(), g["group_burn_rate"].first(), rtol=1e-12,
                               atol=1e-15)
    assert ((t["sli_without"] >= 0) & (t["sli_without"] <= 1)).all()


def test_group_of_only_timeouts_has_sli_without_one_not_nan():
    ev = make([0, 1, 2, 3], ["timeout", "timeout", "success", "solve_error"], ["a", "a", "b", "b"])
    t = bucket_breakdown(ev, SLO(target=0.9, window="60s"), by="region")
    a = t[(t["region"] == "a") & (t["bucket"] == "timeout")].iloc[0]
    assert a["sli"] == 0.0 and a["sli_without"] == 1.0 and a["burn_rate_without"] == 0.0
    b = t[(t["region"] == "b") & (t["bucket"] == "timeout")].iloc[0]
    assert b["failures"] == 0 and b["share_of_failures"] == 0.0 and b["sli_without"] == 0.5


def test_the_tables_state_the_span_they_count():
    """attrs start/end: the table's first and last event over all groups (here 00:00:05 in b and
    00:10:00 in a), also under per-group SLOs and for the burn over time."""
    ev = make([5, 60, 120, 600], ["timeout", "success", "success", "solve_error"],
              ["b", "a", "b", "a"])
    start, end = T0 + pd.Timedelta("5s"), T0 + pd.Timedelta("10min")
    tables = [bucket_breakdown(ev, SLO(target=0.9, window="60s"), by="region"),
              bucket_breakdown(ev, {"a": 0.9, "b": 0.8}, by="region"),
              bucket_burn_over_time(ev, SLO(target=0.9), freq="1h", by="region")]
    for t in tables:
        assert (t.attrs["start"], t.attrs["end"]) == (start.isoformat(), end.isoformat())


def test_a_group_under_ten_expected_failures_is_withheld_in_words():
    """The rule of recalibrate and latency: at 95 % a verdict needs 10 / 0.05 = 200 events. Region
    ``a`` has 199 (9.95 expected failures: withheld), ``b`` exactly 200 (kept), whole log 399."""
    n_a, n_b = 199, 200
    bucket = ["timeout"] + ["success"] * (n_a - 1) + ["solve_error"] + ["success"] * (n_b - 1)
    ev = make(np.arange(n_a + n_b), bucket, ["a"] * n_a + ["b"] * n_b)
    t = bucket_breakdown(ev, SLO(target=0.95, window="60s"), by="region")
    note = dict(zip(t["region"].astype(str), t["note"], strict=True))
    assert note == {"a": "withheld: 199 events in the group: too few for a verdict (under 95 % "
                         "they hold 9.95 expected failures; one needs at least 10, i.e. 200 "
                         "events)",
                    "b": ""}
    # the figures keep their meaning in the table: a's timeout burn is 1 / (199 x 0.05)
    a = t[(t["region"] == "a") & (t["bucket"] == "timeout")].iloc[0]
    assert a["burn_rate"] == pytest.approx(1 / (199 * 0.05), rel=1e-12)
    whole = bucket_breakdown(ev, SLO(target=0.95, window="60s"), by=None)
    assert set(whole["note"]) == {""}  # 399 events together
    assert set(bucket_breakdown(ev.iloc[:5], SLO(target=0.95, window="60s"), by=None)["note"]) == {
        "withheld: 5 events in the table: too few for a verdict (under 95 % they hold 0.25 "
        "expected failures; one needs at least 10, i.e. 200 events)"}


# ------------------------------------------------------------------------------------------------
# the tracker with and without a bucket


@given(event_tables())
def test_variants_equal_replay_of_the_filtered_events(case):
    ev, slo = case
    groups = Groups(ev, ["region"])
    v = TrackerVariants(ev, slo, groups)
    for name in ("timeout", "solve_error"):
        code = v.names.index(name)
        rows, status = v.statuses(code)
        kept = ev[ev["bucket"] != name]
        if len(kept) == 0:
            assert len(rows) == 0
            continue
        oracle = replay(kept, slo, by="region")  # keeps the event index
        got = pd.Series(status, index=groups.order[rows]).sort_index()
        assert got.index.tolist() == oracle.index.tolist()
        assert got.tolist() == oracle["status"].cat.codes.tolist()
        counts = v.transition_counts(code)
        tr = transitions(oracle)
        for i, region in enumerate(groups.key_table["region"].astype(str)):
            assert counts[i] == int((tr["region"].astype(str) == region).sum())
    rows, status = v.statuses(None)
    assert (
        status.tolist()
        == replay(ev, slo, by="region")["status"].cat.codes.to_numpy()[groups.order].tolist()
    )


def loop_runs(times, codes, t_end):
    """Runs at or above each level by a plain loop: {level: [(start_t, end_t, start_i, end_i)]}."""
    runs = {1: [], 2: [], 3: []}
    for level in (1, 2, 3):
        open_at = None
        for i, (t, c) in enumerate(zip(times, codes, strict=True)):
            if c >= level and open_at is None:
                open_at = i
            elif c < level and open_at is not None:
                runs[level].append((times[open_at], t, open_at, i))
                open_at = None
        if open_at is not None:
            runs[level].append((times[open_at], t_end, open_at, None))
    return runs


def caused_by_loop(ev, slo, bucket):
    """The definition, followed literally, one group at a time: a change is caused by the bucket
    when the run of its higher status overlaps (closed) no run of that level without the bucket."""
    t_end = int(ev["ts"].dt.as_unit("ns").array.asi8.max())
    out = {}
    for region in sorted(ev["region"].astype(str).unique()):
        sub = ev[ev["region"].astype(str) == region]
        full = replay(sub, slo)
        times = full["ts"].dt.as_unit("ns").array.asi8.tolist()
        codes = full["status"].cat.codes.tolist()
        kept = sub[sub["bucket"] != bucket]
        if len(kept):
            wo = replay(kept, slo)
            runs_wo = loop_runs(wo["ts"].dt.as_unit("ns").array.asi8.tolist(),
                                wo["status"].cat.codes.tolist(), t_end)
        else:
            runs_wo = {1: [], 2: [], 3: []}
        runs_all = loop_runs(times, codes, t_end)
        prev = 0
        for i, c in enumerate(codes):
            if c != prev:
                top = max(c, prev)
                if c > prev:
                    run = next(r for r in runs_all[top] if r[2] == i)
                else:
                    run = next(r for r in runs_all[top] if r[3] == i)
                matched = any(s <= run[1] and e >= run[0] for s, e, _, _ in runs_wo[top])
                out[int(full.index[i])] = not matched
            prev = c
    return out


@given(event_tables())
def test_caused_transitions_follow_the_definition(case):
    ev, slo = case
    v = TrackerVariants(ev, slo, Groups(ev, ["region"]))
    for name in ("timeout", "solve_error"):
        rows, _, caused = v.caused(v.names.index(name))
        oracle = caused_by_loop(ev, slo, name)
        assert dict(zip(rows.tolist(), caused.tolist(), strict=True)) == oracle
    # and in the order of transitions()
    tr = transitions(replay(ev, slo, by="region"))
    rows, _, _ = v.caused(v.names.index("timeout"))
    assert ev["ts"].to_numpy()[rows].tolist() == tr["ts"].to_numpy().tolist()


def test_caused_matches_the_loop_on_a_longer_history():
    # 3000 events, ties and gaps, min_events hold: both flags occur many times
    rng = np.random.default_rng(3)
    n = 3000
    ev = make(np.cumsum(rng.choice([0, 1, 2, 5, 30], n)), rng.choice(BUCKETS, n, p=[0.85, 0.09,
                                                                                    0.06]),
              rng.choice(["a", "b"], n))
    slo = SLO(target=0.9, window="60s", min_events=3)
    v = TrackerVariants(ev, slo, Groups(ev, ["region"]))
    for name in ("timeout", "solve_error"):
        rows, _, caused = v.caused(v.names.index(name))
        assert 0 < caused.sum() < len(caused)
        assert dict(zip(rows.tolist(), caused.tolist(), strict=True)) == caused_by_loop(ev, slo,
                                                                                        name)


def test_caused_hand_case_overlapping_runs_are_not_caused():
    # target 0.5 (warning above burn 0.5, critical above 0.9, exhausted at 1), window 1 h.
    # Group "a", one event a second: two timeouts after 3 successes push the tracker to WARNING
    # (2/5 failed = burn 0.8) and back at 2/8 (burn 0.5): both changes are caused by timeouts
    # (without them: all successes, no change).
    # Group "b": success, solve error, timeout, then successes. With all events: 1/2 -> burn 1.0
    # EXHAUSTED at the solve error, 2/3, 2/4 exhausted, 2/5 = 0.8 WARNING, ..., 2/8 = 0.5 HEALTHY.
    # Without timeouts: 1/2 exhausted, 1/3 warning, 1/4 healthy: every run of the full replay
    # overlaps a run of its level without timeouts -> nothing is caused by timeouts. Without the
    # solve error the timeout alone is 1/2 -> exhausted too: nothing is caused by solve errors.
    # Group "c": two solve errors after 2 successes: 1/3 warning, 2/4 exhausted, then down; no
    # timeouts, so every change is caused by solve errors and none by timeouts.
    a = ["success"] * 3 + ["timeout"] * 2 + ["success"] * 3
    b = ["success", "solve_error", "timeout", "success", "success", "success", "success", "success"]
    c = ["success", "success", "solve_error", "solve_error", "success", "success", "success",
         "success"]
    sec = list(range(8))
    ev = make(sec + [k + 0.25 for k in sec] + [k + 0.5 for k in sec], a + b + c,
              ["a"] * 8 + ["b"] * 8 + ["c"] * 8)
    slo = SLO(target=0.5, window="1h")
    t = bucket_breakdown(ev, slo, by="region")
    row = t.set_index(["region", "bucket"])
    assert row.loc[("a", "timeout"), "transitions"] == 2
    assert row.loc[("a", "timeout"), "transitions_without"] == 0
    assert row.loc[("a", "timeout"), "transitions_caused"] == 2
    assert row.loc[("a", "solve_error"), "transitions_caused"] == 0
    st_b = replay(ev[ev["region"] == "b"], slo)["status"].astype(str).tolist()
    assert st_b == ["healthy", "exhausted", "exhausted", "exhausted", "warning", "warning",
                    "warning", "healthy"]
    assert row.loc[("b", "timeout"), "transitions"] == 3
    assert row.loc[("b", "timeout"), "transitions_without"] == 3
    assert row.loc[("b", "timeout"), "transitions_caused"] == 0
    assert row.loc[("b", "solve_error"), "transitions_caused"] == 0
    st_c = replay(ev[ev["region"] == "c"], slo)["status"].astype(str).tolist()
    # 1/3 = burn 0.667 warning; 2/4 = 1.0 exhausted; 2/5 = 0.8 warning; 2/6 0.667; 2/7 0.571; 2/8
    # 0.5
    assert st_c == ["healthy", "healthy", "warning", "exhausted", "warning", "warning", "warning",
                    "healthy"]
    assert row.loc[("c", "solve_error"), "transitions_caused"] == 4
    assert row.loc[("c", "timeout"), "transitions_caused"] == 0
    assert row.loc[("c", "timeout"), "transitions_without"] == 4


# ------------------------------------------------------------------------------------------------
# alert episodes with and without a bucket


def test_pages_caused_hand_case():
    # one event every 10 s for 5 h; page when the 10-minute error ratio exceeds 30 % (burn 3 at
    # target 0.9). Burst 1 (01:00-01:30): every other event a timeout -> 50 %, none without
    # timeouts: caused by timeouts. Burst 2 (02:30-03:00): 50 % solve errors: caused by solve
    # errors. Burst 3 (04:00-04:30): 25 % timeouts + 25 % solve errors: without either bucket the
    # rest still fails 1/3 > 30 %: caused by neither.
    n = 5 * 360
    bucket = np.array(["success"] * n, dtype=object)
    i = np.arange(n)
    b1 = (i >= 360) & (i < 540)
    b2 = (i >= 900) & (i < 1080)
    b3 = (i >= 1440) & (i < 1620)
    bucket[b1 & (i % 2 == 1)] = "timeout"
    bucket[b2 & (i % 2 == 1)] = "solve_error"
    bucket[b3 & (i % 4 == 1)] = "timeout"
    bucket[b3 & (i % 4 == 3)] = "solve_error"
    ev = make(i * 10.0, list(bucket))
    pol = AlertPolicy.single_window("10min", 3.0)
    t = bucket_breakdown(ev, SLO(target=0.9, window="1h"), by=None, policy=pol).set_index("bucket")
    assert t["pages"].tolist() == [3, 3]
    assert t.loc["timeout", "pages_without"] == 2 and t.loc["timeout", "pages_caused"] == 1
    assert t.loc["solve_error", "pages_without"] == 2 and t.loc["solve_error", "pages_caused"] == 1
    assert t.loc["timeout", "alerts_caused"] == 1  # the policy has page tiers only


def test_closed_overlap_touching_counts():
    g = np.zeros(1, dtype=np.int64)
    assert closed_overlap(g, np.array([5]), np.array([10]), g, np.array([10]),
                          np.array([12])).tolist() == [True]
    assert closed_overlap(g, np.array([5]), np.array([9]), g, np.array([10]),
                          np.array([12])).tolist() == [False]
    # another group does not count
    assert closed_overlap(g, np.array([5]), np.array([10]), g + 1, np.array([5]),
                          np.array([10])).tolist() == [False]



def test_closed_overlap_many_groups_in_any_order():
    # b: group 7 holds [0, 4] and [10, 20]; group 2 holds [3, 5]; group 9 none (rows shuffled)
    b_group = np.array([2, 7, 7])
    b_start, b_end = np.array([3, 10, 0]), np.array([5, 20, 4])
    a = [  # (group, start, end, overlaps?) by hand
        (7, 5, 9, False),    # between group 7's two intervals
        (7, 4, 4, True),     # touches [0, 4] at its end
        (7, 21, 30, False),  # after [10, 20]
        (7, 9, 10, True),    # touches [10, 20] at its start
        (2, 0, 2, False),    # before [3, 5]
        (2, 5, 8, True),     # touches [3, 5]
        (9, 0, 50, False),   # a group without b intervals
        (2, 10, 20, False),  # group 7's interval, not group 2's
    ]
    got = closed_overlap(np.array([r[0] for r in a]), np.array([r[1] for r in a]),
                         np.array([r[2] for r in a]), b_group, b_start, b_end)
    assert got.tolist() == [r[3] for r in a]
    none = np.zeros(0, dtype=np.int64)
    assert closed_overlap(np.array([7]), np.array([0]), np.array([1]), none, none,
                          none).tolist() == [False]

# ------------------------------------------------------------------------------------------------
# over time


def test_over_time_adds_up_to_breakdown_and_bins():
    rng = np.random.default_rng(5)
    n = 3000
    ev = make(np.sort(rng.uniform(0, 6 * 3600, n)), rng.choice(BUCKETS, n, p=[0.85, 0.1, 0.05]),
              rng.choice(["fra", "ams"], n))
    slo = SLO(target=0.95)
    ot = bucket_burn_over_time(ev, slo, freq="30min", by="region")
    assert list(ot.columns) == ["region", "bin_start", "bucket", "events", "failures", "burn_rate",
                                "budget_spent"]
    br = bucket_breakdown(ev, slo, by="region", policy=AlertPolicy.single_window("30min", 2.0))
    spent = ot.groupby(["region", "bucket"], observed=True)["budget_spent"].sum()
    for _, row in br.iterrows():
        assert spent.loc[(row["region"], row["bucket"])] == pytest.approx(row["burn_rate"],
                                                                          rel=1e-12)
    # oracle per bin: a plain pandas count
    f = ev.assign(bin_start=ev["ts"].dt.floor("30min"))
    cnt = f.groupby(["region", "bin_start", "bucket"], observed=True).size()
    tot = f.groupby(["region", "bin_start"], observed=True).size()
    for _, row in ot.sample(40, random_state=1).iterrows():
        k = (row["region"], row["bin_start"])
        exp = cnt.get((*k, row["bucket"]), 0)
        assert row["failures"] == exp
        assert row["events"] == tot.get(k, 0)
        assert row["burn_rate"] == pytest.approx(exp / (tot[k] * 0.05) if tot.get(k, 0) else 0.0)


def test_over_time_empty_bins_are_zero_not_nan():
    ev = make([0, 7300], ["timeout", "success"])
    ot = bucket_burn_over_time(ev, SLO(target=0.75), freq="1h")  # 1 - 0.75 is exact in binary
    assert ot["events"].tolist() == [1, 1, 0, 0, 1, 1]
    assert ot["burn_rate"].tolist() == [4.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert not ot.isna().any().any()


# ------------------------------------------------------------------------------------------------
# group keys are declared, never assumed


def test_default_is_one_row_per_bucket_on_a_log_without_captcha_keys():
    # A web log: no captcha_type, no region. Hand count: 10 events, 2 timeouts and 1 solve error,
    # target 0.9 so 1 failure in 10 is the allowed pace: burn = failures / (10 * 0.1).
    bucket = ["success"] * 3 + ["timeout", "success", "solve_error", "success", "timeout"] + [
        "success"] * 2
    ev = make(range(0, 100, 10), bucket)
    t = bucket_breakdown(ev, SLO(target=0.9, window="60s")).set_index("bucket")
    assert list(t.columns[:2]) == ["events", "failures"]  # no group key column
    assert t.loc[["timeout", "solve_error"], "failures"].tolist() == [2, 1]
    assert t.loc[["timeout", "solve_error"], "burn_rate"].tolist() == pytest.approx([2.0, 1.0])
    assert t.loc["timeout", "sli_without"] == pytest.approx(7 / 8)


# ------------------------------------------------------------------------------------------------
# errors


def test_errors():
    ev = make([0, 1], ["success", "timeout"], ["fra", "ams"])
    with pytest.raises(ConfigError, match="SLO"):
        bucket_breakdown(ev, 0.95, by="region")
    with pytest.raises(ConfigError, match="AlertPolicy"):
        # preset names ("workbook") are accepted
        bucket_breakdown(ev, SLO(), by="region", policy="nope")
    with pytest.raises(SchemaError, match="'nope'"):
        bucket_breakdown(ev, SLO(), by="nope")
    with pytest.raises(InputError, match="empty"):
        bucket_breakdown(ev.iloc[0:0], SLO(), by=None)
    bad = ev.copy()
    bad.loc[0, "ok"] = False  # a failure in the success bucket
    with pytest.raises(OutcomeError, match="disagree"):
        bucket_codes(bad)
    # the workbook's 30-day windows in minutes: 60, 5, 360, 30, 1440, 120, 4320; gcd 5
    with pytest.raises(ConfigError, match=r"bins of 7 min do not divide the 1 h window of the "
                       r"workbook policy's page_1h tier .* e\.g\. freq='5m'\.$"):
        bucket_breakdown(ev, SLO(), by=None, freq="7min")
    assert ev["ok"].tolist() == [True, False]  # input never mutated


# ------------------------------------------------------------------------------------------------
# ground truth of the generator


def test_generator_rates_and_timeout_storm_pages():
    # the generator's injected rates: timeouts 1.5 % per region (traffic-weighted), per-type
    # success 0.94 / 0.98 / 0.90 (synth.DEFAULT_SUCCESS), so solve errors 1 - success - 0.015.
    storm = {"kind": "timeout_storm", "start": "2026-10-06T14:00Z", "end": "2026-10-06T15:30Z",
             "scope": "region=fra", "severity": 0.35}
    degr = {"kind": "solver_degradation", "start": "2026-10-07T12:00Z", "end": "2026-10-07T14:00Z",
            "scope": "captcha_type=image", "severity": 0.4}
    ev, inc = synth.generate("2026-10-05", 3, seed=4, rate=3.0, timeout_rate=0.015,
                             incidents=[storm, degr],
                             session_ids=False)
    outside = np.ones(len(ev), dtype=bool)
    for _, r in inc.iterrows():
        outside &= ~((ev["ts"] >= r["start"]) & (ev["ts"] < r["end"])).to_numpy()
    base = bucket_breakdown(ev[outside], SLO(target=0.95), by="captcha_type",
                            policy=AlertPolicy.single_window("1h", 2.0)).set_index(["captcha_type",
                                                                                    "bucket"])
    for ctype, success in synth.DEFAULT_SUCCESS.items():
        assert base.loc[(ctype, "timeout"), "failure_rate"] == pytest.approx(0.015, rel=0.12)
        assert base.loc[(ctype, "solve_error"),
                        "failure_rate"] == pytest.approx(1 - success - 0.015, rel=0.12)
    # pages when the 1 h burn exceeds 4 at 95 % (> 20 % failures): the storm (35 % failures in
    # fra) pages every type in fra, and timeouts alone cause it; the image degradation (40 %)
    # pages image in both regions, caused by solve errors, not by timeouts
    pol = AlertPolicy.single_window("1h", 4.0)
    t = bucket_breakdown(ev, SLO(target=0.95, window="1h"), by=["captcha_type", "region"],
                         policy=pol)
    to = t[t["bucket"] == "timeout"].set_index(["captcha_type", "region"])
    se = t[t["bucket"] == "solve_error"].set_index(["captcha_type", "region"])
    for ctype in synth.CAPTCHA_TYPES:
        assert to.loc[(ctype, "fra"), "pages_caused"] >= 1
        assert to.loc[(ctype, "ams"), "pages_caused"] == 0
    for region in synth.REGIONS:
        assert se.loc[("image", region), "pages_caused"] >= 1
        assert se.loc[("recaptcha_v2", region), "pages_caused"] == 0
    # check the episodes themselves against the incidents' times
    from budgetlab.analyses.bucket_variants import episodes_caused

    b = bin_events(ev, "1min", by=["captcha_type", "region"])
    for bucket, incident, region in (("timeout", 0, "fra"), ("solve_error", 1, None)):
        ep, _ = episodes_caused(b, 0.95, pol, bucket)
        caused = ep[ep["caused"]]
        assert len(caused) == int(t.loc[t["bucket"] == bucket, "pages_caused"].sum())
        s, e = inc.loc[incident, "start"], inc.loc[incident, "end"]
        # a 1 h window keeps firing up to 1 h after the incident
        assert ((caused["start"] < e + pd.Timedelta("1h")) & (caused["end"] > s)).all()
        if region is not None:
            assert (caused["region"] == region).all()


@pytest.mark.slow
def test_four_week_sample_timeouts_per_region_and_storms():
    from budgetlab import datasets

    # the datasets ship in the package (no skip: a missing dataset is a failure)
    ev = datasets.load("outcomes_4w")
    inc = datasets.load("incidents_4w")
    slo = SLO(target=0.95, window="24h")
    t = bucket_breakdown(ev, slo, by="region")
    # ground truth (data/README.md): timeouts 1.2 % per region on average, plus I01 (outage, all
    # timeouts), I02 (ams) and I06 (fra) storms: each region's timeout rate is a little above 1.2 %
    to = t[t["bucket"] == "timeout"].set_index("region")
    for region in ("fra", "ams"):
        assert 0.012 < to.loc[region, "failure_rate"] < 0.0135
    # inside the I02 storm (ams, severity 0.20 = expected failure rate there) the failures of ams
    # are mostly timeouts and their rate is about the severity
    i02 = inc.set_index("incident_id").loc["I02"]
    sub = ev[(ev["ts"] >= i02["start"]) & (ev["ts"] < i02["end"]) & (ev["region"] == "ams")]
    s = bucket_breakdown(sub, slo, by=None, policy=AlertPolicy.single_window("1h", 2.0)).set_index(
        "bucket"
    )
    assert s["failure_rate"].sum() == pytest.approx(0.20, abs=0.03)
    assert s.loc["timeout", "share_of_failures"] > 0.6
