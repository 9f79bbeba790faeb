"""A duration option is one duration with its unit (api54).

pandas adds up the parts of a duration text: ``"1h,6h"`` is 7 h, ``"1,5h"`` (a European 1.5 h)
is 15 h, ``"1h 6h 24h"`` is 31 h, ``"1 30min"`` is 130 min; and budgetlab read a bare number as
seconds (``history=28`` was 28 s). Oracles: the durations worked out by hand in each comment.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab._util.durations import to_timedelta
from budgetlab.errors import ConfigError, InputError
from budgetlab.events.threshold import parse_durations


@pytest.mark.parametrize("text", ["1h,6h", "1h, 6h", "1h,6h,24h", "1h,"])
def test_comma_separated_durations_are_refused(text):
    # pandas read "1h,6h" as 7 h
    with pytest.raises(ConfigError, match=r"^window='1h,.*' is several durations separated by "
                                          r"commas; give one, e.g. window='1h'\.$"):
        bl.SLO(target=0.999, window=text)


def test_a_decimal_comma_is_refused_with_the_point():
    # pandas read "1,5h" as 15 h; the analyst meant 1.5 h
    with pytest.raises(ConfigError, match=r"window='1,5h' has a comma: write a decimal with a "
                                          r"point \('1\.5h'\)"):
        bl.SLO(target=0.999, window="1,5h")


@pytest.mark.parametrize("text", ["1h 6h", "1h 6h 24h", "5min 1h", "1h1h", "30min 1h"])
def test_several_durations_apart_are_refused(text):
    # pandas: 7 h, 31 h, 65 min, 2 h, 90 min; units that do not go down are a list
    with pytest.raises(ConfigError, match=r"is several durations \("):
        to_timedelta(text)


def test_a_number_without_its_unit_before_another_is_refused():
    # pandas read "1 30min" as 130 min
    with pytest.raises(ConfigError, match="has a number without its unit before another"):
        to_timedelta("1 30min")


@pytest.mark.parametrize(("text", "seconds"), [
    ("1h30min", 5400), ("1 h 30 min", 5400), ("1h 30m", 5400), ("1 day 2 hours", 93_600),
    ("1D2h", 93_600), ("1 day, 2:00:00", 93_600), ("1 days 02:00:00", 93_600), ("1.5h", 5400),
])
def test_one_compound_duration_is_read(text, seconds):
    # a compound duration, its units from the largest down, is one: 1 h + 30 min = 5,400 s;
    # 1 d + 2 h = 93,600 s (str(datetime.timedelta) and pandas' own text too)
    assert to_timedelta(text) == pd.Timedelta(seconds=seconds)


def test_list_options_refuse_one_joined_string(tmp_path):
    ts = pd.date_range("2026-01-01", periods=48, freq="1h", tz="UTC")
    ev = bl.as_events(ts, np.arange(48) % 5 != 0)
    with pytest.raises(ConfigError, match=r"^windows='1h,6h,24h' is one string; pass a list: "
                                          r"windows=\['1h', '6h', '24h'\]\.$"):
        bl.compare_windows(ev, bl.SLO(target=0.9, window="1h"), windows="1h,6h,24h")
    bins = bl.bin_events(ev, freq="5min")
    with pytest.raises(ConfigError, match=r"windows=\['5min', '1h'\]"):
        bl.burn_rates(bins, 0.99, windows="5min,1h")
    with pytest.raises(ConfigError, match=r"min_dwell=\['0min', '15min'\]"):
        bl.compare_windows(ev, bl.SLO(target=0.9, window="1h"), windows=["1h"],
                           min_dwell="0min,15min")


def test_a_duration_cell_with_a_comma_is_refused():
    # pandas read the cell "1,5s" as 15 s
    with pytest.raises(InputError, match=r"duration at row 2 \(1-based\) is not one duration "
                                         r"\('1,5s'\)"):
        parse_durations(pd.Series(["350ms", "1,5s", "2s"]), None)
    assert parse_durations(pd.Series(["350ms", "1.5s"]), None).tolist() == [350_000_000,
                                                                           1_500_000_000]


def _states():
    ts = pd.date_range("2026-01-01", periods=100, freq="10min", tz="UTC")
    return bl.replay(bl.as_events(ts, np.arange(100) % 7 != 0), bl.SLO(target=0.9, window="1h"))


@pytest.mark.parametrize(("call", "name", "number"), [
    (lambda: bl.SLO(target=0.9, window=60), "window", "60"),
    (lambda: bl.hysteresis(_states(), 15), "min_dwell", "15"),
    (lambda: bl.status_episodes(bl.status_spans(
        bl.as_events(pd.date_range("2026-01-01", periods=3, freq="1min", tz="UTC"),
                     [True, False, True]), bl.SLO(target=0.9, window="1h")), gap=30),
     "gap", "30"),
    (lambda: bl.AlertPolicy.single_window(3600), "window", "3600"),
    (lambda: bl.SLO(target=0.9, window=1.5), "window", "1.5"),
])
def test_a_bare_number_is_refused_with_its_units(call, name, number):
    # it was read as seconds (min_dwell=15 was 15 s)
    with pytest.raises(ConfigError, match=rf"^{name}={number} has no unit; write one: "
                                          rf"'{number}s' \(seconds\), '{number}min', "
                                          rf"'{number}h' or '{number}D'\.$"):
        call()


def test_recalibrate_history_number_is_refused_before_the_work():
    # history=28 was 28 s: too short for any bootstrap block, which the message then blamed
    ts = pd.date_range("2026-01-01", periods=200, freq="10min", tz="UTC")
    ev = bl.as_events(ts, np.arange(200) % 7 != 0)
    with pytest.raises(ConfigError, match=r"^history=28 has no unit; write one: '28s'"):
        bl.recalibrate(ev, window="1h", history=28)


def test_zero_is_zero_in_any_unit():
    assert to_timedelta(0, name="gap", allow_zero=True) == pd.Timedelta(0)
    assert to_timedelta(0.0, name="gap", allow_zero=True) == pd.Timedelta(0)
    with pytest.raises(ConfigError, match="window=0 is zero"):
        to_timedelta(0)
