"""Alert policies: multiwindow, multi-burn-rate tiers (Google SRE Workbook, ch. 5) and presets.

A tier fires at an evaluation time when the burn rate over its long window **and** over its
short window both exceed ``burn`` (strictly, as the PromQL ``burnrate > burn * (1 - target)``
that Sloth and Pyrra generate). A tier without a short window is a single-window rule. Tiers
are OR-ed: each tier is its own alert. ``for_`` is Prometheus's ``for:`` (the condition must hold
at every evaluation for that long before the alert fires); ``cooldown`` is Prometheus's
``keep_firing_for:`` (once firing, the alert resolves only after the condition has been false
for that long).

Presets and their sources:

* :meth:`AlertPolicy.workbook`: the workbook's recommended parameters (table "Recommended
  parameters for an SLO-based alerting": page 2 % of the budget in 1 h and 5 % in 6 h, ticket
  10 % in 1 d and 10 % in 3 d, short window = long / 12): burns 14.4, 6, 3, 1 at 30 d.

**Presets keep their meaning.** The SRE budget period is :attr:`budgetlab.SLO.period` (default
30 days), never the tracker's rolling ``window``. For a period other than the preset's own (30 d
for the Workbook), :meth:`AlertPolicy.workbook` follows **Pyrra's rule**: the burn factors stay
14.4, 6, 3, 1 and every window is scaled by ``period / 30 d`` (rounded to the minute, as Pyrra
does); a period too short for that (a window would round to nothing) is refused with a message
naming the choices. No preset ever makes a page tier with a burn below 1. Budget fractions at
another period (Sloth's 28 d table, burns 13.44, 5.6, 2.8, 0.93) are built explicitly with
:meth:`AlertPolicy.from_budget_fractions` or :meth:`AlertPolicy.sloth`.
* :meth:`AlertPolicy.sloth`: Sloth's default alert windows, ``internal/alert/windows/google-30d.yaml``
  and ``google-28d.yaml`` in slok/sloth (same windows and budget percents; burn = percent ×
  period / long window, so 13.44, 5.6, 2.8, 0.933 at 28 d). Sloth's rules have no ``for:``.
* :meth:`AlertPolicy.pyrra`: Pyrra's ``Windows()`` in ``slo/rules.go`` of pyrra-dev/pyrra: factors
  14, 7, 2, 1, windows scaled from the 28 d table (1 h/5 m for 2 m, 6 h/30 m for 15 m,
  1 d/2 h for 1 h, 4 d/6 h for 3 h), each duration ``period / n`` rounded to the minute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import to_timedelta
from ..errors import ConfigError
from ..slo import SLO
from ..windows.bins import duration_label

__all__ = ["AlertTier", "AlertPolicy", "WORKBOOK_BUDGET_FRACTIONS", "WORKBOOK_PERIOD", "PRESET_NAMES", "as_policy"]

#: (budget fraction, long window, severity) of the workbook's recommended tiers.
WORKBOOK_BUDGET_FRACTIONS: tuple[tuple[float, str, str], ...] = (
    (0.02, "1h", "page"),
    (0.05, "6h", "page"),
    (0.10, "1D", "ticket"),
    (0.10, "3D", "ticket"),
)

_MINUTE_NS = 60 * 10**9
#: The budget period the Workbook's burn factors are defined for.
WORKBOOK_PERIOD = pd.Timedelta("30D")


def _round_minute(ns: int) -> pd.Timedelta:
    """``ns`` rounded to the whole minute, halves away from zero (Go's ``Duration.Round``)."""
    q, r = divmod(int(ns), _MINUTE_NS)
    if 2 * r >= _MINUTE_NS:
        q += 1
    return pd.Timedelta(q * _MINUTE_NS, unit="ns")


def _scale_window(window: pd.Timedelta, period: pd.Timedelta, own: pd.Timedelta) -> pd.Timedelta:
    """A preset's window for another budget period: ``window * period / own`` (exact integer
    arithmetic), rounded to the minute (Pyrra's rule)."""
    return _round_minute(int(window.value) * int(period.value) // int(own.value))


def _clean_burn(x: float) -> float:
    """Round away float noise from derived factors (0.02 * 720 -> 14.4)."""
    return float(round(x, 10))


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
                    f"tier {self.name!r}: short_window must not exceed long_window (the workbook uses long / 12)."
                )
            object.__setattr__(self, "short_window", short_w)
        b = self.burn
        if isinstance(b, bool) or not isinstance(b, (int, float, np.integer, np.floating)) or not np.isfinite(b) or b <= 0:
            raise ConfigError(f"tier {self.name!r}: burn must be a positive number (e.g. 14.4).")
        object.__setattr__(self, "burn", float(b))
        object.__setattr__(self, "for_", to_timedelta(self.for_, name="for_", allow_zero=True))
        object.__setattr__(self, "cooldown", to_timedelta(self.cooldown, name="cooldown", allow_zero=True))

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
    if isinstance(error_ratio, bool) or not isinstance(error_ratio, (int, float, np.integer, np.floating)) \
            or not (0 < error_ratio <= 1):
        raise ConfigError("error_ratio must lie in (0, 1].")
    return float(error_ratio)


def _as_tier(item: Any) -> AlertTier:
    if isinstance(item, AlertTier):
        return item
    if isinstance(item, dict):
        return AlertTier(**item)
    if isinstance(item, (tuple, list)):
        return AlertTier(*item)
    raise ConfigError("tiers must be AlertTier objects, dicts or (name, severity, long, short, burn) tuples.")


@dataclass(frozen=True)
class AlertPolicy:
    """A set of OR-ed alert tiers over a compliance ``period``.

    Parameters
    ----------
    tiers : sequence of AlertTier (or tuples / dicts of its fields)
        At least one; names unique.
    period : duration
        Compliance period the burn factors refer to (``"30D"``, ``"28D"``).
    name : str
        Optional label.

    Examples
    --------
    >>> p = AlertPolicy.workbook()
    >>> [(t.name, t.severity, duration_label(t.long_window), duration_label(t.short_window), t.burn)
    ...  for t in p.tiers]  # doctest: +NORMALIZE_WHITESPACE
    [('page_1h', 'page', '1h', '5m', 14.4), ('page_6h', 'page', '6h', '30m', 6.0),
     ('ticket_1d', 'ticket', '1d', '2h', 3.0), ('ticket_3d', 'ticket', '3d', '6h', 1.0)]
    >>> AlertPolicy.workbook().tiers == AlertPolicy.from_budget_fractions().tiers
    True
    """

    tiers: tuple[AlertTier, ...]
    period: Any = "30D"
    name: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.tiers, (AlertTier, str)) or not isinstance(self.tiers, Sequence):
            raise ConfigError("tiers must be a sequence of AlertTier.")
        tiers = tuple(_as_tier(t) for t in self.tiers)
        if not tiers:
            raise ConfigError("an AlertPolicy needs at least one tier.")
        names = [t.name for t in tiers]
        if len(set(names)) != len(names):
            raise ConfigError("tier names must be unique within a policy.")
        object.__setattr__(self, "tiers", tiers)
        object.__setattr__(self, "period", to_timedelta(self.period, name="period"))
        if not isinstance(self.name, str):
            raise ConfigError("policy name must be a string.")

    @property
    def windows(self) -> tuple[pd.Timedelta, ...]:
        """Every distinct window the tiers use, shortest first."""
        return tuple(sorted({w for t in self.tiers for w in t.windows}))

    def tier(self, name: str) -> AlertTier:
        """The tier called ``name``."""
        for t in self.tiers:
            if t.name == name:
                return t
        raise ConfigError(f"no tier named {name!r}; tiers: {', '.join(t.name for t in self.tiers)}.")

    # ----- constructors -------------------------------------------------------------------
    @classmethod
    def from_budget_fractions(
        cls,
        fractions: Sequence[tuple[Any, ...]] = WORKBOOK_BUDGET_FRACTIONS,
        *,
        period: Any = "30D",
        short_divisor: int = 12,
        for_: Any = 0,
        cooldown: Any = 0,
        name: str = "",
    ) -> AlertPolicy:
        """Tiers from ``(budget_fraction, long_window[, severity])`` triples.

        ``burn = budget_fraction * period / long_window``; ``short_window = long_window /
        short_divisor`` (``None`` divisor: single-window tiers). Tier names are
        ``<severity>_<long window>``. Severity defaults to ``"page"`` for long windows up to 6 h
        and ``"ticket"`` above.

        >>> p = AlertPolicy.from_budget_fractions([(0.02, "1h"), (0.1, "3D")], period="28D")
        >>> [(t.name, t.burn) for t in p.tiers]
        [('page_1h', 13.44), ('ticket_3d', 0.9333333333)]
        """
        p = to_timedelta(period, name="period")
        tiers = []
        for item in fractions:
            if not isinstance(item, (tuple, list)) or len(item) not in (2, 3):
                raise ConfigError("fractions takes (budget_fraction, long_window[, severity]) items.")
            frac = item[0]
            if isinstance(frac, bool) or not isinstance(frac, (int, float, np.integer, np.floating)) or not (0 < frac <= 1):
                raise ConfigError("each budget fraction must lie in (0, 1] (e.g. 0.02 for 2 %).")
            long_w = to_timedelta(item[1], name="long_window")
            severity = item[2] if len(item) == 3 else ("page" if long_w <= pd.Timedelta("6h") else "ticket")
            short_w = None
            if short_divisor is not None:
                if isinstance(short_divisor, bool) or not isinstance(short_divisor, (int, np.integer)) or short_divisor < 1:
                    raise ConfigError("short_divisor must be a whole number >= 1 (the workbook uses 12).")
                short_w = pd.Timedelta(long_w.value // int(short_divisor), unit="ns")
            burn = _clean_burn(float(frac) * (p / long_w))
            tiers.append(AlertTier(f"{severity}_{duration_label(long_w)}", severity, long_w, short_w, burn,
                                   for_=for_, cooldown=cooldown))
        return cls(tuple(tiers), period=p, name=name)

    @classmethod
    def workbook(cls, period: Any = "30D", *, for_: Any = 0, cooldown: Any = 0) -> AlertPolicy:
        """The workbook's four tiers (page 1h/5m ×14.4, 6h/30m ×6; ticket 1d/2h ×3, 3d/6h ×1),
        defined for a 30-day budget period.

        ``period`` is the SRE budget period (:attr:`budgetlab.SLO.period`), not the tracker's
        window. For another period the factors are kept and every window is scaled by
        ``period / 30 d``, rounded to the minute (Pyrra's rule); tier names stay the workbook's
        (``page_1h`` is the fast page tier at any period). A period so short that a window would
        round to nothing (under 3 days) is refused: give the SLO's period, or build the tiers
        explicitly (:meth:`from_budget_fractions`, ``AlertPolicy(tiers)``).

        >>> [(t.name, duration_label(t.long_window), duration_label(t.short_window), t.burn)
        ...  for t in AlertPolicy.workbook("7D").tiers]  # doctest: +NORMALIZE_WHITESPACE
        [('page_1h', '14m', '1m', 14.4), ('page_6h', '1h24m', '7m', 6.0),
         ('ticket_1d', '5h36m', '28m', 3.0), ('ticket_3d', '16h48m', '1h24m', 1.0)]
        >>> AlertPolicy.workbook("1D")
        Traceback (most recent call last):
        ...
        budgetlab.errors.ConfigError: period=1d is too short for the Workbook's tiers: with their burn factors kept (14.4, 6, 3, 1) and the windows scaled by period / 30d (Pyrra's rule) the 5m window of page_1h rounds to nothing; the SRE budget period is SLO.period (default 30d), not the tracker window: give period='30D' (at least 3 days), or build the tiers explicitly with AlertPolicy.from_budget_fractions(..., period=...) or AlertPolicy([AlertTier(...)]).
        """
        p = to_timedelta(period, name="period")
        base = cls.from_budget_fractions(WORKBOOK_BUDGET_FRACTIONS, period=WORKBOOK_PERIOD, for_=for_,
                                         cooldown=cooldown, name="workbook")
        if p == WORKBOOK_PERIOD:
            return base
        tiers = []
        for t in base.tiers:
            scaled = [_scale_window(w, p, WORKBOOK_PERIOD) for w in t.windows]
            for w, s in zip(t.windows, scaled, strict=True):
                if s.value <= 0:
                    raise ConfigError(
                        f"period={duration_label(p)} is too short for the Workbook's tiers: with their burn factors "
                        f"kept (14.4, 6, 3, 1) and the windows scaled by period / 30d (Pyrra's rule) the "
                        f"{duration_label(w)} window of {t.name} rounds to nothing; the SRE budget period is "
                        "SLO.period (default 30d), not the tracker window: give period='30D' (at least 3 days), "
                        "or build the tiers explicitly with AlertPolicy.from_budget_fractions(..., period=...) "
                        "or AlertPolicy([AlertTier(...)]).")
            tiers.append(AlertTier(t.name, t.severity, scaled[0], scaled[1], t.burn, for_=for_, cooldown=cooldown))
        return cls(tuple(tiers), period=p, name="workbook")

    @classmethod
    def single_window(
        cls,
        window: Any = "1h",
        burn: float = 0.9,
        *,
        period: Any = "30D",
        severity: str = "page",
        name: str | None = None,
        for_: Any = 0,
        cooldown: Any = 0,
    ) -> AlertPolicy:
        """The seed-style one-window rule: fire while the burn over ``window`` exceeds ``burn``.

        The seed tracker's status is a function of its window burn rate alone
        (``remaining_fraction == 1 - burn_rate``): CRITICAL (remaining < 10 %) is burn > 0.9,
        hence the default; burn 0.5 is its WARNING.

        >>> AlertPolicy.single_window("1h").tiers[0].windows
        (Timedelta('0 days 01:00:00'),)
        """
        w = to_timedelta(window, name="window")
        tier = AlertTier(name or f"{severity}_{duration_label(w)}", severity, w, None, burn,
                         for_=for_, cooldown=cooldown)
        return cls((tier,), period=period, name="single_window")

    @classmethod
    def sloth(cls, period: Any = "30D") -> AlertPolicy:
        """Sloth's default alert windows for a 30 d or 28 d SLO period.

        Source: slok/sloth ``internal/alert/windows/google-30d.yaml`` / ``google-28d.yaml``:
        page quick 2 % 1h/5m, page slow 5 % 6h/30m, ticket quick 10 % 1d/2h, ticket slow
        10 % 3d/6h; Sloth's factor is ``percent / 100 * period / long window``.

        >>> [t.burn for t in AlertPolicy.sloth("28D").tiers]
        [13.44, 5.6, 2.8, 0.9333333333]
        """
        p = to_timedelta(period, name="period")
        if p not in (pd.Timedelta("30D"), pd.Timedelta("28D")):
            raise ConfigError("Sloth ships default windows for period='30D' and '28D' only.")
        rows = (("page_quick", "page", 0.02, "1h", "5min"), ("page_slow", "page", 0.05, "6h", "30min"),
                ("ticket_quick", "ticket", 0.10, "1D", "2h"), ("ticket_slow", "ticket", 0.10, "3D", "6h"))
        tiers = tuple(AlertTier(n, s, lw, sw, _clean_burn(f * (p / pd.Timedelta(lw)))) for n, s, f, lw, sw in rows)
        return cls(tiers, period=p, name=f"sloth_{duration_label(p)}")

    @classmethod
    def pyrra(cls, period: Any = "28D") -> AlertPolicy:
        """Pyrra's four multi-burn-rate alerts for an SLO window ``period``.

        Source: pyrra-dev/pyrra ``slo/rules.go`` ``Windows()``: for 28 d, critical 1h/5m ×14
        ``for`` 2m, critical 6h/30m ×7 ``for`` 15m, warning 1d/2h ×2 ``for`` 1h, warning 4d/6h
        ×1 ``for`` 3h; for other periods each duration is ``period / n`` (Go integer
        division) rounded to the minute.

        >>> [(duration_label(t.long_window), duration_label(t.short_window), t.burn,
        ...   duration_label(t.for_)) for t in AlertPolicy.pyrra("30D").tiers][:2]
        [('1h4m', '5m', 14.0, '2m'), ('6h26m', '32m', 7.0, '16m')]
        """
        p = to_timedelta(period, name="period")

        def scaled(divisor: int) -> pd.Timedelta:
            return _round_minute(p.value // divisor)  # Go's Duration.Round: halves away from zero

        # (severity, for divisor, long divisor, short divisor, factor), divisors from rules.go
        rows = (("critical", 28 * 24 * 30, 28 * 24, 28 * 24 * 12, 14.0),
                ("critical", 28 * 24 * 4, 28 * 4, 28 * 24 * 2, 7.0),
                ("warning", 28 * 24, 28, 28 * 12, 2.0),
                ("warning", 28 * 8, 7, 28 * 4, 1.0))
        tiers = []
        for sev, d_for, d_long, d_short, factor in rows:
            long_w, short_w = scaled(d_long), scaled(d_short)
            if long_w.value <= 0 or short_w.value <= 0:
                raise ConfigError("period is too short for Pyrra's windows (they round to whole minutes).")
            tiers.append(AlertTier(f"{sev}_{duration_label(long_w)}", sev, long_w, short_w, factor,
                                   for_=scaled(d_for)))
        return cls(tuple(tiers), period=p, name=f"pyrra_{duration_label(p)}")

    @classmethod
    def presets(cls, period: Any = "30D") -> dict[str, AlertPolicy]:
        """Workbook, Sloth, Pyrra and the seed-style single window, for side-by-side comparison."""
        return {
            "workbook": cls.workbook(period),
            "sloth": cls.sloth(period),
            "pyrra": cls.pyrra(period),
            "single_window_1h": cls.single_window("1h", 0.9, period=period),
        }


#: Preset names :func:`as_policy` accepts (``--policy`` on the command line).
PRESET_NAMES = ("workbook", "sloth", "pyrra", "single_window")


def as_policy(policy: Any, *, default: AlertPolicy | None = None, period: Any = None) -> AlertPolicy:
    """``policy`` as an :class:`AlertPolicy`, else :class:`ConfigError`.

    An :class:`AlertPolicy` is used as given (its own ``period`` wins: the user built it); one
    :class:`AlertTier` becomes a one-tier policy; ``None`` becomes ``default`` where the caller
    has one; a preset name (:data:`PRESET_NAMES`) is built for ``period``, the SRE budget period
    (pass :attr:`budgetlab.SLO.period`; default 30 days), with the presets' own rules (the
    Workbook keeps its factors and scales its windows, Sloth knows 28 d and 30 d only).

    >>> as_policy(None, default=AlertPolicy.workbook()).tiers[0].burn
    14.4
    >>> [t.burn for t in as_policy("workbook", period="28D").tiers]  # factors kept
    [14.4, 6.0, 3.0, 1.0]
    """
    if policy is None and default is not None:
        return default
    if isinstance(policy, AlertPolicy):
        return policy
    if isinstance(policy, AlertTier):
        return AlertPolicy((policy,))
    if isinstance(policy, str) and policy.strip() in PRESET_NAMES:
        p = WORKBOOK_PERIOD if period is None else to_timedelta(period, name="period")
        name = policy.strip()
        if name == "workbook":
            return AlertPolicy.workbook(p)
        if name == "sloth":
            return AlertPolicy.sloth(p)
        if name == "pyrra":
            return AlertPolicy.pyrra(p)
        return AlertPolicy.single_window("1h", 0.9, period=p)
    extra = " or None" if default is not None else ""
    raise ConfigError(f"policy must be an AlertPolicy (e.g. AlertPolicy.workbook()), a preset name "
                      f"({', '.join(PRESET_NAMES)}){extra}.")
