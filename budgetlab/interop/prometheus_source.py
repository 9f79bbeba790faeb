"""Read two Prometheus counters as the bins table: :func:`read_prometheus`.

What is computed where:

* **on the server** (``/api/v1/query_range``, one evaluation per bin end, in chunks of at most
  :data:`~budgetlab.interop.prometheus_http.MAX_POINTS` points per series, all the queries of
  one read in flight together): the per-bin increase of every counter series, without
  extrapolation and with resets handled (:mod:`budgetlab.interop.promql` states the form and its
  error bound), summed per group (``sum by (labels)``); and, per counter selector, the bins
  where a series had no scrape;
* **in budgetlab**: adding the reset part of the split form, checks (whole, finite,
  non-negative counts; ``bad <= total``; one series when ungrouped; group keys free of personal
  data), the gap report, and the bins table that :func:`budgetlab.bin_events` makes of an event
  log, so every SRE-model function reads it unchanged.

A bin is evaluated at its end: the count of ``[bin_start, bin_start + freq)`` is the counter at
``bin_start + freq`` minus the counter at ``bin_start``, each the last sample at or before that
time. With scrapes at the bin ends this is exactly the events ``bin_events`` puts in the bin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import time_text
from .._util.units import HOUR_NS
from .._util.validation import as_list
from ..errors import ConfigError, InputError
from ..windows.bingrid import BinGrid
from ..windows.binning import check_grid_cells
from .prometheus_answer import Series
from .prometheus_http import MAX_SERIES, PrometheusClient, index_failed_words
from .prometheus_keys import (
    group_index,
    guard_keys,
    key_frame,
    refuse_named_keys,
    spell_keys,
    spellings,
    split_parts,
)
from .prometheus_span import Span, absent_series, check_span, flag_gaps, report_gaps
from .promql import (
    CountQuery,
    bin_count_query,
    gap_query,
    parse_count_query,
    prom_step,
)

__all__ = ["read_prometheus", "read_counts"]

#: How far before the first bin a series may hold the sample a bin edge reads (the server's
#: lookback, 5 minutes by default), when budgetlab asks which series a selector holds.
LOOKBACK_MARGIN_NS = HOUR_NS


def _fill(series: Sequence[Series], keys: list[tuple[str, ...]], index: Mapping[tuple[str, ...],
                                                                                int],
          span: Span, what: str, parts: Sequence[tuple[tuple[str, ...],
                                                       Series]] = ()) -> tuple[np.ndarray,
                                                                               np.ndarray]:
    """``(values, present)`` arrays of shape ``(groups, n)`` from the series, the reset
    ``parts`` added to the bins of their group."""
    n = span.n
    vals = np.zeros((len(index), n), dtype=np.float64)
    present = np.zeros((len(index), n), dtype=bool)
    for s, key in zip(series, keys, strict=True):
        k, ok = span.steps(s)
        g = index[key]
        vals[g, k[ok]] = s.values[ok]
        present[g, k[ok]] = True
    for key, s in parts:
        if key in index:  # a reset needs values at both bin edges, so its group has counts there
            k, ok = span.steps(s)
            vals[index[key], k[ok]] += s.values[ok]
    v = vals[present]
    if bool(np.any(np.abs(v - np.round(v)) > 1e-6)):
        raise InputError(f"{what}: the per-bin counts are not whole numbers; the query must count "
                         "events "
                         "(a counter, or rate/increase of one), not measure a gauge or a ratio.")
    if bool(np.any(v < 0)):
        raise InputError(f"{what}: the per-bin counts are negative in some bins; the query must be "
                         "a sum of "
                         "counters, without subtractions.")
    return np.round(vals).astype(np.int64), present


def _other_counts(series: Sequence[Series], kind: str, query: CountQuery, by: list[str],
                  index: Mapping[tuple[str, ...], int], span: Span,
                  notes: list[str]) -> tuple[np.ndarray, np.ndarray, bool]:
    """Counts and presence of the errors (or good) counter on the groups of total, and whether
    some group has no counts at all (read as 0, presence set)."""
    series, parts = split_parts(series, by)
    keys = group_index(series, by, kind, query)
    unknown = [k for k in keys if k not in index]
    if unknown:
        raise InputError(f"{kind}: the query returns groups that total does not have "
                         f"({len(unknown)}); "
                         "both counters must carry the same labels.")
    counts, present = _fill(series, keys, index, span, kind, parts)
    absent = [g for g in range(len(index)) if not present[g].any()]
    note = absent_series(kind, query.text, len(absent), bool(series), span)
    notes += [note] if note else []
    present[absent] = True
    return counts, present, bool(absent)


def _bad_counts(tot: np.ndarray, other: np.ndarray, kind: str) -> np.ndarray:
    if bool(np.any(other > tot)):
        raise InputError(f"{kind} exceeds total in some bins; the two counters are not scraped "
                         "together, or "
                         f"{kind} is not a subset of total: check the queries or use a coarser "
                         "freq.")
    return other if kind == "errors" else tot - other


def _single_series(client: PrometheusClient, selector: str, by: list[str], span: Span
                   ) -> tuple[bool, str]:
    """Whether ``selector`` holds at most one series per group over the span (asked of the
    server's index); then the sums and the appear/disappear parts of the gap query are left out.
    Second, why the index could not be used when the server failed to answer it ("" else)."""
    listing = client.series(selector, span.first_bin - LOOKBACK_MARGIN_NS,
                            span.first_bin + span.n * span.step_ns)
    found = listing.labels
    if not found:
        return False, listing.why
    keys = [tuple(labels.get(k) for k in by) for labels in found]
    if not all(v is not None for key in keys for v in key):
        return False, ""
    spelled = spellings(str(v) for key in keys for v in key)[0]  # as the groups will be keyed
    keys = [tuple(spelled[str(v)] for v in key) for key in keys]
    return len(set(keys)) == len(keys), ""


def _single(client: PrometheusClient, queries: dict[str, CountQuery], by: list[str], span: Span
            ) -> tuple[dict[str, bool], str]:
    """Which counters hold one series per group (:func:`_single_series`, asked of each bare
    selector until the index fails), and the note saying that it failed ("" else)."""
    single = dict.fromkeys(queries, False)
    why, left = "", []
    for what, q in queries.items():
        if not q.bare:
            continue
        if why:  # the index failed: not asked again (its retries, its time)
            left.append(what)
            continue
        single[what], why = _single_series(client, q.selectors[0], by, span)
        left += [what] if why else []
    if not why:
        return single, ""
    return single, (f"{index_failed_words(why)}; {' and '.join(left)} read without the index, "
                    "with the full query form (sums, and the series that appear or disappear): "
                    "the same counts, more work for the server")


def _queries(total: Any, errors: Any, good: Any) -> tuple[CountQuery, CountQuery, str]:
    if (errors is None) == (good is None):
        raise ConfigError("give exactly one of errors= (failed events) and good= (successful "
                          "events) beside total=.")
    kind = "errors" if errors is not None else "good"
    return parse_count_query(total,
                             "total"), parse_count_query(errors if errors is not None else good,
                                                         kind), kind


def _ask(client: PrometheusClient, queries: dict[str, CountQuery], by: list[str], span: Span,
         notes: list[str]) -> tuple[dict[str, str], dict[str, bool], list[list[Series]]]:
    """Send the count query of each counter and the gap query of each selector, all in flight
    together: (the count queries sent, which counters hold one series per group, the answers).
    A failure of the server's series index is said in ``notes``."""
    step = prom_step(span.step_ns)
    # a bare selector with at most one series per group: no sums, and its count query's missing
    # values already report the series that appear or disappear (see promql.gap_query)
    single, failed = _single(client, queries, by, span)
    notes += [failed] if failed else []
    sent = {what: bin_count_query(q, step, by, single=single[what]) for what, q in queries.items()}
    asked = [(text, what) for what, text in sent.items()]
    asked += [(gap_query(sel, step, span.step_ns, by, single=single[what]), f"{what} scrape gaps")
              for what, q in queries.items() for sel in q.selectors]
    return sent, single, client.query_ranges(asked, span.first_eval, span.n, span.step_ns)


def _total_counts(answer: list[Series], query: CountQuery, by: list[str], span: Span
                  ) -> tuple[dict[tuple[str, ...], int], np.ndarray, np.ndarray]:
    """(group index, counts, presence) of the total counter; its groups are the groups read
    (:func:`~budgetlab.interop.prometheus_span.check_span` reads the presence once the gaps are
    known)."""
    series, parts = split_parts(answer, by)
    if not series:
        raise InputError("total: the query returned no series between "
                         f"{span.time(0):%Y-%m-%d %H:%M} and {span.time(span.n):%Y-%m-%d %H:%M} "
                         "UTC; check the metric name and labels, and that the server holds data "
                         "for the span.")
    keys = group_index(series, by, "total", query)
    guard_keys(keys, by)
    index = {k: i for i, k in enumerate(sorted(keys))}
    counts, present = _fill(series, keys, index, span, "total", parts)
    return index, counts, present


def read_prometheus(
    url: str,
    *,
    total: str,
    errors: str | None = None,
    good: str | None = None,
    start: Any,
    end: Any,
    freq: Any = "1min",
    by: str | Sequence[str] = (),
    timeout: float = 30.0,
    headers: Mapping[str, str] | None = None,
    retries: int = 3,
    max_series: int = MAX_SERIES,
    not_personal: Sequence[str] = (),
) -> pd.DataFrame:
    """Per-bin event counts of two Prometheus counters: the bins table of
    :func:`budgetlab.bin_events`
    (with every bin, as ``dense=True`` makes it: Prometheus answers a value per step).

    Parameters
    ----------
    url : str
        The server, e.g. ``"http://localhost:9090"`` (``user:password@`` is sent as Basic auth
        and never shown).
    total : str
        Counter of all events: a selector (``http_requests_total{job="api"}``) or PromQL whose
        counters appear as ``rate(x[...])`` / ``increase(x[...])`` (Sloth's
        ``sum(rate(x[{{.window}}]))``); see :mod:`budgetlab.interop.promql`.
    errors, good : str
        Counter of failed, or of successful, events (exactly one of them).
    start, end : timestamp
        Span read; the bins cover ``[start, end)`` aligned on the epoch (naive times are UTC). A
        ``start`` or ``end`` inside a bin reads that whole bin (a counter is read at bin ends
        only): the span counted is then wider than the span asked, said in a
        :class:`~budgetlab.interop.prometheus_span.SpanWidenedWarning` and a note, and given in
        ``attrs["span"]``.
    freq : duration
        Bin width and query step (``"1min"``); at least the scrape interval.
    by : str or list of str
        Labels to group by: the counts are ``sum by (labels)`` on the server. A label named for
        people or accounts (``user``, ``customer``, ...:
        :func:`~budgetlab.privacy.names_a_person`) is refused before the server is asked.
    timeout : float
        Seconds for the whole read, every request to the server from the first to the last byte
        of its last answer (one deadline on the monotonic clock: every read waits at most the
        time remaining; a request it cuts short, ``/api/v1/series`` too, is a ``ServerError``).
    headers : mapping, optional
        Extra HTTP headers (``{"Authorization": "Bearer ..."}``); never shown.
    retries : int
        Retries of a 5xx or 429 answer, with exponential backoff.
    max_series : int
        Most series one answer may hold (1,000; one per group, two with the reset part). It
        sizes the cap on each answer's bytes: ``max_series`` x points asked x 48 bytes + 1 MiB
        (:func:`~budgetlab.interop.prometheus_http.answer_cap`); a larger answer is refused. Up
        to 4 answers are read at once, so a read may hold 4 times the cap at its peak.
    not_personal : list of str
        Labels of ``by`` named like people or accounts (``client``) that name no person here.

    Returns
    -------
    DataFrame
        Group keys (categorical), ``bin_start``, ``total``, ``good``, ``bad`` (int64; no
        ``bad_<bucket>`` columns: a counter has no failure kinds). ``attrs``: ``freq``, ``by``,
        ``source`` (the redacted URL and the PromQL sent), ``gaps`` (one dict per run of bins
        without a scrape: group keys, ``start``, ``end`` (ISO-8601 text), ``bins``) and
        ``notes`` (what was decided while reading), ``span`` (``start`` and ``end`` of the bins
        counted, ISO-8601 text, end exclusive).

    Warns
    -----
    SpanWidenedWarning
        When ``start`` or ``end`` is not on the bin grid: the span counted is wider.
    ScrapeGapWarning
        When some bins had no scrape. Their counts are not known: what a counter gained across a
        gap shorter than the server's lookback (5 minutes by default) is counted in the bin that
        ends the gap, across a longer gap it is lost. More than half the bins in gaps is an
        error (``freq`` is shorter than the scrape interval).

    Examples
    --------
    >>> read_prometheus("http://127.0.0.1:9", total="x_total", errors="e_total", start="2026-01-01",
    ...                 end="2026-01-02", timeout=0.5)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ServerError: cannot reach Prometheus at http://127.0.0.1:9 (Connection
    refused); check the URL and that the server is up.
    """
    client = PrometheusClient(url, timeout=timeout, headers=headers, retries=retries,
                              max_series=max_series)
    return read_counts(client, total=total, errors=errors, good=good, start=start, end=end,
                       freq=freq, by=by, not_personal=not_personal)


def read_counts(client: PrometheusClient, *, total: str, errors: str | None = None,
                good: str | None = None, start: Any, end: Any, freq: Any = "1min",
                by: str | Sequence[str] = (), warn_widened: bool = True,
                not_personal: Sequence[str] = ()) -> pd.DataFrame:
    """:func:`read_prometheus` through ``client``: its server, headers and caps, and its one
    deadline (``budgetlab backtest`` asks a histogram's bounds and reads the counts within
    one ``--timeout``). ``warn_widened=False``: a span widened to whole bins is said in
    ``attrs["notes"]`` only, not warned (the command line's header says it)."""
    q_total, q_other, kind = _queries(total, errors, good)
    keys_by = as_list(by)
    refuse_named_keys(keys_by, as_list(not_personal))
    span = Span.over(freq, start, end)
    widened = span.widened(start, end, warn=warn_widened)
    step = prom_step(span.step_ns)
    notes = [widened] if widened else []
    sent, single, answers = _ask(client, {"total": q_total, kind: q_other}, keys_by, span, notes)
    notes += [f"per-bin counts: counter differences at the bin ends ({step} apart), resets read as "
             "a restart from 0; see budgetlab.interop.promql"]
    answers = spell_keys(answers, keys_by, ("total", kind), notes)
    index, tot, tot_present = _total_counts(answers[0], q_total, keys_by, span)
    if q_total.bare:
        notes.append(f"total: the series of {q_total.selectors[0]} summed"
                     + (f" by {', '.join(keys_by)}" if keys_by else ""))
    oth, oth_present, some_absent = _other_counts(answers[1], kind, q_other, keys_by, index, span,
                                                  notes)
    flags = ~tot_present | ~oth_present
    # a group without counts: its series' comings and goings are not implied
    if some_absent and single[kind]:
        gap = gap_query(q_other.selectors[0], step, span.step_ns, keys_by)
        answers += spell_keys([client.query_range(gap, span.first_eval, span.n, span.step_ns,
                                                  what=f"{kind} scrape gaps")], keys_by, (), notes)
    for gaps_found in answers[2:]:
        flag_gaps(gaps_found, keys_by, index, span, flags)
    first = (lambda lo, hi: client.first_sample(q_total.selectors[0], lo, hi)) if q_total.bare \
        else None  # an expression's first count may need several counters: no one sample
    check_span(tot_present, span, "total", scraped=~flags,  # the gaps say where the data ends
               first_sample=first)
    keys = key_frame(index, keys_by)
    bad = _bad_counts(tot, oth, kind)
    grid = BinGrid.from_dense(keys, keys_by, span.first_bin, span.step_ns, tot, bad)
    check_grid_cells(grid.n_groups, span.n)
    gaps = report_gaps(flags, keys, keys_by, span)
    table = grid.to_table(dense=True)  # a value per step and group, as Prometheus answered
    table.attrs["source"] = {"url": client.where, "queries": sent, "requests": client.requests}
    table.attrs["gaps"] = [{**g, "start": time_text(g["start"]), "end": time_text(g["end"])}
                           for g in gaps]
    table.attrs["notes"] = notes
    table.attrs["span"] = {"start": time_text(span.time(0)), "end": time_text(span.time(span.n))}
    return table
