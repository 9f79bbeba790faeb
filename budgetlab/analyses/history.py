"""A history at a glance: per-group targets from plain parameters, daily success rates with their
intervals, the day-to-day spread, and failure rates by local hour of day.

These are the tables the notebooks show before they decide anything: how much the success rate
really moves from day to day (compared with the binomial interval of the whole history), and
whether one failure bucket follows the clock (timeouts on mobile networks at night) while the
others stay flat. Local days and hours are those of ``tz``; the event table stays UTC.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.pairs import split_items
from .._util.validation import as_list, check_fraction, check_tz, require_columns
from .._util.words import counted, some_named
from ..errors import ConfigError, InputError
from ..events.schema import ROLE_COLUMNS, scope_mask
from .daily_rates import daily_spread, daily_success

__all__ = ["target_table", "outcome_labels", "daily_success", "daily_spread", "hourly_profile",
           "group_values",
           "incidents_for"]


def group_values(events: pd.DataFrame, column: str) -> list[str]:
    """The values of a group column that occur, in category order (else sorted), as text.

    >>> ev = pd.DataFrame({"g": pd.Categorical(["b", "a", "b"], categories=["b", "a", "c"])})
    >>> group_values(ev, "g")
    ['b', 'a']
    """
    require_columns(events, [column], what="events")
    col = events[column]
    if isinstance(col.dtype, pd.CategoricalDtype):
        counts = col.value_counts(sort=False)
        return [str(v) for v in counts.index[counts.to_numpy() > 0]]
    return sorted(col.astype(str).unique())


def _pairs(text: str, what: str, form: str, example: str) -> dict[str, str]:
    """``"KEY=VALUE,KEY:VALUE"`` as a dict (``:`` for a notebook's parameters cell, where papermill
    cannot read an ``=`` inside a value; ``'KEY'=VALUE`` for a key holding ``,``), refused when
    a pair is malformed or a key repeats."""
    out: dict[str, str] = {}
    # a key in quotes may hold "," "=" ":"; else at the last "=" (or ":"): a value never holds
    # one, a group's name may ("=eq=0.78")
    for key, sep, value in [item for item in split_items(text, "=:") if any(item)]:
        if not sep or not key or not value:
            raise ConfigError(f"{what} must read {form},... (or {form.replace('=', ':')}), "
                              f"e.g. {example!r}.")
        if key in out:
            raise ConfigError(f"{what} names {key!r} twice; give each once.")
        out[key] = value
    return out


def target_table(events: pd.DataFrame, *, by: str | Sequence[str], target: float | None = 0.95,
                 overrides: str | None = None, name: str = "overrides") -> pd.DataFrame:
    """One target per value of ``by``: ``target``, or the value given in ``overrides``; with
    ``target=None``, the groups ``overrides`` names only.

    Parameters
    ----------
    events : DataFrame
        Canonical events (only the ``by`` column is read).
    by : str or list of str
        The group column, or several (``["captcha_type", "region"]``: one row per pair of
        values that occurs, every one at ``target``; ``overrides`` name the groups of one column
        and are refused beside several, as ``--target GROUP=TARGET`` is beside ``--by a,b``).
    target : float or None
        Target of every group not named in ``overrides``. ``None``: no other group is in the
        table (a proposal names the groups it is about: giving the others a target nobody
        proposed would judge it as if somebody had).
    overrides : str, optional
        Plain text ``"GROUP=TARGET,GROUP=TARGET"`` as ``--target`` takes it (a notebook's
        parameters cell writes ``GROUP:TARGET``: papermill's parameter inspection cannot read an
        ``=`` inside a value), e.g. ``"recaptcha_v2=0.93,turnstile=0.97"``; ``None`` or ``""``
        for none. A group the data do not have is refused (a typo would otherwise be ignored
        silently).
    name : str, default "overrides"
        What the refusals call ``overrides``: a notebook passes the name of its own parameter
        (``"targets"``, ``"proposed"``), so that a refusal names what its user wrote.

    Returns
    -------
    DataFrame
        Columns ``by`` (str, the groups that occur, in :func:`group_values` order; with
        ``target=None`` those named in ``overrides``, in the same order, no row when it names
        none) and ``target``: what :func:`budgetlab.recalibrate`,
        :func:`budgetlab.compare_windows` and :func:`budgetlab.alert_episodes` take as per-group
        targets (which need a row for every group of the events they read).

    Examples
    --------
    >>> ev = pd.DataFrame({"captcha_type": ["image", "turnstile", "image"]})
    >>> target_table(ev, by="captcha_type", target=0.9, overrides="turnstile=0.97")
      captcha_type  target
    0        image    0.90
    1    turnstile    0.97
    >>> target_table(ev, by="captcha_type", target=None, overrides="turnstile=0.97")
      captcha_type  target
    0    turnstile    0.97
    """
    if target is not None:
        check_fraction("target", target)  # the one fraction check (95: "use a fraction: 0.95")
    keys = as_list(by)
    if not keys or not all(isinstance(k, str) and k for k in keys):
        raise ConfigError(f"by={by!r}: a table of targets per group needs the name of a group "
                          "column of events, e.g. by='method' (or a list of them).")
    if len(keys) > 1:
        return _targets_of_pairs(events, keys, target, overrides, name)
    by = keys[0]
    pairs = _pairs(overrides or "", name, "GROUP=TARGET", "recaptcha_v2=0.93,turnstile=0.97")
    given = {k: pd.to_numeric(v, errors="coerce") for k, v in pairs.items()}
    if not all(0 < x < 1 for x in given.values()):  # NaN (not a number) fails too
        raise ConfigError(f"{name} must be numbers between 0 and 1 "
                          "(e.g. 'recaptcha_v2=0.93,turnstile=0.97').")
    values = group_values(events, by)
    unknown = sorted(set(given) - set(values))
    if unknown:  # a notebook's parameter (not the keyword): say how to set it when running one
        run = ("" if name == "overrides" else
               f" (`-p {name}=None` when running a notebook on a log of other groups)")
        raise ConfigError(f"{name} names {counted(len(unknown), 'group')} that the column "
                          f"{by!r} does not have ({some_named(unknown, 4)}); use its values: "
                          f"{', '.join(values[:10])}, or name none: {name}=None{run}.")
    fill = np.nan if target is None else target
    if target is None:  # only the groups named (none filled)
        values = [v for v in values if v in given]
    return pd.DataFrame({by: pd.Series(values, dtype=str),  # text even with no row
                         "target": [float(given.get(v, fill)) for v in values]},
                        columns=[by, "target"]).astype({"target": np.float64})


def _targets_of_pairs(events: pd.DataFrame, keys: list[str], target: float | None,
                      overrides: str | None, name: str) -> pd.DataFrame:
    """:func:`target_table` by several keys: every combination that occurs at ``target``; per-group
    targets name the groups of one key, so ``overrides`` is refused here (the CLI's rule)."""
    if overrides:
        raise ConfigError(f"{name} names the groups of one key (GROUP:TARGET); under several "
                          f"keys ({', '.join(keys)}) every group takes the one target: give "
                          f"{name}=None, or one key.")
    require_columns(events, keys, what="events")
    combos = events.groupby(keys, observed=True, sort=True).size().reset_index()[keys]
    if target is None:  # only the groups named: none
        combos = combos.iloc[:0]
    return combos.astype(str).assign(target=np.nan if target is None else float(target)
                                     ).astype({"target": np.float64})


def outcome_labels(text: str | None) -> dict[str, str] | None:
    """The ``outcomes=`` mapping of :func:`budgetlab.read_events` and
    :func:`budgetlab.read_access_log` from plain text (a notebook parameter).

    Parameters
    ----------
    text : str or None
        ``"LABEL=MEANING,LABEL=MEANING"`` as ``--outcomes`` takes it (or ``LABEL:MEANING``, as
        a notebook's parameters cell writes it): a label (or an HTTP status range such as
        ``5xx``) and ``success``, ``skip`` or a failure bucket name; ``None`` or ``""`` for none.

    Returns
    -------
    dict or None

    Examples
    --------
    >>> outcome_labels("2xx=success, 3xx=success, 4xx=skip, 5xx:server_error")
    {'2xx': 'success', '3xx': 'success', '4xx': 'skip', '5xx': 'server_error'}
    >>> outcome_labels(None) is None
    True
    """
    if text is None or not str(text).strip():
        return None
    if not isinstance(text, str):
        raise ConfigError("outcomes must be text such as '2xx=success,4xx=skip,5xx=server_error', "
                          "or None.")
    return _pairs(text, "outcomes", "LABEL=MEANING", "2xx=success,4xx=skip,5xx=server_error")


def hourly_profile(events: pd.DataFrame, *, bucket: Any, by: str | Sequence[str] | None = None,
                   tz: str | None = None) -> pd.DataFrame:
    """Failure rates by local hour of day: one bucket's against all other failures.

    Parameters
    ----------
    events : DataFrame
        Canonical events (``ts``, ``ok``, ``bucket`` and the ``by`` columns).
    bucket : str
        The failure bucket to set apart (e.g. ``"timeout"``, the network's).
    by : str or list of str, optional
        Group keys (e.g. ``"region"``).
    tz : str, optional
        Time zone of the hours (default UTC).

    Returns
    -------
    DataFrame
        One row per group and local hour (0-23) with events: group keys (str), ``hour``,
        ``total``, ``bucket_failures``, ``other_failures``, ``bucket_rate`` and ``other_rate``
        (shares of the hour's attempts). ``attrs["bucket"]`` names the bucket.

    Examples
    --------
    >>> ts = pd.to_datetime(["2026-01-01 03:10", "2026-01-01 03:20", "2026-01-02 03:30",
    ...                      "2026-01-01 14:00"], utc=True)
    >>> ev = pd.DataFrame({"ts": ts, "ok": [False, True, False, False],
    ...                    "bucket": ["timeout", "success", "solve_error", "timeout"]})
    >>> hourly_profile(ev, bucket="timeout")[["hour", "total", "bucket_rate", "other_rate"]]
       hour  total  bucket_rate  other_rate
    0     3      3     0.333333    0.333333
    1    14      1     1.000000    0.000000
    """
    keys = as_list(by)
    require_columns(events, ["ts", "ok", "bucket", *keys], what="events", roles=ROLE_COLUMNS)
    tz = check_tz(tz)
    if str(bucket) not in set(events["bucket"].astype(str)):
        raise InputError(f"no failures in the bucket {str(bucket)!r}; choose one of the buckets "
                         "the data have.")
    frame = pd.DataFrame({k: events[k].astype(str).to_numpy() for k in keys})
    frame["hour"] = events["ts"].dt.tz_convert(tz).dt.hour.to_numpy()
    failed = ~events["ok"].to_numpy(dtype=bool)
    in_bucket = (events["bucket"].astype(str) == str(bucket)).to_numpy() & failed
    frame["bucket_failures"] = in_bucket.astype(np.int64)
    frame["other_failures"] = (failed & ~in_bucket).astype(np.int64)
    out = frame.groupby([*keys, "hour"], sort=True).agg(
        total=("hour", "size"), bucket_failures=("bucket_failures", "sum"),
        other_failures=("other_failures", "sum")).reset_index()
    out["total"] = out["total"].astype(np.int64)
    out["bucket_rate"] = out["bucket_failures"] / out["total"]
    out["other_rate"] = out["other_failures"] / out["total"]
    out.attrs["bucket"] = str(bucket)
    return out


def incidents_for(incidents: pd.DataFrame | None, **keys: Any) -> pd.DataFrame | None:
    """The incidents whose scope covers the group given by ``keys`` (``None`` when none do).

    Parameters
    ----------
    incidents : DataFrame or None
        Incident table with a ``scope`` column (``"*"`` or ``key=value`` pairs joined by ``&``).
    **keys
        The group: column name -> value. A scope's condition on a column not named here does
        not exclude the incident (as :func:`budgetlab.events.schema.scope_mask` reads it).

    Examples
    --------
    >>> inc = pd.DataFrame({"incident_id": ["a", "b"], "scope": ["captcha_type=image", "*"]})
    >>> incidents_for(inc, captcha_type="turnstile")["incident_id"].tolist()
    ['b']
    >>> incidents_for(None, captcha_type="image") is None
    True
    """
    if incidents is None or not len(incidents):
        return None
    require_columns(incidents, ["scope"], what="incidents")
    probe = pd.DataFrame({k: [str(v)] for k,
                          v in keys.items()}) if keys else pd.DataFrame(index=[0])
    hit = [bool(scope_mask(probe, scope)[0]) for scope in incidents["scope"].astype(str)]
    sub = incidents[np.asarray(hit, dtype=bool)]
    return sub if len(sub) else None
