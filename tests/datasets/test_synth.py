"""The seeded generator: determinism, the traffic model, base rates and the injected incidents.

Oracles are the generator's documented parameters (rates, ratios, severities) checked with
binomial / Poisson tolerances (4 standard errors), and exact couplings between runs that share a
seed (incidents never change traffic nor the uniform draws behind the outcomes).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from budgetlab import ConfigError, check_events, synth
from budgetlab.events.schema import INCIDENT_COLUMNS, parse_scope, scope_mask, ts_ns

CANONICAL = ["ts", "ok", "bucket", "captcha_type", "region", "sitekey", "session_id"]
SK = synth.sitekeys(4)

# One incident of every kind, apart in time, on a 5-day span at 6 events/s (about 2.6M events).
START = "2026-10-05T00:00Z"  # a Monday
INCIDENTS = [
    {"incident_id": "A", "kind": "outage", "start": "2026-10-05T12:00Z", "end": "2026-10-05T12:15Z",
     "scope": "*", "severity": 1.0},
    {"incident_id": "B", "kind": "timeout_storm", "start": "2026-10-05T18:00Z",
     "end": "2026-10-05T19:30Z",
     "scope": "region=ams", "severity": 0.25},
    {"incident_id": "C", "kind": "solver_degradation", "start": "2026-10-06T09:00Z",
     "end": "2026-10-06T12:00Z",
     "scope": "captcha_type=image", "severity": 0.2},
    {"incident_id": "D", "kind": "gradual_degradation", "start": "2026-10-06T14:00Z",
     "end": "2026-10-06T18:00Z",
     "scope": "captcha_type=recaptcha_v2&region=fra", "severity": 0.15},
    {"incident_id": "E", "kind": "slow_burn", "start": "2026-10-07T00:00Z",
     "end": "2026-10-09T00:00Z",
     "scope": "captcha_type=turnstile", "severity": 0.035},
    {"incident_id": "F", "kind": "sitekey_change", "start": "2026-10-09T06:00Z",
     "end": "2026-10-10T00:00Z",
     "scope": f"captcha_type=image&sitekey={SK['image'][1]}", "severity": 0.4},
]


@pytest.fixture(scope="module")
def runs():
    with_inc, table = synth.generate(START, 5, seed=11, rate=6.0, incidents=INCIDENTS)
    without, _ = synth.generate(START, 5, seed=11, rate=6.0, incidents=None)
    return with_inc, table, without


def _in_incident(events: pd.DataFrame, row, *, start=None) -> np.ndarray:
    a = pd.Timestamp(start if start is not None else row.start)
    t = ts_ns(events)
    lo, hi = np.searchsorted(t, [a.value, row.end.value])  # events are sorted by ts
    mask = np.zeros(len(events), dtype=bool)
    mask[lo:hi] = scope_mask(events.iloc[lo:hi], row.scope)
    return mask


def _binomial_ok(failures: int, n: int, p: float, *, sd: float = 4.0, slack: float = 0.0) -> bool:
    se = math.sqrt(p * (1 - p) / n)
    return abs(failures / n - p) <= sd * se + slack


# ---------------------------------------------------------------------------------------------
# determinism and shape


def test_same_seed_same_tables_bit_for_bit():
    a_ev, a_inc = synth.generate("2026-03-01", 1.5, seed=7, rate=2.0)
    b_ev, b_inc = synth.generate("2026-03-01", 1.5, seed=7, rate=2.0)
    pd.testing.assert_frame_equal(a_ev, b_ev, check_exact=True)
    pd.testing.assert_frame_equal(a_inc, b_inc, check_exact=True)
    c_ev, _ = synth.generate("2026-03-01", 1.5, seed=8, rate=2.0)
    assert len(c_ev) != len(a_ev) or not c_ev["ts"].equals(a_ev["ts"])


def test_columns_are_canonical_and_valid(runs):
    events, table, _ = runs
    assert list(events.columns) == CANONICAL
    assert check_events(events, ["captcha_type", "region", "sitekey"]) == ["captcha_type", "region",
                                                                           "sitekey"]
    assert str(events["ts"].dtype) == "datetime64[ns, UTC]"
    assert list(events["bucket"].cat.categories) == ["success", "timeout", "solve_error"]
    assert events["bucket"].cat.ordered
    assert np.array_equal(events["ok"].to_numpy(), (events["bucket"] == "success").to_numpy())
    assert (ts_ns(events) % 1_000_000 == 0).all()  # whole milliseconds
    assert list(table.columns) == list(INCIDENT_COLUMNS)
    assert str(table["start"].dtype) == str(table["end"].dtype) == "datetime64[ns, UTC]"
    for col in ("captcha_type", "region", "sitekey"):
        assert isinstance(events[col].dtype, pd.CategoricalDtype)
    assert set(events["captcha_type"].unique()) == set(synth.CAPTCHA_TYPES)
    assert set(events["region"].unique()) == set(synth.REGIONS)


def test_span_is_half_open_and_naive_start_is_utc():
    events, _ = synth.generate("2026-10-05 06:00", 0.25, seed=1, rate=5.0, incidents=None)
    assert events["ts"].min() >= pd.Timestamp("2026-10-05 06:00", tz="UTC")
    assert events["ts"].max() < pd.Timestamp("2026-10-05 12:00", tz="UTC")


def test_session_ids_flag_changes_nothing_else():
    a, _ = synth.generate("2026-10-05", 1, seed=4, rate=1.0)
    b, _ = synth.generate("2026-10-05", 1, seed=4, rate=1.0, session_ids=False)
    pd.testing.assert_frame_equal(a.drop(columns="session_id"), b, check_exact=True)


def test_sessions_are_opaque_and_coherent(runs):
    events, _, _ = runs
    ids = events["session_id"]
    assert str(ids.dtype) == "string"
    assert ids.str.fullmatch(r"[0-9a-f]{12}").all()
    per = events.groupby("session_id", observed=True).agg(
        n=("ts", "size"), types=("captcha_type", "nunique"), regions=("region", "nunique"),
                                                          keys=("sitekey", "nunique")
    )
    # a session is one stream and one sitekey
    assert (per[["types", "regions", "keys"]] == 1).all().all()
    # attempts per session: geometric with mean 2 (the default), cut at stream ends
    assert per["n"].mean() == pytest.approx(2.0, rel=0.02)


def test_sitekeys_follow_zipf_weights(runs):
    events, _, without = runs
    img = without[without["captcha_type"] == "image"]
    shares = img["sitekey"].value_counts(normalize=True)
    # Zipf 1, 1/2, 1/3, 1/4 normalised by H_4 = 25/12: 0.48, 0.24, 0.16, 0.12 (per session, 2
    # attempts each)
    expected = np.array([1, 1 / 2, 1 / 3, 1 / 4]) * 12 / 25
    for key, p in zip(SK["image"], expected, strict=True):
        assert shares[key] == pytest.approx(p, abs=0.01)
    assert set(events["sitekey"].unique()) <= {k for keys in SK.values() for k in keys}


# ---------------------------------------------------------------------------------------------
# traffic


def test_poisson_volume_and_shares():
    events, _ = synth.generate(START, 7, seed=3, rate=4.0, incidents=None, session_ids=False)
    expected = 4.0 * 7 * 86_400  # rate is the mean events/s over the span
    assert abs(len(events) - expected) <= 4 * math.sqrt(expected)
    n = len(events)
    for t, share in synth.DEFAULT_TYPE_SHARE.items():
        got = int((events["captcha_type"] == t).sum())
        assert abs(got / n - share) <= 4 * math.sqrt(share * (1 - share) / n)
    for r, share in synth.DEFAULT_REGION_SHARE.items():
        got = int((events["region"] == r).sum())
        assert abs(got / n - share) <= 4 * math.sqrt(share * (1 - share) / n)


@pytest.mark.parametrize("night_ratio, weekend_ratio", [(0.25, 0.7), (0.5, 1.0)])
def test_daily_and_weekly_cycle_in_local_time(night_ratio, weekend_ratio):
    # 2026-10-19 .. 11-02 crosses the end of summer time (Oct 25): local hours must stay local.
    events, _ = synth.generate("2026-10-19", 14, seed=5, rate=3.0, incidents=None,
                               session_ids=False,
                               night_ratio=night_ratio, weekend_ratio=weekend_ratio)
    local = events["ts"].dt.tz_convert("Europe/Berlin")
    hour = local.dt.hour + local.dt.minute / 60
    weekday = (local.dt.day_of_week < 5).to_numpy()
    night = ((hour >= 2.5) & (hour < 3.5)).to_numpy()
    day = ((hour >= 14.5) & (hour < 15.5)).to_numpy()
    for part in (local < pd.Timestamp("2026-10-25", tz="Europe/Berlin"),
                 local >= pd.Timestamp("2026-10-26", tz="Europe/Berlin")):
        part = part.to_numpy()
        n_night, n_day = (night & weekday & part).sum(), (day & weekday & part).sum()
        # averaging exp(A cos) over +-30 min moves the ratio by < 0.5 %; Poisson noise ~1.5 %
        assert n_night / n_day == pytest.approx(night_ratio, rel=0.08)
    n_day_weekend = (day & ~weekday).sum() / 4  # 4 weekend days
    n_day_weekday = (day & weekday).sum() / 10  # 10 weekdays
    assert n_day_weekend / n_day_weekday == pytest.approx(weekend_ratio, rel=0.08)


# ---------------------------------------------------------------------------------------------
# base rates


def test_base_rates_match_parameters_outside_incidents(runs):
    events, table, _ = runs
    inside = np.zeros(len(events), dtype=bool)
    for row in table.itertuples(index=False):
        inside |= _in_incident(events, row)
    out = events[~inside]
    for t, s in synth.DEFAULT_SUCCESS.items():
        g = out[out["captcha_type"] == t]
        # drift and the night timeouts average out over the span; excluding incident windows moves
        # the traffic-weighted mean by a little: 0.3 points of slack
        assert _binomial_ok(int((~g["ok"]).sum()), len(g), 1 - s, slack=0.003), t
    for r in synth.REGIONS:
        g = out[out["region"] == r]
        assert _binomial_ok(int((g["bucket"] == "timeout").sum()), len(g), 0.012, slack=0.002), r


def test_custom_success_rates():
    events, _ = synth.generate(START, 4, seed=9, rate=3.0, incidents=None, session_ids=False,
                               success={"turnstile": 0.95}, timeout_rate=0.02)
    g = events[events["captcha_type"] == "turnstile"]
    assert _binomial_ok(int((~g["ok"]).sum()), len(g), 0.05, slack=0.003)
    assert _binomial_ok(int((events["bucket"] == "timeout").sum()), len(events), 0.02, slack=0.002)


def _timeouts_per_minute(events: pd.DataFrame) -> np.ndarray:
    timeout = (events["bucket"] == "timeout").to_numpy()
    key = (ts_ns(events) // 60_000_000_000) * 2 + events["region"].cat.codes.to_numpy()
    return np.bincount(key[timeout] - key.min())


def test_timeouts_peak_at_night_and_come_in_bursts():
    events, _ = synth.generate(START, 7, seed=2, rate=3.0, incidents=None, session_ids=False)
    hour = events["ts"].dt.tz_convert("Europe/Berlin").dt.hour
    timeout = (events["bucket"] == "timeout").to_numpy()
    night = hour.isin([1, 2, 3, 4, 5]).to_numpy()
    day = hour.isin([12, 13, 14, 15, 16]).to_numpy()
    assert timeout[night].mean() > 1.5 * timeout[day].mean()
    # bursts: the worst minute of a region holds far more timeouts than without bursts
    smooth, _ = synth.generate(START, 7, seed=2, rate=3.0, incidents=None, session_ids=False,
                               bursts_per_day=0)
    assert _timeouts_per_minute(events).max() >= 2 * _timeouts_per_minute(smooth).max()


# ---------------------------------------------------------------------------------------------
# incidents


def test_incident_table_is_returned_as_given(runs):
    _, table, _ = runs
    assert table["incident_id"].tolist() == [i["incident_id"] for i in INCIDENTS]
    assert table["severity"].tolist() == [i["severity"] for i in INCIDENTS]
    assert table["start"].tolist() == [pd.Timestamp(i["start"]) for i in INCIDENTS]


def test_incidents_leave_traffic_and_other_outcomes_alone(runs):
    events, table, without = runs
    for col in ("ts", "captcha_type", "region", "sitekey", "session_id"):
        assert events[col].equals(without[col])
    inside = np.zeros(len(events), dtype=bool)
    for row in table.itertuples(index=False):
        inside |= _in_incident(events, row)
    assert events["bucket"][~inside].equals(without["bucket"][~inside])
    assert not events["bucket"][inside].equals(without["bucket"][inside])


@pytest.mark.parametrize("incident", [i["incident_id"] for i in INCIDENTS])
def test_failure_rate_inside_incident_is_severity(runs, incident):
    events, table, without = runs
    row = next(table[table["incident_id"] == incident].itertuples(index=False))
    start = (
        row.start + (row.end - row.start) / 2 if row.kind == "gradual_degradation" else row.start
    )
    m = _in_incident(events, row, start=start)
    n, fails = int(m.sum()), int((~events["ok"][m]).sum())
    assert n > 300
    if row.kind == "outage":
        assert fails == n and (events["bucket"][m] == "timeout").all()
        return
    assert _binomial_ok(fails, n, row.severity), (fails / n, row.severity)
    base = without[m]
    assert (~base["ok"]).mean() < row.severity - 0.008  # clearly above the scope's base rate
    # the coupling: an additive incident only turns outcomes into failures
    assert not (events["ok"][m] & ~without["ok"][m]).any()
    # and the excess lands in its bucket: solver kinds never touch timeouts
    if synth.INCIDENT_KINDS[row.kind] == "solve_error":
        assert events["bucket"][m].eq("timeout").equals(without["bucket"][m].eq("timeout"))
    else:
        assert (events["bucket"][m] == "timeout").sum() > (without["bucket"][m] == "timeout").sum()


def test_gradual_degradation_ramps_up(runs):
    events, table, without = runs
    row = next(table[table["kind"] == "gradual_degradation"].itertuples(index=False))
    quarter = (row.end - row.start) / 4
    first = _in_incident(events, row) & (events["ts"] < row.start + quarter).to_numpy()
    second = (
        _in_incident(events, row)
        & (
            (events["ts"] >= row.start + quarter) & (events["ts"] < row.start + 2 * quarter)
        ).to_numpy()
    )
    base = (~without["ok"][first | second]).mean()
    f1, f2 = (~events["ok"][first]).mean(), (~events["ok"][second]).mean()
    # the excess ramps linearly from 0 to full over the first half: on average 1/4 of it in the
    # first quarter of the incident and 3/4 in the second (traffic is near-uniform within an hour)
    assert base < f1 < f2 < row.severity + 0.02
    assert f1 == pytest.approx(base + 0.25 * (row.severity - base), abs=0.025)
    assert f2 == pytest.approx(base + 0.75 * (row.severity - base), abs=0.025)


def test_overlapping_incidents_add_their_excess():
    inc = [
        {"kind": "timeout_storm", "start": "2026-10-05T10:00Z", "end": "2026-10-05T14:00Z",
         "scope": "region=fra", "severity": 0.15},
        {"kind": "solver_degradation", "start": "2026-10-05T10:00Z", "end": "2026-10-05T14:00Z",
         "scope": "captcha_type=recaptcha_v2", "severity": 0.2},
    ]
    both, _ = synth.generate(START, 1, seed=6, rate=30.0, incidents=inc, session_ids=False)
    base, _ = synth.generate(START, 1, seed=6, rate=30.0, incidents=None, session_ids=False)
    storm, _ = synth.generate(START, 1, seed=6, rate=30.0, incidents=inc[:1], session_ids=False)
    deg, _ = synth.generate(START, 1, seed=6, rate=30.0, incidents=inc[1:], session_ids=False)
    t = both["ts"]
    m = ((t >= "2026-10-05T10:00Z") & (t < "2026-10-05T14:00Z") & (both["region"] == "fra")
         & (both["captcha_type"] == "recaptcha_v2")).to_numpy()
    rate = {name: (~f["ok"][m]).mean() for name, f in [("both", both), ("base", base), ("storm",
                                                                                        storm),
                                                       ("deg", deg)]}
    expected = rate["base"] + (rate["storm"] - rate["base"]) + (rate["deg"] - rate["base"])
    assert rate["both"] == pytest.approx(expected, abs=4 * math.sqrt(0.3 * 0.7 / m.sum()) * 2)


def test_auto_incidents_one_of_each_kind_apart():
    events, table = synth.generate(START, 14, seed=21, rate=1.0)
    assert sorted(table["kind"]) == sorted(synth.INCIDENT_KINDS)
    assert table["incident_id"].tolist() == [f"I{i:02d}" for i in range(1, 7)]
    assert (table["start"] >= events["ts"].min().floor("D")).all()
    assert (table["end"] <= pd.Timestamp(START) + pd.Timedelta("14D")).all()
    ordered = table.sort_values("start")
    # no overlap in time
    assert (ordered["start"].to_numpy()[1:] >= ordered["end"].to_numpy()[:-1]).all()
    for row in table.itertuples(index=False):
        parse_scope(row.scope)
        m = _in_incident(events, row)
        assert m.sum() > 0
        assert 0 < row.severity <= 1
    sk = table[table["kind"] == "sitekey_change"].iloc[0]
    assert sk["end"] == pd.Timestamp(START) + pd.Timedelta("14D")


def test_auto_incidents_are_seeded():
    _, a = synth.generate(START, 10, seed=1, rate=0.2)
    _, b = synth.generate(START, 10, seed=1, rate=0.2)
    _, c = synth.generate(START, 10, seed=2, rate=0.2)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)


# ---------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
        ({"days": 0}, "days"),
        ({"rate": -1.0}, "rate"),
        ({"success": {"hcaptcha": 0.9}}, "unknown captcha types"),
        ({"success": {"image": 0.995}}, "timeout_rate"),
        ({"night_ratio": 0.0}, "night_ratio"),
        ({"sitekeys_per_type": 0}, "sitekeys_per_type"),
        ({"incidents": "some"}, "incidents"),
        ({"incidents": 3}, "incidents"),
        ({"days": 0.5}, "days >= 1"),
        ({"start": "not a date"}, "start"),
    ],
)
def test_bad_arguments_raise_config_error(kwargs, match):
    args = {"start": START, "days": 1, "seed": 1, "rate": 0.1, **kwargs}
    with pytest.raises(ConfigError, match=match):
        synth.generate(**args)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"kind": "meteor"}, "kind"),
        ({"scope": "colour=red"}, "scope key"),
        ({"scope": "region=nyc"}, "region"),
        ({"scope": "captcha_type=turnstile&sitekey=" + SK["image"][0]}, "matches no captcha type"),
        ({"scope": "sitekey=sk_00000000"}, "unknown sitekey"),
        ({"start": "2026-10-04T00:00Z"}, "span"),
        ({"end": "2026-10-05T05:00Z"}, "span"),  # end before start
        ({"severity": 0.01}, "base failure rate"),
        ({"severity": 1.5}, "severity"),
    ],
)
def test_bad_incidents_raise_config_error(change, match):
    inc = {"kind": "solver_degradation", "start": "2026-10-05T06:00Z", "end": "2026-10-05T08:00Z",
           "scope": "captcha_type=image", "severity": 0.3, **change}
    with pytest.raises(ConfigError, match=match):
        synth.generate(START, 1, seed=1, rate=0.5, incidents=[inc])


def test_incident_table_columns_are_checked():
    with pytest.raises(ConfigError, match="unexpected"):
        synth.generate(START, 1, seed=1, rate=0.5, incidents=[{**INCIDENTS[0], "note": "x"}])
    with pytest.raises(ConfigError, match="unique"):
        synth.generate(START, 1, seed=1, rate=0.5, incidents=[INCIDENTS[0], INCIDENTS[0]])


def test_sitekey_ids_are_stable_and_opaque():
    keys = synth.sitekeys(4)
    flat = [k for t in synth.CAPTCHA_TYPES for k in keys[t]]
    assert len(set(flat)) == len(flat)
    assert all(re.fullmatch(r"sk_[0-9a-f]{8}", k) for k in flat)
    # sha256 of "budgetlab/image/0", first 8 hex digits (python -c "import hashlib; ...")
    import hashlib
    assert keys["image"][0] == "sk_" + hashlib.sha256(b"budgetlab/image/0").hexdigest()[:8]
