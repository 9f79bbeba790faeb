"""OpenSLO v1 in and out: read ``kind: SLO`` / ``AlertPolicy`` / ``AlertCondition`` into
:class:`~budgetlab.SLO` and :class:`~budgetlab.alerts.policy.AlertPolicy` objects, write them back.

The specification is the ``README.md`` of github.com/OpenSLO/OpenSLO (``apiVersion: openslo/v1``).
One :class:`SLODocument` holds one OpenSLO SLO: its metadata, the budgetlab :class:`SLO` (target
from the objective, window from ``timeWindow``), the budgeting method and the alert policies.

Mapping (see ``docs/interop.md`` for the full list of supported and rejected fields):

* ``objectives[0].target`` (or ``targetPercent / 100``) → ``SLO.target``; exactly one objective.
* ``timeWindow[0].duration`` → ``SLO.window`` (rolling); a calendar window (``1d``, ``1w``, ``1M``
  with ``calendar.startTime`` / ``timeZone``) keeps its calendar and uses the nominal length
  (1, 7 or 30 days, as OpenSLO's Go library reads ``M``) as the tracker window.
* ``budgetingMethod``: ``Occurrences`` or ``Timeslices`` (with ``timeSliceTarget`` /
  ``timeSliceWindow``); :meth:`SLODocument.period_kwargs` turns it into
  :func:`budgetlab.budget.period.period_budget` arguments.
* Each ``AlertCondition`` of ``kind: burnrate`` is one :class:`~budgetlab.alerts.policy.AlertTier`:
  ``threshold`` → ``burn``, ``lookbackWindow`` → ``long_window``, ``alertAfter`` → ``for_``,
  ``severity``. OpenSLO v1 has one window per condition; the short window of a multiwindow tier
  and ``keep_firing_for`` travel in the annotations ``budgetlab/short-window`` and
  ``budgetlab/keep-firing-for``. The tracker thresholds of :class:`SLO` (``warning``,
  ``critical``, ``min_events``) travel in ``budgetlab/warning``, ``budgetlab/critical`` and
  ``budgetlab/min-events``.

Anything else that would change the meaning (threshold metrics, ``op`` on a burn rate other than
``gt``, ``alertWhenNoData: true``, several objectives, unknown keys ...) raises a
:class:`~budgetlab.ConfigError` naming the field path, e.g. ``spec.indicator.spec.thresholdMetric``.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from .._util.files import atomic_path
from .._util.validation import as_list, check_fraction, to_timedelta
from ..alerts.policy import AlertPolicy, AlertTier
from ..errors import ConfigError, FileFormatError
from ..slo import SLO

__all__ = [
    "API_VERSION",
    "SLODocument",
    "read_openslo",
    "load_slo",
    "to_openslo_yaml",
    "write_openslo",
    "slos_from_recalibration",
    "ratio_indicator",
    "duration_shorthand",
    "parse_duration_shorthand",
]

API_VERSION = "openslo/v1"
_KINDS = ("SLO", "AlertPolicy", "AlertCondition")
_METHODS = ("Occurrences", "Timeslices")
_CALENDARS = {"1d": ("day", pd.Timedelta("1D")), "1w": ("week", pd.Timedelta("7D")),
              "1M": ("month", pd.Timedelta("30D"))}
_CALENDAR_SHORTHAND = {v[0]: k for k, v in _CALENDARS.items()}
_ANN = "budgetlab/"
_SLO_ANNOTATIONS = ("warning", "critical", "min-events")
_POLICY_ANNOTATIONS = ("policy", "period")
_CONDITION_ANNOTATIONS = ("tier", "short-window", "keep-firing-for")
_RFC1123 = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
_SHORTHAND = re.compile(r"^([0-9]+)([mhdwMQY])$")
_UNIT_NS = {"m": 60 * 10**9, "h": 3600 * 10**9, "d": 86400 * 10**9, "w": 7 * 86400 * 10**9}
_START_FORMAT = "%Y-%m-%d %H:%M:%S"


# ----------------------------------------------------------------------------------------------
# durations


def parse_duration_shorthand(value: Any, *, where: str = "duration", allow_zero: bool = False) -> pd.Timedelta:
    """Read an OpenSLO duration shorthand (``5m``, ``1h``, ``28d``, ``2w``) as a Timedelta.

    ``M``, ``Q`` and ``Y`` (months, quarters, years) have no fixed length and are refused here;
    calendar windows handle ``1M`` themselves.

    >>> parse_duration_shorthand("2w")
    Timedelta('14 days 00:00:00')
    >>> parse_duration_shorthand("90s")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: duration: '90s' is not an OpenSLO duration shorthand; give a whole number and one of m, h, d, w (e.g. 5m, 1h, 28d).
    """
    text = value if isinstance(value, str) else None
    m = _SHORTHAND.match(text.strip()) if text is not None else None
    if m is None:
        raise ConfigError(f"{where}: {value!r} is not an OpenSLO duration shorthand; give a whole number "
                          "and one of m, h, d, w (e.g. 5m, 1h, 28d).")
    count, unit = int(m.group(1)), m.group(2)
    if unit in "MQY":
        raise ConfigError(f"{where}: {value!r} uses months/quarters/years, which have no fixed length; "
                          "give days or weeks (e.g. 30d, 4w).")
    if count == 0 and not allow_zero:
        raise ConfigError(f"{where}: {value!r} must be positive.")
    return pd.Timedelta(count * _UNIT_NS[unit], unit="ns")


def duration_shorthand(value: Any, *, where: str = "duration") -> str:
    """Write a duration as an OpenSLO shorthand in days, hours or minutes, the largest unit that
    divides it exactly (``28d`` rather than ``4w``, as SLO windows are usually quoted).

    OpenSLO has no seconds: the duration must be a whole number of minutes.

    >>> duration_shorthand("24h"), duration_shorthand("14D"), duration_shorthand("90min")
    ('1d', '14d', '90m')
    """
    td = to_timedelta(value, name=where, allow_zero=True)
    ns = int(td.value)
    if ns == 0:
        return "0m"
    for unit in ("d", "h", "m"):
        if ns % _UNIT_NS[unit] == 0:
            return f"{ns // _UNIT_NS[unit]}{unit}"
    raise ConfigError(f"{where}={td} is not a whole number of minutes; OpenSLO durations have no seconds.")


# ----------------------------------------------------------------------------------------------
# the document


def _check_str(value: Any, where: str, *, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ConfigError(f"{where} must be a {'non-empty ' if required else ''}string.")
    return value


def _check_labels(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping of names to strings (or lists of strings).")
    out: dict[str, Any] = {}
    for k, v in value.items():
        if not isinstance(k, str) or not k:
            raise ConfigError(f"{where} keys must be non-empty strings.")
        if isinstance(v, str):
            out[k] = v
        elif isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
            out[k] = list(v)
        else:
            raise ConfigError(f"{where}.{k} must be a string or a list of strings.")
    return out


def _check_annotations(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping of names to strings.")
    out: dict[str, str] = {}
    for k, v in value.items():
        if not isinstance(k, str) or not k:
            raise ConfigError(f"{where} keys must be non-empty strings.")
        if not isinstance(v, str):
            raise ConfigError(f"{where}.{k} must be a string (quote it in YAML).")
        out[k] = v
    return out


def _normalize_start(value: Any, where: str) -> str:
    if isinstance(value, (_dt.datetime, pd.Timestamp)):
        ts = pd.Timestamp(value)
    elif isinstance(value, str):
        try:
            ts = pd.Timestamp(value.strip())
        except (ValueError, TypeError):
            raise ConfigError(f"{where}: {value!r} is not a date-time like '2022-01-01 12:00:00'.") from None
    else:
        raise ConfigError(f"{where} must be a date-time like '2022-01-01 12:00:00' (no time zone).")
    if pd.isna(ts):
        raise ConfigError(f"{where} is missing.")
    if ts.tzinfo is not None:
        raise ConfigError(f"{where} must be written without a time zone; give the zone in calendar.timeZone.")
    return str(ts.strftime(_START_FORMAT))


def _check_tz(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where} must be an IANA time-zone name such as 'Europe/Berlin'.")
    try:
        pd.Timestamp(0, tz=value)
    except Exception:  # zoneinfo/pytz raise different types for unknown zones
        raise ConfigError(f"{where}={value!r} is not a known IANA time zone (e.g. 'Europe/Berlin').") from None
    return value


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
        set_("name", _check_str(self.name, "name", required=True))
        if not isinstance(self.slo, SLO):
            raise ConfigError("slo must be a budgetlab.SLO (e.g. SLO(target=0.999, window='28D')).")
        duration_shorthand(self.slo.window, where="slo.window")  # whole minutes
        for f in ("service", "display_name", "description", "objective_name"):
            set_(f, _check_str(getattr(self, f), f))
        if self.budgeting_method not in _METHODS:
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
            if self.calendar not in _CALENDAR_SHORTHAND:
                raise ConfigError(f"calendar={self.calendar!r} is not supported; use 'day', 'week' or 'month'.")
            nominal = _CALENDARS[_CALENDAR_SHORTHAND[self.calendar]][1]
            if self.slo.window != nominal:
                raise ConfigError(f"a calendar {self.calendar} SLO has window {nominal} (its nominal length); "
                                  f"build the SLO with window='{nominal.days}D'.")
            set_("time_zone", _check_tz(self.time_zone, "time_zone"))
            if self.calendar_start is None:
                raise ConfigError("a calendar window needs calendar_start (e.g. '2026-01-01 00:00:00', local time).")
            set_("calendar_start", _normalize_start(self.calendar_start, "calendar_start"))
        if self.objective_op is not None and self.objective_op not in ("lt", "lte", "gt", "gte"):
            raise ConfigError("objective_op must be one of 'lt', 'lte', 'gt', 'gte' or None.")
        if self.indicator is not None:
            if not isinstance(self.indicator, Mapping):
                raise ConfigError("indicator must be a mapping (an inline OpenSLO SLI) or None.")
            _check_indicator(self.indicator, "indicator")
            set_("indicator", _plain(self.indicator))
        if self.indicator_ref is not None:
            set_("indicator_ref", _check_str(self.indicator_ref, "indicator_ref", required=True))
        if self.indicator is not None and self.indicator_ref is not None:
            raise ConfigError("give indicator or indicator_ref, not both.")
        set_("labels", _check_labels(self.labels, "labels"))
        ann = _check_annotations(self.annotations, "annotations")
        own = [k for k in ann if k.startswith(_ANN)]
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


# ----------------------------------------------------------------------------------------------
# reading


class _Loader(yaml.SafeLoader):  # type: ignore[misc]
    """Safe YAML loader that refuses duplicated keys instead of keeping the last one."""


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ConfigError(f"line {key_node.start_mark.line + 1}: key {key!r} appears twice in one mapping.")
        seen.add(key)
    return dict(loader.construct_mapping(node, deep=deep))


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _plain(value: Any) -> Any:
    """A deep copy made of dicts, lists and scalars (datetimes as ISO text)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat(sep=" ") if isinstance(value, _dt.datetime) else value.isoformat()
    return value


