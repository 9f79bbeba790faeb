"""The bins a Prometheus read covers (:class:`Span`, widened to whole bins with a
:class:`SpanWidenedWarning` when ``start``/``end`` fall inside a bin) and its holes: bins the
server holds no data for (:func:`check_span`, refused) and bins without a scrape
(:func:`report_gaps`, warned and listed in ``bins.attrs["gaps"]``; ``backtest`` lists them under
"scrape gaps" in "How it was read").

A bin is evaluated at its end: the count of ``[bin_start, bin_start + freq)`` is read at
``bin_start + freq``, so the first evaluation is one step after the first bin's start.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.percent import measured_percent
from .._util.runs import true_runs
from .._util.validation import duration_label, to_ns, utc_from_ns, utc_timestamp
from .._util.words import counted, prose_duration, say
from ..errors import BudgetlabWarning, ConfigError, InputError
from ..windows.binning import check_grid_cells, grid_span
from .prometheus_answer import Series

__all__ = ["Span", "ScrapeGapWarning", "SpanWidenedWarning", "AbsentSeriesWarning",
           "absent_series", "check_span", "flag_gaps",
           "report_gaps"]

#: The share of bins without a scrape from which the bins are refused as shorter than the
#: scrape interval: half of them is a freq of half the interval (30s under 1-minute scrapes).
_MAX_GAP_SHARE = 0.5


class ScrapeGapWarning(BudgetlabWarning):
    """Some bins had no scrape of a counter series (listed in ``bins.attrs["gaps"]``)."""


class SpanWidenedWarning(BudgetlabWarning):
    """``start`` or ``end`` fell inside a bin: the whole bins around them were read (the span
    counted is in ``bins.attrs["span"]``)."""


class AbsentSeriesWarning(BudgetlabWarning):
    """Some groups of total have no series of the errors (or good) counter in the span: read as
    0 of them (said in ``bins.attrs["notes"]`` too)."""


@dataclass(frozen=True)
class Span:
    """The bin grid read: first bin start, bin width, number of bins (evaluated at the bin ends)."""

    first_bin: int
    step_ns: int
    n: int

    @classmethod
    def over(cls, freq: Any, start: Any, end: Any) -> Span:
        """The bins of ``[start, end)`` in bins of ``freq`` aligned on the epoch."""
        step_ns = to_ns(freq, name="freq")
        if step_ns < 10**9:
            raise ConfigError("freq must be at least 1 s (Prometheus scrapes are seconds apart).")
        lo = int(utc_timestamp(start, name="start").value)
        hi = int(utc_timestamp(end, name="end").value)
        if hi <= lo:
            raise ConfigError("end must be after start.")
        first_bin, n = grid_span(lo, hi, None, None, step_ns)
        check_grid_cells(1, n)
        return cls(first_bin, step_ns, n)

    @property
    def end(self) -> int:
        """The end of the last bin (exclusive)."""
        return self.first_bin + self.n * self.step_ns

    def widened(self, start: Any, end: Any, *, warn: bool = True) -> str | None:
        """When ``start``/``end`` (as :meth:`over` read them) fall inside a bin, the note that
        the span counted is wider (a counter is read at the bin ends only, so a part of a bin
        cannot be counted), with a :class:`SpanWidenedWarning` (``warn=False``: the note
        alone); else ``None``."""
        lo = utc_timestamp(start, name="start")
        hi = utc_timestamp(end, name="end")
        if (lo.value, hi.value) == (self.first_bin, self.end):
            return None
        fmt = "%Y-%m-%d %H:%M" + (":%S" if (lo.value % 60_000_000_000 or
                                             hi.value % 60_000_000_000) else "")
        fmt += ".%f" if (lo.value % 10**9 or hi.value % 10**9) else ""
        bin_ = prose_duration(pd.Timedelta(self.step_ns, unit="ns"))
        note = (f"span widened to whole {bin_} bins: {lo:{fmt}} .. {hi:{fmt}} UTC asked, "
                f"{self.time(0):{fmt}} .. {self.time(self.n):{fmt}} UTC counted (a counter is "
                f"read at the bin ends only); give {say('start=', '--start')} and "
                f"{say('end=', '--end')} on the {bin_} grid to count exactly the span asked")
        if warn:
            warnings.warn(SpanWidenedWarning(note + "."), stacklevel=3)
        return note

    @property
    def first_eval(self) -> int:
        return self.first_bin + self.step_ns

    def steps(self, s: Series) -> tuple[np.ndarray, np.ndarray]:
        """The bin of each sample of ``s``, and which samples fall on an evaluation time."""
        k = (s.ts_ns - self.first_eval) // self.step_ns
        ok = (k >= 0) & (k < self.n) & ((s.ts_ns - self.first_eval) % self.step_ns == 0)
        return k, ok

    def time(self, k: int) -> pd.Timestamp:
        """The start of bin ``k`` (UTC)."""
        return utc_from_ns(np.array([self.first_bin + k * self.step_ns]))[0]


def check_span(present: np.ndarray, span: Span, what: str,
               scraped: np.ndarray | None = None,
               first_sample: Callable[[int, int], int | None] | None = None) -> None:
    """Refuse bins before the first or after the last answer of the server (retention, future).
    After the last sample a bin still has a count for the server's lookback (5 minutes by
    default), a scrape gap: the end advised is that of the last bin with a scrape (``scraped``,
    groups x bins: present and not flagged by the gap queries), where the last sample is. Before
    the first bin with a count the first sample lies within the bin before it: its time is
    named when ``first_sample(after_ns, until_ns)`` (the earliest sample in that interval, ns)
    finds it."""
    idx = np.flatnonzero(present.any(axis=0))
    if idx[0] > 0:
        since = span.time(int(idx[0]))
        lo = span.first_bin + (int(idx[0]) - 1) * span.step_ns
        first = first_sample(lo, lo + span.step_ns) if first_sample is not None else None
        why = "retention, or the counter is newer"
        head = f"{since:%Y-%m-%d %H:%M} UTC ({why})"
        if first is not None and first == since.value:  # on the grid: the bin starts there
            head = f"{since:%Y-%m-%d %H:%M} UTC (its first sample; {why})"
        elif first is not None:
            head = (f"{sample_time(first)} UTC (its first sample; {why}), so the first bin with "
                    f"a count starts at {since:%Y-%m-%d %H:%M} UTC")
        raise InputError(f"{what}: the server holds no data before {head}; start at or after "
                         f"that time ({say('start=', '--start, or a shorter --since')}).")
    if idx[-1] < present.shape[1] - 1:
        seen = np.flatnonzero((present if scraped is None else present & scraped).any(axis=0))
        until = span.time(int((seen if len(seen) else idx)[-1]) + 1)
        raise InputError(f"{what}: the server holds no data after {until:%Y-%m-%d %H:%M} UTC "
                         "(its last sample); end at or before that time.")


def flag_gaps(series: Sequence[Series], by: list[str], index: Mapping[tuple[str, ...], int],
              span: Span, flags: np.ndarray) -> None:
    """Mark in ``flags`` (groups x bins) the bins a gap query's ``series`` name."""
    for s in series:
        key = tuple(s.labels.get(k, "") for k in by)
        if key in index:
            k, ok = span.steps(s)
            flags[index[key], k[ok]] = True


