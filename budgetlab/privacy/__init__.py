"""Personal data: what looks like it (:mod:`.detect`), the guard that refuses, drops or hashes
it (:mod:`.guard`, :mod:`.hashing`) and what a message may show (:mod:`.redact`).

Used by every reader (:mod:`budgetlab.events`, the Dask twin, :mod:`budgetlab.interop`, incident
files, datasets) and by every message or output that could show a user value (CLI, alerts,
exports).
"""

from .detect import KINDS, scan_text
from .guard import (
                    PERSON_WORDS,
                    PII_MODES,
                    describe_findings,
                    guard_personal_data,
                    guard_values,
                    names_a_person,
                    scan_personal_data,
)
from .hashing import hash_values
from .redact import looks_personal, redact, shown

__all__ = ["KINDS", "PII_MODES", "PERSON_WORDS", "scan_text", "scan_personal_data",
           "guard_personal_data", "guard_values", "describe_findings", "hash_values",
           "names_a_person", "looks_personal", "shown", "redact"]
