"""A bin width said in a message is spelt as every other duration in budgetlab's words
(``5 min``, ``2 h``: ``prose_duration``), never as a compact label (``5m``, ``2h``), which stays
for a value the caller writes (``window=1h``, ``freq='1min'``). Messages checked whole, by hand."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import ConfigError
from budgetlab.windows.bins import read_bins, window_bins

MINUTE_NS = 60 * 10**9


@pytest.mark.parametrize("window, freq_ns, said", [
    ("1h", 7 * MINUTE_NS, "window=1h is not a whole number of bins of 7 min"),
    ("90s", 2 * 60 * MINUTE_NS, "window=1m30s is not a whole number of bins of 2 h"),
])
def test_a_window_not_made_of_whole_bins_says_the_bin_width_in_words(window, freq_ns, said):
    with pytest.raises(ConfigError) as info:
        window_bins(window, freq_ns)
    assert str(info.value) == f"{said}; bin the events with a freq that divides it."


def test_a_freq_other_than_the_grids_says_the_grids_width_in_words():
    ts = pd.date_range("2026-01-01", periods=30, freq="1min")
    grid = read_bins(bl.bin_events(bl.as_events(ts, [True] * 30), freq="5min"))
    with pytest.raises(ConfigError) as info:
        read_bins(grid, freq="1min")
    assert str(info.value) == "freq='1min' differs from the bin width of the BinGrid (5 min)."
