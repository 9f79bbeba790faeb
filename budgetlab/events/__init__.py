"""Events in: readers, the canonical event table, the personal-data guard.

files / DataFrame -> ``read_events`` / ``read_access_log`` -> canonical table (``ts`` UTC, ``ok``,
``bucket``, declared group keys).
"""

from __future__ import annotations

from .accesslog import read_access_log
from .pii import guard_personal_data, hash_values, scan_personal_data
from .read import DEFAULT_OUTCOMES, map_outcomes, read_events
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

__all__ = ["read_access_log", "guard_personal_data", "hash_values", "scan_personal_data", "DEFAULT_OUTCOMES", "map_outcomes", "read_events", "INCIDENT_COLUMNS", "SOLVE_ERROR", "SUCCESS", "TIMEOUT", "as_events", "bucket_dtype", "check_events", "ts_ns"]
