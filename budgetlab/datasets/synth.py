"""Seeded synthetic outcome histories with labelled incidents (ground truth for scoring).

The model, in the order the draws happen (each part has its own random stream, so changing the
incidents never changes the traffic, the sitekeys or the uniform draws behind the outcomes):

* **Traffic**: a non-homogeneous Poisson process per captcha type x worker region, piecewise
  constant per minute. Its rate has a daily cycle in local time (Europe/Berlin; the trough at 03:00
  is ``night_ratio`` times the peak at 15:00) and a weekly one (Saturday and Sunday at
  ``weekend_ratio``); ``rate`` is the mean number of events per second over the generated span.
  Each minute's count is a Poisson draw; events get uniform offsets inside their minute (whole ms).
* **Sessions and sitekeys**: consecutive attempts of one type and region form sessions
  (``attempts_per_session`` on average); each session uses one sitekey of its type, the sitekeys
  of a type being used with Zipf weights 1, 1/2, 1/3, ... ``session_id`` is 12 hex characters from
  a keyed bijection of the session counter: opaque, unique, derived from nothing personal.
* **Outcomes**: each event draws one uniform ``u``: ``timeout`` if ``u < p_timeout``, else
  ``solve_error`` if ``u < p_timeout + p_solve``, else ``success``. ``p_timeout`` is per region and
  minute: higher at night (mobile networks), plus short region-specific bursts, scaled so that its
  traffic-weighted mean over the span is ``timeout_rate``. ``p_solve`` is per type and minute and
  drifts slowly (a smooth log-normal factor), scaled so that the traffic-weighted mean success of
  each type is ``success[type]``.
* **Incidents** (see :data:`INCIDENT_KINDS`): in its ``scope`` between ``start`` (inclusive) and
  ``end`` (exclusive) an incident adds a constant excess to one bucket's probability, chosen so
  that the expected failure rate there, alone, is exactly ``severity``. An ``outage`` instead sets
  the failure probability to ``severity`` for every event (all failures time out). Overlapping
  incidents add their excesses (independent causes).

The model's pieces live next door: :mod:`.model` (the domain and the per-minute rates and
probabilities), :mod:`.incidents` (incident tables and their effect), :mod:`.streams`
(traffic, sessions and session ids), :mod:`.presets` (the committed datasets and their file
formats).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import atomic_path, check_output
from .._util.units import DAY_NS
from .._util.validation import check_fraction, check_number, check_whole, to_ns, utc_timestamp
from ..errors import ConfigError
from .durations import draw_durations
from .incidents import INCIDENT_KINDS, auto_incidents, incident_probabilities, incident_table
from .model import (
    CAPTCHA_TYPES,
    DEFAULT_REGION_SHARE,
    DEFAULT_SUCCESS,
    DEFAULT_TYPE_SHARE,
    REGIONS,
    TIME_ZONE,
    FloatArray,
    MinuteModel,
    sitekeys,
)
from .presets import PRESETS, write_events_parquet, write_incidents_csv
from .streams import MS_NS, event_columns, session_hex, sessions, traffic

__all__ = [
    "CAPTCHA_TYPES",
    "REGIONS",
    "TIME_ZONE",
    "INCIDENT_KINDS",
    "DEFAULT_SUCCESS",
    "PRESETS",
    "generate",
    "generate_preset",
    "sitekeys",
    "write_preset",
]


def _per_key(name: str, given: Mapping[str, float] | None, default: Mapping[str, float],
             what: str) -> dict[str, float]:
    """``default`` updated with ``given`` (keys of ``default`` only, values in (0, 1])."""
    values = dict(default)
    if given is not None:
        unknown = sorted(set(given) - set(default))
        if unknown:
            raise ConfigError(f"{name} has unknown {what} {unknown}; use {list(default)}.")
        values.update({k: check_fraction(f"{name}[{k!r}]", v, high_open=False) for k,
                       v in given.items()})
    return values


def _shares(name: str, given: Mapping[str, float] | None, default: Mapping[str, float],
            what: str) -> FloatArray:
    """Traffic shares in the order of ``default``, normalised to sum 1."""
    values = _per_key(name, given, default, what)
    arr = np.array([values[k] for k in default], dtype=np.float64)
    out: FloatArray = arr / arr.sum()
    return out


def generate(
    start: Any,
    days: float,
    *,
    seed: int,
    rate: float = 10.0,
    success: Mapping[str, float] | None = None,
    timeout_rate: float = 0.012,
    type_share: Mapping[str, float] | None = None,
    region_share: Mapping[str, float] | None = None,
    sitekeys_per_type: int = 4,
    night_ratio: float = 0.25,
    weekend_ratio: float = 0.7,
    drift: float = 0.15,
    bursts_per_day: float = 3.0,
    attempts_per_session: float = 2.0,
    incidents: str | pd.DataFrame | Sequence[Mapping[str, Any]] | None = "auto",
    session_ids: bool = True,
    client_timeout: Any = None,
    slow_factor: float = 3.0,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Generate a seeded outcome history and its labelled incidents (vectorized; see the module
    doc).

    Parameters
    ----------
    start : str or Timestamp
        First instant; a naive time is UTC. The span is ``[start, start + days)``.
    days : float
        Length in days (a whole number of seconds).
    seed : int
        Same seed and arguments, same tables, bit for bit.
    rate : float
        Mean events per second over the span, all groups together.
    success : dict, optional
        Traffic-weighted mean success rate per captcha type, incidents aside; defaults
        :data:`DEFAULT_SUCCESS` (reCAPTCHA v2 0.94, Turnstile 0.98, image 0.90).
    timeout_rate : float
        Traffic-weighted mean timeout probability of each region (part of the failures).
    type_share, region_share : dict, optional
        Traffic shares (default recaptcha_v2 .5, turnstile .3, image .2; fra .6, ams .4).
    sitekeys_per_type : int
        Sitekeys per type, ids from :func:`sitekeys`.
    night_ratio, weekend_ratio : float
        Traffic at 03:00 local over traffic at 15:00; weekend over weekday traffic.
    drift : float
        Standard deviation of the slow log-factor on each type's solve-error probability.
    bursts_per_day : float
        Short timeout bursts per region and day (more likely at night).
    attempts_per_session : float
        Mean attempts per session (>= 1).
    incidents : 'auto', None, DataFrame or list of dicts
        ``'auto'``: one incident of each kind at seeded random times (non-overlapping; needs
        ``days >= 1``);
        ``None``: none; else a table with ``kind, start, end, scope, severity`` (and optionally
        ``incident_id``), kinds from :data:`INCIDENT_KINDS`.
    session_ids : bool
        Add the ``session_id`` column (the other columns do not depend on it).
    client_timeout : duration, optional
        Add a ``duration`` column (timedelta64[ns], whole ms) drawn from its own random stream
        (:mod:`budgetlab.datasets.durations`): attempts slower than the client timeout (e.g.
        ``"60s"``) are cut, recorded as ``timeout`` with the timeout as their duration; the other
        rows and columns are those generated without it, bit for bit.
    slow_factor : float
        With ``client_timeout``: how much slower the attempts are inside an incident's scope and
        time.

    Returns
    -------
    events : DataFrame
        Canonical events sorted by ``ts``: ``ts`` (datetime64[ns, UTC], whole milliseconds),
        ``ok`` (bool), ``bucket`` (``success``/``timeout``/``solve_error``), ``captcha_type``,
        ``region``, ``sitekey`` (categoricals), ``session_id`` (string) and, with
        ``client_timeout``, ``duration`` (timedelta64[ns]).
    incidents : DataFrame
        ``incident_id, kind, start, end, scope, severity``; ``end`` exclusive, ``severity`` the
        expected failure rate inside the scope while the incident runs (the plateau, second half,
        for ``gradual_degradation``).

    Examples
    --------
    >>> events, incidents = generate("2026-10-05", 2, seed=1, rate=0.5)
    >>> list(events.columns)
    ['ts', 'ok', 'bucket', 'captcha_type', 'region', 'sitekey', 'session_id']
    >>> str(events["ts"].dtype), len(incidents)
    ('datetime64[ns, UTC]', 6)
    >>> again, _ = generate("2026-10-05", 2, seed=1, rate=0.5)
    >>> events.equals(again)
    True
    """
    events, table, _ = _generate(
        start, days, seed=seed, rate=rate, success=success, timeout_rate=timeout_rate,
        type_share=type_share, region_share=region_share, sitekeys_per_type=sitekeys_per_type,
        night_ratio=night_ratio, weekend_ratio=weekend_ratio, drift=drift,
                                 bursts_per_day=bursts_per_day,
        attempts_per_session=attempts_per_session, incidents=incidents, session_ids=session_ids,
        client_timeout=client_timeout, slow_factor=slow_factor,
    )
    return events, table


