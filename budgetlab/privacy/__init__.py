"""Personal data: the guard that finds it and refuses, drops or hashes it (:mod:`.guard`), the keyed
hash (:mod:`.hashing`), what a message may show of a user or server value (:mod:`.redact`). Used
by every reader and by every message or output that could show a user value."""

from .guard import (
                    KINDS,
                    PII_MODES,
                    guard_personal_data,
                    looks_personal,
                    names_a_person,
                    scan_personal_data,
                    scan_text,
)
from .hashing import hash_values
from .redact import redact, shown
from .values import guard_values

__all__ = ["KINDS", "PII_MODES", "scan_text", "scan_personal_data", "guard_personal_data",
           "guard_values", "hash_values", "names_a_person", "looks_personal", "shown", "redact"]