def _load_documents(source: Any) -> tuple[list[Any], str]:
    is_text = isinstance(source, str) and ("\n" in source or source.lstrip().startswith(("apiVersion", "-", "{")))
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not is_text):
        path = Path(source)
        if not path.exists():
            raise FileFormatError(f"{path}: no such file; give an OpenSLO YAML file.")
        if path.is_dir():
            raise FileFormatError(f"{path}: is a directory; give an OpenSLO YAML file.")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise FileFormatError(f"{path}: is not UTF-8 text; give an OpenSLO YAML file.") from None
        label = path.name
    elif isinstance(source, str):
        text, label = source, "<text>"
    else:
        raise ConfigError("read_openslo takes a path or YAML text.")
    try:
        docs = list(yaml.load_all(text, Loader=_Loader))  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise FileFormatError(f"{label}: is not valid YAML{where}; fix the syntax.") from None
    objects: list[Any] = []
    for d in docs:
        if d is None:
            continue
        objects.extend(d if isinstance(d, list) else [d])
    if not objects:
        raise FileFormatError(f"{label}: holds no OpenSLO objects.")
    return objects, label


def _p(where: str) -> str:
    """Field-path prefix: ``"spec."`` for ``"spec"``, nothing at the top of an object."""
    return f"{where}." if where else ""


