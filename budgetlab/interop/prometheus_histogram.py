"""A latency SLI from a Prometheus histogram: the good events are the ``..._bucket`` series at the
threshold's bound (``le``), the total the ``..._count`` series.

A histogram counts only at its bucket bounds, so the threshold must be one of them: the bounds are
asked of the server's index (``/api/v1/series``, no samples read) and a threshold between two bounds
is refused with the two nearest named (never interpolated: that would be a guessed number). Bounds
are read in seconds, the base unit of Prometheus durations.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._util.validation import duration_label, to_ns
from .._util.words import given_duration
from ..errors import ConfigError, InputError, ServerError

if TYPE_CHECKING:
    from .prometheus_http import PrometheusClient

__all__ = ["HistogramSLI", "histogram_sli", "parse_histogram", "match_bound", "bound_matcher",
           "latency_selectors",
           "check_bucket_selectors"]

_NAME = re.compile(r"^\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*(\{(.*)\})?\s*$", re.S)
_SUFFIXES = ("_bucket", "_count", "_sum")


@dataclass(frozen=True)
class HistogramSLI:
    """The two counters of a latency SLI read from a histogram, and how they were chosen."""

    good: str
    total: str
    bound: str
    notes: tuple[str, ...]


def parse_histogram(text: str) -> tuple[str, str]:
    """``(name, matchers)`` of a histogram given as ``name`` or ``name{matchers}``.

    >>> parse_histogram('http_request_duration_seconds{job="api"}')
    ('http_request_duration_seconds', 'job="api"')
    >>> parse_histogram("http_request_duration_seconds_bucket")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --histogram takes the histogram's name without the suffix _bucket
    (http_request_duration_seconds): budgetlab reads its _bucket{le=...} and _count series itself.
    """
    m = _NAME.match(text or "")
    if m is None:
        raise ConfigError("--histogram takes a metric name, optionally with label matchers, e.g. "
                          "'http_request_duration_seconds{job=\"api\"}'.")
    name, matchers = m.group(1), (m.group(3) or "").strip().rstrip(",")
    for suffix in _SUFFIXES:
        if name.endswith(suffix):
            raise ConfigError(f"--histogram takes the histogram's name without the suffix {suffix} "
                              f"({name[: -len(suffix)]}): budgetlab reads its _bucket{{le=...}} "
                              "and _count series itself.")
    if re.search(r"\ble\s*(=|!=|=~|!~)", matchers):
        raise ConfigError("--histogram: leave the le label out of the matchers; --slow-above "
                          "chooses the bucket.")
    return name, matchers


def _seconds(le: str) -> float:
    try:
        return float(le)  # "+Inf" reads as inf
    except ValueError:
        raise InputError(f"a bucket bound le={le!r} is not a number; is this a Prometheus "
                         "histogram?") from None


def _label(seconds: float) -> str:
    """A bound in prose, as every note says a duration (``500 ms``, ``1 s``:
    :func:`~budgetlab._util.words.given_duration`); below a nanosecond (or negative), its every
    digit in seconds: ``{:g}`` kept six."""
    return given_duration(f"{seconds!r}s") if seconds >= 1e-9 else f"{seconds!r} s"


def match_bound(bounds: Sequence[str], threshold_ns: int, *, what: str,
                asked: str | None = None) -> str:
    """The bound (as the server writes it) equal to the threshold, else a refusal naming the
    nearest.

    >>> match_bound(["0.1", "0.5", "1", "+Inf"], 500_000_000, what="h")
    '0.5'
    >>> match_bound(["0.1", "0.5", "1", "+Inf"], 700_000_000, what="h")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --slow-above 700ms is not a bucket bound of h (bounds: 100 ms,
    500 ms, 1 s, +Inf); a histogram counts only at its bounds: the nearest are 500 ms and 1 s.
    """
    t = threshold_ns / 1e9
    finite = sorted({(_seconds(b), b) for b in bounds if math.isfinite(_seconds(b))})
    for sec, text in finite:
        if math.isclose(sec, t, rel_tol=1e-9, abs_tol=1e-12):
            return text
    listed = ", ".join(_label(s) for s,
                       _ in finite) + (", +Inf" if len(finite) < len(set(bounds)) else "")
    below = [s for s, _ in finite if s < t]
    above = [s for s, _ in finite if s > t]
    nearest = " and ".join(
        _label(s) for s in ([below[-1]] if below else []) + ([above[0]] if above else [])
    )
    typed = duration_label(f"{t!r}s") if t >= 1e-9 else f"{t!r}s"  # as --slow-above takes it
    raise ConfigError(f"{asked or '--slow-above ' + typed} is not a bucket bound of {what} "
                      f"(bounds: {listed}); a histogram "
                      "counts only at its bounds: the nearest "
                      f"{'are' if below and above else 'is'} {nearest}.")


def histogram_sli(client: PrometheusClient, histogram: str, slow_above: object, *, start_ns: int,
                  end_ns: int) -> HistogramSLI:
    """The good and total counters of "an event within ``slow_above``" from a histogram.

    The bounds come from the server's index over ``[start_ns, end_ns]``; every series of the
    histogram must carry the chosen bound (a series without it is refused, naming how many).
    """
    name, matchers = parse_histogram(histogram)
    threshold_ns = to_ns(slow_above, name="slow_above")
    sel = f"{name}_bucket{{{matchers}}}" if matchers else f"{name}_bucket"
    listing = client.series(sel, start_ns, end_ns)
    found = listing.labels
    if found is None:
        why = f": {listing.why}" if listing.why else ""
        raise ServerError(f"the server did not list the series of {sel} (/api/v1/series{why}); "
                          "give the SLI as "
                          f"--good '{name}_bucket{{le=\"<bound>\"}}' --total {name}_count instead.")
    if not found:
        raise InputError(f"{sel}: no series in the span; check the histogram's name and matchers.")
    if any("le" not in s for s in found):
        raise InputError(f"{sel}: a series has no le label; is {name} a Prometheus histogram?")
    bound = match_bound([s["le"] for s in found], threshold_ns, what=name)
    sec = _seconds(bound)
    others = [{k: v for k, v in s.items() if k != "le"} for s in found]
    carrying = [{k: v for k, v in s.items() if k != "le"} for s in found if s["le"] == bound]
    missing = len({tuple(sorted(o.items())) for o in others}) - len(
        {tuple(sorted(c.items())) for c in carrying}
    )
    if missing:
        raise InputError(f"{missing} series of {name} have no bucket le=\"{bound}\" (their bounds "
                         "differ); narrow "
                         "--histogram's matchers to series with the same buckets.")
    good, total = _selectors(name, matchers, f'le="{bound}"')
    notes = (f"latency SLI from the histogram {name}: good = events within {_label(sec)} (bucket "
             f"le=\"{bound}\", "
             f"a bound of the histogram, read in seconds), total = {name}_count; failed requests "
             "count as good when "
             "fast unless --histogram's matchers leave them out",)
    return HistogramSLI(good=good, total=total, bound=bound, notes=notes)


def bound_matcher(threshold_ns: int) -> str:
    """The ``le`` matcher of the bucket at a threshold, in seconds, as any Prometheus writes it
    (a whole number is ``1`` from Prometheus 2's text scrapes, ``1.0`` after Prometheus 3's
    normalisation: both are matched).

    >>> bound_matcher(500_000_000)
    'le="0.5"'
    >>> print(bound_matcher(2_000_000_000))
    le=~"2|2\\\\.0"
    """
    sec = threshold_ns / 1e9
    if sec <= 0 or not math.isfinite(sec):
        raise ConfigError("--slow-above must be a positive duration.")
    if sec == int(sec):
        return f'le=~"{int(sec)}|{int(sec)}\\\\.0"'
    return f'le="{sec!r}"'


def latency_selectors(histogram: str, slow_above: object) -> tuple[str, str]:
    """``(good, total)``: the histogram's bucket at ``slow_above`` and its ``_count``, for rules
    and specs written without a server (the bound is not checked against one: say so).

    >>> latency_selectors('http_request_duration_seconds{job="api"}', "250ms")
    ('http_request_duration_seconds_bucket{job="api", le="0.25"}',
    'http_request_duration_seconds_count{job="api"}')
    """
    name, matchers = parse_histogram(histogram)
    return _selectors(name, matchers, bound_matcher(to_ns(slow_above, name="slow_above")))


def _selectors(name: str, matchers: str, le: str) -> tuple[str, str]:
    """``(bucket at le, count)`` selectors of the histogram ``name{matchers}``."""
    inner = f"{matchers}, " if matchers else ""
    return f"{name}_bucket{{{inner}{le}}}", (
        f"{name}_count{{{matchers}}}" if matchers else f"{name}_count"
    )


_BUCKET = re.compile(r"^\s*([A-Za-z_:][A-Za-z0-9_:]*_bucket)\s*\{(.*)\}\s*$", re.S)
_LE = re.compile(r'(?:^|,)\s*le\s*(=~|=)\s*"((?:[^"\\]|\\.)*)"\s*(?=,|$)')


def check_bucket_selectors(client: PrometheusClient, selectors: Mapping[str, Sequence[str]], *,
                           start_ns: int, end_ns: int) -> tuple[str, ...]:
    """Refuse a histogram bucket selector (``x_bucket{..., le="0.7"}``) that selects no series
    while the histogram has others: a bound it does not have would read as "no event within the
    threshold", every event bad. The bounds it has are named (the nearest to an ``le="..."``).
    ``selectors``: each query's selectors by the query's name (``good``, ``total``).

    Returns the notes of the checks it could not make: when the server's series index
    (``/api/v1/series``) fails, the buckets left are not checked (nor the index asked again), and
    one note says which, for "how it was read"; else none.
    """
    from .prometheus_http import index_failed_words

    buckets = [(what, sel, m, le) for what, sels in selectors.items() for sel in sels
               if (m := _BUCKET.match(sel)) is not None and (le := _LE.search(m.group(2)))]
    for i, (what, sel, m, le) in enumerate(buckets):
        why = _check_bucket(client, (sel, m, le), start_ns, end_ns, what)
        if why:
            left = [f"the {w} query's {s}" for w, s, _, _ in buckets[i:]]
            said = left[0] if len(left) == 1 else ", ".join(left[:-1]) + " and " + left[-1]
            return (f"{index_failed_words(why)}; not checked against the histogram's bounds: "
                    f"{said} (a bound the histogram does not have would read every event as "
                    "bad)",)
    return ()


def _check_bucket(client: PrometheusClient, bucket: tuple[str, re.Match[str], re.Match[str]],
                  start_ns: int, end_ns: int, what: str) -> str:
    """Refuse the bucket selector (its text, its :data:`_BUCKET` and :data:`_LE` matches) when
    it selects no series while its histogram has others; returns why the server's series index
    could not tell ("" when it could)."""
    sel, m, le = bucket
    listing = client.series(sel, start_ns, end_ns)
    if listing.labels is None or listing.labels:  # failed (why), too many series, or some
        return listing.why if listing.labels is None else ""
    rest = (m.group(2)[: le.start()] + m.group(2)[le.end():]).strip().strip(",").strip()
    found = client.series(f"{m.group(1)}{{{rest}}}" if rest else m.group(1), start_ns, end_ns)
    if found.labels is None:
        return found.why
    bounds = sorted({s["le"] for s in found.labels if "le" in s}, key=_seconds)
    if not bounds:
        return ""  # no such histogram at all: the reader's own "no series" message says it
    name = m.group(1)[: -len("_bucket")]
    asked = f'{what}: the bucket le{le.group(1)}"{le.group(2)}" of {name}'
    if le.group(1) == "=" and math.isfinite(_seconds(le.group(2))):
        written = match_bound(bounds, round(_seconds(le.group(2)) * 1e9), what=name, asked=asked)
        raise ConfigError(f'{asked} is written le="{written}" on this server; use that (or '
                          f'le=~"{le.group(2)}|{written}").')
    raise ConfigError(f"{asked} matches no bound of the histogram ({', '.join(bounds)}); pick "
                      "one.")
