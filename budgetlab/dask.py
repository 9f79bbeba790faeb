"""``budgetlab.dask``: the Dask twins of :mod:`budgetlab.scaleout` under the name of the library
they run on (``import budgetlab.dask as bd`` and ``import budgetlab.scaleout as bd`` are the same API)."""

from __future__ import annotations

from .scaleout import EVENT_ID, ROW_BITS, bin_events, read_events, replay, transitions

__all__ = ["read_events", "bin_events", "replay", "transitions", "EVENT_ID", "ROW_BITS"]