def _generate(
    start: Any,
    days: float,
    *,
    seed: int,
    rate: float,
    success: Mapping[str, float] | None,
    timeout_rate: float,
    type_share: Mapping[str, float] | None,
    region_share: Mapping[str, float] | None,
    sitekeys_per_type: int,
    night_ratio: float,
    weekend_ratio: float,
    drift: float,
    bursts_per_day: float,
    attempts_per_session: float,
    incidents: Any,
    session_ids: bool,
    client_timeout: Any = None,
    slow_factor: float = 3.0,
) -> tuple[pd.DataFrame, pd.DataFrame, FloatArray]:
    """:func:`generate`, plus each event's failure probability (for tuning the presets)."""
    seed = check_whole("seed", seed)
    start_ns = int(utc_timestamp(start, name="start").value)
    span_ns = int(round(check_number("days", days, low=0, high=3660.0) * 86_400)) * 10**9
    if span_ns <= 0:
        raise ConfigError(f"days={days!r} is shorter than a second.")
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(7)]
    (rng_counts, rng_offsets, rng_sessions, rng_timeouts, rng_drift, rng_incidents,
     rng_outcomes) = streams
    model = _minute_model(start_ns, span_ns, rate=rate, success=success, timeout_rate=timeout_rate,
                          type_share=type_share, region_share=region_share, night_ratio=night_ratio,
                          weekend_ratio=weekend_ratio, drift=drift, bursts_per_day=bursts_per_day,
                          rng_timeouts=rng_timeouts, rng_drift=rng_drift)
    keys = sitekeys(sitekeys_per_type)
    per_session = check_number("attempts_per_session", attempts_per_session, low=1.0, high=1e6,
                               low_open=False)
    table = _incident_table(incidents, model, keys, span_ns, rng_incidents)

    group, minute, rel_ms = traffic(model, rng_counts, rng_offsets)
    session_no, sitekey = sessions(group, per_session, sitekeys_per_type, rng_sessions)
    # global time order (stable: merges the sorted streams, ties keep stream order)
    order = np.argsort(rel_ms, kind="stable")
    group, rel_ms, minute, sitekey, session_no = (
        a[order] for a in (group, rel_ms, minute, sitekey, session_no))
    ts = model.start_ns + rel_ms * MS_NS
    type_code = group // len(REGIONS)
    region_code = group - type_code * len(REGIONS)

    p_to, p_se = incident_probabilities(table, model, keys, ts, type_code, region_code, sitekey,
                                        minute)
    u = rng_outcomes.random(len(ts))
    code = np.where(u < p_to, 1, np.where(u < p_to + p_se, 2, 0)).astype(np.int8)
    if client_timeout is not None:
        code, duration_ns = draw_durations(
            seed, code, type_code, region_code, sitekey, ts, table, keys,
            timeout_ns=to_ns(client_timeout, name="client_timeout"),
            slow_factor=check_number("slow_factor", slow_factor, low=0, high=1000.0))
    columns = event_columns(ts, code, type_code, region_code, sitekey, keys)
    if session_ids:
        columns["session_id"] = session_hex(session_no, seed)
    if client_timeout is not None:
        columns["duration"] = pd.to_timedelta(duration_ns, unit="ns").as_unit("ns")
    return pd.DataFrame(columns), table, p_to + p_se