def _keys(obj: Mapping[str, Any], allowed: Iterable[str], where: str, why: Mapping[str, str] | None = None) -> None:
    allowed = set(allowed)
    for k in obj:
        if k not in allowed:
            reason = (why or {}).get(k, "budgetlab does not read this field")
            raise ConfigError(f"{_p(where)}{k} is not supported ({reason}); supported here: "
                              f"{', '.join(sorted(allowed))}.")


def _mapping(value: Any, where: str, *, required: bool = True) -> dict[str, Any]:
    if value is None and not required:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping.")
    return dict(value)


def _check_indicator(ind: Mapping[str, Any], where: str) -> None:
    """An inline SLI is kept verbatim, but it must be a ratio of events (budgetlab's SLI)."""
    spec = ind.get("spec")
    if not isinstance(spec, Mapping):
        raise ConfigError(f"{_p(where)}spec must be a mapping holding a ratioMetric.")
    if "thresholdMetric" in spec:
        raise ConfigError(f"{_p(where)}spec.thresholdMetric is not supported: budgetlab evaluates good/total event "
                          "ratios; describe the SLI as a ratioMetric (good or bad over total).")
    if not isinstance(spec.get("ratioMetric"), Mapping):
        raise ConfigError(f"{_p(where)}spec.ratioMetric is required (good or bad over total).")


def _metadata(obj: Mapping[str, Any], where: str) -> tuple[str, str, dict[str, Any], dict[str, str]]:
    meta = _mapping(obj.get("metadata"), f"{_p(where)}metadata")
    _keys(meta, ("name", "displayName", "labels", "annotations"), f"{_p(where)}metadata")
    name = _check_str(meta.get("name"), f"{_p(where)}metadata.name", required=True)
    display = _check_str(meta.get("displayName"), f"{_p(where)}metadata.displayName")
    labels = _check_labels(meta.get("labels"), f"{_p(where)}metadata.labels")
    ann = _check_annotations(meta.get("annotations"), f"{_p(where)}metadata.annotations")
    return name, display, labels, ann


def _own_annotations(ann: dict[str, str], allowed: Sequence[str], where: str) -> tuple[dict[str, str], dict[str, str]]:
    """Split annotations into (budgetlab ones without prefix, the rest)."""
    own: dict[str, str] = {}
    rest: dict[str, str] = {}
    for k, v in ann.items():
        if k.startswith(_ANN):
            short = k[len(_ANN):]
            if short not in allowed:
                raise ConfigError(f"{_p(where)}metadata.annotations.{k} is not a budgetlab annotation here; "
                                  f"known: {', '.join(_ANN + a for a in allowed)}.")
            own[short] = v
        else:
            rest[k] = v
    return own, rest


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{where} must be a number.")
    return float(value)


def _bool(value: Any, where: str, default: bool) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false.")
    return value


def _check_envelope(obj: Any, where: str, *, inline_kind: str | None = None) -> str:
    if not isinstance(obj, Mapping):
        raise ConfigError(f"{where or 'each object'} must be a mapping with apiVersion, kind, metadata and spec.")
    if inline_kind is None or "apiVersion" in obj:
        version = obj.get("apiVersion")
        if version != API_VERSION:
            raise ConfigError(f"{_p(where)}apiVersion={version!r} is not supported; budgetlab reads {API_VERSION!r}.")
    kind = obj.get("kind", inline_kind)
    expected = _KINDS if inline_kind is None else (inline_kind,)
    if kind not in expected:
        raise ConfigError(f"{_p(where)}kind={kind!r} is not supported here; budgetlab reads kind "
                          f"{', '.join(expected)}.")
    _keys(obj, ("apiVersion", "kind", "metadata", "spec"), where)
    return str(kind)


def _parse_condition(obj: Mapping[str, Any], where: str) -> AlertTier:
    name, _display, _labels, ann = _metadata(obj, where)
    own, _rest = _own_annotations(ann, _CONDITION_ANNOTATIONS, where)
    spec = _mapping(obj.get("spec"), f"{_p(where)}spec")
    _keys(spec, ("description", "severity", "condition"), f"{_p(where)}spec")
    severity = _check_str(spec.get("severity"), f"{_p(where)}spec.severity", required=True)
    cond = _mapping(spec.get("condition"), f"{_p(where)}spec.condition")
    cw = f"{_p(where)}spec.condition"
    _keys(cond, ("kind", "op", "threshold", "lookbackWindow", "alertAfter"), cw)
    kind = cond.get("kind", "burnrate")
    if kind != "burnrate":
        raise ConfigError(f"{_p(cw)}kind={kind!r} is not supported; budgetlab reads burnrate conditions.")
    op = cond.get("op", "gt")
    if op != "gt":
        raise ConfigError(f"{_p(cw)}op={op!r} is not supported: a burn-rate alert fires while the burn rate is "
                          "above the threshold (op: gt), as in Prometheus's '>'.")
    if "threshold" not in cond:
        raise ConfigError(f"{_p(cw)}threshold is required (the burn rate, e.g. 14.4).")
    threshold = _number(cond["threshold"], f"{_p(cw)}threshold")
    if "lookbackWindow" not in cond:
        raise ConfigError(f"{_p(cw)}lookbackWindow is required (e.g. 1h).")
    long_w = parse_duration_shorthand(cond["lookbackWindow"], where=f"{_p(cw)}lookbackWindow")
    after = parse_duration_shorthand(cond.get("alertAfter", "0m"), where=f"{_p(cw)}alertAfter", allow_zero=True)
    short_w = None
    if "short-window" in own:
        short_w = parse_duration_shorthand(own["short-window"], where=f"{_p(where)}metadata.annotations.budgetlab/short-window")
    cool = pd.Timedelta(0)
    if "keep-firing-for" in own:
        cool = parse_duration_shorthand(own["keep-firing-for"], allow_zero=True,
                                        where=f"{_p(where)}metadata.annotations.budgetlab/keep-firing-for")
    with _context(f"{_p(where)}spec.condition"):
        return AlertTier(own.get("tier", name), severity, long_w, short_w, threshold, for_=after, cooldown=cool)


