"""The OpenSLO document as budgetlab holds it: :class:`SLODocument`, validated on creation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..._util.validation import check_fraction, check_tz, to_timedelta
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...slo import SLO
from ._fields import check_indicator, check_str, check_strings, normalize_start
from ._yaml import plain
from .durations import duration_shorthand

__all__ = ["API_VERSION", "METHODS", "CALENDARS", "CALENDAR_SHORTHAND", "ANNOTATION_PREFIX", "SLODocument",
           "as_documents"]

API_VERSION = "openslo/v1"
#: ``spec.budgetingMethod`` values budgetlab reads.
METHODS = ("Occurrences", "Timeslices")
#: Calendar ``timeWindow`` durations -> (budgetlab calendar, nominal length of the tracker window).
CALENDARS = {"1d": ("day", pd.Timedelta("1D")), "1w": ("week", pd.Timedelta("7D")),
             "1M": ("month", pd.Timedelta("30D"))}
CALENDAR_SHORTHAND = {v[0]: k for k, v in CALENDARS.items()}
#: Prefix of the annotations that carry what OpenSLO v1 has no field for.
ANNOTATION_PREFIX = "budgetlab/"


@dataclass(frozen=True)
class SLODocument:
    """One OpenSLO v1 SLO, as budgetlab uses it.

    Parameters
    ----------
    name : str
        ``metadata.name``.
    slo : SLO
        Target (``objectives[0].target``) and window (``timeWindow[0].duration``); ``warning``,
        ``critical`` and ``min_events`` travel in ``budgetlab/*`` annotations.
    service, display_name, description : str
        ``spec.service``, ``metadata.displayName``, ``spec.description``.
    budgeting_method : {"Occurrences", "Timeslices"}
        ``spec.budgetingMethod``.
    time_slice_target : float, optional
        ``objectives[0].timeSliceTarget`` (Timeslices only), in (0, 1].
    time_slice_window : duration, optional
        ``objectives[0].timeSliceWindow`` (Timeslices only), whole minutes.
    calendar : {"day", "week", "month"}, optional
        Calendar-aligned ``timeWindow`` (``1d``, ``1w``, ``1M``); ``None`` for a rolling window.
        ``slo.window`` must then be 1, 7 or 30 days.
    calendar_start : str, optional
        ``calendar.startTime`` (local, ``"2022-01-01 12:00:00"``); calendar windows only.
    time_zone : str, optional
        ``calendar.timeZone`` (IANA name); required with ``calendar``.
    alert_policies : tuple of AlertPolicy
        One per OpenSLO ``AlertPolicy`` (several tiers when they were grouped with the
        ``budgetlab/policy`` annotation). A policy's ``period`` is the SLO window unless the
        annotation ``budgetlab/period`` says otherwise.
    objective_name : str
        ``objectives[0].displayName``.
    objective_op : str, optional
        ``objectives[0].op`` (``lt``, ``lte``, ``gt``, ``gte``), kept verbatim: the spec uses it
        for threshold metrics only, so budgetlab does not interpret it for ratio SLIs.
    indicator : dict, optional
        The inline SLI (``spec.indicator``), kept verbatim; must not be a ``thresholdMetric``.
    indicator_ref : str, optional
        ``spec.indicatorRef``.
    labels, annotations : dict
        ``metadata.labels`` and ``metadata.annotations`` (without the ``budgetlab/`` ones).

    Examples
    --------
    >>> from budgetlab.interop.openslo import read_openslo, to_openslo_yaml
    >>> doc = SLODocument("checkout", SLO(target=0.999, window="28D"), service="shop")
    >>> print(to_openslo_yaml([doc]), end="")
    apiVersion: openslo/v1
    kind: SLO
    metadata:
      name: checkout
    spec:
      service: shop
      timeWindow:
      - duration: 28d
        isRolling: true
      budgetingMethod: Occurrences
      objectives:
      - target: 0.999
    >>> read_openslo(to_openslo_yaml([doc])) == [doc]
    True
    """

    name: str
    slo: SLO
    service: str = ""
    display_name: str = ""
    description: str = ""
    budgeting_method: str = "Occurrences"
    time_slice_target: float | None = None
    time_slice_window: Any = None
    calendar: str | None = None
    calendar_start: Any = None
    time_zone: str | None = None
    alert_policies: tuple[AlertPolicy, ...] = ()
    objective_name: str = ""
    objective_op: str | None = None
    indicator: dict[str, Any] | None = None
    indicator_ref: str | None = None
    labels: dict[str, Any] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        set_ = self._set
        set_("name", check_str(self.name, "name", required=True))
        if not isinstance(self.slo, SLO):
            raise ConfigError("slo must be a budgetlab.SLO (e.g. SLO(target=0.999, window='28D')).")
        duration_shorthand(self.slo.window, where="slo.window")  # whole minutes
        for f in ("service", "display_name", "description", "objective_name"):
            set_(f, check_str(getattr(self, f), f))
        if self.budgeting_method not in METHODS:
            raise ConfigError(f"budgeting_method={self.budgeting_method!r} is not supported; use 'Occurrences' "
                              "or 'Timeslices'.")
        if self.budgeting_method == "Timeslices":
            if self.time_slice_target is None or self.time_slice_window is None:
                raise ConfigError("budgeting_method='Timeslices' needs time_slice_target and time_slice_window.")
            set_("time_slice_target", check_fraction("time_slice_target", self.time_slice_target, high_open=False))
            tsw = to_timedelta(self.time_slice_window, name="time_slice_window")
            duration_shorthand(tsw, where="time_slice_window")
            set_("time_slice_window", tsw)
        elif self.time_slice_target is not None or self.time_slice_window is not None:
            raise ConfigError("time_slice_target and time_slice_window apply to budgeting_method='Timeslices' only.")
        if self.calendar is None:
            if self.calendar_start is not None or self.time_zone is not None:
                raise ConfigError("calendar_start and time_zone apply to calendar windows only (give calendar=).")
        else:
            if self.calendar not in CALENDAR_SHORTHAND:
                raise ConfigError(f"calendar={self.calendar!r} is not supported; use 'day', 'week' or 'month'.")
            nominal = CALENDARS[CALENDAR_SHORTHAND[self.calendar]][1]
            if self.slo.window != nominal:
                raise ConfigError(f"a calendar {self.calendar} SLO has window {nominal} (its nominal length); "
                                  f"build the SLO with window='{nominal.days}D'.")
            if self.time_zone is None:
                raise ConfigError("a calendar window needs time_zone (an IANA name such as 'Europe/Berlin').")
            set_("time_zone", check_tz(self.time_zone, name="time_zone"))
            if self.calendar_start is None:
                raise ConfigError("a calendar window needs calendar_start (e.g. '2026-01-01 00:00:00', local time).")
            set_("calendar_start", normalize_start(self.calendar_start, "calendar_start"))
        if self.objective_op is not None and self.objective_op not in ("lt", "lte", "gt", "gte"):
            raise ConfigError("objective_op must be one of 'lt', 'lte', 'gt', 'gte' or None.")
        if self.indicator is not None:
            if not isinstance(self.indicator, Mapping):
                raise ConfigError("indicator must be a mapping (an inline OpenSLO SLI) or None.")
            check_indicator(self.indicator, "indicator")
            set_("indicator", plain(self.indicator))
        if self.indicator_ref is not None:
            set_("indicator_ref", check_str(self.indicator_ref, "indicator_ref", required=True))
        if self.indicator is not None and self.indicator_ref is not None:
            raise ConfigError("give indicator or indicator_ref, not both.")
        set_("labels", check_strings(self.labels, "labels", lists=True))
        ann = check_strings(self.annotations, "annotations")
        own = [k for k in ann if k.startswith(ANNOTATION_PREFIX)]
        if own:
            raise ConfigError(f"annotations: {own[0]!r} is reserved; budgetlab writes the budgetlab/ annotations "
                              "from the SLO and policy fields.")
        set_("annotations", ann)
        pols = self.alert_policies
        if isinstance(pols, AlertPolicy) or not isinstance(pols, Sequence):
            raise ConfigError("alert_policies must be a tuple of AlertPolicy.")
        pols = tuple(pols)
        tier_names: list[str] = []
        for p in pols:
            if not isinstance(p, AlertPolicy):
                raise ConfigError("alert_policies must hold budgetlab AlertPolicy objects.")
            duration_shorthand(p.period, where=f"alert policy {p.name!r} period")
            for t in p.tiers:
                for w, what in ((t.long_window, "long_window"), (t.short_window, "short_window"),
                                (t.for_, "for_"), (t.cooldown, "cooldown")):
                    if w is not None:
                        duration_shorthand(w, where=f"tier {t.name!r} {what}")
                tier_names.append(t.name)
        if len(set(tier_names)) != len(tier_names):
            raise ConfigError("tier names must be unique across the alert policies of one SLO.")
        set_("alert_policies", pols)

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)

    # ----- derived ----------------------------------------------------------------------------
    @property
    def target(self) -> float:
        """The objective's target (``slo.target``)."""
        return self.slo.target

    @property
    def policy(self) -> AlertPolicy | None:
        """Every tier of every alert policy as one :class:`AlertPolicy` (tiers OR-ed), or ``None``.

        >>> doc = SLODocument("x", SLO(0.99, "30D"), alert_policies=(AlertPolicy.workbook("30D"),))
        >>> [t.name for t in doc.policy.tiers]
        ['page_1h', 'page_6h', 'ticket_1d', 'ticket_3d']
        """
        tiers = [t for p in self.alert_policies for t in p.tiers]
        if not tiers:
            return None
        name = self.alert_policies[0].name if len(self.alert_policies) == 1 else self.name
        return AlertPolicy(tuple(tiers), period=self.slo.window, name=name)

    def period_kwargs(self) -> dict[str, Any]:
        """Arguments of :func:`budgetlab.budget.period.period_budget` for this SLO's time window and
        budgeting method: ``period`` or ``calendar``/``tz``, plus ``slice_window`` and
        ``slice_target`` for Timeslices.

        budgetlab's calendar periods start at local midnight (weeks on Monday, months on the
        1st); a ``calendar.startTime`` that is not on such a boundary raises ConfigError.

        >>> SLODocument("x", SLO(0.99, "7D"), calendar="week", calendar_start="2026-01-05 00:00:00",
        ...             time_zone="Europe/Berlin").period_kwargs()
        {'calendar': 'week', 'tz': 'Europe/Berlin'}
        """
        out: dict[str, Any]
        if self.calendar is None:
            out = {"period": self.slo.window}
        else:
            start = pd.Timestamp(self.calendar_start)
            aligned = start == start.normalize()
            if self.calendar == "week":
                aligned = aligned and start.day_of_week == 0
            elif self.calendar == "month":
                aligned = aligned and start.day == 1
            if not aligned:
                first = {"day": "midnight", "week": "a Monday midnight",
                         "month": "midnight on the 1st"}[self.calendar]
                raise ConfigError(
                    f"spec.timeWindow[0].calendar.startTime: budgetlab's {self.calendar} periods start at {first} "
                    f"(local time); {self.calendar_start} is not such a boundary."
                )
            out = {"calendar": self.calendar, "tz": self.time_zone}
        if self.budgeting_method == "Timeslices":
            out["slice_window"] = self.time_slice_window
            out["slice_target"] = self.time_slice_target
        return out


def as_documents(docs: Any, *, name: str | None = None) -> list[SLODocument]:
    """``docs`` as a non-empty list of :class:`SLODocument` with unique names. ``name`` given: a
    bare :class:`SLO` is accepted too, as the document ``SLODocument(name, slo)``.

    >>> [d.name for d in as_documents(SLO(0.99, "1D"), name="checkout")]
    ['checkout']
    """
    if name is not None and isinstance(docs, SLO):
        return [SLODocument(name, docs)]
    what = "an SLODocument or a list of them" + (" (or an SLO)" if name is not None else "")
    if isinstance(docs, SLODocument):
        return [docs]
    if isinstance(docs, (str, bytes)) or not isinstance(docs, Iterable):
        raise ConfigError(f"give {what}.")
    out = list(docs)
    if not out or not all(isinstance(d, SLODocument) for d in out):
        raise ConfigError(f"give {what}, at least one (see budgetlab.interop.openslo.SLODocument).")
    if len({d.name for d in out}) != len(out):
        raise ConfigError("SLO names must be unique within one file.")
    return out