def _minute_model(start_ns: int, span_ns: int, *, rate: float, success: Mapping[str, float] | None,
                  timeout_rate: float, type_share: Mapping[str, float] | None,
                  region_share: Mapping[str, float] | None, night_ratio: float,
                  weekend_ratio: float,
                  drift: float, bursts_per_day: float, rng_timeouts: np.random.Generator,
                  rng_drift: np.random.Generator) -> MinuteModel:
    """The traffic and outcome model of every minute, its settings checked."""
    r = check_number("rate", rate, low=0, high=1e6)
    succ = _per_key("success", success, DEFAULT_SUCCESS, "captcha types")
    to_rate = check_fraction("timeout_rate", timeout_rate, low_open=False, high_open=False)
    for t, s in succ.items():
        if not s + to_rate < 1.0:
            raise ConfigError(f"success[{t!r}] + timeout_rate must stay below 1 (solve errors need "
                              "room).")
    return MinuteModel(
        start_ns,
        span_ns,
        rate=r,
        success=np.array([succ[t] for t in CAPTCHA_TYPES]),
        timeout_rate=to_rate,
        type_share=_shares("type_share", type_share, DEFAULT_TYPE_SHARE, "captcha types"),
        region_share=_shares("region_share", region_share, DEFAULT_REGION_SHARE, "regions"),
        night_ratio=check_fraction("night_ratio", night_ratio, high_open=False),
        weekend_ratio=check_number("weekend_ratio", weekend_ratio, low=0, high=10.0),
        drift=check_number("drift", drift, low=0, high=2.0, low_open=False),
        bursts_per_day=check_number("bursts_per_day", bursts_per_day, low=0, high=1000.0,
                                    low_open=False),
        rng_timeouts=rng_timeouts,
        rng_drift=rng_drift,
    )


