"""``budgetlab.dask``: the name the Dask twins had before they moved to :mod:`budgetlab.scaleout`."""

from __future__ import annotations

from .scaleout import EVENT_ID, ROW_BITS, bin_events, read_events, replay, transitions

__all__ = ["read_events", "bin_events", "replay", "transitions", "EVENT_ID", "ROW_BITS"]
