"""The OpenSLO document as budgetlab holds it: :class:`SLODocument`, validated on creation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..._util.validation import check_fraction, check_tz, to_timedelta
from ..._util.words import prose_duration, say
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...slo import SLO
from ._fields import (
    check_str,
    check_strings,
    duration_shorthand,
    normalize_start,
    refuse_threshold,
)
from ._yaml import plain
from .alert_info import AlertPolicyInfo
from .checks import METHODS_V1, OPS, check_indicator_spec, check_metadata

__all__ = ["API_VERSION", "CALENDARS", "CALENDAR_SHORTHAND", "ANNOTATION_PREFIX",
           "DEFAULT_SERVICE", "SLODocument", "as_documents", "merged_policy"]

API_VERSION = "openslo/v1"
#: Calendar ``timeWindow`` durations -> (budgetlab calendar, nominal length of the tracker window).
CALENDARS = {"1d": ("day", pd.Timedelta("1D")), "1w": ("week", pd.Timedelta("7D")),
             "1M": ("month", pd.Timedelta("30D"))}
CALENDAR_SHORTHAND = {v[0]: k for k, v in CALENDARS.items()}
#: Prefix of the annotations that carry what OpenSLO v1 has no field for.
ANNOTATION_PREFIX = "budgetlab/"
#: ``spec.service`` written when a document names none (OpenSLO v1 requires one).
DEFAULT_SERVICE = "budgetlab"


@dataclass(frozen=True)
class SLODocument:
    """One OpenSLO v1 SLO, as budgetlab uses it.

    Parameters
    ----------
    name : str
        ``metadata.name``.
    slo : SLO
        Target (``objectives[0].target``), SRE period (``timeWindow[0].duration``) and tracker
        window (annotation ``budgetlab/window``; without it, the period); ``warning``,
        ``critical`` and ``min_events`` travel in ``budgetlab/*`` annotations.
    service, display_name, description : str
        ``spec.service`` (``""`` becomes :data:`DEFAULT_SERVICE`, as OpenSLO v1 requires one),
        ``metadata.displayName``, ``spec.description``.
    budgeting_method : {"Occurrences", "Timeslices", "RatioTimeslices"}
        ``spec.budgetingMethod``. RatioTimeslices: the SLI is the mean of the per-slice success
        ratios (``sli_ratio_mean`` of :func:`budgetlab.budget.period.period_budget`).
    time_slice_target : float, optional
        ``objectives[0].timeSliceTarget`` (Timeslices only), in (0, 1].
    time_slice_window : duration, optional
        ``objectives[0].timeSliceWindow`` (Timeslices and RatioTimeslices), whole minutes.
    calendar : {"day", "week", "month"}, optional
        Calendar-aligned ``timeWindow`` (``1d``, ``1w``, ``1M``); ``None`` for a rolling window.
        ``slo.period`` must then be 1, 7 or 30 days (the nominal length).
    calendar_start : str, optional
        ``calendar.startTime`` (local, ``"2022-01-01 12:00:00"``); calendar windows only.
    time_zone : str, optional
        ``calendar.timeZone`` (IANA name); required with ``calendar``.
    alert_policies : tuple of AlertPolicy
        One per OpenSLO ``AlertPolicy`` (several tiers when they were grouped with the
        ``budgetlab/policy`` annotation). A policy's ``period`` is the SLO period unless the
        annotation ``budgetlab/period`` says otherwise.
    objective_name : str
        ``objectives[0].displayName``.
    objective_op : str, optional
        ``objectives[0].op`` (``lt``, ``lte``, ``gt``, ``gte``): OpenSLO v1 forbids it on a
        ratio SLI, so it is allowed only with an ``indicator_ref`` whose SLI is not at hand.
    indicator : dict, optional
        The SLI (``spec.indicator``, or the ``kind: SLI`` object ``indicator_ref`` names):
        ``{"metadata": ..., "spec": {"ratioMetric": ...}}`` with the good/bad/total
        ``metricSource`` queries; must not be a ``thresholdMetric``. ``None``: budgetlab
        writes its events SLI (good = events with ``ok`` true, total = all events).
    indicator_ref : str, optional
        ``spec.indicatorRef``; with ``indicator`` given, the SLI object is written too.
    labels, annotations : dict
        ``metadata.labels`` and ``metadata.annotations`` (without the ``budgetlab/`` ones).
    policy_info : dict of str to AlertPolicyInfo
        Per tier name: the display name, description and notification targets of its OpenSLO
        AlertPolicy (written as given; without an entry, budgetlab writes its default target).
    companions : tuple of dict
        Objects the SLO refers to, kept verbatim and written back: the ``Service`` named by
        ``spec.service``, the ``AlertNotificationTarget`` objects named by ``targetRef``, the
        ``DataSource`` objects named by ``metricSourceRef``.
    notes : tuple of str
        How the file was read (names made safe, fields dropped, defaults taken); not compared.
    source_spec : str
        The spec the SLO was read from (``openslo/v1``, ``openslo/v1alpha``, Sloth's
        ``prometheus/v1``, ``pyrra.dev/v1alpha1``; ``openslo/v1`` for one built here), which the
        Sloth-style ``sloth_slo_info`` recording names as Sloth does; not compared.

    Examples
    --------
    >>> doc = SLODocument("checkout", SLO(target=0.999, window="1D", period="28D"), service="shop")
    >>> doc.slo.period, doc.service, doc.policy is None
    (Timedelta('28 days 00:00:00'), 'shop', True)

    :func:`~.write.to_openslo_yaml` shows a document as OpenSLO.
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
    policy_info: dict[str, AlertPolicyInfo] = field(default_factory=dict)
    companions: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = field(default=(), compare=False)
    source_spec: str = field(default=API_VERSION, compare=False)

    def __post_init__(self) -> None:
        set_ = self._set
        set_("name", check_str(self.name, "name", required=True))
        if not isinstance(self.slo, SLO):
            raise ConfigError("slo must be a budgetlab.SLO (e.g. SLO(target=0.999, window='28D')).")
        # whole minutes; on the command line they come from --window and --period
        duration_shorthand(self.slo.window, where=say("slo.window", "--window"))
        duration_shorthand(self.slo.period, where=say("slo.period", "--period"))
        for f in ("service", "display_name", "description", "objective_name"):
            set_(f, check_str(getattr(self, f), f))
        set_("service", self.service or DEFAULT_SERVICE)
        self._check_method()
        self._check_calendar()
        self._check_indicator()
        set_("labels", check_strings(self.labels, "labels", lists=True))
        ann = check_strings(self.annotations, "annotations")
        own = [k for k in ann if k.startswith(ANNOTATION_PREFIX)]
        if own:
            raise ConfigError(f"annotations: {own[0]!r} is reserved; budgetlab writes the "
                              "budgetlab/ "
                              "annotations from the SLO and policy fields.")
        set_("annotations", ann)
        self._check_policies()
        comps = self.companions
        if isinstance(comps, Mapping) or not isinstance(comps, Sequence) or not all(
                isinstance(c, Mapping) and isinstance(c.get("metadata"), Mapping) for c in comps):
            raise ConfigError("companions must be a tuple of OpenSLO objects (mappings with kind "
                              "and "
                              "metadata).")
        set_("companions", tuple(plain(c) for c in comps))
        set_("notes", tuple(str(n) for n in self.notes))
        set_("source_spec", check_str(self.source_spec, "source_spec", required=True))

    def _check_calendar(self) -> None:
        if self.calendar is None:
            if self.calendar_start is not None or self.time_zone is not None:
                raise ConfigError("calendar_start and time_zone apply to calendar windows only "
                                  "(give "
                                  "calendar=).")
            return
        if self.calendar not in CALENDAR_SHORTHAND:
            raise ConfigError(f"calendar={self.calendar!r} is not supported; use 'day', 'week' or "
                              "'month'.")
        nominal = CALENDARS[CALENDAR_SHORTHAND[self.calendar]][1]
        if self.slo.period != nominal:
            raise ConfigError(f"a calendar {self.calendar} SLO has period "
                              f"{prose_duration(nominal)} (its nominal length), not "
                              f"{prose_duration(self.slo.period)}; build the SLO with "
                              f"period='{nominal.days}D'.")
        if self.time_zone is None:
            raise ConfigError("a calendar window needs time_zone (an IANA name such as "
                              "'Europe/Berlin').")
        self._set("time_zone", check_tz(self.time_zone, name="time_zone"))
        if self.calendar_start is None:
            raise ConfigError("a calendar window needs calendar_start (e.g. '2026-01-01 00:00:00', "
                              "local "
                              "time).")
        self._set("calendar_start", normalize_start(self.calendar_start, "calendar_start"))

    def _check_policies(self) -> None:
        """``alert_policies`` (durations in whole minutes, unique tier names) and
        ``policy_info``."""
        pols = self.alert_policies
        if isinstance(pols, AlertPolicy) or not isinstance(pols, Sequence):
            raise ConfigError("alert_policies must be a tuple of AlertPolicy.")
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
        twice = next((n for i, n in enumerate(tier_names) if n in tier_names[:i]), None)
        if twice is not None:
            raise ConfigError(f"alert_policies: two tiers are named {twice!r}; tier names must be "
                              "unique across the alert policies of one SLO.")
        self._set("alert_policies", tuple(pols))
        info = self.policy_info
        if not isinstance(info, Mapping) or not all(
            isinstance(v, AlertPolicyInfo) for v in info.values()
        ):
            raise ConfigError("policy_info must map tier names to AlertPolicyInfo.")
        unknown = sorted(set(info) - set(tier_names))
        if unknown:
            raise ConfigError(f"policy_info names {unknown[0]!r}, which is no tier of the alert "
                              "policies.")
        self._set("policy_info", dict(info))

    def _check_method(self) -> None:
        set_ = self._set
        if self.budgeting_method not in METHODS_V1:
            raise ConfigError(f"budgeting_method={self.budgeting_method!r} is not supported; use "
                              "one of "
                              f"{', '.join(map(repr, METHODS_V1))}.")
        if self.budgeting_method == "Occurrences":
            if self.time_slice_target is not None or self.time_slice_window is not None:
                raise ConfigError("time_slice_target and time_slice_window apply to time-slice "
                                  "budgeting methods only; give budgeting_method='Timeslices' "
                                  "or 'RatioTimeslices', or leave them out.")
            return
        if self.budgeting_method == "Timeslices" and (
            self.time_slice_target is None or self.time_slice_window is None
        ):
            raise ConfigError("budgeting_method='Timeslices' needs time_slice_target and "
                              "time_slice_window.")
        if self.time_slice_window is None:
            raise ConfigError(f"budgeting_method={self.budgeting_method!r} needs "
                              "time_slice_window.")
        tsw = to_timedelta(self.time_slice_window, name="time_slice_window")
        duration_shorthand(tsw, where="time_slice_window")
        set_("time_slice_window", tsw)
        if self.budgeting_method == "RatioTimeslices":
            if self.time_slice_target is not None:
                raise ConfigError("RatioTimeslices has no time_slice_target (the target applies to "
                                  "the mean "
                                  "per-slice ratio).")
            return
        set_("time_slice_target", check_fraction("time_slice_target", self.time_slice_target,
                                                 high_open=False))

    def _check_indicator(self) -> None:
        set_ = self._set
        if self.indicator is not None:
            if not isinstance(self.indicator, Mapping):
                raise ConfigError("indicator must be a mapping (an OpenSLO SLI: metadata and spec) "
                                  "or None.")
            refuse_threshold(self.indicator.get("spec"), "indicator.spec")
            check_metadata(self.indicator.get("metadata"), "indicator.metadata")
            check_indicator_spec(self.indicator.get("spec"), "indicator.spec")
            set_("indicator", plain(self.indicator))
        if self.indicator_ref is not None:
            set_("indicator_ref", check_str(self.indicator_ref, "indicator_ref", required=True))
        if self.objective_op is not None:
            if self.objective_op not in OPS:
                raise ConfigError("objective_op must be one of 'lt', 'lte', 'gt', 'gte' or None.")
            if self.indicator is not None or self.indicator_ref is None:
                raise ConfigError("objective_op is forbidden on a ratio SLI (OpenSLO v1: op "
                                  "belongs to threshold "
                                  "metrics); drop it, or keep it only with an indicator_ref whose "
                                  "SLI is elsewhere.")

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)

    # ----- derived ----------------------------------------------------------------------------
    @property
    def target(self) -> float:
        """The objective's target (``slo.target``)."""
        return self.slo.target

    @property
    def policy(self) -> AlertPolicy | None:
        """Every tier of every alert policy as one :class:`AlertPolicy` (tiers OR-ed), or ``None``
        (:func:`merged_policy` under the SLO's period).

        >>> doc = SLODocument("x", SLO(0.99, "30D"), alert_policies=(AlertPolicy.workbook("30D"),))
        >>> [t.name for t in doc.policy.tiers]
        ['page_1h', 'page_6h', 'ticket_1d', 'ticket_3d']
        """
        return merged_policy(self.alert_policies, self.slo.period, self.name)

    def period_kwargs(self) -> dict[str, Any]:
        """Arguments of :func:`budgetlab.budget.period.period_budget` for this SLO's time window and
        budgeting method: ``period`` or ``calendar``/``tz``, plus ``slice_window`` and
        ``slice_target`` for Timeslices.

        budgetlab's calendar periods start at local midnight (weeks on Monday, months on the
        1st); a ``calendar.startTime`` that is not on such a boundary raises ConfigError.

        >>> SLODocument("x", SLO(0.99, "7D", period="7D"), calendar="week",
        ...             calendar_start="2026-01-05 00:00:00",
        ...             time_zone="Europe/Berlin").period_kwargs()
        {'calendar': 'week', 'tz': 'Europe/Berlin'}
        """
        out: dict[str, Any]
        if self.calendar is None:
            out = {"period": self.slo.period}
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
                    f"spec.timeWindow[0].calendar.startTime: budgetlab's {self.calendar} periods "
                    f"start at {first} "
                    f"(local time); {self.calendar_start} is not such a boundary."
                )
            out = {"calendar": self.calendar, "tz": self.time_zone}
        if self.budgeting_method != "Occurrences":
            out["slice_window"] = self.time_slice_window
        if self.budgeting_method == "Timeslices":
            out["slice_target"] = self.time_slice_target
        return out


def merged_policy(policies: Sequence[AlertPolicy], period: Any,
                  name: str = "") -> AlertPolicy | None:
    """Every tier of ``policies`` as one :class:`AlertPolicy` over the SLO's ``period``, or
    ``None`` without tiers; named after the one policy, else ``name`` (the SLO's).

    The SLO's period wins over a policy's own (annotation ``budgetlab/period``): a tier fires on
    burn rates (error ratio / (1 - target)), which no period enters, so the merge changes no
    alert, and the merged policy's period is the budget its alerts are scored against (the
    SLO's: ``backtest``'s budget spent before an episode). What a policy's own period does change
    is the budget fraction its burns mean: read it, or re-date the policy
    (:func:`~budgetlab.interop.redate.redate_policies`), on the policies before this merge.

    >>> pols = (AlertPolicy.sloth("30D"), AlertPolicy.pyrra("28D"))
    >>> p = merged_policy(pols, pd.Timedelta("30D"), "x")
    >>> p.period.days, p.name, [t.burn for t in p.tiers][::4]  # the burns as written
    (30, 'x', [14.4, 14.0])
    """
    tiers = [t for p in policies for t in p.tiers]
    if not tiers:
        return None
    return AlertPolicy(tuple(tiers), period=period, name=policies[0].name if len(policies) == 1
                       else name)


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
    names = [d.name for d in out]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise ConfigError(f"two SLOs are named {dup!r}; SLO names must be unique within one "
                          "file: rename one.")
    return out
