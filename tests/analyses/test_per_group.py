"""Per-group SLOs in the analyses (issue 16): compare_windows, window_incidents, bucket_breakdown
and
incident_report under a PerGroup equal, group by group, the runs with each group's own SLO.

Oracles: the same function run with one SLO (per group: on that group's events alone where the
function's figures only depend on the group, else on the whole table with that SLO for every group).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, PerGroup, as_events
from budgetlab.analyses.failure_buckets import bucket_breakdown
from budgetlab.analyses.incident import incident_report
from budgetlab.analyses.window_lengths import compare_windows, window_incidents
from budgetlab.errors import ConfigError

T0 = pd.Timestamp("2026-01-05 00:00", tz="UTC")

SLOS = {"a": SLO(target=0.93, warning=0.6, critical=0.2, min_events=5),
        "b": SLO(target=0.85, window="2h"),
        "c": SLO(target=0.75, min_events=3)}


def grouped(seed: int = 3, n: int = 4000, days: float = 2.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ts = T0 + pd.to_timedelta(np.sort(rng.uniform(0, days * 86400, n)).round(), unit="s")
    kind = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    region = rng.choice(["x", "y"], n)
    hour = (ts - T0) / pd.Timedelta(hours=1)
    p_ok = np.where(kind == "a", 0.95, np.where(kind == "b", 0.9, 0.8))
    p_ok = np.where((hour >= 20) & (hour < 23), 0.6, p_ok)
    bad_bucket = np.where(rng.random(n) < 0.6, "timeout", "solve_error")
    ok = rng.random(n) < p_ok
    return as_events(ts, ok, np.where(ok, "success", bad_bucket), groups={"kind": kind,
                                                                          "region": region})


def test_compare_windows_per_group_equals_each_group_alone():
    events = grouped()
    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                        "start": [T0 + pd.Timedelta(hours=20)],
                        "end": [T0 + pd.Timedelta(hours=23)]})
    got = compare_windows(events, PerGroup(SLOS), ["1h", "6h", "calendar:day"], by="kind",
                          incidents=inc,
                          min_dwell=["0min", "30min"])
    for kind, slo in SLOS.items():
        # a group's rows equal those of a one-SLO run of the whole table (the observation ends
        # at the table's last event for every group: after a group's last window, no traffic)
        ref = compare_windows(events, slo, ["1h", "6h", "calendar:day"], by="kind", incidents=inc,
                              min_dwell=["0min", "30min"])
        ref = ref[ref["kind"] == kind]
        mine = got[got["kind"] == kind].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, ref.reset_index(drop=True), check_categorical=False)
    wi = window_incidents(events, {"a": SLOS["a"], "b": SLOS["b"], "c": SLOS["c"]}, inc, ["1h"],
                          by="kind")
    for kind, slo in SLOS.items():
        sub = events[(events["kind"] == kind).to_numpy()].reset_index(drop=True)
        ref = window_incidents(sub, slo, inc, ["1h"], by="kind")
        pd.testing.assert_frame_equal(wi[wi["kind"] == kind].reset_index(drop=True), ref,
                                      check_categorical=False)


def test_compare_windows_per_group_needs_every_group():
    with pytest.raises(ConfigError, match="no SLO for the group"):
        compare_windows(grouped(), PerGroup({"a": 0.9}), "1h", by="kind")
    with pytest.raises(ConfigError, match="group keys"):
        compare_windows(grouped(), PerGroup({"a": 0.9}), "1h")


def test_bucket_breakdown_per_group_equals_the_run_with_each_groups_slo():
    events = grouped(4, n=3000, days=1.0)
    pol = AlertPolicy.single_window("30min", 2.0)
    # keyed by (kind, region): the x and y regions of a kind may differ too
    per = PerGroup({(k, r): s.with_(window="1h", target=s.target - (0.02 if r == "y" else 0))
                    for k, s in SLOS.items() for r in ("x", "y")})
    got = bucket_breakdown(events, per, by=["kind", "region"], policy=pol)
    assert got.attrs["slo"] == per.as_dict()  # the PerGroup as its plain dict
    for (kind, region), slo in per.table.items():
        ref = bucket_breakdown(events, slo, by=["kind", "region"], policy=pol)
        m = ((got["kind"] == kind) & (got["region"] == region)).to_numpy()
        assert m.sum() == 2  # timeout, solve_error
        pd.testing.assert_frame_equal(got[m].reset_index(drop=True), ref[m].reset_index(drop=True))
        # and the group's own figures equal a run on its events alone (all but the share of all
        # failures)
        sub = events[
            ((events["kind"] == kind) & (events["region"] == region)).to_numpy()
        ].reset_index(drop=True)
        alone = bucket_breakdown(sub, slo, by=["kind", "region"], policy=pol)
        cols = [c for c in alone.columns if c != "share_of_all_failures"]
        pd.testing.assert_frame_equal(got[m].reset_index(drop=True)[cols], alone[cols],
                                      check_categorical=False)


def test_bucket_breakdown_says_each_groups_policy_when_a_preset_differs_by_period():
    """A preset name is built for each SLO's period: Sloth's for 28 days is ``sloth_28d``, for 30
    days ``sloth_30d`` (its two tables of windows). The table said the first group's for all;
    now each group's, by its key as text. One policy for all (given, or built alike) stays one
    name."""
    events = grouped(5, n=2000, days=1.0)
    per = PerGroup({"a": SLO(target=0.9, period="28D"), "b": SLO(target=0.9, period="30D")},
                   default=SLO(target=0.8, period="28D"))
    got = bucket_breakdown(events, per, by="kind", policy="sloth")
    assert got.attrs["policy"] == [{"group": ["a"], "policy": "sloth_28d"},
                                   {"group": ["b"], "policy": "sloth_30d"},
                                   {"group": ["c"], "policy": "sloth_28d"}]
    same = bucket_breakdown(events, per, by="kind", policy=AlertPolicy.single_window("1h", 2.0))
    assert same.attrs["policy"] == "single_window"


def test_bucket_breakdown_three_groups_two_slos_equal_each_group_alone():
    # Three groups, two SLOs ("a" and "c" share one), the bucket column as plain text. Every group
    # has an event at the log's first and last instants, so a group alone has the log's span and
    # the policy's bin grid: its rows equal a run over its events alone under its own SLO, but
    # share_of_all_failures, which counts every group's failures (by hand below).
    base = grouped(7, n=3000, days=1.0)
    ends = [base["ts"].min(), base["ts"].max()]
    edge = as_events([t for t in ends for _ in "abc"], [True] * 6, ["success"] * 6,
                     groups={"kind": list("abc") * 2, "region": ["x"] * 6})
    events = pd.concat([base, edge]).sort_values("ts", kind="stable").reset_index(drop=True)
    events["bucket"] = events["bucket"].astype(str)
    pol = AlertPolicy.single_window("30min", 2.0)
    slo_ac, slo_b = SLO(target=0.9, window="1h"), SLO(target=0.8, window="2h", warning=0.6)
    got = bucket_breakdown(events, PerGroup({"a": slo_ac, "b": slo_b, "c": slo_ac}), by="kind",
                           policy=pol)
    assert got["kind"].tolist() == ["a", "a", "b", "b", "c", "c"]
    assert (got["pages"] > 0).any() and (got["transitions_caused"] > 0).any()
    bad = ~events["ok"]
    assert got["failures"].tolist() == [
        int((bad & (events["kind"] == k) & (events["bucket"] == b)).sum())
        for k in "abc" for b in ("timeout", "solve_error")]
    assert got["share_of_all_failures"].tolist() == (got["failures"] / bad.sum()).tolist()
    for kind, slo in (("a", slo_ac), ("b", slo_b), ("c", slo_ac)):
        alone = bucket_breakdown(events[(events["kind"] == kind).to_numpy()].reset_index(drop=True),
                                 slo, by="kind", policy=pol)
        mine = got[(got["kind"] == kind).to_numpy()].reset_index(drop=True)
        cols = [c for c in alone.columns if c != "share_of_all_failures"]
        pd.testing.assert_frame_equal(mine[cols], alone[cols], check_exact=True)
    assert [got.attrs[k] for k in ("start", "end")] == [t.isoformat() for t in ends]


def test_incident_report_per_group_equals_the_report_under_each_groups_slo():
    events = grouped(5, n=5000, days=1.0)
    per = PerGroup({"a": SLO(target=0.93, window="1h"), "b": SLO(target=0.85, window="30min"),
                    "c": SLO(target=0.75, window="1h", min_events=3)})
    pol = AlertPolicy.single_window("30min", 2.0)
    kw = dict(by="kind", breakdown_by=["kind", "region"], policy=pol, context="2h")
    start, end = "2026-01-05 20:00", "2026-01-05 23:00"
    rep = incident_report(events, per, start, end, **kw)
    assert rep.slos is per
    for kind, slo in per.table.items():
        ref = incident_report(events, slo, start, end, **kw)
        for name in ("states", "spans", "transitions", "tracker", "alerts", "tiers", "budget",
                     "buckets", "over_time"):
            a, b = getattr(rep, name), getattr(ref, name)
            ma, mb = (
                (a["kind"].astype(str) == kind[0]).to_numpy(),
                (b["kind"].astype(str) == kind[0]).to_numpy(),
            )
            pd.testing.assert_frame_equal(a[ma].reset_index(drop=True),
                                          b[mb].reset_index(drop=True),
                                          check_categorical=False, obj=f"{name} of {kind[0]}")
    focus = rep.tracker.iloc[0]
    assert rep.slo == per.slo_for(str(focus["kind"]))
    assert f"target {rep.slo.target * 100:g} %" in rep.summary
    with pytest.raises(ConfigError, match="breakdown_by"):
        incident_report(events, per, start, end, by="kind", breakdown_by="region", policy=pol)


def test_incident_report_per_group_attrs_claim_no_single_slo():
    # Three targets (0.93, 0.85, 0.75): over_time's attrs hold no one target, the replay tables'
    # attrs["slo"] is the PerGroup (as replay's under per-group SLOs), so the transitions read back
    # from the merged states' counts (the figure columns dropped: transitions recomputes them from
    # attrs["slo"]) use each group's own target: those of the report under its SLO.
    from budgetlab import transitions

    events = grouped(5, n=5000, days=1.0)
    per = PerGroup({"a": SLO(target=0.93, window="1h"), "b": SLO(target=0.85, window="30min"),
                    "c": SLO(target=0.75, window="1h", min_events=3)})
    kw = dict(by="kind", breakdown_by="kind", policy=AlertPolicy.single_window("30min", 2.0))
    start, end = "2026-01-05 20:00", "2026-01-05 23:00"
    rep = incident_report(events, per, start, end, **kw)
    assert "target" not in rep.over_time.attrs
    assert rep.over_time.attrs["by"] == ["kind"]
    for name in ("states", "spans", "steps"):
        assert getattr(rep, name).attrs["slo"] == per.as_dict(), name
    figures = ["successes", "success_rate", "budget_total", "budget_remaining",
               "remaining_fraction", "burn_rate"]
    got = transitions(rep.states.drop(columns=figures))
    for kind, slo in per.table.items():
        ref = incident_report(events, slo, start, end, **kw)
        assert ref.over_time.attrs["target"] == slo.target
        want = transitions(ref.states)
        pd.testing.assert_frame_equal(
            got[got["kind"].astype(str) == kind[0]].reset_index(drop=True),
            want[want["kind"].astype(str) == kind[0]].reset_index(drop=True),
            check_categorical=False, obj=f"transitions of {kind[0]}")
    # one target for every group (two windows): it is said
    same = PerGroup({"a": SLO(target=0.9, window="1h"), "b": SLO(target=0.9, window="30min"),
                     "c": SLO(target=0.9, window="1h")})
    assert incident_report(events, same, start, end, **kw).over_time.attrs["target"] == 0.9
