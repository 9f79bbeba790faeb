"""as_events without bucket=: failures of no stated kind are 'failure', as read_events reads an
ok= column, and the bucket categories hold only what is there (no empty timeout row)."""

import pandas as pd

from budgetlab import SLO, as_events, bucket_breakdown, read_events

TS = pd.date_range("2026-01-01", periods=10, freq="1min", tz="UTC")
OK = [i not in (2, 7) for i in range(10)]  # 2 failures in 10, counted by hand


def test_failures_without_a_kind_are_failure_and_only_present_buckets_are_categories():
    ev = as_events(TS, OK)
    assert ev["bucket"].astype(str).tolist() == ["success"] * 2 + ["failure"] + ["success"] * 4 \
        + ["failure"] + ["success"] * 2
    assert list(ev["bucket"].cat.categories) == ["success", "failure"]
    assert list(as_events(TS, [True] * 10)["bucket"].cat.categories) == ["success"]


def test_as_events_and_read_events_of_an_ok_column_agree():
    read = read_events(pd.DataFrame({"ts": TS, "ok": OK}), ok="ok")
    ev = as_events(TS, OK)
    assert list(read["bucket"].cat.categories) == list(ev["bucket"].cat.categories)
    assert read["bucket"].astype(str).tolist() == ev["bucket"].astype(str).tolist()


def test_breakdown_of_a_generic_log_has_one_failure_row():
    t = bucket_breakdown(as_events(TS, OK), SLO(target=0.5, window="1h"), by=None)
    assert t["bucket"].astype(str).tolist() == ["failure"]
    row = t.iloc[0]
    # hand figures: 2 failures of 10 events; burn = 2 / (10 x (1 - 0.5)) = 0.4; SLI 8 / 10
    assert (row["failures"], row["events"]) == (2, 10)
    assert row["burn_rate"] == 0.4
    assert row["sli"] == 0.8


def test_a_given_bucket_keeps_the_sample_domain_categories():
    ev = as_events(TS, OK, ["timeout" if not o else "success" for o in OK])
    assert list(ev["bucket"].cat.categories) == ["success", "timeout", "solve_error"]
