"""A client of the Prometheus HTTP API (``/api/v1/query_range``, ``/api/v1/series``) on urllib3.

**Why urllib3** (``docs/development.md``): it is the HTTP library requests builds on, kept up by
a large project, with no dependency of its own; it pools connections, verifies TLS, reads a
body piece by piece (so a cap and a deadline can stop it) and refuses a body shorter than its
``Content-Length``. What it does not do is made in :mod:`budgetlab.interop.http_origin`: one
deadline for all the answers of a client (a read) on the monotonic clock, redirects kept on the
server named (credentials go nowhere else), a size cap per answer, every transport failure one
line. The URL is checked first (:mod:`budgetlab.interop.http_url`).

Here: the size cap is derived from what was asked (``max_series`` series of the points asked at
:data:`BYTES_PER_POINT` each, plus 1 MiB: :func:`answer_cap`; ``max_series=``, ``--max-series``,
raises it); 4xx answers are a :class:`~budgetlab.errors.ConfigError`, other faults a
:class:`~budgetlab.errors.ServerError` (the CLI exits 2); 5xx and 429 are retried with
exponential backoff, or after the wait a 429 / 503 asks for in its ``Retry-After``
(:mod:`.http_retry`: a wait past the deadline refused at once); the server's own words pass
:func:`budgetlab.privacy.redact`.

Proxies are those the environment names (``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY``,
``NO_PROXY``), an https server reached through a CONNECT tunnel (:mod:`.http_origin`).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from .._util.words import counted, say
from ..errors import ConfigError, ServerError
from ..privacy import redact
from .http_auth import Credentials
from .http_headers import check_header_name
from .http_origin import MAX_REDIRECTS, DeadlineError, Origin, RedirectRefused
from .http_retry import RETRY_AFTER_STATUS, asked_beyond_deadline, retry_after
from .http_url import check_url, redact_url
from .prometheus_answer import Asked, Series, decode, read_matrix

__all__ = ["PrometheusClient", "Series", "Listing", "redact_url", "answer_cap", "MAX_POINTS",
           "index_failed_words", "one_index_note",
           "BACKOFF_SECONDS",
           "MAX_SERIES", "BYTES_PER_POINT", "MAX_REDIRECTS"]

#: Points per series in one ``query_range`` request (Prometheus refuses more than 11,000).
MAX_POINTS = 10_000
#: Requests in flight at once (chunks of all the queries of one read share them).
PARALLEL_REQUESTS = 4
#: First wait before retrying a 5xx / 429 answer; doubled after each attempt.
BACKOFF_SECONDS = 0.5
#: Series one answer may hold unless ``max_series=`` says otherwise (one per group, two with
#: the reset part of the split form).
MAX_SERIES = 1000
#: Bytes a sample may take in an answer's JSON: ``[1791158460.123,"9007199254740992"],`` is 37.
BYTES_PER_POINT = 48
_RETRY_STATUS = (429, 500, 502, 503, 504)


@dataclass(frozen=True)
class Listing:
    """What ``/api/v1/series`` listed: the label sets (None when not usable) and, when the
    server failed to answer it, why (one clause, the server's words through the personal-data
    filter)."""

    labels: list[dict[str, str]] | None
    why: str = ""


def index_failed_words(why: str) -> str:
    """The clause every note on a failure of the server's series index begins with (``why``:
    :attr:`PrometheusClient.index_failure`); :func:`one_index_note` joins those notes."""
    return f"the server's series index (/api/v1/series) failed ({why})"


def one_index_note(notes: Sequence[str], why: str) -> list[str]:
    """``notes`` with those that begin with :func:`index_failed_words` of ``why`` said as one
    sentence, at the place of the first: the failure once, then what each reading did without
    the index (a check not made, counts read the long way), in their order.

    >>> head = index_failed_words("HTTP 500")
    >>> one_index_note(["a", f"{head}; b not checked", "c", f"{head}; d read without it"],
    ...                "HTTP 500")
    ['a', "the server's series index (/api/v1/series) failed (HTTP 500); b not checked; d read \
without it", 'c']
    """
    head = index_failed_words(why) + "; "
    said = [n[len(head):] for n in notes if why and n.startswith(head)]
    if len(said) < 2:
        return list(notes)
    first = next(i for i, n in enumerate(notes) if n.startswith(head))
    rest = [n for n in notes if not n.startswith(head)]
    return [*rest[:first], head + "; ".join(said), *rest[first:]]


def answer_cap(points: int, max_series: int = MAX_SERIES) -> int:
    """Bytes one answer of ``points`` points per series may take: ``max_series`` series of
    :data:`BYTES_PER_POINT` bytes per point, plus 1 MiB for labels and the envelope.

    >>> answer_cap(10_000)  # 480 MB + 1 MiB
    481048576
    """
    return max_series * points * BYTES_PER_POINT + (1 << 20)


@dataclass
class PrometheusClient:
    """Where and how to ask: base URL (checked by :func:`~.http_url.check_url`; user info moved
    into a Basic auth header), headers, ``timeout`` (seconds for every answer of this client
    together: one deadline on the monotonic clock from its creation, the whole read), retries of
    5xx / 429 answers (their waits, or a 429 / 503's ``Retry-After``, within the deadline) and
    the most series one answer may hold (``max_series``, which sizes the answer cap)."""

    url: str
    timeout: float = 30.0
    headers: Mapping[str, str] | None = None
    retries: int = 3
    max_series: int = MAX_SERIES
    _origin: Origin = field(init=False, repr=False)
    requests: int = field(default=0, init=False)
    _count_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    where: str = field(default="", init=False)
    #: Why the server's series index failed, once it did ("" until then): it is not asked
    #: again in this read (its retries, its time), and every note of the read says one why.
    index_failure: str = field(default="", init=False)
    #: The words of a 401 / 403 answer, once one came: no request is sent after it.
    refused: str = field(default="", init=False)
    _credentials: Credentials = field(init=False, repr=False)

    def __post_init__(self) -> None:
        url = check_url(self.url, say("url=", "--prometheus"))
        parts = urllib.parse.urlsplit(url)
        t = self.timeout
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not 0 < t < 1e6:
            raise ConfigError("timeout must be a positive number of seconds.")
        if not isinstance(self.max_series, int) or isinstance(self.max_series,
                                                              bool) or self.max_series < 1:
            raise ConfigError("max_series must be a whole number of at least 1.")
        if not isinstance(self.retries, int) or isinstance(self.retries,
                                                           bool) or not 0 <= self.retries <= 20:
            raise ConfigError("retries must be a whole number from 0 to 20.")
        hdrs: dict[str, str] = {"Accept": "application/json", "Accept-Encoding": "identity",
                                "User-Agent": "budgetlab"}
        extra = []
        for k, v in (self.headers or {}).items():
            if (
                not isinstance(k, str)
                or not isinstance(v, str)
                or not k.strip()
                or "\n" in k + v
                or "\r" in k + v
            ):
                raise ConfigError("headers must map header names to one-line text values.")
            extra.append(check_header_name(k.strip(), "headers="))
            hdrs[extra[-1]] = v
        self._credentials = Credentials.of(parts, hdrs, extra)
        self.where = redact_url(url)
        self._origin = Origin(self.where, hdrs, float(self.timeout), PARALLEL_REQUESTS,
                              f"(the cap for {self.max_series:,} series of the points asked); "
                              "raise max_series= "
                              "(--max-series) if the query holds that many series")

    # -- one request ---------------------------------------------------------------------------
    def _answer(self, path: str, form: Mapping[str, str], cap: int) -> tuple[int, bytes, int]:
        """``(status, body, attempts)`` of the last answer to ``path`` (POST, form-encoded), 5xx
        / 429 retried within the deadline."""
        body = urllib.parse.urlencode(form)
        wait, last = BACKOFF_SECONDS, (0, b"")
        for attempt in range(self.retries + 1):
            with self._count_lock:
                if self.refused:  # access refused: nothing more is sent in this read
                    raise ConfigError(self.refused)
                self.requests += 1
            try:
                status, raw, asked_text = self._origin.exchange(path, body, cap)
            except DeadlineError as exc:  # cut short while retrying: the answers before it say why
                if attempt:
                    raise self._retried_out(*last, attempt) from exc
                raise
            if status in (401, 403):
                with self._count_lock:
                    self.refused = self._credentials.refusal(self.where, status, server_error(raw))
                raise ConfigError(self.refused)
            if status in _RETRY_STATUS and attempt < self.retries:
                # the server's Retry-After replaces the backoff's wait (http_retry's rule)
                asked = retry_after(asked_text) if status in RETRY_AFTER_STATUS else None
                left = self._origin.remaining()
                if asked is not None and left <= asked:
                    raise asked_beyond_deadline(self.where, status, asked, self.timeout, left)
                pause = wait if asked is None else asked
                if left <= pause:  # the retry could not be sent in time
                    raise self._retried_out(status, raw, attempt + 1)
                time.sleep(pause)
                wait, last = wait * 2, (status, raw)
                continue
            return status, raw, attempt + 1
        raise AssertionError("unreachable")  # pragma: no cover

    def _retried_out(self, status: int, raw: bytes, attempts: int) -> DeadlineError:
        """The deadline of the read passed while a 5xx / 429 answer was being retried: the last
        status and the attempts, not a server that did not answer."""
        return DeadlineError(f"Prometheus at {self.where} answered HTTP {status} "
                             f"({counted(attempts, 'attempt')}) until the {self.timeout:g} s "
                             f"deadline of the whole read{server_error(raw)}; try again later or "
                             f"ask its operator (or raise {say('timeout=', '--timeout')}).")

    def _post(self, path: str, form: Mapping[str, str], cap: int) -> bytes:
        """The body of the answer to ``path``; an error answer refused in one line."""
        status, raw, attempts = self._answer(path, form, cap)
        if status < 300:
            return raw
        message = server_error(raw)
        if status in _RETRY_STATUS:
            raise ServerError(f"Prometheus at {self.where} failed with HTTP {status} after "
                              f"{counted(attempts, 'attempt')}{message}; try again later or ask "
                              "its operator.")
        if status == 404:  # Prometheus answers a query it cannot run with 400 or 422
            raise ConfigError(f"Prometheus at {self.where} has no {path} (HTTP 404){message}; "
                              "the URL's path is wrong: check it (Prometheus answers at "
                              "/api/v1/..., so give the server's root, e.g. "
                              "http://localhost:9090, or the prefix it is served under).")
        if 400 <= status < 500:
            raise ConfigError(f"Prometheus at {self.where} refused the query (HTTP "
                              f"{status}){message}; "
                              "fix the query.")
        raise ServerError(f"Prometheus at {self.where} answered HTTP {status}{message}; a "
                          "Prometheus "
                          "server answers 2xx, 4xx or 5xx: check the URL.")

    def series(self, match: str, start_ns: int, end_ns: int) -> Listing:
        """Label sets of the series of ``match`` with samples between the two times
        (``/api/v1/series``: the index only, no samples read), as a :class:`Listing`: none, and
        why, when the server does not answer it as Prometheus does (an error answer, a proxy
        without the endpoint, garbage), none and no why when it holds more series than
        ``max_series``. A redirect to another server is refused as for every request
        (:class:`~budgetlab.interop.http_origin.RedirectRefused`), and so is the read's deadline
        (:class:`~budgetlab.interop.http_origin.DeadlineError`). Once the index failed, it is
        not asked again by this client (one read): the same why (:attr:`index_failure`)."""
        if self.index_failure:  # failed before in this read: not asked again
            return Listing(None, self.index_failure)
        listing = self._series(match, start_ns, end_ns)
        if listing.labels is None and listing.why:
            self.index_failure = listing.why
        return listing

    def _series(self, match: str, start_ns: int, end_ns: int) -> Listing:
        """:meth:`series`, asked of the server."""
        form = {"match[]": match, "start": f"{start_ns / 1e9:.3f}", "end": f"{end_ns / 1e9:.3f}"}
        try:
            status, raw, attempts = self._answer("/api/v1/series", form,
                                                 self.max_series * 4096 + (1 << 20))
        except (DeadlineError, RedirectRefused):  # no time left / credentials stay here
            raise
        except ServerError as exc:  # its first clause: what failed, without the advice
            return Listing(None, str(exc).split("; ")[0].rstrip("."))
        if status >= 300:
            tried = f" after {counted(attempts, 'attempt')}" if status in _RETRY_STATUS else ""
            return Listing(None, f"HTTP {status}{tried}{server_error(raw)}")
        try:
            data = decode(raw, self.where)
        except ServerError:
            return Listing(None, "an answer that is not the Prometheus API's JSON")
        if not isinstance(data, list) or not all(
            isinstance(d, dict) and all(isinstance(v, str) for v in d.values()) for d in data
        ):
            return Listing(None, "an answer that is not a list of label sets")
        if len(data) > self.max_series:
            return Listing(None)
        return Listing([{str(k): v for k, v in d.items()} for d in data])

    def first_sample(self, selector: str, after_ns: int, until_ns: int) -> int | None:
        """The time (ns, to the millisecond) of the earliest raw sample of ``selector`` in
        ``(after_ns, until_ns]`` (an instant query of ``selector[range]``), or None when there
        is none or the server does not answer as Prometheus does; a redirect to another server
        and the read's deadline are refused as for every request."""
        form = {"query": f"{selector}[{(until_ns - after_ns) // 10**6}ms]",
                "time": f"{until_ns / 1e9:.3f}"}
        try:
            data = decode(self._post("/api/v1/query", form,
                                     answer_cap(MAX_POINTS, self.max_series)), self.where)
        except (DeadlineError, RedirectRefused):
            raise
        except (ConfigError, ServerError):
            return None
        result = data.get("result") if isinstance(data, dict) else None
        times = [ns for item in (result if isinstance(result, list) else [])
                 for ns in _sample_times(item) if after_ns < ns <= until_ns]
        return min(times) if times else None

    # -- query_range in chunks -----------------------------------------------------------------
    def query_range(self, query: str, first_ns: int, n_steps: int, step_ns: int, *,
                    what: str) -> list[Series]:
        """Evaluate ``query`` at ``first_ns + k * step_ns`` for ``k < n_steps``, in chunks of at
        most :data:`MAX_POINTS` points per series; series with equal labels are joined in time
        order (see :meth:`query_ranges`)."""
        return self.query_ranges([(query, what)], first_ns, n_steps, step_ns)[0]

    def query_ranges(self, queries: Sequence[tuple[str, str]], first_ns: int, n_steps: int,
                     step_ns: int) -> list[list[Series]]:
        """:meth:`query_range` of several ``(query, what)`` at once: the chunks of all of them
        share :data:`PARALLEL_REQUESTS` requests in flight; one list of series per query, in
        order (a series is joined from its chunks, each chunk checked on its own)."""
        step = f"{step_ns / 1e9:.3f}"
        jobs = [(qi, lo) for lo in range(0, n_steps, MAX_POINTS) for qi in range(len(queries))]

        def chunk(job: tuple[int, int]) -> list[Series]:
            qi, lo = job
            hi = min(n_steps, lo + MAX_POINTS) - 1
            asked = Asked(queries[qi][1], first_ns + lo * step_ns, hi - lo + 1, step_ns,
                          self.max_series)
            form = {"query": queries[qi][0], "start": f"{asked.first_ns / 1e9:.3f}",
                    "end": f"{(first_ns + hi * step_ns) / 1e9:.3f}", "step": step}
            raw = self._post("/api/v1/query_range", form, answer_cap(asked.n, self.max_series))
            return read_matrix(raw, asked, self.where)

        with ThreadPoolExecutor(max_workers=max(1, min(PARALLEL_REQUESTS, len(jobs)))) as pool:
            answers = list(pool.map(chunk, jobs))  # in job order; the first error is raised
        merged: list[dict[tuple[tuple[str, str], ...], list[Series]]] = [{} for _ in queries]
        for (qi, _), answer in zip(jobs, answers, strict=True):
            for s in answer:
                merged[qi].setdefault(tuple(sorted(s.labels.items())), []).append(s)
        return [[Series(dict(key), np.concatenate([p.ts_ns for p in parts]),
                        np.concatenate([p.values for p in parts])) for key, parts in m.items()]
                for m in merged]


def _sample_times(item: object) -> list[int]:
    """The sample times (ns, to the millisecond) of one series of a matrix answer; none when it
    is not one."""
    values = item.get("values") if isinstance(item, dict) else None
    out = []
    for pair in values if isinstance(values, list) else []:
        t = pair[0] if isinstance(pair, list) and pair else None
        if isinstance(t, (int, float)) and not isinstance(t, bool) and 0 < t < 1e11:
            out.append(round(t * 1000) * 10**6)
    return out


def server_error(raw: bytes) -> str:
    """``": <errorType>: <error>"`` of an error answer's JSON (through the personal-data
    filter), or "" when the body holds none."""
    try:
        payload = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        return ""
    if isinstance(payload, dict) and isinstance(payload.get("error"), str):
        kind = payload.get("errorType")
        kind_text = f"{redact(kind, 40)}: " if isinstance(kind, str) else ""
        return f": {kind_text}{redact(payload['error'])}"
    return ""

