"""A small client of the Prometheus HTTP API (``/api/v1/query_range``), on the standard library.

**Why urllib.** budgetlab sends a handful of form-encoded POST requests and reads JSON back;
:mod:`urllib.request` does that, ships with Python, follows the platform's TLS settings and
proxies, and adds no dependency to keep up to date. The Prometheus API clients on PyPI
(``prometheus-api-client``) pull in requests, matplotlib and more for what is one call here.

**Credentials** (``headers`` such as ``Authorization``, and ``user:password@`` in the URL, sent
as HTTP Basic auth) go into the request only: every message and every output names the server
by its redacted URL (:func:`redact_url`).

**Faults** become one-line :class:`~budgetlab.errors.BudgetlabError` messages: unreachable server,
timeout, HTTP 4xx (the server's own ``error`` text shown: bad PromQL), HTTP 5xx and 429 (retried
with exponential backoff, then an error), a body that is not a Prometheus answer, NaN or
infinite samples.
"""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError

__all__ = ["PrometheusClient", "Series", "redact_url", "MAX_POINTS", "BACKOFF_SECONDS"]

#: Points per series in one ``query_range`` request (Prometheus refuses more than 11,000).
MAX_POINTS = 10_000
#: Chunks of one query in flight at once.
PARALLEL_REQUESTS = 4
#: First wait before retrying a 5xx / 429 answer; doubled after each attempt.
BACKOFF_SECONDS = 0.5
_RETRY_STATUS = (429, 500, 502, 503, 504)


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
    def _post(self, path: str, form: Mapping[str, str]) -> Any:
        body = urllib.parse.urlencode(form).encode()
        wait = BACKOFF_SECONDS
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self._base + path, data=body, headers=self._headers, method="POST")
            with self._count_lock:
                self.requests += 1
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 (http/https only)
                    raw = resp.read()
                return self._decode(raw)
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

    # -- query_range in chunks -----------------------------------------------------------------
    def query_range(self, query: str, first_ns: int, n_steps: int, step_ns: int, *, what: str) -> list[Series]:
        """Evaluate ``query`` at ``first_ns + k * step_ns`` for ``k < n_steps``, in chunks of at
        most :data:`MAX_POINTS` points per series (up to :data:`PARALLEL_REQUESTS` chunks in flight:
        the server evaluates them on its cores at once); series with equal labels are joined in
        time order."""
        step = f"{step_ns / 1e9:.3f}"

        def chunk(lo: int) -> Any:
            hi = min(n_steps, lo + MAX_POINTS) - 1
            form = {"query": query, "start": f"{(first_ns + lo * step_ns) / 1e9:.3f}",
                    "end": f"{(first_ns + hi * step_ns) / 1e9:.3f}", "step": step}
            return self._post("/api/v1/query_range", form)

        starts = list(range(0, n_steps, MAX_POINTS))
        with ThreadPoolExecutor(max_workers=max(1, min(PARALLEL_REQUESTS, len(starts)))) as pool:
            answers = list(pool.map(chunk, starts))  # in chunk order; the first error is raised
        merged: dict[tuple[tuple[str, str], ...], list[tuple[np.ndarray, np.ndarray]]] = {}
        for data in answers:
            if not isinstance(data, dict) or data.get("resultType") != "matrix" or not isinstance(data.get("result"), list):
                raise InputError(f"{what}: Prometheus at {self.where} did not return a range vector (matrix); "
                                 "the query must select series.")
            for item in data["result"]:
                labels, ts, vals = _series(item, what)
                key = tuple(sorted(labels.items()))
                merged.setdefault(key, []).append((ts, vals))
        out = []
        for key, parts in merged.items():
            ts = np.concatenate([p[0] for p in parts])
            vals = np.concatenate([p[1] for p in parts])
            out.append(Series(dict(key), ts, vals))
        return out


def _series(item: Any, what: str) -> tuple[dict[str, str], np.ndarray, np.ndarray]:
    if not isinstance(item, dict) or not isinstance(item.get("metric"), dict) or not isinstance(item.get("values"), list):
        raise InputError(f"{what}: the Prometheus answer has a malformed series.")
    values = item["values"]
    try:
        ts = np.fromiter((v[0] for v in values), dtype=np.float64, count=len(values))
        vals = np.array([v[1] for v in values], dtype=np.float64)
    except (TypeError, ValueError, IndexError):
        raise InputError(f"{what}: the Prometheus answer has malformed samples.") from None
    bad = ~np.isfinite(vals)
    if bool(bad.any()):
        kind = "NaN" if bool(np.isnan(vals[bad]).any()) else "infinite"
        first = float(ts[np.flatnonzero(bad)[0]])
        raise InputError(f"{what}: the query returned {kind} values ({int(bad.sum())} samples, first at "
                         f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(first))} UTC); per-bin counts of a "
                         "counter are finite: check the query (a division, or a gauge instead of a counter).")
    ts_ns = np.round(ts * 1000).astype(np.int64) * 10**6
    return {str(k): str(v) for k, v in item["metric"].items()}, ts_ns, vals
