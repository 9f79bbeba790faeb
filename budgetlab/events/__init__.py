"""Events in: readers, the canonical event table, the personal-data guard.

files / DataFrame -> ``read_events`` / ``read_access_log`` -> canonical table (``ts`` UTC, ``ok``,
``bucket``, declared group keys).
"""

from __future__ import annotations

from .accesslog import read_access_log
from .outcomes import DEFAULT_OUTCOMES, map_outcomes
from .pii import guard_personal_data, hash_values, scan_personal_data
from .read import read_events
from .schema import (
    INCIDENT_COLUMNS,
    SOLVE_ERROR,
    SUCCESS,
    TIMEOUT,
    as_events,
    bucket_dtype,
    check_events,
    ts_ns,
)

__all__ = [
    "read_events",
    "read_access_log",
    "DEFAULT_OUTCOMES",
    "map_outcomes",
    "guard_personal_data",
    "hash_values",
    "scan_personal_data",
    "INCIDENT_COLUMNS",
    "SOLVE_ERROR",
    "SUCCESS",
    "TIMEOUT",
    "as_events",
    "bucket_dtype",
    "check_events",
    "ts_ns",
]