def _incident_table(incidents: Any, model: MinuteModel, keys: Mapping[str, list[str]], span_ns: int,
                    rng: np.random.Generator) -> pd.DataFrame:
    """The incidents: ``'auto'`` (one of each kind at seeded times), None, or the user's table."""
    if isinstance(incidents, str):
        if incidents != "auto":
            raise ConfigError(f"incidents={incidents!r} is not valid; use 'auto', None or a table.")
        if span_ns < DAY_NS:
            raise ConfigError("incidents='auto' needs days >= 1 (realistic durations); pass "
                              "incidents=None or a table.")
        return auto_incidents(model, keys, rng)
    if not (isinstance(incidents, (pd.DataFrame, Sequence)) or incidents is None):
        raise ConfigError("incidents must be 'auto', None, a DataFrame or a list of dicts.")
    return incident_table(incidents, model, keys)


def generate_preset(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The events and incidents of one committed dataset (see :data:`PRESETS`).

    >>> events, incidents = generate_preset("demo")
    >>> incidents["kind"].tolist()
    ['gradual_degradation']
    """
    if name not in PRESETS:
        raise ConfigError(f"preset={name!r} is not valid; use one of "
                          f"{', '.join(map(repr, PRESETS))}.")
    return generate(**PRESETS[name]["args"])


def write_preset(name: str, out: str | os.PathLike[str] | None = None, *,
                 force: bool = False) -> list[Path]:
    """Generate one preset and write its events (parquet) and incidents (CSV) into ``out``.

    Returns the written paths. ``out`` defaults to the preset's home (``data/`` or
    ``budgetlab/datasets/``, relative to the working directory).
    """
    events, incidents = generate_preset(name)
    folder = Path(out if out is not None else PRESETS[name]["out"])
    ev_name, inc_name = PRESETS[name]["files"]
    paths = [folder / ev_name, folder / inc_name]
    folder.mkdir(parents=True, exist_ok=True)
    for p in paths:  # check both before writing either
        check_output(p, force=force, option="out")
    with atomic_path(paths[0], force=force) as tmp:
        write_events_parquet(events, tmp)
    with atomic_path(paths[1], force=force) as tmp:
        write_incidents_csv(incidents, tmp)
    return paths