@contextlib.contextmanager
def _context(prefix: str) -> Iterator[None]:
    """Prefix the message of a ConfigError raised inside with ``prefix: ``."""
    try:
        yield
    except ConfigError as exc:
        if not prefix:
            raise
        raise ConfigError(f"{prefix}: {exc}") from None


@dataclass
class _Objects:
    label: str
    slos: list[tuple[str, dict[str, Any]]]
    policies: dict[str, tuple[str, dict[str, Any]]]
    conditions: dict[str, tuple[str, dict[str, Any]]]
    used: set[tuple[str, str]]


_Parsed = tuple[str, str | None, pd.Timedelta | None, list[AlertTier]]


def _resolve_policy(item: Any, where: str, objs: _Objects) -> _Parsed:
    """(name, budgetlab/policy and budgetlab/period annotations or None, tiers) of one
    ``alertPolicies`` item."""
    if isinstance(item, str) or (isinstance(item, Mapping) and set(item) == {"alertPolicyRef"}):
        ref = item if isinstance(item, str) else item["alertPolicyRef"]
        if not isinstance(ref, str) or ref not in objs.policies:
            raise ConfigError(f"{where}: alertPolicyRef {ref!r} names no AlertPolicy in {objs.label}.")
        objs.used.add(("AlertPolicy", ref))
        ctx, obj = objs.policies[ref]
        with _context(ctx):
            return _parse_policy(obj, "", objs)
    _check_envelope(item, where, inline_kind="AlertPolicy")
    return _parse_policy(dict(item), where, objs)


def _parse_policy(obj: Mapping[str, Any], pwhere: str, objs: _Objects) -> _Parsed:
    name, _display, _labels, ann = _metadata(obj, pwhere)
    own, _rest = _own_annotations(ann, _POLICY_ANNOTATIONS, pwhere)
    spec = _mapping(obj.get("spec"), f"{_p(pwhere)}spec")
    _keys(spec, ("description", "alertWhenNoData", "alertWhenBreaching", "alertWhenResolved", "conditions",
                 "notificationTargets"), f"{_p(pwhere)}spec")
    if not _bool(spec.get("alertWhenBreaching"), f"{_p(pwhere)}spec.alertWhenBreaching", True):
        raise ConfigError(f"{_p(pwhere)}spec.alertWhenBreaching: false is not supported: budgetlab's alerts fire "
                          "while the condition breaches.")
    if _bool(spec.get("alertWhenNoData"), f"{_p(pwhere)}spec.alertWhenNoData", False):
        raise ConfigError(f"{_p(pwhere)}spec.alertWhenNoData: true is not supported: a window without traffic has "
                          "burn rate 0 in budgetlab and never alerts.")
    _bool(spec.get("alertWhenResolved"), f"{_p(pwhere)}spec.alertWhenResolved", False)
    nt = spec.get("notificationTargets")
    if nt is not None and not isinstance(nt, list):
        raise ConfigError(f"{_p(pwhere)}spec.notificationTargets must be a list.")
    conds = spec.get("conditions")
    if not isinstance(conds, list) or not conds:
        raise ConfigError(f"{_p(pwhere)}spec.conditions must list at least one condition.")
    tiers = []
    for i, c in enumerate(conds):
        cwhere = f"{_p(pwhere)}spec.conditions[{i}]"
        if isinstance(c, Mapping) and set(c) == {"conditionRef"}:
            ref = c["conditionRef"]
            if not isinstance(ref, str) or ref not in objs.conditions:
                raise ConfigError(f"{cwhere}: conditionRef {ref!r} names no AlertCondition in {objs.label}.")
            objs.used.add(("AlertCondition", ref))
            ctx, ref_obj = objs.conditions[ref]
            with _context(ctx):
                tiers.append(_parse_condition(ref_obj, ""))
        else:
            _check_envelope(c, cwhere, inline_kind="AlertCondition")
            tiers.append(_parse_condition(c, cwhere))
    period = None
    if "period" in own:
        period = parse_duration_shorthand(own["period"], where=f"{_p(pwhere)}metadata.annotations.budgetlab/period")
    return name, own.get("policy"), period, tiers


