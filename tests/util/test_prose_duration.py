"""prose_duration says a given window or period exactly (it printed a 3601 s window as
"1.00 h"): the words read back to the very duration given. duration_words, for elapsed times,
truncates past its two largest units and says so. Expected strings are written by hand."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab._util.words import duration_words, prose_duration

SECOND = 10**9
UNIT_NS = {"d": 86_400 * SECOND, "h": 3_600 * SECOND, "min": 60 * SECOND, "s": SECOND,
           "ms": SECOND // 1000, "us": SECOND // 10**6, "ns": 1}


@pytest.mark.parametrize(("given_", "said"), [
    ("3600s", "1 h"),
    ("3601s", "3,601 s"),  # 1 h 1 s: no unit but the second holds it whole
    ("90min", "90 min"),
    ("1D6h", "30 h"),  # 1 d 6 h: a whole number of hours, not of days
    ("0.5s", "500 ms"),  # below a second in ms (a 40 ms threshold was "0.04 s")
    ("1D", "24 h"), ("2D", "2 d"), ("30D", "30 d"),
    ("210min", "3.5 h"), ("150min", "2.5 h"),  # half hours above two hours
    ("61min", "61 min"),
    # from two hours up, whole minutes in their parts (alerts printed "ticket after 1008 min"
    # for the Workbook's 3 d window at 7 d: 3 d x 7 / 30 = 16.8 h)
    ("1008min", "16 h 48 min"), ("121min", "2 h 1 min"), ("30D61min", "30 d 1 h 1 min"),
    ("30D1s", "2,592,001 s"),  # 30 x 86,400 + 1
    ("1h1ns", "3,600.000000001 s"),
    ("1ms", "1 ms"), ("1.5ms", "1.5 ms"), ("500us", "500 us"), ("7ns", "7 ns"),
])
def test_a_given_duration_is_said_exactly(given_, said):
    assert prose_duration(given_) == said


def _read_back(words: str) -> int:
    parts = words.split(" ")  # "16 h 48 min": number, unit, number, unit
    # "1,000 d": thousands separated, as every count in the text
    return sum(int(Decimal(n.replace(",", "")) * UNIT_NS[u])
               for n, u in zip(parts[::2], parts[1::2], strict=True))


@given(st.one_of(
    st.integers(1, 400 * UNIT_NS["d"]),  # any length up to 400 days, to the nanosecond
    *(st.integers(1, 10**5).map(lambda k, u=u: k * u)  # whole units, which take their own words
      for u in (UNIT_NS["d"], UNIT_NS["h"], UNIT_NS["h"] // 2, UNIT_NS["min"], SECOND))))
def test_the_words_read_back_to_the_duration_given(ns):
    assert _read_back(prose_duration(pd.Timedelta(ns, unit="ns"))) == ns


def test_no_duration_is_refused_not_printed_as_nan():
    with pytest.raises(ValueError, match="NaT"):
        prose_duration(pd.NaT)


def test_an_elapsed_time_is_truncated_to_its_two_largest_units():
    # 6 h 10 min 59 s elapsed: "6 h 10 min" (the 59 s dropped, not rounded up to 6 h 11 min)
    assert duration_words("6h10min59s") == "6 h 10 min"
    assert duration_words("2D23h59min59s") == "2 d 23 h"
    assert duration_words("59min59.999s") == "59 min 59 s"


def test_a_budget_period_is_said_exactly_in_the_withheld_note():
    # a period of 30 d 1 h 1 min over bins spanning 4 d: said in its three parts, never
    # "30 d 1 h" (two units, the minute dropped: "read at least 30 d 1 h" was too little) nor
    # "43261 min" (30 x 1440 + 61)
    from budgetlab.alerts.score_inputs import budget_before_alert_note

    period_ns = (30 * 1440 + 61) * UNIT_NS["min"]
    text = budget_before_alert_note(np.array([float(period_ns)]), 4 * UNIT_NS["d"], 1)
    assert text == ("budget_before_alert withheld: the bins span 4 d, less than the 30 d 1 h 1 "
                    "min budget period, and a share of the 30 d 1 h 1 min budget needs a whole "
                    "period of traffic (4 d would be scaled to 30 d 1 h 1 min); read at least 30 d "
                    "1 h 1 min.")


def test_a_long_window_and_a_hysteresis_are_said_exactly():
    from budgetlab.analyses.choices.window_pairs import window_name
    from budgetlab.cli.score_filling import filling_notes

    # a tier's long window of 1 d 1 s (86,401 s) that never filled in a 1 d log
    ep = pd.DataFrame(columns=["tier"])
    ep.attrs.update(grid_start=pd.Timestamp("2026-01-05", tz="UTC"),
                    grid_end=pd.Timestamp("2026-01-06", tz="UTC"),
                    tier_windows={"ticket": 86_401 * SECOND})
    rows = pd.DataFrame({"tier": ["ticket"], "severity": ["ticket"], "episodes_filling": [0],
                         "true_episodes_filling": [0], "incidents_filling": [1]})
    assert filling_notes(rows, ep) == ["ticket's long window (86,401 s) never filled: the log is "
                                       "1 d long; 1 incident began then: not scored for this "
                                       "tier."]
    # a dwell (hysteresis) of 61 min 30 s given: 3690 s, not "1 h 1 min"
    row = pd.Series({"window": "1h", "min_dwell": pd.Timedelta("61min30s")})
    assert window_name(row) == "the 1 h window with 3,690 s of hysteresis"
