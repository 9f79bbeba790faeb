"""The SLO configuration shared by every function: one frozen, validated dataclass."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._util.validation import check_fraction, to_timedelta
from .errors import ConfigError

__all__ = ["SLO", "as_slo"]


@dataclass(frozen=True)
class SLO:
    """A success-rate objective over a trailing window, with the seed tracker's thresholds.

    Parameters
    ----------
    target : float
        Target success rate, strictly between 0 and 1 (``0.95`` = 95 %).
    window : str, pandas.Timedelta or float
        Trailing window: an offset string (``"90min"``, ``"24h"``, ``"7D"``), a Timedelta,
        or seconds. Stored as a :class:`pandas.Timedelta`.
    warning, critical : float
        Status thresholds on the remaining budget fraction: ``warning`` when it drops strictly
        below ``warning``, ``critical`` strictly below ``critical``; ``0 <= critical < warning <= 1``.
    min_events : int
        While the window holds fewer events, the status keeps its previous value and no
        transition fires (the seed's advice). ``0`` reproduces the seed exactly.
    period : str, pandas.Timedelta or float
        The SRE model's budget (compliance) period, apart from the tracker's rolling
        ``window``: default 30 days. The tracker (``replay``, ``Tracker``) never reads it; in
        OpenSLO files it is ``timeWindow`` and ``window`` travels in an annotation.

    Examples
    --------
    >>> slo = SLO(target=0.95, window="24h")
    >>> slo.window
    Timedelta('1 days 00:00:00')
    >>> slo.period  # the SRE budget period, apart from the tracker window
    Timedelta('30 days 00:00:00')
    >>> slo.error_budget
    0.050000000000000044
    >>> SLO(target=1.2)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: target=1.2 must lie in (0, 1).
    """

    target: float = 0.95
    window: Any = field(default="24h")
    warning: float = 0.5
    critical: float = 0.1
    min_events: int = 0
    period: Any = field(default="30D")

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", check_fraction("target", self.target, low_open=True, high_open=True))
        object.__setattr__(self, "window", to_timedelta(self.window, name="window"))
        warning = check_fraction("warning", self.warning, low_open=False, high_open=False)
        critical = check_fraction("critical", self.critical, low_open=False, high_open=False)
        if not critical < warning:
            raise ConfigError(
                f"critical={critical!r} must be below warning={warning!r} (e.g. critical=0.1, warning=0.5)."
            )
        object.__setattr__(self, "warning", warning)
        object.__setattr__(self, "critical", critical)
        if isinstance(self.min_events, bool) or not isinstance(self.min_events, (int, np.integer)) or self.min_events < 0:
            raise ConfigError(f"min_events={self.min_events!r} must be a whole number >= 0.")
        object.__setattr__(self, "min_events", int(self.min_events))
        object.__setattr__(self, "period", to_timedelta(self.period, name="period"))

    @property
    def error_budget(self) -> float:
        """Allowed failure ratio ``1 - target``, computed as the seed computes it."""
        return 1 - self.target

    @property
    def window_ns(self) -> int:
        """The window in integer nanoseconds."""
        return int(pd.Timedelta(self.window).value)

    def with_(self, **changes: Any) -> SLO:
        """A copy with some fields changed (validated again).

        >>> SLO(target=0.95).with_(window="1h").window
        Timedelta('0 days 01:00:00')
        """
        return dataclasses.replace(self, **changes)


def as_slo(slo: Any) -> SLO:
    """``slo`` if it is an :class:`SLO`, else :class:`ConfigError` with an example."""
    if not isinstance(slo, SLO):
        raise ConfigError("slo must be a budgetlab.SLO, e.g. SLO(target=0.95, window='24h').")
    return slo