def _parse_slo(obj: dict[str, Any], objs: _Objects) -> SLODocument:
    where = ""
    name, display, labels, ann = _metadata(obj, where)
    own, rest = _own_annotations(ann, _SLO_ANNOTATIONS, where)
    spec = _mapping(obj.get("spec"), f"{_p(where)}spec")
    sw = f"{_p(where)}spec"
    _keys(spec, ("description", "service", "indicator", "indicatorRef", "timeWindow", "budgetingMethod",
                 "objectives", "alertPolicies"), sw)
    indicator = spec.get("indicator")
    if indicator is not None:
        indicator = _mapping(indicator, f"{_p(sw)}indicator")
        _check_indicator(indicator, f"{_p(sw)}indicator")
    indicator_ref = spec.get("indicatorRef")
    if indicator_ref is not None:
        indicator_ref = _check_str(indicator_ref, f"{_p(sw)}indicatorRef", required=True)

    # timeWindow
    tw = spec.get("timeWindow")
    if tw is None:
        raise ConfigError(f"{_p(sw)}timeWindow is required by budgetlab (the SLO window, e.g. 28d rolling).")
    if not isinstance(tw, list) or len(tw) != 1:
        raise ConfigError(f"{_p(sw)}timeWindow must be a list with exactly one item.")
    tww = f"{_p(sw)}timeWindow[0]"
    item = _mapping(tw[0], tww)
    _keys(item, ("duration", "isRolling", "calendar"), tww)
    if "duration" not in item:
        raise ConfigError(f"{_p(tww)}duration is required (e.g. 28d).")
    cal = item.get("calendar")
    rolling = _bool(item.get("isRolling"), f"{_p(tww)}isRolling", cal is None)
    calendar = calendar_start = time_zone = None
    if rolling:
        if cal is not None:
            raise ConfigError(f"{tww}: isRolling: true contradicts calendar; give one of them.")
        window = parse_duration_shorthand(item["duration"], where=f"{_p(tww)}duration")
    else:
        if cal is None:
            raise ConfigError(f"{tww}: isRolling: false needs calendar (startTime, timeZone).")
        duration = item["duration"]
        if duration not in _CALENDARS:
            raise ConfigError(f"{_p(tww)}duration={duration!r} is not supported for a calendar window; budgetlab "
                              "has calendar periods 1d, 1w and 1M (note: 'm' is minutes, 'M' months).")
        calendar, window = _CALENDARS[duration]
        cmap = _mapping(cal, f"{_p(tww)}calendar")
        _keys(cmap, ("startTime", "timeZone"), f"{_p(tww)}calendar")
        for k in ("startTime", "timeZone"):
            if k not in cmap:
                raise ConfigError(f"{_p(tww)}calendar.{k} is required.")
        calendar_start = _normalize_start(cmap["startTime"], f"{_p(tww)}calendar.startTime")
        time_zone = _check_tz(cmap["timeZone"], f"{_p(tww)}calendar.timeZone")

    method = spec.get("budgetingMethod")
    if method not in _METHODS:
        raise ConfigError(f"{_p(sw)}budgetingMethod={method!r} is not supported; use Occurrences or Timeslices.")

    objectives = spec.get("objectives")
    if not isinstance(objectives, list) or not objectives:
        raise ConfigError(f"{_p(sw)}objectives must list one objective.")
    if len(objectives) > 1:
        raise ConfigError(f"{_p(sw)}objectives lists {len(objectives)} objectives; budgetlab reads one objective per "
                          "SLO: split them into one SLO each.")
    ow = f"{_p(sw)}objectives[0]"
    objective = _mapping(objectives[0], ow)
    _keys(objective, ("displayName", "op", "target", "targetPercent", "timeSliceTarget", "timeSliceWindow"), ow,
          why={"value": "thresholdMetric objectives (op/value) are not supported; budgetlab evaluates ratio SLIs",
               "indicator": "per-objective indicators are not part of openslo/v1 SLO objectives",
               "indicatorRef": "per-objective indicators are not part of openslo/v1 SLO objectives"})
    op = objective.get("op")
    if op is not None and op not in ("lt", "lte", "gt", "gte"):
        raise ConfigError(f"{_p(ow)}op={op!r} must be one of lt, lte, gt, gte.")
    if ("target" in objective) == ("targetPercent" in objective):
        raise ConfigError(f"{ow}: give exactly one of target and targetPercent.")
    if "target" in objective:
        target = check_fraction(f"{_p(ow)}target", objective["target"])
    else:
        pct = _number(objective["targetPercent"], f"{_p(ow)}targetPercent")
        if not 0 < pct < 100:
            raise ConfigError(f"{_p(ow)}targetPercent={pct!r} must lie in (0, 100).")
        target = pct / 100
    slice_target = slice_window = None
    if method == "Timeslices":
        for k in ("timeSliceTarget", "timeSliceWindow"):
            if k not in objective:
                raise ConfigError(f"{_p(ow)}{k} is required with budgetingMethod: Timeslices.")
        slice_target = check_fraction(f"{_p(ow)}timeSliceTarget", objective["timeSliceTarget"], high_open=False)
        tsw = objective["timeSliceWindow"]
        if isinstance(tsw, int) and not isinstance(tsw, bool):  # the spec: a bare number is minutes
            if tsw <= 0:
                raise ConfigError(f"{_p(ow)}timeSliceWindow must be positive.")
            slice_window = pd.Timedelta(minutes=tsw)
        else:
            slice_window = parse_duration_shorthand(tsw, where=f"{_p(ow)}timeSliceWindow")
    else:
        for k in ("timeSliceTarget", "timeSliceWindow"):
            if k in objective:
                raise ConfigError(f"{_p(ow)}{k} applies to budgetingMethod: Timeslices only.")

    slo_kw: dict[str, Any] = {}
    for key, fname, conv in (("warning", "warning", float), ("critical", "critical", float),
                             ("min-events", "min_events", int)):
        if key in own:
            try:
                slo_kw[fname] = conv(own[key])
            except ValueError:
                raise ConfigError(f"{_p(where)}metadata.annotations.budgetlab/{key} must be a number.") from None
    slo = SLO(target=target, window=window, **slo_kw)

    # alert policies, grouped by the budgetlab/policy annotation
    raw = spec.get("alertPolicies")
    if raw is not None and not isinstance(raw, list):
        raise ConfigError(f"{_p(sw)}alertPolicies must be a list.")
    groups: list[tuple[str, str | None, pd.Timedelta, list[AlertTier]]] = []
    for i, it in enumerate(raw or []):
        iw = f"{_p(sw)}alertPolicies[{i}]"
        pname, group, period, tiers = _resolve_policy(it, iw, objs)
        period = slo.window if period is None else period
        if group is not None and groups and groups[-1][1] == group:
            if groups[-1][2] != period:
                raise ConfigError(f"{iw}: the policies grouped as budgetlab/policy {group!r} have different "
                                  "budgetlab/period annotations.")
            groups[-1][3].extend(tiers)
        else:
            groups.append((group if group is not None else pname, group, period, list(tiers)))
    policies = tuple(AlertPolicy(tuple(tiers), period=period, name=pname) for pname, _, period, tiers in groups)
    return SLODocument(
            name=name, slo=slo, service=_check_str(spec.get("service"), f"{_p(sw)}service"), display_name=display,
            description=_check_str(spec.get("description"), f"{_p(sw)}description"), budgeting_method=method,
            time_slice_target=slice_target, time_slice_window=slice_window, calendar=calendar,
            calendar_start=calendar_start, time_zone=time_zone, alert_policies=policies,
            objective_name=_check_str(objective.get("displayName"), f"{_p(ow)}displayName"), objective_op=op,
            indicator=indicator, indicator_ref=indicator_ref, labels=labels, annotations=rest,
        )


