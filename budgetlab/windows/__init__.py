"""Windows: group codes, the one trailing-window kernel, calendar periods, time-grid bins."""

from __future__ import annotations

from .bins import BinGrid, bin_events, read_bins, window_bins
from .calendar import calendar_counts, calendar_edges, calendar_period_starts
from .groups import group_codes, group_key_codes, group_order
from .trailing import event_window_counts, trailing_counts

__all__ = ["BinGrid", "bin_events", "read_bins", "window_bins", "calendar_counts", "calendar_edges", "calendar_period_starts", "group_codes", "group_key_codes", "group_order", "event_window_counts", "trailing_counts"]
