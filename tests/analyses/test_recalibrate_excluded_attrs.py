"""recalibrate(..., exclude_incidents=) records what it left out in every table's attrs (JSON):
how many labelled incidents left out evaluated time (and how many were given), the first counted
one's start and the last counted one's end. Written out by hand
from the incidents given here."""

from __future__ import annotations

import json

import pandas as pd

from budgetlab import SLO, as_events, recalibrate


def events() -> pd.DataFrame:
    """One event a minute over three days, every 20th failing."""
    ts = pd.date_range("2026-01-01", periods=3 * 1440, freq="1min")
    return as_events(ts, [i % 20 != 0 for i in range(len(ts))])


def test_the_excluded_incidents_are_in_every_tables_attrs():
    # given out of order: the span runs from the earliest start to the latest end
    inc = pd.DataFrame({"start": pd.to_datetime(["2026-01-02 05:00", "2026-01-01 12:00",
                                                 "2026-01-02 20:00"], utc=True),
                        "end": pd.to_datetime(["2026-01-02 06:30", "2026-01-01 13:00",
                                               "2026-01-02 21:15"], utc=True)})
    r = recalibrate(events(), slo=SLO(target=0.9, window="1h"), n_boot=0,
                    exclude_incidents=inc)
    # all three leave out evaluated time: each is counted
    want = {"count": 3, "given": 3, "rows": [0, 1, 2], "start": "2026-01-01T12:00:00+00:00",
            "end": "2026-01-02T21:15:00+00:00"}
    for table in (r.summary, r.candidates, r.distribution, r.bootstrap):
        assert table.attrs["exclude_incidents"] == want
        assert json.loads(json.dumps(table.attrs))["exclude_incidents"] == want
    assert r.settings["exclude_incidents"]["count"] == 3


def test_none_given_none_recorded_and_an_empty_table_counts_zero():
    none = recalibrate(events(), slo=SLO(target=0.9, window="1h"), n_boot=0)
    assert "exclude_incidents" in none.summary.attrs
    assert none.summary.attrs["exclude_incidents"] is None
    empty = pd.DataFrame({"start": pd.Series([], dtype="datetime64[ns, UTC]"),
                          "end": pd.Series([], dtype="datetime64[ns, UTC]")})
    r = recalibrate(events(), slo=SLO(target=0.9, window="1h"), n_boot=0,
                    exclude_incidents=empty)
    assert r.summary.attrs["exclude_incidents"] == {"count": 0, "given": 0, "rows": [],
                                                    "start": None, "end": None}
