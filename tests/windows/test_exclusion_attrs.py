"""A table whose counts leave something out says so in ``attrs``: the bins table of
``bin_events`` names its exclusions and the SRE-model tables made of it carry them on, those given
to the function itself listed after. The oracle: a log written out by hand, its counts with and
without the exclusions counted here by hand, and the attrs written out by hand."""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

import budgetlab as bl

T0 = pd.Timestamp("2026-01-01 10:00", tz="UTC")


def _events() -> pd.DataFrame:
    # 180 events, one a minute 10:00 .. 12:59, group "a": a timeout at minutes 0, 10, ..., 170
    # (18), a solve_error at minutes 5, 15, ..., 175 (18), the other 144 successes
    ts = pd.date_range(T0, periods=180, freq="1min")
    bucket = ["timeout" if i % 10 == 0 else "solve_error" if i % 10 == 5 else "success"
              for i in range(180)]
    return bl.as_events(ts, [b == "success" for b in bucket], bucket,
                        groups={"g": ["a"] * 180})


WINDOW = [("2026-01-01 10:30", "2026-01-01 11:30")]
WINDOW_TEXT = [["2026-01-01T10:30:00+00:00", "2026-01-01T11:30:00+00:00"]]


def _budget(bins: pd.DataFrame, **options) -> pd.DataFrame:
    with warnings.catch_warnings():  # 3 h of a 30-day period: every row partial, said apart
        warnings.simplefilter("ignore", bl.errors.PartialWindowWarning)
        return bl.period_budget(bins, 0.97, **options)


def test_event_exact_exclusions_are_named_in_the_bins_and_the_budget():
    plain = bl.bin_events(_events(), "1h", by="g")
    cut = bl.bin_events(_events(), "1h", by="g", exclude_windows=WINDOW,
                        exclude_buckets="timeout")
    # by hand: 10:30 .. 11:29 holds 60 events (6 timeouts, 6 solve errors); outside it 120, of
    # which 12 timeouts (left out) and 12 solve errors: 108 events, 12 bad
    assert (int(plain["total"].sum()), int(plain["bad"].sum())) == (180, 36)
    assert (int(cut["total"].sum()), int(cut["bad"].sum())) == (108, 12)
    named = {"exclude_buckets": ["timeout"], "exclude_windows": WINDOW_TEXT,
             "exclude_mode": "drop"}
    assert plain.attrs == {"freq": "1h", "by": ["g"]}
    assert cut.attrs == {"freq": "1h", "by": ["g"], **named}
    last = _budget(cut).iloc[-1]
    assert (int(last["events"]), int(last["bad"])) == (108, 12)
    pb = _budget(cut)
    assert {k: pb.attrs[k] for k in named} == named
    assert not set(named) & set(_budget(plain).attrs)  # nothing left out: no key
    rates = bl.burn_rates(cut, 0.97, ["1h"])
    assert {k: rates.attrs[k] for k in named} == named
    assert json.loads(json.dumps(pb.attrs)) == pb.attrs


def test_exclusions_given_to_period_budget_are_named():
    # at bin resolution: the window 11:00 .. 12:00 empties the bin of 11:00 (60 events, 6
    # timeouts, 6 solve errors): 120 events, 24 bad
    pb = _budget(bl.bin_events(_events(), "1h", by="g"),
                 exclude_windows=[("2026-01-01 11:00", "2026-01-01 12:00")])
    last = pb.iloc[-1]
    assert (int(last["events"]), int(last["bad"])) == (120, 24)
    assert pb.attrs["exclude_windows"] == [["2026-01-01T11:00:00+00:00",
                                            "2026-01-01T12:00:00+00:00"]]
    assert pb.attrs["exclude_mode"] == "drop"
    assert "exclude_buckets" not in pb.attrs


def test_exclusions_of_the_bins_come_first_then_the_functions_own():
    cut = bl.bin_events(_events(), "1h", by="g", exclude_windows=WINDOW,
                        exclude_buckets="timeout")
    # the bin of 12:00 counted as good: its 6 solve errors (12:05 .. 12:55) no longer bad;
    # 108 events, 12 - 6 = 6 bad
    pb = _budget(cut, exclude_windows=[("2026-01-01 12:00", "2026-01-01 13:00")],
                 exclude_mode="good")
    last = pb.iloc[-1]
    assert (int(last["events"]), int(last["bad"])) == (108, 6)
    assert pb.attrs["exclude_buckets"] == ["timeout"]
    assert pb.attrs["exclude_windows"] == [*WINDOW_TEXT, ["2026-01-01T12:00:00+00:00",
                                                          "2026-01-01T13:00:00+00:00"]]
    assert pb.attrs["exclude_mode"] == ["drop", "good"]


def test_dask_bins_name_their_exclusions_too():
    dd = pytest.importorskip("dask.dataframe")
    from budgetlab.dask import bin_events

    ev = dd.from_pandas(_events(), npartitions=2)
    cut = bin_events(ev, "1h", by="g", exclude_windows=WINDOW, exclude_buckets="timeout")
    assert (int(cut["total"].sum()), int(cut["bad"].sum())) == (108, 12)
    assert cut.attrs == {"freq": "1h", "by": ["g"], "exclude_buckets": ["timeout"],
                         "exclude_windows": WINDOW_TEXT, "exclude_mode": "drop"}
