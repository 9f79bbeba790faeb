"""Reading a Prometheus answer: JSON envelopes, ``query_range`` matrices and the server's own words.

Everything a server says is checked before budgetlab uses or shows it:

* **the envelope**: JSON with ``"status": "success"`` and ``data`` (else :class:`ServerError`);
* **the samples** of a ``query_range`` answer (:func:`read_matrix`): times finite, at the
  evaluation times asked (``first + k * step``), strictly increasing within a series (two
  samples at one time are refused, never settled last-wins); values finite and whole-number
  safe (``|v| < 2**53``: from there a float no longer holds every whole count, the JSON
  ``9007199254740993`` reads as ``9007199254740992``, and a count of ``1e19`` would overflow
  int64); no two series with the same labels in one answer (a
  broken federation or remote read: they are refused, never merged); at most ``max_series``
  series;
* **its words** (``error`` texts, anything echoed into a message) through
  :func:`budgetlab.privacy.redact`: on one line, cut, and every word the personal-data detector
  flags replaced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._util.words import counted, say
from ..errors import ServerError
from ..privacy import redact

__all__ = ["Asked", "Series", "decode", "read_matrix", "MAX_SAFE_COUNT"]

#: The first count a float64 sample may not hold exactly (``2**53``: ``2**53 + 1`` reads as it);
#: values from there on are refused.
MAX_SAFE_COUNT = float(2**53)


@dataclass(frozen=True)
class Series:
    """One series of a ``query_range`` answer: its labels, evaluation times (ns) and values."""

    labels: dict[str, str]
    ts_ns: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class Asked:
    """What one ``query_range`` request asked: evaluation times ``first_ns + k * step_ns`` for
    ``k < n`` (ns), at most ``max_series`` series, and how messages name the query (``what``)."""

    what: str
    first_ns: int
    n: int
    step_ns: int
    max_series: int


def decode(raw: bytes, where: str) -> Any:
    """The ``data`` of a Prometheus API answer, or :class:`ServerError` naming what is wrong."""
    try:
        payload = json.loads(raw)
    except (ValueError, RecursionError):
        raise ServerError(f"{where} did not answer with JSON; is it a Prometheus server "
                          "(the URL without /api/v1)?") from None
    if not isinstance(payload, dict) or payload.get("status") != "success" or "data" not in payload:
        err = payload.get("error") if isinstance(payload, dict) else None
        extra = f": {redact(err)}" if err else ""
        raise ServerError(f"{where} did not answer as the Prometheus API does{extra}.")
    return payload["data"]


def read_matrix(raw: bytes, asked: Asked, where: str) -> list[Series]:
    """The series of a ``query_range`` answer, checked (see the module's notes)."""
    out = [_series(it, asked) for it in _result(decode(raw, where), asked, where)]
    _check_unique(out, asked)
    return out


def _result(data: Any, asked: Asked, where: str) -> list[Any]:
    if (
        not isinstance(data, dict)
        or data.get("resultType") != "matrix"
        or not isinstance(data.get("result"), list)
    ):
        raise ServerError(f"{asked.what}: Prometheus at {where} did not return a range vector "
                          "(matrix); "
                          "the query must select series.")
    items: list[Any] = data["result"]
    if len(items) > asked.max_series:
        raise ServerError(f"{asked.what}: the answer holds {len(items):,} series, over the limit "
                          "of "
                          f"{asked.max_series:,}; group by fewer labels, or raise max_series= "
                          "(--max-series).")
    return items


def _check_unique(series: list[Series], asked: Asked) -> None:
    keys = [tuple(sorted(s.labels.items())) for s in series]
    if len(set(keys)) != len(keys):
        n = len(keys) - len(set(keys))
        raise ServerError(f"{asked.what}: the answer holds {n} series with the same labels as "
                          "another "
                          "(a broken federation or remote read); budgetlab does not merge them: "
                          "ask the server's operator, or query the source Prometheus.")


def _sample_times(ts: np.ndarray, asked: Asked) -> np.ndarray:
    """Evaluation times (ns) of the samples, refused unless each is one asked, in increasing
    order."""
    first_s = asked.first_ns / 1e9
    last_s = (asked.first_ns + (asked.n - 1) * asked.step_ns) / 1e9
    outside = ~np.isfinite(ts) | (ts < first_s - 0.001) | (ts > last_s + 0.001)
    if bool(outside.any()):
        bad = float(ts[np.flatnonzero(outside)[0]])
        stamp = (f"{np.datetime64(int(bad), 's')}".replace("T", " ") + " UTC" if abs(bad) < 1e11
                 else f"{bad:.6g} s since 1970")
        raise ServerError(f"{asked.what}: the answer holds {counted(int(outside.sum()), 'sample')} "
                          "stamped outside the "
                          f"times asked (first: {stamp}); the server or a proxy corrupts answers.")
    ts_ns = np.round(ts * 1000).astype(np.int64) * 10**6
    off = (ts_ns - asked.first_ns) % asked.step_ns
    if bool(off.any()):
        raise ServerError(f"{asked.what}: the answer holds "
                          f"{counted(int(np.count_nonzero(off)), 'sample')} "
                          "between the "
                          "evaluation times asked; the server or a proxy corrupts answers.")
    steps = np.diff(ts_ns)
    if bool((steps <= 0).any()):
        dup = int((steps == 0).sum())
        what = counted(dup, "duplicate time") if dup else "times out of order"
        raise ServerError(f"{asked.what}: a series of the answer has {what}; budgetlab does not "
                          "choose "
                          "between samples: ask the server's operator (a broken federation or "
                          "remote read).")
    return ts_ns


def _checked(metric: dict[Any, Any], ts: np.ndarray, vals: np.ndarray, asked: Asked) -> Series:
    ts_ns = _sample_times(ts, asked)
    bad = ~np.isfinite(vals)
    if bool(bad.any()):
        kind = "NaN" if bool(np.isnan(vals[bad]).any()) else "infinite"
        first = np.datetime64(int(ts_ns[np.flatnonzero(bad)[0]]), "ns").astype("datetime64[s]")
        raise ServerError(f"{asked.what}: the query returned {kind} values "
                          f"({counted(int(bad.sum()), 'sample')}, first at "
                          f"{str(first).replace('T', ' ')} UTC); per-bin counts of a counter are "
                          "finite: check "
                          "the query (a division, or a gauge instead of a counter).")
    # 2**53 itself may be 2**53 + 1 read as a float: beyond it too, in the same words
    huge = np.abs(vals) >= MAX_SAFE_COUNT
    if bool(huge.any()):
        raise ServerError(f"{asked.what}: the query returned {counted(int(huge.sum()), 'value')} "
                          "beyond "
                          "2**53 "
                          f"(largest {float(np.abs(vals).max()):.3g}), where no count is exact; "
                          "check the "
                          "query (a sum of counters per bin), or use a shorter "
                          f"{say('freq=', '--freq')}.")
    return Series({str(k): str(v) for k, v in metric.items()}, ts_ns, vals)


def _series(item: Any, asked: Asked) -> Series:
    if not isinstance(item, dict) or not isinstance(item.get("metric"),
                                                    dict) or not isinstance(item.get("values"),
                                                                            list):
        raise ServerError(f"{asked.what}: the Prometheus answer has a malformed series.")
    values = item["values"]
    try:
        ts = np.fromiter((v[0] for v in values), dtype=np.float64, count=len(values))
        vals = np.array([v[1] for v in values], dtype=np.float64)
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        raise ServerError(f"{asked.what}: the Prometheus answer has malformed samples.") from None
    if vals.ndim != 1:
        raise ServerError(f"{asked.what}: the Prometheus answer has malformed samples.")
    return _checked(item["metric"], ts, vals, asked)
