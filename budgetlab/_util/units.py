"""Time units in integer nanoseconds (the canonical table's unit), defined once for the package.

A day here is 24 h (UTC days, rates per day); calendar days in a time zone, which DST can make
23 or 25 h long, are :mod:`budgetlab.windows.calendar`'s.

Also the one default duration both the OpenSLO writer (:mod:`budgetlab.interop.openslo.build`)
and ``budgetlab export`` state: :data:`DEFAULT_WINDOW`. It lives here because the command line
must name it without importing pandas.
"""

from __future__ import annotations

__all__ = ["DAY_NS", "HOUR_NS", "MINUTE_NS", "SECOND_NS", "DEFAULT_WINDOW"]

SECOND_NS = 10**9  #: a second in ns
MINUTE_NS = 60 * SECOND_NS  #: a minute in ns
HOUR_NS = 60 * MINUTE_NS  #: an hour in ns
DAY_NS = 24 * HOUR_NS  #: a day of 24 h in ns

#: The tracker window written for an OpenSLO SLO that does not say its own (from flags without
#: --window, or a recalibration table without a window column).
DEFAULT_WINDOW = "28d"
