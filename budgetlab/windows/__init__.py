"""Windows: group codes, the one trailing-window kernel, calendar periods, time-grid bins."""

from __future__ import annotations

from .bingrid import BinGrid
from .binning import bin_events
from .bins import read_bins, window_bins
from .calendar import calendar_counts, calendar_edges, calendar_period_starts
from .exclusions import Exclusions, exclusion_intervals
from .groups import (
    first_in_group,
    group_codes,
    group_key_codes,
    group_order,
    order_by_codes,
    previous_in_group,
    segment_codes,
)
from .kernels import event_cells
from .trailing import event_window_counts, trailing_counts, window_starts

__all__ = ["BinGrid", "bin_events", "read_bins", "window_bins", "calendar_counts", "calendar_edges",
           "calendar_period_starts", "group_codes", "group_key_codes", "group_order",
           "event_window_counts", "trailing_counts", "window_starts", "first_in_group",
           "order_by_codes", "previous_in_group", "segment_codes", "Exclusions",
           "exclusion_intervals", "event_cells"]
