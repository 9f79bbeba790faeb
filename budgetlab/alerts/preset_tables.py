"""The presets' tables and their arithmetic: the Workbook's budget fractions, Sloth's and Pyrra's
windows (sources in :mod:`budgetlab.alerts.policy`), Go's rounding to the minute, Pyrra's
scaling."""

from __future__ import annotations

import pandas as pd

from .._util.units import MINUTE_NS

__all__ = ["PYRRA_DIVISORS", "SLOTH_WINDOWS", "WORKBOOK_BUDGET_FRACTIONS", "WORKBOOK_PERIOD",
           "clean_burn", "round_minute", "scale_window"]

#: (budget fraction, long window, severity) of the workbook's recommended tiers.
WORKBOOK_BUDGET_FRACTIONS: tuple[tuple[float, str, str], ...] = (
    (0.02, "1h", "page"),
    (0.05, "6h", "page"),
    (0.10, "1D", "ticket"),
    (0.10, "3D", "ticket"),
)

#: The budget period the Workbook's burn factors are defined for.
WORKBOOK_PERIOD = pd.Timedelta("30D")


def round_minute(ns: int) -> pd.Timedelta:
    """``ns`` rounded to the whole minute, halves away from zero (Go's ``Duration.Round``)."""
    q, r = divmod(int(ns), MINUTE_NS)
    if 2 * r >= MINUTE_NS:
        q += 1
    return pd.Timedelta(q * MINUTE_NS, unit="ns")


def scale_window(window: pd.Timedelta, period: pd.Timedelta, own: pd.Timedelta) -> pd.Timedelta:
    """A preset's window for another budget period: ``window * period / own`` (exact integer
    arithmetic), rounded to the minute (Pyrra's rule)."""
    return round_minute(int(window.value) * int(period.value) // int(own.value))


def clean_burn(x: float) -> float:
    """Round away float noise from derived factors (0.02 * 720 -> 14.4)."""
    return float(round(x, 10))


#: Sloth's ``google-30d.yaml`` / ``google-28d.yaml``: (name, severity, budget fraction, long
#: window, short window).
SLOTH_WINDOWS = (("page_quick", "page", 0.02, "1h", "5min"), ("page_slow", "page", 0.05, "6h",
                                                              "30min"),
                 ("ticket_quick", "ticket", 0.10, "1D", "2h"), ("ticket_slow", "ticket", 0.10, "3D",
                                                                "6h"))

#: Pyrra's ``Windows()`` (``slo/rules.go``): (severity, ``for`` divisor, long divisor, short
# divisor,
#: factor); each duration is ``period / divisor``, rounded to the minute.
PYRRA_DIVISORS = (("critical", 28 * 24 * 30, 28 * 24, 28 * 24 * 12, 14.0),
                  ("critical", 28 * 24 * 4, 28 * 4, 28 * 24 * 2, 7.0),
                  ("warning", 28 * 24, 28, 28 * 12, 2.0),
                  ("warning", 28 * 8, 7, 28 * 4, 1.0))
