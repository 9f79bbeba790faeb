"""A small client of the Prometheus HTTP API (``/api/v1/query_range``), on the standard library.

**Why urllib.** budgetlab sends a handful of form-encoded POST requests and reads JSON back;
:mod:`urllib.request` does that, ships with Python, follows the platform's TLS settings and
proxies, and adds no dependency to keep up to date. The Prometheus API clients on PyPI
(``prometheus-api-client``) pull in requests, matplotlib and more for what is one call here.

**Credentials** (``headers`` such as ``Authorization``, and ``user:password@`` in the URL, sent
as HTTP Basic auth) go into the request only: every message and every output names the server
by its redacted URL (:func:`redact_url`).

**Decoding.** A ``query_range`` answer is mostly its sample arrays (``[1791158460,"40"]``, one
per step and series). Their text is cut out of the body and parsed by numpy in one call per
series; :mod:`json` reads the rest (the labels), and the whole body when anything is unusual.

**Faults** become one-line :class:`~budgetlab.errors.BudgetlabError` messages: unreachable server,
timeout, HTTP 4xx (the server's own ``error`` text shown: bad PromQL), HTTP 5xx and 429 (retried
with exponential backoff, then an error), a body that is not a Prometheus answer, NaN or
infinite samples.
"""

from __future__ import annotations

import base64
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError

__all__ = ["PrometheusClient", "Series", "redact_url", "MAX_POINTS", "BACKOFF_SECONDS"]

#: Points per series in one ``query_range`` request (Prometheus refuses more than 11,000).
MAX_POINTS = 10_000
#: Requests in flight at once (chunks of all the queries of one read share them): the server
#: evaluates some while budgetlab decodes others.
PARALLEL_REQUESTS = 4
#: First wait before retrying a 5xx / 429 answer; doubled after each attempt.
BACKOFF_SECONDS = 0.5
_RETRY_STATUS = (429, 500, 502, 503, 504)
# a series' sample array in a query_range answer: "values":[[t,"v"],...] (only a key can be
# followed by ":[", and sample arrays hold no brackets or quotes of their own)
_VALUES = re.compile(rb'"values":\[((?:\[[^\[\]]*\])(?:,\[[^\[\]]*\])*)?\]')


def redact_url(url: str) -> str:
    """``url`` without user info, query string or fragment (what messages may show).

    >>> redact_url("https://bob:s3cret@prom.example:9090/prometheus/?token=x")
    'https://prom.example:9090/prometheus'
    """
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host + (f":{port}" if port is not None else "")
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


@dataclass(frozen=True)
class Series:
    """One series of a ``query_range`` answer: its labels, evaluation times (ns) and values."""

    labels: dict[str, str]
    ts_ns: np.ndarray
    values: np.ndarray


