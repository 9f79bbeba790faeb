"""Events in: readers, the canonical event table, the personal-data guard.

files / DataFrame -> ``read_events`` / ``read_access_log`` -> canonical table (``ts`` UTC, ``ok``,
``bucket``, declared group keys), with ``attrs["how_read"]`` (a :class:`HowRead`) saying how.
"""

from __future__ import annotations

from ..privacy import guard_personal_data, hash_values, scan_personal_data
from .accesslog import is_access_log, read_access_log
from .files import expand_sources
from .how_read import HowRead, LabelReading
from .outcomes import classify_outcomes, map_outcomes
from .read import read_events
from .schema import (
    INCIDENT_COLUMNS,
    SKIP,
    SOLVE_ERROR,
    SUCCESS,
    TIMEOUT,
    as_events,
    bucket_dtype,
    check_events,
    ts_ns,
)
from .spec import ReadSpec
from .vocabulary import DEFAULT_OUTCOMES, normalize_label

__all__ = ["read_events", "ReadSpec", "read_access_log", "is_access_log", "expand_sources",
           "DEFAULT_OUTCOMES", "SKIP", "classify_outcomes", "map_outcomes", "normalize_label",
           "HowRead", "LabelReading", "guard_personal_data", "hash_values", "scan_personal_data",
           "INCIDENT_COLUMNS", "SOLVE_ERROR", "SUCCESS", "TIMEOUT", "as_events", "bucket_dtype",
           "check_events", "ts_ns"]
