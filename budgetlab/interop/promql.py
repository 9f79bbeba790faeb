"""PromQL for reading counters as per-bin event counts (what :func:`~budgetlab.read_prometheus`
sends).

**The count form.** For a counter selector ``S`` and a bin width ``f`` the per-bin increase of
every series is evaluated at each bin end ``t`` as

.. code-block:: none

    (S - S offset f >= 0) or ((S < S offset f) * 1)

``S`` at ``t`` is the series' last sample at or before ``t`` (within the server's lookback,
5 minutes by default), so the first branch is the plain difference of two raw counter values:
no extrapolation, and the differences telescope, so the sum over bins equals the counter's
gain over the span. The second branch is a **reset**: the value fell, and the bin gets the value
after the reset (``* 1`` drops the metric name, so both branches are one series) (the counter
restarted from 0, as ``rate()`` assumes too). This is then summed
per group (``sum by (labels)``) on the server.

**The split form (a bare selector).** The same counts, for less work on the server: the sum of
the plain differences and, marked with the label :data:`PART_LABEL`, the sum of the values
before the resets, which budgetlab adds back (``(S - S_prev) + S_prev = S`` at a reset):

.. code-block:: none

    sum by (labels) (S - S offset f)
      or label_replace(sum by (labels) (S offset f > S), "budgetlab_part", "reset", "", "")

A series counts in a bin in both forms exactly when it has a value at ``t`` and at ``t - f``.
The second part holds only the bins with a reset, so the server builds two dense results per
step instead of four (measured: about 15 % less server CPU; the tests compare the two forms bin
by bin on a real server). When the server's index shows at most one series per group over the
span (``single=True``), the sums of one series are left out too (about 40 % less again).

**Error bound against the raw counters.** With scrapes at the bin ends the counts are exact. With
scrapes at another phase, every bin is the count between the last scrapes before its start and
its end: shifted by less than one scrape interval, none lost or counted twice. At a reset the
bin loses what the old process counted after the previous bin end (no reader can see the
increments it never exported); a reset whose new value is already at or above the old one
reads as ``new - old`` and undercounts by ``old``, which is at most the bin's own count. A
series' first sample is a starting value, not an increase (as in Prometheus).

``rate(S[w])`` / ``increase(S[w])`` inside a larger PromQL expression (Sloth's
``sum(rate(x[{{.window}}]))``) are replaced by the first form; the rest of the expression is kept.

>>> print(bin_count_query('http_requests_total{job="api"}', "1m", ["region"]))
sum by (region) (http_requests_total{job="api"} - http_requests_total{job="api"} offset 1m) or
label_replace(sum by (region) (http_requests_total{job="api"} offset 1m >
http_requests_total{job="api"}), "budgetlab_part", "reset", "", "")
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._util.validation import duration_label, to_timedelta
from ..errors import ConfigError
from ..privacy import looks_personal, shown
from .promql_aggregation import grouped_by

__all__ = ["CountQuery", "parse_count_query", "bin_count_query", "window_query", "gap_query",
           "prom_step",
           "PART_LABEL", "LABEL_NAME", "escape", "metric_name", "label_values", "label_matchers",
           "selector_text", "label_filter", "prom_duration", "shown_query"]

#: Label that marks the reset part of the split count form (a ``by`` label may not have this name).
PART_LABEL = "budgetlab_part"

_MATCHERS = r'\{(?:[^{}"]|"(?:[^"\\]|\\.)*")*\}'
# what may be an IP address in a query (ipaddress decides): dotted IPv4, colon-separated IPv6
_ADDRESS = re.compile(r"(?<![\w.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![\w.])"
                      r"|(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])")
_NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
_SELECTOR = rf"(?:{_NAME}\s*(?:{_MATCHERS})?|{_MATCHERS})"
_SELECTOR_ONLY = re.compile(rf"^\s*({_SELECTOR})\s*$")
_COUNTER_FN = re.compile(rf"\b(rate|increase)\s*\(\s*({_SELECTOR})\s*\[\s*([^\]]+?)\s*\]\s*\)")
#: A Prometheus label name (also an alert name): letters, digits and ``_``, no leading digit.
LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_METRIC = re.compile(rf"^{_NAME}$")
_MATCHER = re.compile(r'\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"\s*')
_MATCHER_LIST = re.compile(rf"{_MATCHER.pattern}(?:,{_MATCHER.pattern})*,?")
_KEYWORDS = {"sum", "min", "max", "avg", "count", "by", "without", "on", "ignoring", "group_left",
             "group_right", "and", "or", "unless", "offset", "bool", "topk", "bottomk", "quantile",
             "stddev",
             "stdvar", "count_values", "group", "inf", "nan"}


@dataclass(frozen=True)
class CountQuery:
    """A counter query as budgetlab reads it: the text given, the counter selectors it holds, and
    whether it is a bare selector (summed per group) or an expression (kept, counter functions
    replaced)."""

    text: str
    selectors: tuple[str, ...]
    bare: bool


def escape(value: str) -> str:
    """``value`` as the text inside a PromQL string literal (``\\``, ``"`` and newlines escaped)."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def metric_name(name: Any, what: str) -> str:
    """``name``, refused unless it is a Prometheus metric name."""
    if not isinstance(name, str) or not _METRIC.match(name):
        raise ConfigError(f"{what}={name!r} is not a Prometheus metric name (letters, digits, _ "
                          "and :).")
    return name


def label_values(labels: Mapping[Any, Any], what: str) -> dict[str, str]:
    """``labels`` as Prometheus labels: names of letters, digits and ``_`` (not ``__``), one
    text value each (an OpenSLO label holding a list has no Prometheus form: refused)."""
    out = {}
    for k, v in labels.items():
        if not isinstance(k, str) or not LABEL_NAME.match(k) or k.startswith("__"):
            raise ConfigError(f"{what}: {k!r} is not a Prometheus label name (letters, digits, _).")
        if not isinstance(v, str):
            raise ConfigError(f"{what}: {k} holds {type(v).__name__} values; a Prometheus label "
                              "holds one text.")
        out[k] = v
    return out


def label_matchers(selector: str | Mapping[str, str] | None, what: str) -> list[str]:
    """Label matchers as PromQL text items (``job="solver"``), from a mapping of label values
    or matcher text (``'job="solver",region=~"fra|ams"'``, braces optional).

    >>> label_matchers({"job": "solver"}, "selector"), label_matchers('{a="1", b!~"x"}', "selector")
    (['job="solver"'], ['a="1"', 'b!~"x"'])
    """
    if selector is None:
        return []
    if isinstance(selector, Mapping):
        return [f'{k}="{escape(v)}"' for k, v in label_values(selector, what).items()]
    if not isinstance(selector, str):
        raise ConfigError(f"{what} must be label matchers such as 'job=\"solver\"' or a mapping.")
    text = selector.strip().strip("{}").strip()
    if text and _MATCHER_LIST.fullmatch(text) is None:
        raise ConfigError(f"{what} is not a list of label matchers separated by commas, such as "
                          "'job=\"solver\",region=~\"fra|ams\"'.")
    return [m.group(0).strip() for m in _MATCHER.finditer(text)]


def selector_text(items: Sequence[str]) -> str:
    """``{a="1",b="2"}`` of matcher items, ``""`` for none."""
    return "{" + ",".join(items) + "}" if items else ""


def label_filter(labels: Mapping[str, str]) -> str:
    """``{a="1", b="2"}``: equality matchers on every label of ``labels``.

    >>> label_filter({"sloth_id": "web-api", "sloth_slo": "api"})
    '{sloth_id="web-api", sloth_slo="api"}'
    """
    return "{" + ", ".join(f'{k}="{escape(v)}"' for k, v in labels.items()) + "}"


def prom_duration(value: Any, what: str) -> str:
    """A duration as a rule file writes it (``5m``, ``1d``); whole milliseconds only.

    >>> prom_duration("30min", "window"), prom_duration("3D", "window")
    ('30m', '3d')
    """
    td = to_timedelta(value, name=what)
    if td.value % 10**6:
        raise ConfigError(f"{what}={td} is not a whole number of milliseconds; Prometheus "
                          "durations cannot say it.")
    return duration_label(td)


def prom_step(freq_ns: int) -> str:
    """A bin width as a PromQL duration (whole milliseconds).

    >>> prom_step(60 * 10**9), prom_step(90 * 10**9), prom_step(1500 * 10**6)
    ('1m', '90s', '1500ms')
    """
    if freq_ns % 10**6 or freq_ns <= 0:
        raise ConfigError("freq must be a whole number of milliseconds for Prometheus.")
    ms = freq_ns // 10**6
    for unit, size in (("h", 3_600_000), ("m", 60_000), ("s", 1000)):
        if ms % size == 0:
            return f"{ms // size}{unit}"
    return f"{ms}ms"


def _loopback(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


def shown_query(text: str, limit: int = 200) -> str:
    """A query as a message shows it (:func:`budgetlab.privacy.shown`), except that a loopback
    address (127.0.0.0/8, ``::1``) is not personal data here: in a Prometheus query it names the
    server's own machine (``instance="127.0.0.1:9090"``), no person. Every other address (private
    ranges included) is hidden as before, and in an event log's key a loopback address is refused
    as any address is: the exemption is this function's only.

    >>> print(shown_query('x_total{instance="127.0.0.1:9090"}'))
    'x_total{instance="127.0.0.1:9090"}'
    >>> print(shown_query('x_total{ip="10.1.2.3"}'))
    a value that looks like personal data (not shown)
    """
    masked = _ADDRESS.sub(lambda m: "x" * len(m.group()) if _loopback(m.group()) else m.group(),
                          text)
    cut = text[:max(int(limit), 1)]
    if masked == text or looks_personal(masked) or looks_personal(masked[:len(cut)]):
        return shown(text, limit)
    return repr(cut + ("…" if cut != text else ""))  # shown()'s spelling of a value it shows


def _named(what: str, text: str) -> str:
    """A query as a message names it: ``total='...'`` for a keyword argument, ``the total query
    '...'`` after words (a spec's query, which no keyword or flag gave)."""
    return f"{what}={shown_query(text)}" if what.isidentifier() else f"{what} {shown_query(text)}"


def parse_count_query(text: str, what: str) -> CountQuery:
    """Read a counter query: a selector (``x_total{job="a"}``) or PromQL whose counters appear
    as ``rate(sel[...])`` / ``increase(sel[...])`` (the range is replaced by the bin width).
    ``what`` names it in a refusal: a keyword (``errors``) or words (``SLO 'a': the total query``).

    >>> parse_count_query('sum(rate(errs_total{code=~"5.."}[{{.window}}]))', "errors").selectors
    ('errs_total{code=~"5.."}',)
    >>> parse_count_query("sum(errs_total)", "errors")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: errors='sum(errs_total)' holds no counter budgetlab can read per
    bin; give a counter selector (x_total{job="a"}) or PromQL with rate(x_total[...]) /
    increase(x_total[...]).
    """
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"{what} must be a counter selector or PromQL text.")
    text = " ".join(text.split())
    m = _SELECTOR_ONLY.match(text)
    if m is not None and m.group(1).split("{")[0].strip().lower() not in _KEYWORDS:
        return CountQuery(text, (m.group(1).strip(),), True)
    found = [fm.group(2).strip() for fm in _COUNTER_FN.finditer(text)]
    rest = _COUNTER_FN.sub("", text)
    if not found or "[" in rest:
        raise ConfigError(f"{_named(what, text)} holds no counter budgetlab can read per "
                          "bin; give a counter selector "
                          '(x_total{job="a"}) or PromQL with rate(x_total[...]) / '
                          'increase(x_total[...]).')
    # not inside label values
    if re.search(r"\boffset\b|@", re.sub(r'"(?:[^"\\]|\\.)*"', '""', rest)):
        raise ConfigError(f"{_named(what, text)} uses offset or @; budgetlab sets the "
                          "evaluation times itself.")
    return CountQuery(text, tuple(dict.fromkeys(found)), False)


def _increase(selector: str, step: str) -> str:
    s = selector
    return f"({s} - {s} offset {step} >= 0) or (({s} < {s} offset {step}) * 1)"


def _by(by: Sequence[str]) -> str:
    for k in by:
        if not isinstance(k, str) or not LABEL_NAME.match(k):
            raise ConfigError(f"by: {k!r} is not a Prometheus label name (letters, digits, _).")
        if k == PART_LABEL:
            raise ConfigError(f"by: {PART_LABEL!r} is the label budgetlab marks its own query "
                              "parts with; "
                              "group by another label (rename it with label_replace in the query).")
    return ", ".join(by)


def bin_count_query(query: CountQuery | str, step: str, by: Sequence[str], *,
                    single: bool = False) -> str:
    """The PromQL of the per-bin counts of ``query``, summed per ``by`` labels (see the module
    notes:
    the split form for a bare selector, whose series marked with :data:`PART_LABEL` are added to
    the others of their group; the count form inside an expression).

    With ``single=True`` (a bare selector known to hold at most one series per group over the
    span) the sums, each of one series, are left out: the same values, for less work.

    >>> bin_count_query("e_total", "1m", [])
    'sum (e_total - e_total offset 1m) or label_replace(sum (e_total offset 1m > e_total),
    "budgetlab_part", "reset", "", "")'
    >>> bin_count_query("sum(rate(e_total[{{.window}}]))", "1m", [])
    'sum(((e_total - e_total offset 1m >= 0) or ((e_total < e_total offset 1m) * 1)))'

    A query that sums by the ``by`` labels already is sent as it is (summed again, each group's
    one series would be its own sum: the same values, the query said twice):

    >>> bin_count_query("sum by (region) (rate(e_total[5m]))", "1m", ["region"])
    'sum by (region) (((e_total - e_total offset 1m >= 0) or ((e_total < e_total offset 1m) * 1)))'
    """
    q = parse_count_query(query, "query") if isinstance(query, str) else query
    labels = _by(by)
    if q.bare:  # the split form
        s = q.selectors[0]
        agg = "" if single else f"sum by ({labels})" if labels else "sum"
        return (f"{agg} ({s} - {s} offset {step}) or "
                f'label_replace({agg} ({s} offset {step} > {s}), "{PART_LABEL}", "reset", "", "")')
    expr = _COUNTER_FN.sub(lambda fm: f"({_increase(fm.group(2).strip(), step)})", q.text)
    if not labels or grouped_by(expr) == set(by):  # already one series per group: sent once
        return expr
    return f"sum by ({labels}) ({expr})"


def window_query(query: CountQuery | str, window: str, *, function: str = "increase") -> str:
    """The events of ``query`` over a trailing ``window`` (a PromQL duration), for a recording
    rule: what :func:`bin_count_query` reads per bin, summed over the window.

    A bare selector ``S`` becomes ``sum(function(S[window]))``. In an expression, Sloth's
    ``{{.window}}`` is replaced by ``window`` as Sloth renders it (the text kept as written);
    a counter function with another range (``rate(x[5m])``) gets ``window`` as its range, the
    range budgetlab's per-bin reading ignores too.

    >>> window_query('sum(rate(e_total{code=~"5.."}[{{.window}}]))', "1h")
    'sum(rate(e_total{code=~"5.."}[1h]))'
    >>> window_query("e_total", "30m")
    'sum(increase(e_total[30m]))'
    >>> window_query("sum by (job) (rate(e_total[5m]))", "6h")
    'sum by (job) (rate(e_total[6h]))'
    """
    q = parse_count_query(query, "query") if isinstance(query, str) else query
    if q.bare:
        return f"sum({function}({q.selectors[0]}[{window}]))"
    text = query if isinstance(query, str) else q.text
    ranges = [m.group(3) for m in _COUNTER_FN.finditer(text)]
    if ranges and all(r == "{{.window}}" for r in ranges):
        return text.replace("{{.window}}", window)
    return _COUNTER_FN.sub(lambda m: f"{m.group(1)}({m.group(2).strip()}[{window}])", q.text)


def gap_query(selector: str, step: str, step_ns: int, by: Sequence[str], *,
              single: bool = False) -> str:
    """PromQL that returns a sample for every group and bin end where a series of ``selector``
    had no scrape in the bin (none in ``(t - f, t]``: the range ``[f - 1ms]`` leaves out the
    sample at ``t - f``), disappeared, or appeared (its first sample is a start value, not an
    increase).

    With ``single=True`` (``selector`` holds at most one series per group over the span) only the
    first part is asked: a series that appeared or disappeared has no count in that bin, and the
    group no other series, so the count query's missing value reports that bin already.

    >>> print(gap_query("up_total", "1m", 60 * 10**9, ["job"]))
    (count by (job) (up_total unless count_over_time(up_total[59999ms]))) or (count by (job)
    (up_total offset 1m unless up_total)) or (count by (job) (up_total unless up_total offset 1m))
    """
    labels = _by(by)
    s = selector
    inside = prom_step(step_ns - 10**6)
    if single:
        return f"count by ({labels}) ({s} unless count_over_time({s}[{inside}]))"
    return (f"(count by ({labels}) ({s} unless count_over_time({s}[{inside}]))) or "
            f"(count by ({labels}) ({s} offset {step} unless {s})) or "
            f"(count by ({labels}) ({s} unless {s} offset {step}))")
