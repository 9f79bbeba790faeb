"""OpenSLO documents built from other budgetlab results: one SLO per group of a recalibration,
and an inline ratio SLI on two Prometheus counters."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..._util.validation import as_list, to_timedelta
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...slo import SLO
from .model import SLODocument
from .write import slug

__all__ = ["ratio_indicator", "slos_from_recalibration"]


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
    period: Any = None,
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
        Tracker window of every SLO (whole minutes); default: the recalibration's window, else
        28 days.
    period : duration, optional
        SRE budget period of every SLO (OpenSLO ``timeWindow``); default 30 days.
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
        pol = policy if policy.name else dataclasses.replace(policy, name="policy")
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
        name = slug(name_prefix + "-".join(labels.values())) if keys else slug(name_prefix or "slo")
        try:
            slo = SLO(target=target, window=w, warning=warning, critical=critical, min_events=min_events,
                      period="30D" if period is None else period)
        except ConfigError as exc:
            raise ConfigError(f"row {i}: {exc}") from None
        docs.append(SLODocument(name=name, slo=slo, service=service, labels=labels,
                                alert_policies=(pol,) if pol is not None else (),
                                indicator=dict(indicator) if indicator is not None else None))
    return docs