def report_gaps(flags: np.ndarray, keys: pd.DataFrame, by: list[str],
                span: Span) -> list[dict[str, Any]]:
    """The runs of flagged bins, one dict each (group keys, ``start``, ``end``, ``bins``), with a
    :class:`ScrapeGapWarning`; half the bins flagged or more is an error."""
    share = float(flags.mean())
    if share >= _MAX_GAP_SHARE:
        freq = duration_label(pd.Timedelta(span.step_ns, unit="ns"))
        raise InputError(f"{measured_percent(share, 0)} of the bins have no scrape: "
                         f"{say(f'freq={freq}', f'--freq {freq}')} is shorter than the scrape "
                         f"interval; use a {say('freq=', '--freq')} of at least the scrape "
                         "interval.")
    gaps = [{**{k: str(keys[k].iloc[g]) for k in by}, "start": span.time(lo), "end": span.time(hi),
             "bins": hi - lo} for g in range(flags.shape[0])
            for lo, hi in zip(*(a.tolist() for a in true_runs(flags[g])), strict=True)]
    if gaps:
        first = gaps[0]
        where = ", ".join(f"{k}={first[k]}" for k in by)
        warnings.warn(ScrapeGapWarning(
            f"{counted(int(flags.sum()), 'bin')} in {counted(len(gaps), 'scrape gap')} (first: "
            f"{where + ' ' if where else ''}{first['start']:%Y-%m-%d %H:%M}..{first['end']:%H:%M} "
            f"UTC): {'its count is' if flags.sum() == 1 else 'their counts are'} not known; "
            "across a gap shorter than the server's lookback the "
            "increase lands in the bin that ends it, across a longer one it is lost ("
            + say("listed in attrs['gaps']", "listed under 'scrape gaps' in 'How it was read'")
            + ")."), stacklevel=3)
    return gaps


def sample_time(ns: int) -> str:
    """A sample's time (UTC, without the zone), to the second or the millisecond.

    >>> sample_time(1767607350_000_000_000), sample_time(1767607350_250_000_000)
    ('2026-01-05 10:02:30', '2026-01-05 10:02:30.250')
    """
    t = utc_from_ns(np.array([ns]))[0]
    return f"{t:%Y-%m-%d %H:%M:%S}" + (f".{t.microsecond // 1000:03d}" if ns % 10**9 else "")


def absent_series(kind: str, query: str, absent: int, found: bool, span: Span) -> str:
    """The note on ``absent`` groups of total without a series of the ``kind`` counter in the
    span (read as 0, warned with an :class:`AbsentSeriesWarning`), or "" when every group has
    one; refused when ``query`` returned no series at all (``found`` False): a selector that
    matches nothing (a label value mistyped) would read as no failures.

    >>> span = Span(1_767_225_600 * 10**9, 60 * 10**9, 60)
    >>> absent_series("errors", 'e_total{region="fr"}', 1, False, span)
    Traceback (most recent call last):
    ...
    budgetlab.errors.InputError: errors='e_total{region="fr"}' returned no series between \
2026-01-01 00:00 and 2026-01-01 01:00 UTC; check its metric name and labels (a mistyped label \
value matches nothing); if the service truly had no errors, a counter that exists at 0 is read \
(initialise it at 0).
    """
    if not found:
        raise InputError(f"{kind}={' '.join(query.split())!r} returned no series between "
                         f"{span.time(0):%Y-%m-%d %H:%M} and {span.time(span.n):%Y-%m-%d %H:%M} "
                         "UTC; check its metric name and labels (a mistyped label value matches "
                         f"nothing); if the service truly had no {kind}, a counter that exists at "
                         "0 is read (initialise it at 0).")
    if not absent:
        return ""
    note = (f"{kind}: {counted(absent, 'group')} {'has' if absent == 1 else 'have'} no {kind} "
            f"series in the span; read as 0 {kind} (initialise counters at 0 to make this "
            "explicit)")
    warnings.warn(f"{note}.", AbsentSeriesWarning, stacklevel=4)
    return note
