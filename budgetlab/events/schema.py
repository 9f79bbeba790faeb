"""The canonical event table: the one contract every module shares.

=============  ===========================  ==============================================
column         dtype                        meaning
=============  ===========================  ==============================================
``ts``         ``datetime64[ns, UTC]``      when the attempt finished, sorted ascending
``ok``         ``bool``                     success
``bucket``     ordered categorical          ``success`` then the failure kinds the data has
group keys     categorical                  declared with ``by=``, never guessed
``session_id`` string (optional)            opaque id, may be hashed on load
=============  ===========================  ==============================================

:func:`as_events` builds the table from arrays; :func:`check_events` is what every function
that takes ``events`` calls first.

How an input was read is kept with the table it returns: every reader puts a :class:`HowRead` on
``events.attrs["how_read"]``: the files and rows read, the rows left out and why, how the time
column was read (form, zone, span), what each outcome label (or HTTP status) was read as, with
its count (:class:`LabelReading`), and (``notes``) each reading decision the reader took without
being told: compression recognised by content (or named by the suffix), CR-only line ends read as
line ends, a Parquet binary column decoded as UTF-8, numbers read as labels (HTTP statuses); with
several files, each note names the files it concerns. ``str()`` (and ``repr()``, for notebooks)
is the compact block the CLI prints on stderr before any result; :meth:`HowRead.as_dict` is what
the CLI's JSON run record keeps. Labels that look like personal data are counted, never shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import as_list, require_columns
from ..errors import InputError, SchemaError

__all__ = [
    "SUCCESS",
    "TIMEOUT",
    "SOLVE_ERROR",
    "FAILURE",
    "SLOW",
    "BASE_COLUMNS",
    "bucket_dtype",
    "as_events",
    "check_events",
    "ts_ns",
    "INCIDENT_COLUMNS",
    "parse_scope",
    "scope_mask",
    "SKIP",
    "LabelReading",
    "HowRead",
    "skip_reasons",
    "time_span",
]

#: Columns of an incident table (ground truth for scoring): ``incident_id`` (str), ``kind`` (str),
#: ``start``/``end`` (datetime64[ns, UTC], ``end`` exclusive), ``scope`` (str, see
# :func:`parse_scope`),
#: ``severity`` (float: the injected failure rate inside the scope).
INCIDENT_COLUMNS = ("incident_id", "kind", "start", "end", "scope", "severity")

SUCCESS = "success"
TIMEOUT = "timeout"
SOLVE_ERROR = "solve_error"
#: The failure bucket of a failure whose kind the data does not say (``false``, ``failed``, ...).
FAILURE = "failure"
#: The failure bucket of a success slower than ``slow_above`` (latency SLI).
SLOW = "slow"
#: The meaning of a label whose rows are left out on purpose (counted, never analysed).
SKIP = "skip"
BASE_COLUMNS = ("ts", "ok", "bucket")
_KNOWN_ORDER = (SUCCESS, TIMEOUT, SOLVE_ERROR)


def bucket_dtype(labels: Iterable[str] | None = None) -> pd.CategoricalDtype:
    """The ordered bucket dtype: ``success``, then ``timeout`` and ``solve_error`` if present,
    then any other failure labels in sorted order.

    Only the buckets named in ``labels`` appear (``success`` always does), so a web log's table
    has no empty ``timeout`` or ``solve_error`` category. Without ``labels``: the sample domain's
    three buckets.

    >>> list(bucket_dtype(["server_error"]).categories)
    ['success', 'server_error']
    >>> list(bucket_dtype(["solve_error", "timeout", "slow"]).categories)
    ['success', 'timeout', 'solve_error', 'slow']
    >>> list(bucket_dtype().categories)
    ['success', 'timeout', 'solve_error']
    """
    if labels is None:
        return pd.CategoricalDtype(list(_KNOWN_ORDER), ordered=True)
    given = {str(x) for x in labels}
    known = [k for k in _KNOWN_ORDER[1:] if k in given]
    extra = sorted(given - set(_KNOWN_ORDER))
    return pd.CategoricalDtype([SUCCESS, *known, *extra], ordered=True)


def as_events(
    ts: Any,
    ok: Any,
    bucket: Any = None,
    *,
    groups: dict[str, Any] | None = None,
    session_id: Any = None,
    sort: bool = True,
) -> pd.DataFrame:
    """Build a canonical event table from arrays (no parsing, no guessing).

    ``ts`` is anything :func:`pandas.to_datetime` reads with ``utc=True``; ``bucket`` defaults to
    ``success`` for ``ok`` rows and ``solve_error`` otherwise (the sample domain: its ``timeout``
    and ``solve_error`` categories are always there; the readers keep only the buckets the data
    has). Sorted stably by ``ts``.

    >>> ev = as_events(["2026-01-01 00:00:01", "2026-01-01 00:00:00"], [True, False])
    >>> ev[["ok", "bucket"]].to_dict("list")
    {'ok': [False, True], 'bucket': ['solve_error', 'success']}
    >>> str(ev["ts"].dtype)
    'datetime64[ns, UTC]'
    """
    ts_index = pd.to_datetime(pd.Series(ts), utc=True).dt.as_unit("ns")
    ok_arr = np.asarray(ok, dtype=bool)
    if bucket is None:
        bucket_arr = np.where(ok_arr, SUCCESS, SOLVE_ERROR)
    else:
        bucket_arr = np.asarray(pd.Series(bucket).astype(str))
    cols: dict[str, Any] = {
        "ts": ts_index.array,
        "ok": ok_arr,
        # a hand-built table keeps the sample domain's buckets (readers keep only those present)
        "bucket": pd.Categorical(bucket_arr, dtype=bucket_dtype([*_KNOWN_ORDER[1:],
                                                                 *pd.unique(bucket_arr)])),
    }
    for name, values in (groups or {}).items():
        cols[name] = pd.Categorical(values)
    if session_id is not None:
        cols["session_id"] = pd.array(session_id, dtype="string")
    frame = pd.DataFrame(cols)
    if sort:
        frame = frame.sort_values("ts", kind="stable", ignore_index=True)
    return frame


def ts_ns(events: pd.DataFrame) -> np.ndarray:
    """``events["ts"]`` as int64 nanoseconds since the epoch, without an object-dtype detour."""
    col = events["ts"]
    if isinstance(col.dtype, pd.DatetimeTZDtype):
        if col.dtype.unit != "ns":
            col = col.dt.as_unit("ns")
        return np.asarray(col.array.asi8)
    raise SchemaError("events['ts'] must be datetime64[ns, UTC]; load the data with "
                      "budgetlab.read_events().")


def check_events(events: Any, by: str | Sequence[str] | None = None, *,
                 need_sorted: bool = True) -> list[str]:
    """Check that ``events`` is a canonical event table (as :func:`budgetlab.read_events` returns).

    Returns the ``by`` columns as a list. Raises :class:`SchemaError` or :class:`InputError`.
    """
    if not isinstance(events, pd.DataFrame):
        if type(events).__module__.startswith("dask"):
            raise InputError(
                "events is a dask DataFrame; use the same function from budgetlab.dask "
                "(import budgetlab.dask as bd; bd.replay(events, slo, by=...), bd.bin_events(...))."
            )
        raise InputError(
            "events must be a pandas DataFrame from budgetlab.read_events(), got "
            f"{type(events).__name__}."
        )
    keys = as_list(by)
    require_columns(events, ["ts", "ok", *keys])
    ts = events["ts"]
    if not isinstance(ts.dtype, pd.DatetimeTZDtype):
        raise SchemaError(
            "events['ts'] must be a UTC datetime column (datetime64[ns, UTC]); load the data with "
            "budgetlab.read_events(), which parses and converts timestamps."
        )
    if ts.isna().any():
        raise InputError("events['ts'] has missing timestamps; load the data with "
                         "budgetlab.read_events().")
    if events["ok"].dtype != bool:
        raise SchemaError("events['ok'] must be a bool column; load the data with "
                          "budgetlab.read_events().")
    if need_sorted and len(events) > 1:
        t = ts_ns(events)
        if bool((t[1:] < t[:-1]).any()):
            raise InputError(
                "events must be sorted by 'ts'; use budgetlab.read_events() or "
                "events.sort_values('ts', kind='stable')."
            )
    return keys


def parse_scope(scope: str | None) -> dict[str, str]:
    """Parse an incident ``scope``: ``key=value`` pairs joined by ``&``; ``""`` or ``"*"`` is
    everything.

    >>> parse_scope("captcha_type=recaptcha_v2&region=fra")
    {'captcha_type': 'recaptcha_v2', 'region': 'fra'}
    >>> parse_scope("*")
    {}
    """
    if scope is None or (isinstance(scope, float) and np.isnan(scope)):
        return {}
    text = str(scope).strip()
    if text in ("", "*"):
        return {}
    out: dict[str, str] = {}
    for part in text.split("&"):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise InputError(f"incident scope part {part!r} is not of the form key=value (e.g. "
                             "region=fra).")
        out[key.strip()] = value.strip()
    return out


def scope_mask(frame: pd.DataFrame, scope: str | None) -> np.ndarray:
    """Boolean mask of the rows of ``frame`` inside ``scope``.

    A scope key that ``frame`` has no column for does not restrict (the frame is coarser than the
    scope, e.g. an ungrouped analysis still sees a per-region incident).

    >>> f = pd.DataFrame({"region": ["fra", "ams"]})
    >>> scope_mask(f, "region=fra").tolist()
    [True, False]
    """
    mask = np.ones(len(frame), dtype=bool)
    for key, value in parse_scope(scope).items():
        if key in frame.columns:
            mask &= np.asarray(frame[key].astype(str) == value)
    return mask


@dataclass(frozen=True)
class LabelReading:
    """One distinct label and what it was read as: ``label`` (normalised; ``None`` when it looks
    like personal data), ``meaning`` (``success``, a failure bucket or ``skip``), ``rule`` (the
    vocabulary entry, mapping key or status range that decided) and ``rows``."""

    label: str | None
    meaning: str
    rule: str
    rows: int


@dataclass(frozen=True)
class HowRead:
    """The facts of one read (see the module docs). Counts are rows; times are ISO UTC strings.

    >>> labels = (LabelReading("done", "success", "done", 2),
    ...           LabelReading("pending", "skip", "pending", 1))
    >>> h = HowRead(files=(("log.csv", 3),), rows_read=3, rows_kept=2,
    ...             skipped=(("outcome 'pending' -> skip", 1),), time_column="ts",
    ...             time_reading="ISO-8601 text with UTC offsets", first="2026-11-29T02:00:00Z",
    ...             last="2026-11-29T02:47:00Z", outcome_column="outcome", vocabulary="outcomes=",
    ...             labels=labels, notes=("compression: gzip (recognised by content)",))
    >>> print(h)
    how it was read: log.csv (3 rows)
      rows: 3 read, 2 kept, 1 skipped (outcome 'pending' -> skip: 1)
      time: column 'ts', ISO-8601 text with UTC offsets; 2026-11-29T02:00:00Z ..
      2026-11-29T02:47:00Z (UTC)
      outcomes: column 'outcome', mapping outcomes=
        'done'     -> success  2
        'pending'  -> skip     1
      note: compression: gzip (recognised by content)
    """

    files: tuple[tuple[str, int], ...]
    rows_read: int
    rows_kept: int
    skipped: tuple[tuple[str, int], ...]
    time_column: str
    time_reading: str
    first: str | None
    last: str | None
    outcome_column: str
    vocabulary: str
    labels: tuple[LabelReading, ...]
    slow_above: str | None = None
    slow_rows: int = 0
    notes: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """The facts as plain JSON-able values (labels as
        ``label``/``meaning``/``rule``/``rows``)."""
        out = asdict(self)
        out["files"] = [{"name": n, "rows": r} for n, r in self.files]
        out["skipped"] = [{"reason": n, "rows": r} for n, r in self.skipped]
        out["labels"] = [asdict(x) for x in self.labels]
        out["notes"] = list(self.notes)
        return out

    def _label_lines(self) -> list[str]:
        shown = [x for x in self.labels if x.label is not None]
        hidden = [x for x in self.labels if x.label is None]
        common = len({x.rule for x in self.labels}) == 1
        width = max([len(repr(x.label)) for x in shown] + [8])
        mwidth = max([len(x.meaning) for x in self.labels] + [7])
        cwidth = max([len(f"{x.rows:,}") for x in self.labels] + [1])
        lines = [f"    {x.label!r:<{width}}  -> {x.meaning:<{mwidth}}  {x.rows:>{cwidth},}" +
                 ("" if common or x.rule in ("vocabulary",
                                             x.label) else f"  ({x.rule})") for x in shown[:40]]
        if len(shown) > 40:
            lines.append(f"    ... {len(shown) - 40} more label(s): "
                         f"{sum(x.rows for x in shown[40:]):,} rows")
        for m in sorted({x.meaning for x in hidden}):
            rows = [x.rows for x in hidden if x.meaning == m]
            lines.append(f"    {len(rows)} label(s) not shown (they look like personal data) -> "
                         f"{m}  {sum(rows):,}")
        return lines

    def __str__(self) -> str:
        names = ", ".join(n for n,
                          _ in self.files[:5]) + (f" and {len(self.files) - 5} "
                                                  "more" if len(self.files) > 5 else "")
        files = f"{len(self.files)} files: " if len(self.files) > 1 else ""
        lines = [f"how it was read: {files}{names} ({self.rows_read:,} rows)"]
        n_skip = sum(r for _, r in self.skipped)
        why = f" ({'; '.join(f'{n}: {r:,}' for n, r in self.skipped)})" if self.skipped else ""
        lines.append(f"  rows: {self.rows_read:,} read, {self.rows_kept:,} kept, {n_skip:,} "
                     f"skipped{why}")
        span = f"{self.first} .. {self.last} (UTC)" if self.first else "no rows kept"
        lines.append(f"  time: column {self.time_column!r}, {self.time_reading}; {span}")
        rules = {x.rule for x in self.labels}
        rule = (
            f" ({next(iter(rules))})"
            if len(rules) == 1
            and next(iter(rules)) not in ("vocabulary",)
            and not (len(self.labels) == 1 and self.labels[0].rule == self.labels[0].label)
            else ""
        )
        lines.append(f"  outcomes: column {self.outcome_column!r}, "
                     f"{_vocabulary_text(self.vocabulary)}{rule}")
        lines.extend(self._label_lines())
        if self.slow_above is not None:
            lines.append(f"  latency: successes slower than {self.slow_above} counted as failures "
                         "in bucket 'slow': "
                         f"{self.slow_rows:,} rows")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)


def _vocabulary_text(vocabulary: str) -> str:
    return {"built-in": "built-in vocabulary", "outcomes=": "mapping outcomes=",
            "true/false": "true/false values"}.get(vocabulary, vocabulary)


def skip_reasons(labels: Sequence[LabelReading], what: str = "outcome") -> tuple[tuple[str, int],
                                                                                 ...]:
    """One skip reason per label sent to ``skip`` (hidden labels counted together)."""
    out = [(f"{what} {x.label!r} -> skip",
            x.rows) for x in labels if x.meaning == SKIP and x.label is not None]
    hidden = sum(x.rows for x in labels if x.meaning == SKIP and x.label is None)
    if hidden:
        out.append((f"{what} labels not shown -> skip", hidden))
    return tuple(out)


def time_span(ts: np.ndarray) -> tuple[str | None, str | None]:
    """First and last instant of int64 ns UTC times as ISO strings (``None`` without rows)."""
    if len(ts) == 0:
        return None, None
    lo, hi = (pd.Timestamp(int(v), tz="UTC") for v in (np.min(ts), np.max(ts)))
    return (lo.isoformat().replace("+00:00", "Z"), hi.isoformat().replace("+00:00", "Z"))
