"""as_events without bucket=: failures of no stated kind are 'failure', as read_events reads an
ok= column, and the bucket categories hold only what is there (no empty timeout row); and what
as_events refuses rather than guess (text as ok, numbers as times, unequal lengths)."""

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, bucket_breakdown, read_events
from budgetlab.errors import InputError, TimestampError

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


TS3 = pd.date_range("2026-01-01", periods=3, freq="min", tz="UTC")


@pytest.mark.parametrize(("ok", "what"), [
    (["no", "no", "yes"], "holds text"),  # bool("no") is True: all three would read as successes
    ([True, np.nan, False], "holds missing values"),
    ([0, 1, 2], "holds numbers other than 0 and 1"),
])
def test_as_events_refuses_ok_that_is_not_true_false(ok, what):
    with pytest.raises(InputError, match=f"ok must be true/false .*{what}"):
        as_events(TS3, ok)


def test_as_events_reads_0_and_1_and_nullable_booleans_as_ok():
    assert as_events(TS3, [1, 0, 1])["ok"].tolist() == [True, False, True]
    assert as_events(TS3, pd.array([False, True, True], dtype="boolean"))["ok"].tolist() == [
        False, True, True]


def test_as_events_refuses_unequal_lengths_numbers_as_times_and_contradicting_buckets():
    with pytest.raises(InputError, match="got ts 3, ok 2"):
        as_events(TS3, [True, False])
    with pytest.raises(InputError, match=r"ts 3, ok 3, groups\['g'\] 1"):
        as_events(TS3, [True] * 3, groups={"g": ["a"]})
    with pytest.raises(InputError, match=r"ts holds numbers, whose unit"):
        as_events(np.arange(3) * 60, [True] * 3)  # read as ns, these would be 1970-01-01
    # a success filed as a timeout, and a failure filed as a success: 2 of 3 disagree
    with pytest.raises(InputError, match="bucket disagrees with ok at 2 of 3 events"):
        as_events(TS3, [True, False, False], ["timeout", "success", "timeout"])


def test_times_are_read_not_guessed():
    # pandas alone: 1792893600 as nanoseconds (1970-01-01 00:00:01.7928936) and '01/02/2026'
    # month first (2 January); both refused. Text in ISO-8601 is read as the readers read it:
    # 04:00 at +02:00 is 02:00 UTC, after 01:00 UTC (hand).
    with pytest.raises(TimestampError, match=r"ts holds numbers.*unit='s'"):
        as_events([1792893600, 1792893660], [True, False])
    with pytest.raises(TimestampError, match=r"01/02/2026 reads day first .* or month first"
                       r".* keywords named are read_events'; here give times, e\.g\. "
                       r"pd\.to_datetime\(ts, format=\.\.\., utc=True\)"):
        as_events(["01/02/2026 10:00", "03/02/2026 10:00"], [True, False])
    with pytest.raises(TimestampError, match=r"empty or missing timestamp at row 2"):
        as_events(["2026-01-01T00:00:00Z", None], [True, False])
    ev = as_events(["2026-10-25T04:00:00+02:00", "2026-10-25T01:00:00Z"], [True, False])
    assert ev["ts"].tolist() == [pd.Timestamp("2026-10-25T01:00Z"),
                                 pd.Timestamp("2026-10-25T02:00Z")]
    assert ev["ok"].tolist() == [False, True]  # sorted by time, each row keeping its outcome
