"""bin_events' memory guard (dense=True) is stated in bytes (issue 15): a grid that would not fit
the budget
is refused before any allocation, with the estimate, the limit and the fixes; the budget comes
from the machine's memory and is overridable with BUDGETLAB_MEMORY_LIMIT."""

from __future__ import annotations

import os
import re

import pandas as pd
import pytest

from budgetlab._util.memory import (
    MEMORY_ENV,
    check_memory,
    memory_limit,
    parse_bytes,
    physical_memory,
)
from budgetlab.errors import ConfigError
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events, check_grid_cells


def _two_events_a_year_apart():
    return as_events(["2026-01-01 00:00", "2027-01-01 00:00"], [True, False], ["success",
                                                                               "timeout"])


def test_a_grid_that_fits_500_million_cells_but_not_the_budget_is_refused(monkeypatch):
    # 1 group x 1-second bins over a year = 31.5 M cells: under the old 500 M-cell cap (accepted
    # before), but 31.5 M x 8 bytes x 16 columns = 4 GiB, over a 1 GiB budget
    monkeypatch.setenv(MEMORY_ENV, "1GiB")
    with pytest.raises(ConfigError) as info:
        bin_events(_two_events_a_year_apart(), "1s", dense=True)
    msg = str(info.value)
    assert "1.0 GiB" in msg and "GiB" in msg.split("about")[1]
    for fix in ("coarser freq", "fewer groups", "shorter span", MEMORY_ENV):
        assert fix in msg


def test_the_estimate_counts_bytes_not_cells(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "100MiB")
    events = _two_events_a_year_apart()
    # 1-hour bins: 8,761 bins, a few hundred KiB -> accepted, with exactly the hand count of bins
    assert len(bin_events(events, "1h", dense=True)) == 365 * 24 + 1
    with pytest.raises(ConfigError, match=r"\(1 group x 31,536,001 bins\)"):
        bin_events(events, "1s", dense=True)
    # the default table holds the non-empty bins only: two rows, whatever the span
    assert bin_events(events, "1s")["total"].tolist() == [1, 1]


def test_the_limit_defaults_to_half_the_physical_memory(monkeypatch):
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert physical_memory() == total
    assert memory_limit() == total // 2
    psutil = pytest.importorskip("psutil",
                                 reason="psutil (test extra) cross-checks the physical memory")
    assert abs(psutil.virtual_memory().total - total) <= 0.01 * total


def test_sizes_parse_in_both_unit_systems():
    assert parse_bytes("8GiB") == 8 * 1024**3
    assert parse_bytes("1.5 GB") == 1_500_000_000
    assert parse_bytes("512mib") == 512 * 1024**2
    assert parse_bytes(4096) == 4096
    for bad in ("", "-1GiB", "8 GiBs", "0", True):
        with pytest.raises(ConfigError):
            parse_bytes(bad)


def test_a_bad_environment_value_is_a_config_error_naming_it(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "plenty")
    with pytest.raises(ConfigError, match=MEMORY_ENV):
        check_grid_cells(1, 10)


def test_check_memory_message_states_estimate_limit_and_fixes():
    with pytest.raises(ConfigError) as info:
        check_memory(3 * 1024**3, "the thing", ["do less"], limit="2GiB")
    assert re.search(r"about 3\.0 GiB, over the memory limit of 2\.0 GiB; do less, or raise the "
                     r"limit",
                     str(info.value))
    check_memory(2 * 1024**3, "the thing", limit="2GiB")  # exactly at the limit is allowed


def test_the_parameter_overrides_the_environment(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "1KiB")
    check_grid_cells(10, 10, memory_limit="1MiB")  # 10 x 10 x 8 x 12 bytes = 9.4 KiB
    with pytest.raises(ConfigError):
        check_grid_cells(10, 10)


def test_ordinary_grids_still_bin(monkeypatch):
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    ev = as_events(
        pd.to_datetime(["2026-01-01 00:00:10", "2026-01-01 00:01:10"], utc=True),
        [True, False],
        ["success", "timeout"],
    )
    assert bin_events(ev, "1min")["total"].tolist() == [1, 1]
