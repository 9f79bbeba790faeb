"""The latency profile: per group and period, the share of attempts that succeeded within each
threshold and the quantiles of the time to success, honest about the client timeout.

**Reading.** The events carry the canonical table's optional ``duration`` column
(timedelta64[ns]: ``read_events(..., duration=COLUMN, duration_unit=...)``). An attempt ends as
a success, a ``timeout`` (the client gave up) or another failure (``solve_error``, ...).

**The timeout in force** (per group, :func:`group_timeouts`, in
:mod:`budgetlab.analyses.latency_timeouts`): ``client_timeout`` when given
(refused when a success of the log is longer), else the smallest duration of the group's
``timeout`` rows over the whole span that no success of the group outlasts: a timeout row shorter
than a success of its group ended before the timeout in force (the client cannot have cut every
attempt there), so it is read at its own duration, like a solve error, and ``timeout_source``
says how many and from what duration. A group with no such timeout row and no
``client_timeout`` has no censoring point (said in ``censoring``). Every duration is read as
``min(duration, timeout)``: a timeout is right-censored there.

**Shares** count, they do not estimate: ``good`` = successes with ``duration <= threshold`` (a
timed-out attempt did not succeed within any threshold, whatever its true duration), over all
attempts, with a Wilson interval. At or above the timeout the share is the success rate (the
latency SLI equals availability there: ``at_or_above_timeout``).

**Quantiles** of the time to success come from Kaplan–Meier (:mod:`budgetlab.analyses.survival`):
successes are events, timeouts are censored at the timeout in force (a ``timeout`` row shorter than
a success of its group, which ended before it, at its own duration), solve errors (any failure but a
timeout) are a competing event, censored at their own duration (cause-specific: the latent time to
success of an attempt the solver does not abandon). Intervals: Brookmeyer–Crowley. A quantile the
curve does not reach before the timeout is "> timeout": ``above_timeout`` is true and ``value``
empty (NaT), likewise ``ci_high_above_timeout`` for the interval's upper end. Only an attempt of the
period that lasted up to the timeout takes the curve there. **Withheld**: a quantile whose interval
has no upper end and none above the timeout (the lower confidence limit of the curve never reaches
``q`` before the curve ends at the period's longest duration, without a timeout in force or when no
attempt of the period reached it; Brookmeyer–Crowley leave the upper limit undefined there): the
sample cannot bound it, so ``value`` and ``ci_high`` are empty (NaT), the flags false, ``ci_low``
kept, and ``note`` says why and how many attempts even successes alone would need
(:func:`~budgetlab.analyses.survival.attempts_to_bound`: 6 for p50, 30 for p90, 296 for p99 at
95 %). ``note`` is empty when every figure is a duration or above the timeout. ``longest`` is where
the curve ends: the cell's longest duration as read. The command line says a group's withheld
quantiles in one note (:func:`withheld_note`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.durations import duration_label, measured_duration
from .._util.percent import fraction_to_percent
from .._util.progress import progress
from .._util.ratios import ratio
from .._util.validation import as_list, check_fraction, refuse_joined, to_ns
from .._util.words import counted, given_duration
from ..errors import ConfigError, SchemaError
from ..events.schema import check_events, ts_utc
from ..windows.groups import group_key_codes
from .latency_durations import data_duration
from .latency_timeouts import NO_TIMEOUT, group_timeouts, timeouts_in_force
from .recalibration.wilson import wilson_interval
from .survival import attempts_to_bound, kaplan_meier, km_quantile
from .tables_repr import tables_repr

__all__ = ["LatencyProfile", "latency_profile", "attempt_durations", "group_timeouts",
           "timeouts_in_force", "NO_TIMEOUT",
           "parse_thresholds", "attempts_to_bound", "withheld_note"]


@dataclass(frozen=True)
class LatencyProfile:
    """What :func:`latency_profile` returns: ``shares``, ``quantiles`` and ``censoring`` tables."""

    shares: pd.DataFrame
    quantiles: pd.DataFrame
    censoring: pd.DataFrame

    def __repr__(self) -> str:
        return tables_repr("LatencyProfile", {"shares": self.shares, "quantiles": self.quantiles,
                                              "censoring": self.censoring})


def attempt_durations(events: pd.DataFrame) -> np.ndarray:
    """The ``duration`` column as int64 ns; refuses a missing, non-timedelta or empty value."""
    if "duration" not in events.columns:
        raise SchemaError("events have no 'duration' column; read them with read_events(..., "
                          "duration='<column>', "
                          "duration_unit='s') (CLI: --duration COLUMN --duration-unit s).")
    col = events["duration"]
    if not pd.api.types.is_timedelta64_dtype(col.dtype):
        raise SchemaError(f"events['duration'] must be timedelta64 (it is {col.dtype}); read it "
                          "with read_events(..., duration='<column>', duration_unit='s'), which "
                          "says the unit.")
    if bool(col.isna().any()):
        empty = counted(int(col.isna().sum()), "empty value")
        raise SchemaError(f"events['duration'] has {empty}; fill or drop each such row.")
    return np.asarray(col.to_numpy(dtype="timedelta64[ns]").view(np.int64))


def parse_thresholds(thresholds: Any, *, name: str = "thresholds") -> list[int]:
    """Durations (``"10s"``, Timedelta) as sorted distinct ns; refuses an empty list."""
    refuse_joined(thresholds, name)
    items = [thresholds] if isinstance(thresholds, (str, pd.Timedelta)) else list(thresholds)
    if not items:
        raise ConfigError(f"{name} is empty; give durations such as ['10s', '20s', '30s'].")
    return sorted({to_ns(x, name=name) for x in items})


#: From this many curves (groups x periods) :func:`latency_profile` shows a progress bar on a
#: terminal (about 20,000 take 5 s).
PROGRESS_CURVES = 20_000


def latency_profile(events: pd.DataFrame, *, thresholds: Any, by: str | Sequence[str] | None = None,
                    freq: str | None = "1D", quantiles: Sequence[float] = (0.5, 0.9, 0.99),
                    client_timeout: Any = None, confidence: float = 0.95) -> LatencyProfile:
    """Shares within thresholds and censored quantiles of the time to success (see the module doc).

    Parameters
    ----------
    events : DataFrame
        Canonical events with a ``duration`` column.
    thresholds : list of durations
        E.g. ``["10s", "20s", "30s"]``; sorted, each distinct duration once.
    by : str or list of str, optional
        Group keys.
    freq : str or None
        Period length (``"1D"``, ``"1h"``; periods start at UTC multiples); ``None``: one period,
        the whole log (its first to its last event, both included).
    quantiles : list of float
        In (0, 1); sorted and merged as ``thresholds`` are (``[0.5, 0.5]`` is one p50).
    client_timeout : duration, optional
        The client timeout in force (default: read from the log, see the module doc).
    confidence : float
        Of the share and quantile intervals.

    Returns
    -------
    LatencyProfile
        ``shares``: the group keys, ``period`` (datetime64[ns, UTC], the period's start: a UTC
        multiple of ``freq``, the period ``[period, period + freq)``; with ``freq=None`` the log's
        first event, ``attrs["start"]``, in every row: the one period is the whole log),
        ``threshold`` (timedelta64[ns]), ``attempts``, ``good`` (int64), ``share``, ``share_low``,
        ``share_high`` (float64), ``at_or_above_timeout`` (bool).
        ``quantiles``: the group keys, ``period``, ``quantile`` (float64), ``attempts``,
        ``successes`` (int64), ``value``, ``ci_low``, ``ci_high`` (timedelta64[ns]; NaT above the
        timeout or withheld), ``longest`` (timedelta64[ns]: the period's longest duration as read,
        where its curve ends), ``above_timeout``, ``ci_high_above_timeout`` (bool; false without a
        timeout), ``timeout``, ``note`` (str: why a quantile is withheld, empty ``value`` and
        ``ci_high`` not above the timeout).
        ``censoring``: the group keys, ``timeout``, ``timeout_source``.
        The three tables state the span they count in ``attrs``: ``start`` and ``end``
        (ISO-8601 text, UTC: the first and the last event of the log, all groups, both included;
        ``None`` without events), with ``by`` and ``client_timeout`` (duration text; ``None``:
        read from the log); ``shares`` and ``quantiles`` add ``freq`` and ``confidence``. Every
        group is counted over that span, from the log's first event, not its own.

    Examples
    --------
    >>> ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 4, utc=True).as_unit("ns"),
    ...     "ok": [True, True, False, False],
    ...     "bucket": pd.Categorical(["success", "success", "timeout", "solve_error"]),
    ...     "duration": pd.to_timedelta([2, 8, 30, 1], unit="s")})
    >>> p = latency_profile(ev, thresholds=["5s", "10s"], freq=None, quantiles=[0.5])
    >>> p.shares["good"].tolist(), p.shares["share"].tolist()
    ([1, 2], [0.25, 0.5])
    >>> p.quantiles["value"].iloc[0], bool(p.quantiles["above_timeout"].iloc[0])
    (Timedelta('0 days 00:00:08'), False)
    >>> [p.shares.attrs[k] for k in ("start", "end")]  # the span counted: the whole log
    ['2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00']
    """
    keys = check_events(events, as_list(by))
    confidence = check_fraction("confidence", confidence)
    qs = sorted({check_fraction("quantiles", q) for q in quantiles})  # as thresholds: distinct
    thr = parse_thresholds(thresholds)
    dur = attempt_durations(events)
    censoring, timeout_ns, _, row_timeout = timeouts_in_force(events, keys, dur, client_timeout)
    frame = events[[*keys]].copy() if keys else pd.DataFrame(index=events.index)
    frame["period"] = _periods(pd.Series(ts_utc(events), index=events.index), freq)
    codes, table = group_key_codes(frame, [*keys, "period"])
    has_to = row_timeout != NO_TIMEOUT
    clipped = np.where(has_to, np.minimum(dur, row_timeout), dur)
    # a success slower than the timeout in force would have been cut there: censored, not good
    ok = events["ok"].to_numpy(dtype=bool) & (~has_to | (dur <= row_timeout))
    table_to = timeout_ns[group_key_codes(table, keys)[0]] if keys else np.repeat(timeout_ns,
                                                                                  len(table))
    shares = _shares(table, codes, ok, clipped, thr, table_to, confidence)
    quants = _quantiles(table, codes, ok, clipped, qs, table_to, confidence)
    given = None if client_timeout is None else duration_label(pd.Timedelta(to_ns(
        client_timeout, name="client_timeout"), unit="ns"))
    said: dict[Any, Any] = {**span_attrs(events["ts"]), "by": list(keys),
                            "client_timeout": given}
    censoring.attrs.update(said)
    for out in (shares, quants):
        out.attrs.update(said, freq=freq, confidence=confidence)
    return LatencyProfile(shares, quants, censoring)


def _periods(ts: pd.Series, freq: str | None) -> pd.Series:
    if freq is None:
        return pd.Series(np.full(len(ts), ts.min()), index=ts.index, dtype=ts.dtype)
    try:
        floored: pd.Series = ts.dt.floor(freq)
        return floored
    except ValueError:
        raise ConfigError(f"freq={freq!r} is not a fixed period; use e.g. '1D', '6h' or "
                          "None.") from None


def _shares(table: pd.DataFrame, codes: np.ndarray, ok: np.ndarray, dur: np.ndarray, thr: list[int],
            timeout_ns: np.ndarray, confidence: float) -> pd.DataFrame:
    n = len(table)
    attempts = np.bincount(codes, minlength=n).astype(np.int64)
    parts = []
    for t in thr:  # a loop over thresholds
        good = np.bincount(codes, weights=(ok & (dur <= t)).astype(np.float64),
                           minlength=n).astype(np.int64)
        lo, hi = wilson_interval(good, attempts, confidence)
        part = table.copy()
        part["threshold"] = pd.Timedelta(t, unit="ns")
        part["attempts"], part["good"] = attempts, good
        part["share"] = ratio(good, attempts, 0.0)
        part["share_low"], part["share_high"] = lo, hi
        part["at_or_above_timeout"] = (timeout_ns != NO_TIMEOUT) & (t >= timeout_ns)
        parts.append(part)
    return pd.concat(parts, ignore_index=True).sort_values([*table.columns, "threshold"],
                                                           kind="stable",
                                                           ignore_index=True)


def _quantiles(table: pd.DataFrame, codes: np.ndarray, ok: np.ndarray, dur: np.ndarray,
               qs: list[float], timeout_ns: np.ndarray, confidence: float) -> pd.DataFrame:
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(table) + 1))
    rows = []
    # a loop over groups x periods, each curve vectorized; a bar on a terminal from
    # PROGRESS_CURVES of them (3,061 sitekeys x 28 days: 20 s)
    for g in progress(range(len(table)), desc="quantiles per group and period",
                      enabled=None if len(table) >= PROGRESS_CURVES else False):
        idx = order[bounds[g]:bounds[g + 1]]
        km = kaplan_meier(dur[idx], ok[idx])
        rows += [(g, q, len(idx), int(ok[idx].sum()), *km_quantile(km, q, confidence=confidence))
                 for q in qs]
    rec = pd.DataFrame(rows, columns=["g", "quantile", "attempts", "successes", "value", "ci_low",
                                      "ci_high"])
    pos = rec["g"].to_numpy(dtype=np.int64)
    out = table.iloc[pos].reset_index(drop=True)
    out["quantile"] = rec["quantile"].to_numpy(dtype=np.float64)
    out[["attempts", "successes"]] = rec[["attempts", "successes"]].to_numpy(dtype=np.int64)
    for col in ("value", "ci_low", "ci_high"):  # None: above the timeout, NaT
        out[col] = pd.to_timedelta(rec[col].to_numpy(dtype=float), unit="ns").as_unit("ns")
    # the curve reaches the timeout only through an attempt of the cell that lasted up to it
    cell_to = timeout_ns[pos]
    longest = np.array([dur[order[bounds[g]:bounds[g + 1]]].max() for g in range(len(table))],
                       dtype=np.int64)[pos]
    reached = (cell_to != NO_TIMEOUT) & (longest >= cell_to)
    out["longest"] = pd.to_timedelta(longest, unit="ns").as_unit("ns")
    out["above_timeout"] = rec["value"].isna().to_numpy() & reached
    out["ci_high_above_timeout"] = rec["ci_high"].isna().to_numpy() & reached
    out["timeout"] = pd.to_timedelta(cell_to, unit="ns").as_unit("ns")
    # no upper end within the data, none above the timeout: the sample cannot bound it
    withheld = rec["ci_high"].isna().to_numpy() & ~reached
    out.loc[withheld, "value"] = pd.NaT
    out["note"] = [_withheld_words([q], int(a), int(n), int(t), confidence) if w else ""
                   for q, a, n, t, w in zip(out["quantile"], out["attempts"], longest, cell_to,
                                            withheld, strict=True)]
    return out


def withheld_note(rows: pd.DataFrame, confidence: float = 0.95, *, like: Any = None) -> str:
    """The withheld quantiles of one group and period (``rows``: its rows of the ``quantiles``
    table) in one note, each named; ``""`` when none is withheld. One quantile reads as its
    ``note``; several share the reason (the same attempts, the same curve ending at ``longest``)
    and each keeps the attempts even successes alone would need to bound it. ``like``: the
    duration whose unit a table beside the note says its ``longest`` column in (that column's
    largest, :func:`~budgetlab._util.durations.measured_duration`'s ``like``), so that the note
    says ``longest`` as the column does (``0.9 s``, not ``900 ms``); default: as given.

    >>> rows = pd.DataFrame({"quantile": [0.5, 0.9, 0.99], "attempts": 12,
    ...     "longest": pd.to_timedelta("2.8s"), "timeout": pd.to_timedelta("30s"),
    ...     "note": ["", "p90 withheld: ...", "p99 withheld: ..."]})
    >>> print(withheld_note(rows))  # doctest: +NORMALIZE_WHITESPACE
    p90, p99 withheld: 12 attempts cannot bound them from above (the lower 95 % limit of the curve
    never reaches 90 % or 99 % before it ends at the longest duration, 2.8 s: no attempt of the
    period reached the 30 s timeout; Brookmeyer-Crowley); even successes alone need at least 30
    attempts for p90, 296 for p99
    >>> "the longest duration, 0.9 s:" in withheld_note(rows.assign(longest=pd.to_timedelta(
    ...     "900ms")), like="2.8s")
    True
    """
    held = rows[rows["note"].astype(str) != ""]
    if held.empty:
        return ""
    first = held.iloc[0]
    timeout = NO_TIMEOUT if pd.isna(first["timeout"]) else int(first["timeout"].value)
    return _withheld_words(held["quantile"].tolist(), int(first["attempts"]),
                           int(first["longest"].value), timeout, confidence, like=like)


def _withheld_words(qs: Sequence[float], attempts: int, longest: int, timeout: int,
                    confidence: float, *, like: Any = None) -> str:
    """Why the quantiles ``qs`` of one group and period are withheld (the data give their
    intervals no upper end), in words; ``longest`` in the unit of ``like`` when given."""
    why = ("no timeout in force in this group (no 'timeout' row that no success outlasts)"
           if timeout == NO_TIMEOUT else
           f"no attempt of the period reached the {given_duration(timeout)} timeout")
    said = data_duration(longest) if like is None else measured_duration(longest, like=like)
    names = [f"p{fraction_to_percent(q)}" for q in qs]
    levels = [f"{fraction_to_percent(q)} %" for q in qs]
    needs = [f"{attempts_to_bound(q, confidence):,}" for q in qs]
    if len(qs) == 1:
        it, reaches, need = "it", levels[0], f"{needs[0]} attempts"
    else:
        it = "them"
        reaches = f"{', '.join(levels[:-1])} or {levels[-1]}"
        need = ", ".join([f"{needs[0]} attempts for {names[0]}",
                          *(f"{n} for {name}" for n, name in zip(needs[1:], names[1:],
                                                                 strict=True))])
    return (f"{', '.join(names)} withheld: {counted(attempts, 'attempt')} cannot bound {it} from "
            f"above (the lower {fraction_to_percent(confidence)} % limit of the curve never "
            f"reaches {reaches} before it ends at the longest duration, {said}: {why}; "
            f"Brookmeyer-Crowley); even successes alone need at least {need}")
