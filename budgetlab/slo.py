"""The SLO configuration shared by every function: one frozen, validated dataclass."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._util.durations import duration_label
from ._util.validation import check_fraction, to_timedelta
from ._util.words import noun_for, say
from .errors import ConfigError

__all__ = ["SLO", "as_slo", "PerGroup", "as_per_group", "key_text", "key_label", "slo_from_dict",
           "table_slo"]


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
        below ``warning``, ``critical`` strictly below ``critical``; ``0 <= critical < warning <=
        1``.
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
    >>> SLO(target=95)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: target=95 must lie in (0, 1); if 95 is a percentage, use a
    fraction: target=0.95.
    """

    target: float = 0.95
    window: Any = field(default="24h")
    warning: float = 0.5
    critical: float = 0.1
    min_events: int = 0
    period: Any = field(default="30D")

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", check_fraction("target", self.target, low_open=True,
                                                          high_open=True))
        object.__setattr__(self, "window", to_timedelta(self.window, name="window"))
        warning = check_fraction("warning", self.warning, low_open=False, high_open=False)
        critical = check_fraction("critical", self.critical, low_open=False, high_open=False)
        if not critical < warning:
            raise ConfigError(
                f"critical={critical!r} must be below warning={warning!r} (e.g. critical=0.1, "
                "warning=0.5)."
            )
        object.__setattr__(self, "warning", warning)
        object.__setattr__(self, "critical", critical)
        if (
            isinstance(self.min_events, bool)
            or not isinstance(self.min_events, (int, np.integer))
            or self.min_events < 0
        ):
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

    def as_dict(self) -> dict[str, Any]:
        """The SLO as plain JSON values, what a table's ``attrs["slo"]`` holds (durations as
        budgetlab's compact text); :func:`slo_from_dict` reads it back.

        >>> SLO(target=0.95, window="90min").as_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'target': 0.95, 'window': '1h30m', 'warning': 0.5, 'critical': 0.1, 'min_events': 0,
         'period': '30d'}
        """
        return {"target": self.target, "window": duration_label(self.window),
                "warning": self.warning, "critical": self.critical,
                "min_events": self.min_events, "period": duration_label(self.period)}


def as_slo(slo: Any, caller: str | None = None) -> SLO:
    """``slo`` if it is an :class:`SLO`, else :class:`ConfigError` with an example; per-group SLOs
    given to the public function ``caller``, which takes one SLO, are refused in those words."""
    if not isinstance(slo, SLO):
        if caller is not None and isinstance(slo, (PerGroup, Mapping)):
            raise ConfigError(f"{caller}() takes one SLO, not per-group SLOs: call it on each "
                              "group's events with that group's SLO.")
        raise ConfigError("slo must be a budgetlab.SLO, e.g. SLO(target=0.95, window='24h').")
    return slo