def read_openslo(source: str | os.PathLike[str]) -> list[SLODocument]:
    """Read the SLOs of an OpenSLO v1 file (or YAML text), with their alert policies.

    The file may hold several YAML documents (``---``) or lists of objects. ``AlertPolicy``
    objects are found by ``alertPolicyRef`` (or inline), ``AlertCondition`` objects by
    ``conditionRef`` (or inline). Every object must be used: an AlertPolicy or AlertCondition
    that no SLO references raises ConfigError, as does any other kind (Service, SLI, ...).

    Returns
    -------
    list of SLODocument
        In file order.

    Examples
    --------
    >>> text = '''
    ... apiVersion: openslo/v1
    ... kind: SLO
    ... metadata: {name: solve-rate}
    ... spec:
    ...   service: captcha
    ...   timeWindow: [{duration: 1d, isRolling: true}]
    ...   budgetingMethod: Occurrences
    ...   objectives: [{targetPercent: 95}]
    ... '''
    >>> doc, = read_openslo(text)
    >>> doc.slo
    SLO(target=0.95, window=Timedelta('1 days 00:00:00'), warning=0.5, critical=0.1, min_events=0)
    >>> read_openslo(text.replace("targetPercent: 95", "target: 0.95, value: 3"))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: <text>, SLO 'solve-rate': spec.objectives[0].value is not supported (thresholdMetric objectives (op/value) are not supported; budgetlab evaluates ratio SLIs); supported here: displayName, op, target, targetPercent, timeSliceTarget, timeSliceWindow.
    """
    objects, label = _load_documents(source)
    objs = _Objects(label=label, slos=[], policies={}, conditions={}, used=set())
    slo_names: set[str] = set()
    for i, obj in enumerate(objects, start=1):
        with _context(f"{label}, document {i}"):
            kind = _check_envelope(obj, "")
            meta = obj.get("metadata")
            name = meta.get("name") if isinstance(meta, Mapping) else None
            if not isinstance(name, str) or not name.strip():
                raise ConfigError("metadata.name is required.")
        ctx = f"{label}, {kind} {name!r}"
        if kind == "SLO":
            if name in slo_names:
                raise ConfigError(f"{ctx}: another SLO has the same name; names must be unique.")
            slo_names.add(name)
            objs.slos.append((ctx, dict(obj)))
        else:
            table = objs.policies if kind == "AlertPolicy" else objs.conditions
            if name in table:
                raise ConfigError(f"{ctx}: another {kind} has the same name; names must be unique.")
            table[name] = (ctx, dict(obj))
    if not objs.slos:
        raise ConfigError(f"{label}: holds no kind: SLO object.")
    docs = []
    for ctx, obj in objs.slos:
        with _context(ctx):
            docs.append(_parse_slo(obj, objs))
    for kind, table in (("AlertPolicy", objs.policies), ("AlertCondition", objs.conditions)):
        for name, (ctx, _) in table.items():
            if (kind, name) not in objs.used:
                raise ConfigError(f"{ctx}: no SLO uses this {kind}; reference it (alertPolicyRef / "
                                  "conditionRef) or remove it.")
    return docs


def load_slo(spec: str) -> SLO:
    """The :class:`SLO` of an OpenSLO file, for ``budgetlab replay --slo FILE[#NAME]``.

    ``#NAME`` picks one SLO of a file that holds several. A calendar-aligned window is
    replayed as a trailing window of its nominal length; a note on stderr says so.
    """
    path, _, name = str(spec).partition("#")
    docs = read_openslo(Path(path))
    if name:
        chosen = [d for d in docs if d.name == name]
        if not chosen:
            raise ConfigError(f"{path}: has no SLO named {name!r}; it holds {', '.join(repr(d.name) for d in docs)}.")
        doc = chosen[0]
    elif len(docs) == 1:
        doc = docs[0]
    else:
        raise ConfigError(f"{path}: holds {len(docs)} SLOs; pick one with {path}#NAME "
                          f"({', '.join(d.name for d in docs)}).")
    if doc.calendar is not None:
        sys.stderr.write(f"note: SLO {doc.name!r} has a calendar {doc.calendar} window; the tracker replays it as a "
                         f"trailing {doc.slo.window} window.\n")
    return doc.slo


# ----------------------------------------------------------------------------------------------
# writing


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (s or "x")[:63].strip("-") or "x"


