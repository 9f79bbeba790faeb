"""alert_states' memory refusal counts its tiers, groups and bins in the number each count takes
(it wrote "1 tier(s)", "1 group(s) x 1 bin(s)"). Expected texts written by hand; the byte figure
is groups x bins x (56 B per tier + 24 B per distinct window), the estimate the message states."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab._util.memory import MEMORY_ENV
from budgetlab.alerts.episodes import alert_states
from budgetlab.alerts.policy import AlertPolicy, AlertTier
from budgetlab.errors import ConfigError

FIXES = ("use alert_episodes (the episodes only, sparse), a coarser freq=, fewer groups (by=), "
         "a shorter span (start=/end= in bin_events), or raise the limit "
         f"({MEMORY_ENV}=8GiB, default: half of the physical memory)")


def test_one_tier_one_group_one_bin(one_event_grid, monkeypatch):
    grid, policy = one_event_grid(1, 1), AlertPolicy.single_window("10min", burn=2.0)
    monkeypatch.setenv(MEMORY_ENV, "1B")
    with pytest.raises(ConfigError) as info:
        alert_states(grid, 0.95, policy)
    # 1 x 1 x (56 + 24) B
    assert str(info.value) == ("alert_states of 1 tier (1 group x 1 bin) would need about 80 B, "
                               f"over the memory limit of 1 B; {FIXES}.")


def test_two_tiers_two_groups_three_bins(one_event_grid, monkeypatch):
    tiers = (AlertTier("page_10min", "page", pd.Timedelta("10min"), None, 2.0),
             AlertTier("ticket_1h", "ticket", pd.Timedelta("1h"), None, 1.0))
    grid, policy = one_event_grid(2, 3), AlertPolicy(tiers, period="30D")
    monkeypatch.setenv(MEMORY_ENV, "1B")
    with pytest.raises(ConfigError) as info:
        alert_states(grid, 0.95, policy)
    # 2 x 3 x (2 x 56 + 2 x 24) B = 960 B
    assert str(info.value) == ("alert_states of 2 tiers (2 groups x 3 bins) would need about "
                               f"960 B, over the memory limit of 1 B; {FIXES}.")
