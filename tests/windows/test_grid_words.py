"""The bin grid's memory refusals count groups and bins in the number each count takes (they
wrote "1 group(s) x 1 bin(s)"). Expected texts written by hand; each byte figure is groups x bins
x the bytes per cell the message's estimate states (bin grid: 12 int64 columns = 96 B; dense
grid: total and bad = 16 B; dense bins table: 8 columns = 64 B)."""

from __future__ import annotations

import pytest

from budgetlab._util.memory import MEMORY_ENV
from budgetlab.errors import ConfigError
from budgetlab.windows.binning import check_grid_cells

RAISE = f"raise the limit ({MEMORY_ENV}=8GiB, default: half of the physical memory)"
GRID_FIXES = "use a coarser freq=, fewer groups (by=), a shorter span (start=/end=)"


@pytest.mark.parametrize(("groups", "bins", "shape", "need"), [
    (1, 1, "1 group x 1 bin", "96 B"),
    (2, 1440, "2 groups x 1,440 bins", "270.0 KiB"),  # 276,480 B
])
def test_check_grid_cells(groups, bins, shape, need):
    with pytest.raises(ConfigError) as info:
        check_grid_cells(groups, bins, memory_limit=1)
    assert str(info.value) == (f"the bin grid ({shape}) would need about {need}, over the memory "
                               f"limit of 1 B; {GRID_FIXES}, or {RAISE}.")


@pytest.mark.parametrize(("groups", "bins", "shape", "dense_grid", "dense_table"), [
    (1, 1, "1 group x 1 bin", "16 B", "64 B"),
    (3, 2, "3 groups x 2 bins", "96 B", "384 B"),
])
def test_dense_grid_and_table(one_event_grid, monkeypatch, groups, bins, shape, dense_grid,
                              dense_table):
    grid = one_event_grid(groups, bins)
    monkeypatch.setenv(MEMORY_ENV, "1B")
    with pytest.raises(ConfigError) as whole:
        _ = grid.total  # the whole dense grid, made on first use
    assert str(whole.value) == (f"the dense bin grid ({shape}) would need about {dense_grid}, "
                                f"over the memory limit of 1 B; {GRID_FIXES}, or {RAISE}.")
    with pytest.raises(ConfigError) as table:
        grid.to_table(dense=True)
    assert str(table.value) == (f"the dense bins table ({shape}) would need about {dense_table}, "
                                "over the memory limit of 1 B; drop dense=True, use a coarser "
                                f"freq=, fewer groups (by=), or {RAISE}.")