def _tier_condition(tier: AlertTier) -> dict[str, Any]:
    ann: dict[str, str] = {}
    name = tier.name if _RFC1123.match(tier.name) else _slug(tier.name)
    if name != tier.name:
        ann[_ANN + "tier"] = tier.name
    if tier.short_window is not None:
        ann[_ANN + "short-window"] = duration_shorthand(tier.short_window)
    if tier.cooldown > pd.Timedelta(0):
        ann[_ANN + "keep-firing-for"] = duration_shorthand(tier.cooldown)
    meta: dict[str, Any] = {"name": name}
    if ann:
        meta["annotations"] = ann
    windows = " and ".join(duration_shorthand(w) for w in tier.windows)
    return {
        "kind": "AlertCondition",
        "metadata": meta,
        "spec": {
            "description": f"burn rate above {tier.burn:g} over {windows}",
            "severity": tier.severity,
            "condition": {
                "kind": "burnrate",
                "op": "gt",
                "threshold": _num(tier.burn),
                "lookbackWindow": duration_shorthand(tier.long_window),
                "alertAfter": duration_shorthand(tier.for_),
            },
        },
    }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def _policy_objects(doc: SLODocument) -> list[dict[str, Any]]:
    out = []
    for p in doc.alert_policies:
        single = len(p.tiers) == 1 and bool(_RFC1123.match(p.name))
        for t in p.tiers:
            meta: dict[str, Any]
            ann: dict[str, str] = {}
            if single:
                meta = {"name": p.name}
            else:
                meta = {"name": _slug(f"{doc.name}-{p.name}-{t.name}")}
                ann[_ANN + "policy"] = p.name
            if p.period != doc.slo.window:
                ann[_ANN + "period"] = duration_shorthand(p.period)
            if ann:
                meta["annotations"] = ann
            out.append({
                "apiVersion": API_VERSION,
                "kind": "AlertPolicy",
                "metadata": meta,
                "spec": {
                    "description": f"{t.severity} when the burn-rate condition {t.name} holds",
                    "alertWhenNoData": False,
                    "alertWhenBreaching": True,
                    "alertWhenResolved": False,
                    "conditions": [_tier_condition(t)],
                    "notificationTargets": [],
                },
            })
    return out


def _slo_object(doc: SLODocument, policy_names: list[str]) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": doc.name}
    if doc.display_name:
        meta["displayName"] = doc.display_name
    if doc.labels:
        meta["labels"] = dict(doc.labels)
    ann = dict(doc.annotations)
    default = SLO()
    if doc.slo.warning != default.warning:
        ann[_ANN + "warning"] = repr(doc.slo.warning)
    if doc.slo.critical != default.critical:
        ann[_ANN + "critical"] = repr(doc.slo.critical)
    if doc.slo.min_events != default.min_events:
        ann[_ANN + "min-events"] = str(doc.slo.min_events)
    if ann:
        meta["annotations"] = ann
    spec: dict[str, Any] = {}
    if doc.description:
        spec["description"] = doc.description
    if doc.service:
        spec["service"] = doc.service
    if doc.indicator is not None:
        spec["indicator"] = _plain(doc.indicator)
    if doc.indicator_ref is not None:
        spec["indicatorRef"] = doc.indicator_ref
    if doc.calendar is None:
        spec["timeWindow"] = [{"duration": duration_shorthand(doc.slo.window), "isRolling": True}]
    else:
        spec["timeWindow"] = [{"duration": _CALENDAR_SHORTHAND[doc.calendar], "isRolling": False,
                               "calendar": {"startTime": doc.calendar_start, "timeZone": doc.time_zone}}]
    spec["budgetingMethod"] = doc.budgeting_method
    objective: dict[str, Any] = {}
    if doc.objective_name:
        objective["displayName"] = doc.objective_name
    if doc.objective_op is not None:
        objective["op"] = doc.objective_op
    objective["target"] = float(doc.slo.target)
    if doc.budgeting_method == "Timeslices":
        objective["timeSliceTarget"] = _num(float(doc.time_slice_target))  # type: ignore[arg-type]
        objective["timeSliceWindow"] = duration_shorthand(doc.time_slice_window)
    spec["objectives"] = [objective]
    if policy_names:
        spec["alertPolicies"] = [{"alertPolicyRef": n} for n in policy_names]
    return {"apiVersion": API_VERSION, "kind": "SLO", "metadata": meta, "spec": spec}


def _as_docs(docs: Any) -> list[SLODocument]:
    if isinstance(docs, SLODocument):
        return [docs]
    if isinstance(docs, (str, bytes)) or not isinstance(docs, Iterable):
        raise ConfigError("give an SLODocument or a list of them.")
    out = list(docs)
    if not out or not all(isinstance(d, SLODocument) for d in out):
        raise ConfigError("give at least one SLODocument (see budgetlab.interop.openslo.SLODocument).")
    names = [d.name for d in out]
    if len(set(names)) != len(names):
        raise ConfigError("SLO names must be unique within one file.")
    return out


def to_openslo_yaml(docs: SLODocument | Iterable[SLODocument]) -> str:
    """OpenSLO v1 YAML for ``docs``: each SLO followed by its AlertPolicy objects (one condition
    each), separated by ``---``. An alert policy shared by several SLOs (same name, same
    content) is written once. See :class:`SLODocument` for an example."""
    items = _as_docs(docs)
    written: dict[str, dict[str, Any]] = {}
    parts: list[dict[str, Any]] = []
    for doc in items:
        pols = _policy_objects(doc)
        parts.append(_slo_object(doc, [o["metadata"]["name"] for o in pols]))
        for obj in pols:
            n = obj["metadata"]["name"]
            if n in written:
                if written[n] != obj:
                    raise ConfigError(f"two different alert policies would both be written as {n!r}; rename one.")
                continue
            written[n] = obj
            parts.append(obj)
    return "---\n".join(yaml.safe_dump(p, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)
                        for p in parts)


def write_openslo(docs: SLODocument | Iterable[SLODocument], path: str | os.PathLike[str], *,
                  force: bool = False) -> Path:
    """Write ``docs`` as an OpenSLO v1 YAML file, atomically (existing files need ``force``)."""
    text = to_openslo_yaml(docs)
    with atomic_path(path, force=force) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


# ----------------------------------------------------------------------------------------------
# builders