@dataclass(frozen=True)
class PerGroup:
    """Per-group SLOs: each group (a value of the ``by`` key, or a tuple for several keys) has its
    own :class:`SLO`, which may differ in target, window, thresholds and period.

    Every function that takes an ``slo`` (or a ``target``) also takes a ``PerGroup``, or a plain
    mapping, which is read as ``PerGroup(mapping)``; the result equals running each group on its
    own with its SLO, bit for bit. Except :func:`~budgetlab.bucket_burn_over_time` and
    :func:`~budgetlab.replay_calendar`, which take one SLO and refuse per-group SLOs in so many
    words (call them per group).

    Parameters
    ----------
    slos : mapping
        Group key -> :class:`SLO` or target (a number, completed from ``base``). Keys match the
        group values by their text (``"turnstile"``, ``("turnstile", "fra")``), so ``200`` and
        ``"200"`` name the same group.
    default : SLO or float, optional
        The SLO of groups the mapping does not name; without it such groups are an error that
        names them.
    base : SLO
        The fields (window, thresholds, ...) of SLOs given as a bare target.
    binding : str, optional
        How the SLOs were bound to the groups (e.g. from OpenSLO labels), for the output to state.

    Examples
    --------
    >>> slos = PerGroup({"recaptcha_v2": 0.93, "turnstile": 0.97}, base=SLO(window="1h"))
    >>> slos.slo_for(("turnstile",))
    SLO(target=0.97, window=Timedelta('0 days 01:00:00'), warning=0.5, critical=0.1, min_events=0,
    period=Timedelta('30 days 00:00:00'))
    >>> slos.slo_for(("image",))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: no SLO for the group image; add it to the mapping or give
    PerGroup(..., default=SLO(...)).
    """

    slos: Mapping[Any, Any]
    default: Any = None
    base: SLO = field(default_factory=SLO)
    binding: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.slos, Mapping) or not self.slos:
            raise ConfigError("PerGroup needs a non-empty mapping from group key to SLO or target, "
                              "e.g. {'recaptcha_v2': 0.93, 'turnstile': 0.97}.")
        if not isinstance(self.base, SLO):
            raise ConfigError("PerGroup(base=...) must be a budgetlab.SLO.")
        table: dict[tuple[str, ...], SLO] = {}
        for key, value in self.slos.items():
            norm = key_text(key)
            if norm in table:
                raise ConfigError(f"the per-group SLOs name the group {key_label(norm)} twice; "
                                  "give it once.")
            table[norm] = self._as_slo(value, f"the SLO of group {key_label(norm)}")
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_default",
                           None if self.default is None else self._as_slo(self.default, "default"))

    def _as_slo(self, value: Any, what: str) -> SLO:
        if isinstance(value, SLO):
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ConfigError(f"{what} must be a budgetlab.SLO or a target number, got "
                              f"{type(value).__name__}.")
        return self.base.with_(target=float(value))

    @property
    def table(self) -> dict[tuple[str, ...], SLO]:
        """The mapping with keys normalised to tuples of text."""
        return dict(self._table)  # type: ignore[attr-defined]

    def slo_for(self, key: Any) -> SLO:
        """The SLO of one group (a value or a tuple of values, in ``by`` order)."""
        norm = key_text(key)
        found = self._table.get(norm)  # type: ignore[attr-defined]
        if found is not None:
            return found  # type: ignore[no-any-return]
        if self._default is not None:  # type: ignore[attr-defined]
            return self._default  # type: ignore[attr-defined,no-any-return]
        raise ConfigError(f"no SLO for the group {key_label(norm)}; add it to the mapping or give "
                          "PerGroup(..., default=SLO(...)).")

    def as_dict(self) -> dict[str, Any]:
        """The SLOs as plain JSON values, what a table's ``attrs["slo"]`` holds: ``per_group``
        (one dict per group: ``group``, its key as a list of text, and :meth:`SLO.as_dict`),
        ``default`` and ``base`` (:meth:`SLO.as_dict`, ``default`` ``None`` when not given) and
        ``binding``; :func:`slo_from_dict` reads it back."""
        default = self._default  # type: ignore[attr-defined]
        return {"per_group": [{"group": list(k), **s.as_dict()} for k, s in self.table.items()],
                "default": None if default is None else default.as_dict(),
                "base": self.base.as_dict(), "binding": self.binding}

    def resolve(self, keys: pd.DataFrame) -> list[SLO]:
        """The SLO of every row of a key table (one row per group, the ``by`` columns in order);
        every group without an SLO is named in one error."""
        out: list[SLO] = []
        missing: list[str] = []
        for row in keys.itertuples(index=False, name=None):
            try:
                out.append(self.slo_for(row))
            except ConfigError:
                missing.append(key_label(key_text(row)))
        if missing:
            shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} "
                                               "more" if len(missing) > 10 else "")
            one = len(missing) == 1
            raise ConfigError(f"no SLO for the {noun_for(len(missing), 'group')} {shown}"
                              f"{self._unmatched(keys)}; add "
                              f"{'it' if one else 'them'} to the per-group SLOs or give "
                              + say("PerGroup(..., default=SLO(...)).",
                                    f"{'it its' if one else 'each its'} GROUP=TARGET in "
                                    "--target."))
        return out

    def _unmatched(self, keys: pd.DataFrame) -> str:
        """The groups the SLOs name that none of ``keys`` is, said beside the groups without an
        SLO when the SLOs came from a flag (a ``binding``: ``--target`` or ``--slo FILE``, as
        :func:`~budgetlab.slo_groups.warn_unused` names it): a misspelt group, whose target
        applies to nothing: ``" (--target names x, none of them)"``; ``""`` when every group
        named is one of them, or the mapping was given in code."""
        have = {key_text(row) for row in keys.itertuples(index=False, name=None)}
        unmatched = [key_label(k) for k in self.table if k not in have]
        if not unmatched or not self.binding:
            return ""
        flag = "--target" if (self.binding or "").startswith("--target") else "--slo"
        shown = ", ".join(unmatched[:10]) + (f" and {len(unmatched) - 10} more"
                                             if len(unmatched) > 10 else "")
        return f" ({say('the per-group SLOs name', f'{flag} names')} {shown}, none of them)"


