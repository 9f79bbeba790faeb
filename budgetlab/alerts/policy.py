"""Alert policies: multiwindow, multi-burn-rate tiers (Google SRE Workbook, ch. 5) and presets.

A policy ORs its tiers (:class:`~budgetlab.alerts.tier.AlertTier`, each its own alert: fires
when the burn rates over its long **and** short window both exceed its ``burn``).

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
* :meth:`AlertPolicy.sloth`: Sloth's default alert windows,
``internal/alert/windows/google-30d.yaml``
  and ``google-28d.yaml`` in slok/sloth (same windows and budget percents; burn = percent ×
  period / long window, so 13.44, 5.6, 2.8, 0.933 at 28 d). Sloth's rules have no ``for:``.
* :meth:`AlertPolicy.pyrra`: Pyrra's ``Windows()`` in ``slo/rules.go`` of pyrra-dev/pyrra: factors
  14, 7, 2, 1, windows scaled from the 28 d table (1 h/5 m for 2 m, 6 h/30 m for 15 m,
  1 d/2 h for 1 h, 4 d/6 h for 3 h), each duration ``period / n`` rounded to the minute.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import duration_label, to_timedelta, window_words
from .._util.words import command_flag, counted, prose_duration, say
from ..errors import ConfigError
from .preset_tables import (
    PYRRA_DIVISORS,
    SLOTH_WINDOWS,
    WORKBOOK_BUDGET_FRACTIONS,
    WORKBOOK_PERIOD,
    clean_burn,
    round_minute,
    scale_window,
)
from .tier import AlertTier

__all__ = ["AlertPolicy", "PRESET_NAMES", "as_policy"]


#: The period of Pyrra's own table (``Windows()`` comments: 1 h/5 min at 28 d).
_PYRRA_OWN = pd.Timedelta("28D")


def _period_words(period: pd.Timedelta) -> str:
    """The SRE budget period a preset refuses, in the caller's words: ``period='7d'`` in the
    API; on the command line its length and where it came from (``--period``, else the ``--slo``
    file's; a command without ``--period`` takes it from the ``--slo`` file only)."""
    where = "--period, else the SLO file's" if command_flag("period") else "the --slo file's"
    return say(f"period='{duration_label(period)}'",
               f"the SRE budget period {prose_duration(period)} ({where})")


def _period_fix(periods: tuple[str, ...], how: str = "") -> str:
    """The periods to give instead, in the caller's words: ``period='30D'`` in the API,
    ``--period 30d`` on a command that has it, else an ``--slo`` file with that period."""
    note = f" ({how})" if how else ""
    if command_flag("period"):
        return " or ".join(f"--period {p.lower()}" for p in periods) + note
    return say(" or ".join(f"period='{p}'" for p in periods) + note,
               "an --slo file with a period of "
               + (how or " or ".join(prose_duration(p) for p in periods)))


def _as_tier(item: Any) -> AlertTier:
    if isinstance(item, AlertTier):
        return item
    fields = "name, severity, long_window[, short_window, burn, for_, cooldown]"
    if isinstance(item, dict):
        unknown = sorted(set(map(str, item)) - set(_TIER_FIELDS))
        lacked = [k for k in _TIER_FIELDS[:3] if k not in item]
        if unknown or lacked:
            what = (f"has no field {unknown[0]!r}" if unknown
                    else f"lacks {', '.join(lacked)}")
            raise ConfigError(f"tiers: a dict tier {what}; its keys are {fields}.")
        return AlertTier(**item)
    if isinstance(item, (tuple, list)):
        if not 3 <= len(item) <= len(_TIER_FIELDS):
            raise ConfigError(f"tiers: a tuple tier holds {counted(len(item), 'value')}; give "
                              f"3 to {len(_TIER_FIELDS)}: ({fields}).")
        return AlertTier(*item)
    raise ConfigError("tiers must be AlertTier objects, dicts or (name, severity, long, short, "
                      "burn) tuples.")


#: AlertTier's fields, in order (a tuple tier gives them by position, a dict by name).
_TIER_FIELDS = ("name", "severity", "long_window", "short_window", "burn", "for_", "cooldown")


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
            raise ConfigError(f"name= must be a string (the policy's label), not "
                              f"{type(self.name).__name__} {self.name!r}."[:200])

    @property
    def windows(self) -> tuple[pd.Timedelta, ...]:
        """Every distinct window the tiers use, shortest first."""
        return tuple(sorted({w for t in self.tiers for w in t.windows}))

    def tier(self, name: str) -> AlertTier:
        """The tier called ``name``."""
        for t in self.tiers:
            if t.name == name:
                return t
        raise ConfigError(f"no tier named {name!r}; tiers: "
                          f"{', '.join(t.name for t in self.tiers)}.")

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
        if short_divisor is not None and (isinstance(short_divisor, bool)
                                          or not isinstance(short_divisor, (int, np.integer))
                                          or short_divisor < 1):
            raise ConfigError("short_divisor must be a whole number >= 1 (the workbook uses 12).")
        tiers = []
        for item in fractions:
            if not isinstance(item, (tuple, list)) or len(item) not in (2, 3):
                raise ConfigError("fractions takes (budget_fraction, long_window[, severity]) "
                                  "items.")
            frac = item[0]
            if isinstance(frac, bool) or not isinstance(frac, (int, float, np.integer,
                                                               np.floating)) or not (0 < frac <= 1):
                raise ConfigError("each budget fraction must lie in (0, 1] (e.g. 0.02 for 2 %).")
            long_w = to_timedelta(item[1], name="long_window")
            severity = (
                item[2]
                if len(item) == 3
                else ("page" if long_w <= pd.Timedelta("6h") else "ticket")
            )
            short_w = (None if short_divisor is None
                       else pd.Timedelta(long_w.value // int(short_divisor), unit="ns"))
            burn = clean_burn(float(frac) * (p / long_w))
            tiers.append(AlertTier(f"{severity}_{duration_label(long_w)}", severity, long_w,
                                   short_w, burn,
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
        budgetlab.errors.ConfigError: period='1d' is too short for the Workbook's tiers: with their
        burn factors kept (14.4, 6, 3, 1) and the windows scaled by period / 30 d (Pyrra's rule) the
        5 min window of page_1h rounds to nothing; the SRE budget period is SLO.period (default 30
        d), not the tracker window; give period='30D' (at least 3 days), or build the tiers
        explicitly with AlertPolicy.from_budget_fractions(..., period=...) or
        AlertPolicy([AlertTier(...)]).
        """
        p = to_timedelta(period, name="period")
        base = cls.from_budget_fractions(WORKBOOK_BUDGET_FRACTIONS, period=WORKBOOK_PERIOD,
                                         for_=for_,
                                         cooldown=cooldown, name="workbook")
        if p == WORKBOOK_PERIOD:
            return base
        tiers = []
        for t in base.tiers:
            scaled = [scale_window(w, p, WORKBOOK_PERIOD) for w in t.windows]
            for w, s in zip(t.windows, scaled, strict=True):
                if s.value <= 0:
                    raise ConfigError(
                        _period_words(p) + " is too short for the Workbook's tiers: "
                        "with their burn factors kept (14.4, 6, 3, 1) and the windows scaled by "
                        f"period / 30 d (Pyrra's rule) the {window_words(w)} window of {t.name} "
                        "rounds to nothing" + say("; the SRE budget period is SLO.period (default "
                                                 "30 d), not the tracker window", "") + "; give "
                        + _period_fix(("30D",), "at least 3 days")
                        + say(", or build the tiers explicitly with "
                              "AlertPolicy.from_budget_fractions(..., period=...) or "
                              "AlertPolicy([AlertTier(...)])", "") + ".")
            tiers.append(AlertTier(t.name, t.severity, scaled[0], scaled[1], t.burn, for_=for_,
                                   cooldown=cooldown))
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
            raise ConfigError(
                _period_words(p) + " has no Sloth windows: Sloth ships default "
                "windows for a 30 d or 28 d period only; give " + _period_fix(("30D", "28D"))
                + ", or " + say("AlertPolicy.workbook(period) or AlertPolicy.pyrra(period)",
                                "--policy workbook or --policy pyrra")
                + ", which keep their burns and scale their windows to any period.")
        tiers = tuple(AlertTier(n, s, lw, sw, clean_burn(f * (p / pd.Timedelta(lw))))
                      for n, s, f, lw, sw in SLOTH_WINDOWS)
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
            return round_minute(p.value // divisor)  # Go's Duration.Round: halves away from zero

        tiers = []
        for sev, d_for, d_long, d_short, factor in PYRRA_DIVISORS:
            long_w, short_w = scaled(d_long), scaled(d_short)
            if long_w.value <= 0 or short_w.value <= 0:
                raise ConfigError(
                    _period_words(p) + " is too short for Pyrra's windows: scaled by "
                    "period / 28 d and rounded to the minute (Pyrra's rule), the "
                    f"{window_words(_PYRRA_OWN // d_short)} short window of its 28 d table's "
                    f"{window_words(_PYRRA_OWN // d_long)} tier rounds to nothing; give "
                    + _period_fix(("28D",), "at least 3 days") + ".")
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


def as_policy(policy: Any, *, default: AlertPolicy | None = None,
              period: Any = None) -> AlertPolicy:
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
        if policy.strip() == "single_window":
            return AlertPolicy.single_window("1h", 0.9, period=p)
        preset: Callable[[pd.Timedelta], AlertPolicy] = getattr(AlertPolicy, policy.strip())
        return preset(p)
    extra = " or None" if default is not None else ""
    if isinstance(policy, str):  # a misspelt preset: say it back, and the name it is closest to
        close = difflib.get_close_matches(policy.strip(), PRESET_NAMES, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else "."
        raise ConfigError(f"policy={policy!r} is not a preset name{hint} Give one of "
                          f"{', '.join(map(repr, PRESET_NAMES))}, or an AlertPolicy (e.g. "
                          f"AlertPolicy.workbook()){extra}.")
    raise ConfigError(f"policy must be an AlertPolicy (e.g. AlertPolicy.workbook()), a preset name "
                      f"({', '.join(PRESET_NAMES)}){extra}.")