def ratio_indicator(total_metric: str, errors_metric: str, *, selector: str = "", errors_selector: str = "",
                    name: str = "error-ratio") -> dict[str, Any]:
    """An inline OpenSLO ``ratioMetric`` SLI (bad over total) on two Prometheus counters.

    >>> ratio_indicator("captcha_solves_total", "captcha_solve_errors_total")["spec"]["ratioMetric"]["bad"]
    {'metricSource': {'type': 'Prometheus', 'spec': {'query': 'captcha_solve_errors_total'}}}
    """
    def query(metric: str, extra: str) -> str:
        sel = ",".join(s for s in (selector.strip(), extra.strip()) if s)
        return f"{metric}{{{sel}}}" if sel else metric

    def source(q: str) -> dict[str, Any]:
        return {"metricSource": {"type": "Prometheus", "spec": {"query": q}}}

    return {"metadata": {"name": name},
            "spec": {"ratioMetric": {"counter": True, "bad": source(query(errors_metric, errors_selector)),
                                     "total": source(query(total_metric, ""))}}}


def slos_from_recalibration(
    table: Any,
    *,
    by: str | Sequence[str] | None = None,
    window: Any = None,
    target_column: str = "recommended_target",
    name_prefix: str = "",
    service: str = "",
    policy: AlertPolicy | None = None,
    warning: float = 0.5,
    critical: float = 0.1,
    min_events: int = 0,
    indicator: Mapping[str, Any] | None = None,
) -> list[SLODocument]:
    """One :class:`SLODocument` per group of a recalibration table (or a ``{group: target}`` map).

    Parameters
    ----------
    table : Recalibration, DataFrame or mapping
        The result of :func:`budgetlab.recalibrate` (its ``summary``: one row per group with
        ``recommended_target``), a table with the group keys and ``target_column``, or a mapping
        from group value (tuple for several keys) to target.
    by : str or list of str, optional
        Group keys; default: the recalibration's ``by``, ``table.attrs["by"]``, or the
        categorical columns.
    window : duration, optional
        Rolling window of every SLO (whole minutes); default: the recalibration's window, else
        28 days.
    name_prefix, service : str
        SLO names are ``name_prefix`` + the group values joined by ``-``, made RFC 1123-safe
        (``recaptcha_v2`` → ``recaptcha-v2``); the group keys become ``metadata.labels``.
    policy : AlertPolicy, optional
        Attached to every SLO (its period is kept: ``budgetlab/period`` when not the window).

    Examples
    --------
    >>> rec = pd.DataFrame({"captcha_type": ["recaptcha_v2", "turnstile"], "recommended_target": [0.93, 0.97]})
    >>> docs = slos_from_recalibration(rec, by="captcha_type", window="1D", name_prefix="solve-")
    >>> [(d.name, d.slo.target, d.labels) for d in docs]
    [('solve-recaptcha-v2', 0.93, {'captcha_type': 'recaptcha_v2'}), ('solve-turnstile', 0.97, {'captcha_type': 'turnstile'})]
    """
    settings: Mapping[str, Any] = {}
    if isinstance(getattr(table, "summary", None), pd.DataFrame):  # a budgetlab.recalibrate result
        settings = getattr(table, "settings", None) or {}
        table = table.summary
        if by is None and settings.get("by") is not None:
            by = settings["by"]
    if window is None:
        window = settings.get("window") or "28D"
    if isinstance(table, Mapping):
        keys = as_list(by) if by is not None else ["group"]
        rows = []
        for k, v in table.items():
            vals = k if isinstance(k, tuple) else (k,)
            if len(vals) != len(keys):
                raise ConfigError(f"mapping keys must have {len(keys)} value(s), one per by= key.")
            rows.append({**dict(zip(keys, vals, strict=True)), target_column: v})
        frame = pd.DataFrame(rows, columns=[*keys, target_column])
    elif isinstance(table, pd.DataFrame):
        frame = table
        if by is not None:
            keys = as_list(by)
        elif isinstance(frame.attrs.get("by"), list):
            keys = list(frame.attrs["by"])
        else:  # group keys are categoricals (the event-table convention)
            keys = [str(c) for c in frame.columns if isinstance(frame[c].dtype, pd.CategoricalDtype)]
            if not keys:
                raise ConfigError("cannot tell the group keys of the recalibration table; give by= "
                                  "(e.g. by='captcha_type').")
    else:
        raise ConfigError("table must be a DataFrame (e.g. from budgetlab.recalibrate) or a {group: target} mapping.")
    for col in [*keys, target_column]:
        if col not in frame.columns:
            raise ConfigError(f"the recalibration table has no column {col!r}.")
    if frame.empty:
        raise ConfigError("the recalibration table is empty; nothing to write.")
    w = to_timedelta(window, name="window")
    pol = None
    if policy is not None:
        if not isinstance(policy, AlertPolicy):
            raise ConfigError("policy must be an AlertPolicy.")
        pol = policy if policy.name else AlertPolicy(policy.tiers, period=policy.period, name="policy")
    docs = []
    for i, row in enumerate(frame.reset_index(drop=True).itertuples(index=False)):  # one row per group
        rec = dict(zip(frame.columns, row, strict=True))
        value = rec[target_column]
        if value is None or (isinstance(value, float) and np.isnan(value)):
            raise ConfigError(f"row {i}: {target_column} is missing; drop the groups without a recommendation first.")
        try:
            target = float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"row {i}: {target_column} is not a number.") from None
        labels = {k: str(rec[k]) for k in keys}
        name = _slug(name_prefix + "-".join(labels.values())) if keys else _slug(name_prefix or "slo")
        try:
            slo = SLO(target=target, window=w, warning=warning, critical=critical, min_events=min_events)
        except ConfigError as exc:
            raise ConfigError(f"row {i}: {exc}") from None
        docs.append(SLODocument(name=name, slo=slo, service=service, labels=labels,
                                alert_policies=(pol,) if pol is not None else (),
                                indicator=dict(indicator) if indicator is not None else None))
    return docs