def key_text(key: Any) -> tuple[str, ...]:
    """A group key as a tuple of text (missing values as ``<NA>``): how :class:`PerGroup` and
    :class:`~budgetlab.budget.tracker.KeyedTracker` match keys.

    Whole floats read as whole numbers: an integer column with missing values is float in
    pandas, and its group ``1.0`` is the group ``1`` of the mapping.

    >>> key_text("turnstile"), key_text((200, None)), key_text(1.0)
    (('turnstile',), ('200', '<NA>'), ('1',))
    """
    parts = key if isinstance(key, tuple) else (key,)
    return tuple("<NA>" if _is_missing(p) else _text(p) for p in parts)


def _text(value: Any) -> str:
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _is_missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def key_label(norm: tuple[str, ...]) -> str:
    """A group key (:func:`key_text`) as messages name it: ``a``, or ``(a, b)`` for two keys."""
    return norm[0] if len(norm) == 1 else "(" + ", ".join(norm) + ")"


def as_per_group(slo: Any) -> PerGroup | None:
    """``slo`` as a :class:`PerGroup` when it is per-group (a ``PerGroup`` or a mapping), else
    ``None`` (one SLO or target for every group)."""
    if isinstance(slo, PerGroup):
        return slo
    if isinstance(slo, Mapping):
        return PerGroup(slo)
    return None


def slo_from_dict(facts: Mapping[str, Any]) -> SLO | PerGroup:
    """The :class:`SLO` or :class:`PerGroup` whose ``as_dict()`` is ``facts``: a table's
    ``attrs["slo"]`` or the ``slo`` of a run record (``replay --out OUT`` writes
    ``OUT.run.json``). Older run records, which kept a shorter SLO of their own, read too: they
    hold no ``period`` (the tracker never reads it; read back, it is the default 30 d) and, per
    group, no ``base`` or ``default`` (each group is named with its whole SLO; a group they do
    not name is refused, as it is without a default).

    >>> slo_from_dict(SLO(target=0.97, window="1h").as_dict()) == SLO(target=0.97, window="1h")
    True
    >>> per = slo_from_dict(PerGroup({"turnstile": 0.97}, default=0.95).as_dict())
    >>> per.slo_for("turnstile").target, per.slo_for("image").target
    (0.97, 0.95)
    """
    if "per_group" not in facts:
        return SLO(**facts)
    default, base = facts.get("default"), facts.get("base")
    return PerGroup({tuple(f["group"]): SLO(**{k: v for k, v in f.items() if k != "group"})
                     for f in facts["per_group"]},
                    default=None if default is None else SLO(**default),
                    base=SLO() if base is None else SLO(**base), binding=facts.get("binding"))


def table_slo(table: pd.DataFrame) -> SLO | PerGroup | None:
    """The SLO a table returned by budgetlab was made with, from its ``attrs["slo"]`` (a plain
    dict, so that ``DataFrame.to_parquet`` saves it), or ``None`` when the attrs hold none.

    >>> import budgetlab as bl
    >>> ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01 00:00"], utc=True), "ok": [True]})
    >>> states = bl.replay(ev, SLO(target=0.95, window="1h"))
    >>> states.attrs["slo"]["window"], table_slo(states) == SLO(target=0.95, window="1h")
    ('1h', True)
    """
    facts = table.attrs.get("slo")
    if facts is None or isinstance(facts, (SLO, PerGroup)):  # a table whose attrs were set by hand
        return facts
    return slo_from_dict(facts)
