"""One alert tier: a multiwindow burn-rate rule (Google SRE Workbook, ch. 5).

A tier fires at an evaluation time when the burn rate over its long window **and** over its
short window both exceed ``burn`` (strictly, as the PromQL ``burnrate > burn * (1 - target)``
that Sloth and Pyrra generate). A tier without a short window is a single-window rule. ``for_``
is Prometheus's ``for:`` (the condition must hold at every evaluation for that long before the
alert fires); ``cooldown`` is Prometheus's ``keep_firing_for:`` (once firing, the alert resolves
only after the condition has been false for that long). Policies (:mod:`.policy`) OR their tiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import to_timedelta
from ..errors import ConfigError
from ..slo import SLO

__all__ = ["AlertTier", "PAGE_SEVERITIES"]

#: Severities that wake someone (Pyrra calls its paging tiers ``critical``).
PAGE_SEVERITIES = ("page", "critical")


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{what} must be a non-empty string (e.g. 'page').")
    return value.strip()


@dataclass(frozen=True)
class AlertTier:
    """One alert tier: fires when the long- and short-window burn rates both exceed ``burn``.

    Parameters
    ----------
    name : str
        Unique name within the policy (``"page_1h"``).
    severity : str
        ``"page"``, ``"ticket"``, ``"critical"``, ... (free text, used for grouping).
    long_window, short_window : duration
        The two windows; ``short_window=None`` makes a single-window rule.
        ``short_window`` must not exceed ``long_window``.
    burn : float
        Burn-rate threshold (> 0); the condition is ``error_ratio > burn * (1 - target)``.
    for_ : duration
        Prometheus ``for:``; 0 fires at the first evaluation where the condition holds.
    cooldown : duration
        Prometheus ``keep_firing_for:``; 0 resolves at the first evaluation where it fails.

    Examples
    --------
    >>> t = AlertTier("page_1h", "page", "1h", "5min", 14.4)
    >>> t.long_window, t.short_window
    (Timedelta('0 days 01:00:00'), Timedelta('0 days 00:05:00'))
    >>> round(t.budget_fraction("30D"), 4)
    0.02
    """

    name: str
    severity: str
    long_window: Any
    short_window: Any = None
    burn: float = 1.0
    for_: Any = field(default=0)
    cooldown: Any = field(default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _name(self.name, "tier name"))
        object.__setattr__(self, "severity", _name(self.severity, "tier severity"))
        long_w = to_timedelta(self.long_window, name="long_window")
        object.__setattr__(self, "long_window", long_w)
        if self.short_window is not None:
            short_w = to_timedelta(self.short_window, name="short_window")
            if short_w > long_w:
                raise ConfigError(
                    f"tier {self.name!r}: short_window must not exceed long_window (the workbook "
                    "uses long / 12)."
                )
            object.__setattr__(self, "short_window", short_w)
        b = self.burn
        if isinstance(b, bool) or not isinstance(b, (int, float, np.integer,
                                                     np.floating)) or not np.isfinite(b) or b <= 0:
            raise ConfigError(f"tier {self.name!r}: burn must be a positive number (e.g. 14.4).")
        object.__setattr__(self, "burn", float(b))
        object.__setattr__(self, "for_", to_timedelta(self.for_, name="for_", allow_zero=True))
        object.__setattr__(self, "cooldown", to_timedelta(self.cooldown, name="cooldown",
                                                          allow_zero=True))

    @property
    def windows(self) -> tuple[pd.Timedelta, ...]:
        """``(long_window, short_window)``, or ``(long_window,)`` for a single-window rule."""
        if self.short_window is None:
            return (self.long_window,)
        return (self.long_window, self.short_window)

    def budget_fraction(self, period: Any) -> float:
        """Share of a ``period`` budget spent over ``long_window`` at exactly ``burn``."""
        p = to_timedelta(period, name="period")
        return float(self.burn * (self.long_window / p))

    def can_fire(self, target: float | SLO, error_ratio: float) -> bool:
        """Whether a constant ``error_ratio`` ever makes this tier fire: its condition is
        ``error_ratio > burn * (1 - target)``, strictly, with the float operations of
        :func:`budgetlab.alert_episodes` (a tier that needs more than every request failing can
        never fire).

        >>> t = AlertTier("p", "page", "1h", "5min", 14.4)
        >>> t.can_fire(0.999, 0.005), t.can_fire(0.999, 0.02)  # burn 5 < 14.4; burn 20 > 14.4
        (False, True)
        """
        slo = _target_slo(target)
        r = _error_ratio(error_ratio)
        return bool(r > self.burn * slo.error_budget)

    def detection_time(self, target: float | SLO, error_ratio: float) -> pd.Timedelta:
        """Workbook closed form: time from the onset of a constant ``error_ratio`` (after clean
        traffic) until the long window's burn exceeds ``burn``: ``(1 - target) / error_ratio
        * long_window * burn`` (ch. 5, "detection time"). Ignores ``for_`` and the short window.
        ``target`` is a number or an :class:`~budgetlab.SLO`. ``NaT`` when the tier can never
        fire at that error ratio (:meth:`can_fire`).

        >>> AlertTier("p", "page", "1h", "5min", 14.4).detection_time(0.999, 1.0)
        Timedelta('0 days 00:00:51.840000')
        >>> AlertTier("p", "page", "1h", "5min", 14.4).detection_time(0.999, 0.005)  # burn 5 < 14.4
        NaT
        """
        slo = _target_slo(target)
        r = _error_ratio(error_ratio)
        if not self.can_fire(slo, r):
            return pd.Timedelta("NaT")  # pandas' NaT
        seconds = slo.error_budget / r * self.long_window.total_seconds() * self.burn
        return pd.Timedelta(round(seconds * 1e9), unit="ns")


def _target_slo(target: Any) -> SLO:
    return target if isinstance(target, SLO) else SLO(target=target)


def _error_ratio(error_ratio: Any) -> float:
    if isinstance(error_ratio, bool) or not isinstance(error_ratio, (int, float, np.integer,
                                                                     np.floating)) \
            or not (0 < error_ratio <= 1):
        raise ConfigError("error_ratio must lie in (0, 1].")
    return float(error_ratio)

