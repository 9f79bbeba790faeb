"""Messages of budgetlab.budget count their nouns in the number the count takes (they wrote
"1 window(s)", "1 group(s) x 1 bin(s)", "unknown figure column(s)"). Expected texts written by
hand; the byte figure is groups x bins x windows x the 150 B a dense row takes (the estimate the
message states)."""

from __future__ import annotations

import numpy as np
import pytest

from budgetlab._util.memory import MEMORY_ENV
from budgetlab.budget.burn import burn_rates
from budgetlab.budget.figures import seed_figures
from budgetlab.errors import ConfigError

FIXES = ("drop fill= (the sparse table: rows where a window holds traffic), use a coarser freq=, "
         "fewer windows, burn_rate_chunks() (the table a chunk of groups at a time), "
         "budgetlab.scaleout (Dask) to bin histories larger than memory, or raise the limit "
         f"({MEMORY_ENV}=8GiB, default: half of the physical memory)")


@pytest.mark.parametrize(("groups", "windows", "said"), [
    (1, ["1min"], "of 1 window (1 group x 2 bins) would need about 300 B"),
    (2, ["1min", "2min"], "of 2 windows (2 groups x 2 bins) would need about 1.2 KiB"),  # 1,200 B
])
def test_the_dense_burn_rate_table_counts_windows_groups_and_bins(one_event_grid, monkeypatch,
                                                                  groups, windows, said):
    grid = one_event_grid(groups, 2)
    monkeypatch.setenv(MEMORY_ENV, "1B")
    with pytest.raises(ConfigError) as info:
        burn_rates(grid, 0.95, windows, fill=0.0)
    assert str(info.value) == (f"the dense burn-rate table {said}, over the memory limit of 1 B; "
                               f"{FIXES}.")


def test_unknown_figure_columns_are_counted():
    one, two = np.array([20]), np.array([1])
    with pytest.raises(ValueError) as single:
        seed_figures(one, two, 0.95, columns=["burn"])
    assert str(single.value) == "unknown figure column: ['burn']"
    with pytest.raises(ValueError) as several:
        seed_figures(one, two, 0.95, columns=["rate", "burn", "burn_rate"])
    assert str(several.value) == "unknown figure columns: ['burn', 'rate']"