@dataclass
class PrometheusClient:
    """Where and how to ask: base URL (user info moved into a Basic auth header), headers,
    timeout per request (seconds) and retries of 5xx / 429 answers."""

    url: str
    timeout: float = 30.0
    headers: Mapping[str, str] | None = None
    retries: int = 3
    _base: str = field(init=False, repr=False)
    _headers: dict[str, str] = field(init=False, repr=False)
    requests: int = field(default=0, init=False)
    _count_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    where: str = field(default="", init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.url, str) or not self.url.strip():
            raise ConfigError("the Prometheus URL must be text such as 'http://localhost:9090'.")
        parts = urllib.parse.urlsplit(self.url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"the Prometheus URL {redact_url(self.url)!r} must start with http:// or https:// "
                              "and name a host (e.g. http://localhost:9090).")
        if not isinstance(self.timeout, (int, float)) or isinstance(self.timeout, bool) or not self.timeout > 0:
            raise ConfigError("timeout must be a positive number of seconds.")
        hdrs: dict[str, str] = {"Accept": "application/json", "User-Agent": "budgetlab"}
        for k, v in (self.headers or {}).items():
            if not isinstance(k, str) or not isinstance(v, str) or not k.strip() or "\n" in k + v:
                raise ConfigError("headers must map header names to one-line text values.")
            hdrs[k.strip()] = v
        if parts.username is not None:
            user = urllib.parse.unquote(parts.username)
            pwd = urllib.parse.unquote(parts.password or "")
            hdrs.setdefault("Authorization", "Basic " + base64.b64encode(f"{user}:{pwd}".encode()).decode())
        self._headers = hdrs
        self._base = redact_url(self.url.strip())
        self.where = self._base

    # -- one request ---------------------------------------------------------------------------
    def _post(self, path: str, form: Mapping[str, str]) -> bytes:
        body = urllib.parse.urlencode(form).encode()
        wait = BACKOFF_SECONDS
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self._base + path, data=body, headers=self._headers, method="POST")
            with self._count_lock:
                self.requests += 1
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 (http/https only)
                    raw: bytes = resp.read()
                return raw
            except urllib.error.HTTPError as exc:
                message = self._server_message(exc)
                if exc.code in _RETRY_STATUS and attempt < self.retries:
                    time.sleep(wait)
                    wait *= 2
                    continue
                if exc.code in _RETRY_STATUS:
                    raise InputError(f"Prometheus at {self.where} failed with HTTP {exc.code} after "
                                     f"{attempt + 1} attempts{message}; try again later or ask its operator.") from None
                if exc.code in (401, 403):
                    raise ConfigError(f"Prometheus at {self.where} refused access (HTTP {exc.code}){message}; "
                                      "give credentials with --header 'Authorization: ...' or user:password@ "
                                      "in the URL.") from None
                raise ConfigError(f"Prometheus at {self.where} refused the query (HTTP {exc.code}){message}; "
                                  "fix the query.") from None
            except TimeoutError:
                raise InputError(f"Prometheus at {self.where} did not answer within {self.timeout:g} s; "
                                 "raise the timeout or query a shorter span.") from None
            except urllib.error.URLError as exc:
                reason = exc.reason
                if isinstance(reason, (TimeoutError, socket.timeout)):
                    raise InputError(f"Prometheus at {self.where} did not answer within {self.timeout:g} s; "
                                     "raise the timeout or query a shorter span.") from None
                why = getattr(reason, "strerror", None) or type(reason).__name__
                raise InputError(f"cannot reach Prometheus at {self.where} ({why}); check the URL and that "
                                 "the server is up.") from None
            except (ConnectionError, OSError) as exc:
                why = getattr(exc, "strerror", None) or type(exc).__name__
                raise InputError(f"the connection to Prometheus at {self.where} failed ({why}); "
                                 "try again.") from None
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _server_message(exc: urllib.error.HTTPError) -> str:
        try:
            payload = json.loads(exc.read() or b"{}")
        except (ValueError, OSError):
            return ""
        if isinstance(payload, dict) and isinstance(payload.get("error"), str):
            kind = payload.get("errorType")
            text = " ".join(payload["error"].split())[:400]
            return f": {kind + ': ' if isinstance(kind, str) else ''}{text}"
        return ""

    def _decode(self, raw: bytes) -> Any:
        try:
            payload = json.loads(raw)
        except ValueError:
            raise InputError(f"{self.where} did not answer with JSON; is it a Prometheus server "
                             "(the URL without /api/v1)?") from None
        if not isinstance(payload, dict) or payload.get("status") != "success" or "data" not in payload:
            err = payload.get("error") if isinstance(payload, dict) else None
            extra = f": {' '.join(str(err).split())[:400]}" if err else ""
            raise InputError(f"{self.where} did not answer as the Prometheus API does{extra}.")
        return payload["data"]

    def _matrix(self, raw: bytes, what: str) -> list[tuple[dict[str, str], np.ndarray, np.ndarray]]:
        """The series of a ``query_range`` answer: sample arrays parsed by numpy (the fast path),
        or, when the body is unusual, everything through :mod:`json` and :func:`_series`."""
        arrays: list[bytes] = []

        def cut(m: re.Match[bytes]) -> bytes:
            arrays.append(m.group(1) or b"")
            return b'"values":%d' % (len(arrays) - 1)

        data = self._decode(_VALUES.sub(cut, raw))
        _check_matrix(data, what, self.where)
        items = data["result"]
        if arrays and all(isinstance(it, dict) and isinstance(it.get("values"), int) for it in items) \
                and sorted(it["values"] for it in items) == list(range(len(arrays))):
            out = []
            for it in items:
                parsed = _parse_samples(arrays[it["values"]])
                if parsed is None:
                    break
                if not isinstance(it.get("metric"), dict):
                    raise InputError(f"{what}: the Prometheus answer has a malformed series.")
                out.append(_checked(it["metric"], parsed[0], parsed[1], what))
            else:
                return out
        if arrays:  # unusual: decode the whole body the ordinary way
            data = self._decode(raw)
            _check_matrix(data, what, self.where)
            items = data["result"]
        return [_series(it, what) for it in items]

    def series(self, match: str, start_ns: int, end_ns: int) -> list[dict[str, str]] | None:
        """Label sets of the series of ``match`` with samples between the two times
        (``/api/v1/series``: the index only, no samples read); None when the server does not
        answer it as Prometheus does (a proxy without the endpoint)."""
        form = {"match[]": match, "start": f"{start_ns / 1e9:.3f}", "end": f"{end_ns / 1e9:.3f}"}
        try:
            data = self._decode(self._post("/api/v1/series", form))
        except (ConfigError, InputError):
            return None
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            return None
        return [{str(k): str(v) for k, v in d.items()} for d in data]

    # -- query_range in chunks -----------------------------------------------------------------
    def query_range(self, query: str, first_ns: int, n_steps: int, step_ns: int, *, what: str) -> list[Series]:
        """Evaluate ``query`` at ``first_ns + k * step_ns`` for ``k < n_steps``, in chunks of at
        most :data:`MAX_POINTS` points per series; series with equal labels are joined in time
        order (see :meth:`query_ranges`)."""
        return self.query_ranges([(query, what)], first_ns, n_steps, step_ns)[0]

    def query_ranges(self, queries: Sequence[tuple[str, str]], first_ns: int, n_steps: int,
                     step_ns: int) -> list[list[Series]]:
        """:meth:`query_range` of several ``(query, what)`` at once: the chunks of all of them
        share :data:`PARALLEL_REQUESTS` requests in flight (the server evaluates some while
        budgetlab decodes others); one list of series per query, in order."""
        step = f"{step_ns / 1e9:.3f}"
        starts = list(range(0, n_steps, MAX_POINTS))
        jobs = [(qi, lo) for lo in starts for qi in range(len(queries))]

        def chunk(job: tuple[int, int]) -> list[tuple[dict[str, str], np.ndarray, np.ndarray]]:
            qi, lo = job
            hi = min(n_steps, lo + MAX_POINTS) - 1
            form = {"query": queries[qi][0], "start": f"{(first_ns + lo * step_ns) / 1e9:.3f}",
                    "end": f"{(first_ns + hi * step_ns) / 1e9:.3f}", "step": step}
            return self._matrix(self._post("/api/v1/query_range", form), queries[qi][1])

        with ThreadPoolExecutor(max_workers=max(1, min(PARALLEL_REQUESTS, len(jobs)))) as pool:
            answers = list(pool.map(chunk, jobs))  # in job order; the first error is raised
        merged: list[dict[tuple[tuple[str, str], ...], list[tuple[np.ndarray, np.ndarray]]]] = [{} for _ in queries]
        for (qi, _), answer in zip(jobs, answers, strict=True):
            for labels, ts, vals in answer:
                merged[qi].setdefault(tuple(sorted(labels.items())), []).append((ts, vals))
        return [[Series(dict(key), np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
                 for key, parts in m.items()] for m in merged]


def _check_matrix(data: Any, what: str, where: str) -> None:
    if not isinstance(data, dict) or data.get("resultType") != "matrix" or not isinstance(data.get("result"), list):
        raise InputError(f"{what}: Prometheus at {where} did not return a range vector (matrix); "
                         "the query must select series.")


def _parse_samples(text: bytes) -> tuple[np.ndarray, np.ndarray] | None:
    """Times and values of one sample array's text (``[t,"v"],[t,"v"]``), or None when numpy
    cannot read it as pairs of numbers (the caller then takes the slow path)."""
    if not text:
        return None
    joined = text.replace(b"],[", b";")
    buf = np.frombuffer(joined, dtype=np.uint8)
    seps = np.flatnonzero(buf == ord(";"))
    commas = np.flatnonzero(buf == ord(","))
    n = len(seps) + 1
    bounds = np.r_[-1, seps, len(buf)]
    if len(commas) != n or not bool(((bounds[:-1] < commas) & (commas < bounds[1:])).all()):
        return None  # exactly one comma inside each pair: [[1],[2,"3","4"]] is no two pairs
    tokens = text.translate(None, b'[]"').split(b",")
    if len(tokens) != 2 * n:
        return None
    try:
        flat = np.array(tokens).astype(np.float64)  # "NaN", "+Inf" as Prometheus writes them
    except ValueError:
        return None
    return flat[0::2], flat[1::2]


def _checked(metric: dict[Any, Any], ts: np.ndarray, vals: np.ndarray,
             what: str) -> tuple[dict[str, str], np.ndarray, np.ndarray]:
    bad = ~np.isfinite(vals)
    if bool(bad.any()):
        kind = "NaN" if bool(np.isnan(vals[bad]).any()) else "infinite"
        first = float(ts[np.flatnonzero(bad)[0]])
        raise InputError(f"{what}: the query returned {kind} values ({int(bad.sum())} samples, first at "
                         f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(first))} UTC); per-bin counts of a "
                         "counter are finite: check the query (a division, or a gauge instead of a counter).")
    ts_ns = np.round(ts * 1000).astype(np.int64) * 10**6
    return {str(k): str(v) for k, v in metric.items()}, ts_ns, vals


def _series(item: Any, what: str) -> tuple[dict[str, str], np.ndarray, np.ndarray]:
    if not isinstance(item, dict) or not isinstance(item.get("metric"), dict) or not isinstance(item.get("values"), list):
        raise InputError(f"{what}: the Prometheus answer has a malformed series.")
    values = item["values"]
    try:
        ts = np.fromiter((v[0] for v in values), dtype=np.float64, count=len(values))
        vals = np.array([v[1] for v in values], dtype=np.float64)
    except (TypeError, ValueError, IndexError):
        raise InputError(f"{what}: the Prometheus answer has malformed samples.") from None
    return _checked(item["metric"], ts, vals, what)
