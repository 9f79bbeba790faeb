"""The words of the readers' refusals, which never show a data value: rows are named by number
(1-based data rows in input order; by file and row there when several files are read), column
names that look like data (a header-less file's first row) are hidden, labels are listed only
where the caller must name them and only when they do not look like personal data. Numeric labels
are called HTTP statuses by one rule (:data:`HTTP_STATUSES`), in a refusal and in the "how it was
read" note alike.

Where rows are is noted as a read goes (:data:`ROWS`, one state per read: :func:`file_offset` and
:func:`reading_files` when several files are read, :func:`note_open_last_row`); the words are
built only when refusing.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from http import HTTPStatus
from typing import Any

import numpy as np
import pandas as pd

from .._util.words import counted, noun_for, option_word, say
from ..errors import OutcomeError, SchemaError
from ..privacy import scan_text, shown

__all__ = ["MAX_ROWS_LISTED", "ROWS", "reading_files", "file_offset", "note_open_last_row",
           "row_numbers", "expand", "personal_mask", "show_labels", "header_error",
           "NON_FINAL_STATES", "outcomes_fix", "unknown_labels_error",
           "numeric_labels_error", "too_many_labels_error", "METRIC_SERIES",
           "TURN_INTO_OUTCOMES", "MAX_CODES", "HTTP_STATUSES", "numbers_note", "non_boolean_error"]

#: How many row numbers a message lists before it says "and N more".
MAX_ROWS_LISTED = 5

#: The state of one read for its messages, a dict of its own set by the reader: ``files`` (names,
#: first row of each) when several are read, ``offset`` (first row of the file being read),
#: ``open`` (rows whose line has no line end: the file may be half-written).
ROWS: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("ROWS", default=None)
_MAX_SUGGESTED = 30
_PLAIN = re.compile(r"[^\s,=']+")  # a label written bare in --outcomes
#: Labels that often name states that are not final (a job still running): the refusal says so,
#: the suggestion stays ``label=?`` (the user chooses).
NON_FINAL_STATES = frozenset({"pending", "processing", "queued", "running", "in_progress",
                              "started", "scheduled", "waiting", "retrying", "cancelled",
                              "canceled", "created", "submitted", "accepted", "active", "new",
                              "open", "in_queue"})
_DATA_LIKE = r"[+-]?[0-9]+(?:[.,][0-9]+)?|.*[0-9]{4}-[0-9]{2}-[0-9]{2}.*|.*[0-9]{1,2}:[0-9]{2}.*"


def _state() -> dict[str, Any]:
    state = ROWS.get()
    if state is None:  # outside a read: a state for this context
        state = {}
        ROWS.set(state)
    return state


@contextlib.contextmanager
def file_offset(offset: int) -> Iterator[None]:
    """While one of several files is read: its first row is row ``offset`` of the whole table."""
    state = _state()
    before, state["offset"] = state.get("offset", 0), offset
    try:
        yield
    finally:
        state["offset"] = before


def reading_files(names: Sequence[str], rows: Sequence[int]) -> None:
    """From now on (in this read), rows are named by file: ``names[k]`` holds ``rows[k]`` rows."""
    _state()["files"] = (tuple(names), np.concatenate([[0], np.cumsum(rows, dtype=np.int64)[:-1]]))


def note_open_last_row(row: int) -> None:
    """Row ``row`` (0-based, in the file being read) is the last and its line has no line end."""
    state = _state()
    state["open"] = (*state.get("open", ()), state.get("offset", 0) + row)


def row_numbers(mask: np.ndarray) -> str:
    """The first offending row numbers (1-based data rows, with their file when several are
    read), never the values.

    >>> row_numbers(np.array([False, True, True]))
    'rows 2, 3 (1-based)'
    """
    idx = np.flatnonzero(mask)
    first, more = idx[:MAX_ROWS_LISTED], len(idx) - MAX_ROWS_LISTED
    state = ROWS.get() or {}
    files = state.get("files")
    if files is None:
        parts = [("row " if len(first) == 1 else "rows ") + ", ".join(map(str, first + 1))]
    else:
        which = np.searchsorted(files[1], first, side="right") - 1
        parts = [("row " if (which == k).sum() == 1 else "rows ")
                 + ", ".join(map(str, first[which == k] - files[1][k] + 1))
                 + f" of {files[0][k]}" for k in dict.fromkeys(which.tolist())]
    text = "; ".join(parts) + (f" and {more:,} more" if more > 0 else "") + " (1-based)"
    if len(idx) and int(idx[-1]) + state.get("offset", 0) in state.get("open", ()):
        text += " (the last line has no line end: the file may be half-written)"
    return text


def expand(sub_mask: np.ndarray, where: np.ndarray) -> np.ndarray:
    """A mask over the rows selected by ``where`` as a mask over all rows."""
    full = np.zeros(len(where), dtype=bool)
    full[np.flatnonzero(where)[sub_mask]] = True
    return full


def personal_mask(texts: Any) -> np.ndarray:
    """Which of ``texts`` (distinct strings) look like personal data, and so are never shown.

    >>> personal_mask(["timeout", "ivan@example.org"]).tolist()
    [False, True]
    """
    hidden = np.zeros(len(texts), dtype=bool)
    for mask in scan_text(texts).values() if len(texts) else ():
        hidden |= mask
    return hidden


def show_labels(labels: list[str], counts: list[int]) -> str:
    """Labels with counts for a message; labels that look like personal data are not shown."""
    hidden = personal_mask(np.asarray(labels, dtype=object))
    out = [f"{lab[:40]!r} ({c:,})" for lab, c, h in zip(labels, counts, hidden, strict=True)
           if not h]
    text = ", ".join(out[:20]) + (f" and {len(out) - 20} more" if len(out) > 20 else "")
    if hidden.any():
        text += (", and " if text else "") + f"{counted(int(hidden.sum()), 'label')} hidden as " \
            "possible personal data"
    return text


def _hidden_names(names: Sequence[str]) -> np.ndarray:
    """Which names look like data (numbers, times, personal data): a header-less file's first
    row."""
    series = pd.Series(names, dtype="string[pyarrow]")
    hidden = personal_mask(series)
    hidden |= series.str.fullmatch(_DATA_LIKE).fillna(False).to_numpy(dtype=bool)
    return hidden


def _shown_names(names: Sequence[str], limit: int = 20) -> str:
    hidden = _hidden_names(names) if names else np.zeros(0, dtype=bool)
    out = ["<hidden: looks like data>" if h else repr(t[:60])
           for t, h in zip(names[:limit], hidden[:limit], strict=True)]
    return ", ".join(out) + (f" and {len(names) - limit} more" if len(names) > limit else "")


def header_error(names: Sequence[str], columns: Sequence[str], what: str) -> SchemaError:
    """The refusal of a header with duplicated names or without a declared column: the closest
    names suggested, names that look like data hidden (a header-less file is never echoed)."""
    seen = Counter(names)
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        return SchemaError(f"{what}: duplicate column {noun_for(len(dups), 'name')} "
                           f"{_shown_names(dups)}; rename them so each is unique.")
    have = list(seen)
    col = next(c for c in columns if c not in seen)
    if have and _hidden_names(have).any():
        return SchemaError(f"{what} has no column {shown(col)}. The first line looks like data, "
                           f"not column names ({counted(len(have), 'field')}; not shown): does the "
                           "file have a header row?")
    close = difflib.get_close_matches(col, have, n=3, cutoff=0.5)
    options = (_state().get("roles") or {}).get(col, ())
    declared = f" ({'; '.join(map(_declared_by, options))})" if options else ""
    hint = f" Did you mean {_shown_names(close)}?" if close else ""
    sep = next((s for s in (";", "\t", ",", "|") if len(have) == 1 and s in have[0]), None)
    if sep is not None:
        hint += (f" The header is one column holding {sep!r}: is that the separator? budgetlab "
                 "reads ',' (.csv) and tab (.tsv, or " + say("format='tsv'", "--format tsv")
                 + ").")
    return SchemaError(f"{what} has no column {shown(col)}{declared}.{hint} Columns present: "
                       f"{_shown_names(have)}.")


#: What a column declared by each option holds, for :func:`_declared_by`.
_ROLES = {"time": "the time column", "outcome": "the outcome-label column",
          "ok": "the true/false success column", "bucket": "the failure-kind column",
          "session": "the session column", "duration": "the request-duration column"}


def _declared_by(option: str) -> str:
    """Which option declared a missing column, and how to name the right one, in the words of
    the API or the command line (``the time column: name it with --time``)."""
    def flag(name: str) -> str:
        return say(f"{name}=", option_word(name))

    if option in ("by", "keep"):
        return f"declared in {flag(option)}: give the name the file uses"
    text = f"{_ROLES[option]}: name the right one with {flag(option)}"
    if option == "outcome":
        text += f", or give a true/false success column with {flag('ok')}"
    return text


def outcomes_fix(known: dict[str, str], unknown: list[str]) -> str:
    """The exact ``--outcomes`` and ``outcomes=`` to pass: the labels already understood, then
    the unknown ones with ``?``: always ``?``, never a guessed meaning (``accepted`` is a success
    in an SSH log, a state that is not final in a job queue)."""
    pairs = [*known.items(), *((u, "?") for u in unknown)]
    more = ",..." if len(pairs) > _MAX_SUGGESTED else ""
    pairs = pairs[:_MAX_SUGGESTED]
    cli = ",".join(f"{k if _PLAIN.fullmatch(k) else repr(k)}={v}" for k, v in pairs)
    api = ", ".join(f"{k!r}: {v!r}" for k, v in pairs)
    return say(f"outcomes={{{api}{more.replace(',', ', ')}}}", f"--outcomes {cli}{more}")


def unknown_labels_error(norm: list[str], counts: np.ndarray, unknown: list[int],
                         known: dict[str, str], hidden: np.ndarray, mapping: bool) -> OutcomeError:
    """The refusal of labels nothing gives a meaning (``unknown``: their positions in ``norm``),
    with the exact fix; ``mapping``: an ``outcomes=`` mapping was given."""
    visible = [norm[i] for i in unknown if not hidden[i]]
    listed = show_labels([norm[i] for i in unknown], [int(counts[i]) for i in unknown])
    states = [u for u in visible if u in NON_FINAL_STATES]
    skip_hint = (f" Labels such as {', '.join(map(repr, states[:3]))} look like states that are "
                 "not final: if they are, map them to skip to leave those rows out."
                 if states else "")
    it = "it" if len(unknown) == 1 else "them"
    where = f"outcomes= does not list {it}" if mapping else "the built-in vocabulary does not " \
        f"know {it}, and budgetlab gives no label a meaning it cannot know"
    fix = outcomes_fix(known, visible)
    todo = "; replace each ? by success, a failure bucket name, or skip" if "=?" in fix else ""
    return OutcomeError(f"{counted(len(unknown), 'unknown outcome label')} ({where}): {listed}. "
                        f"Say what each means: {fix}{todo}.{skip_hint}")


#: What a metric series is, said where one is read as an outcome log.
METRIC_SERIES = ("A metric series (one measured value per time, such as CPU use or a latency) is "
                 "not an outcome log: budgetlab reads one row per attempt with its result, a "
                 "success or a kind of failure")
#: What to do with one, said at the end of every refusal that calls the column a metric series.
TURN_INTO_OUTCOMES = ("a metric series has to be turned into outcomes first, good or bad by a "
                      "threshold you choose: a true/false column read with ok=, or "
                      "budgetlab.as_events(times, values < threshold)")
#: The fix of a refusal of the outcome column as a metric series: the column to name instead.
_NAME_THE_COLUMN = ("Name the outcome column with outcome= (or a true/false success column with "
                    f"ok=); {TURN_INTO_OUTCOMES}.")


#: At most this many distinct numeric labels (those the vocabulary does not know) are codes:
#: HTTP registers about 60 statuses (IANA) and a service answers with a handful; exit and enum
#: codes are fewer. More distinct whole numbers are counts or measurements (a metric series,
#: such as request counts).
MAX_CODES = 60

#: The statuses an HTTP log holds: those IANA registers (Python's :class:`http.HTTPStatus`: RFC
#: 9110 and its extensions, 418 included) and the ones nginx writes to its access log on its own
#: (444 no response, 494 to 497 request header or TLS certificate errors, 499 client closed the
#: request; nginx's ``src/http/ngx_http_request.h``). A number from 100 to 599 outside this set
#: (``120``, ``250``, ``480``) is no status a server sends: the column is not read as statuses.
HTTP_STATUSES = frozenset({int(s) for s in HTTPStatus} | {444, 494, 495, 496, 497, 499})


def _has_decimals(text: str) -> bool:
    """A finite number with a fractional part (``13.334``; not ``200``, ``200.0`` or ``nan``)."""
    value = float(text)
    return bool(np.isfinite(value) and value != np.round(value))


def _in_status_range(text: str) -> bool:
    """A whole number from 100 to 599, the range of HTTP statuses."""
    return 100 <= float(text) <= 599


def _is_status(text: str) -> bool:
    """A whole number that is an HTTP status (:data:`HTTP_STATUSES`)."""
    value = float(text)
    return value == np.round(value) and int(value) in HTTP_STATUSES


def _measured_error(listed: str, why: str) -> OutcomeError:
    return OutcomeError(
        f"outcome labels are measured values, not outcomes: {listed} ({why}). {METRIC_SERIES}. "
        f"{_NAME_THE_COLUMN}")


def _codes_error(labels: list[str], listed: str, head: str, ask: str) -> OutcomeError:
    """The refusal of whole numbers that are no HTTP statuses (``head``: why not): one meaning
    asked for each (``ask``: the words that ask), and what to do if they are counts."""
    fix = outcomes_fix({}, [label for label, h in zip(labels, personal_mask(labels), strict=True)
                            if not h])
    return OutcomeError(
        f"{head}: {listed}; {ask} what each means: {fix}; replace each ? by success, a failure "
        f"bucket name, or skip. If they are counts or measurements instead, {TURN_INTO_OUTCOMES}.")


def numeric_labels_error(labels: list[str], counts: list[int]) -> OutcomeError:
    """The refusal of numeric labels (the distinct ones the vocabulary does not know: all but 0
    and 1). The rule that tells codes from values: numbers with decimals, or more than
    :data:`MAX_CODES` distinct whole numbers, are measured values (a metric series: CPU use,
    request counts), which no mapping of codes makes outcomes. Fewer whole numbers, all HTTP
    statuses (:data:`HTTP_STATUSES`), are told to say which succeed (status ranges allowed);
    other whole numbers (exit codes, or counts from 100 to 599 such as 120 or 480) are asked for
    one meaning each if they are codes. No refusal says that numbers are codes: each also says
    what to do if they are counts.

    >>> str(numeric_labels_error(["2", "127"], [3, 1])).split(":")[0]
    'outcome labels look like numeric codes, not HTTP statuses (100 to 599)'
    >>> str(numeric_labels_error(["120", "250"], [3, 1])).split(":")[0]
    'outcome labels are whole numbers from 100 to 599 but not HTTP statuses'
    >>> str(numeric_labels_error(["200", "250"], [3, 1])).split(":")[0]
    "outcome labels are whole numbers from 100 to 599 but not all HTTP statuses ('250' is not)"
    >>> str(numeric_labels_error(["200", "503"], [3, 1])).split(";")[0]
    "outcome labels look like numeric codes: '200' (3), '503' (1)"
    """
    listed = show_labels(labels, counts)
    if any(_has_decimals(label) for label in labels):
        return _measured_error(listed, "numbers with decimals")
    if len(labels) > MAX_CODES:
        values = [float(label) for label in labels]
        return _measured_error(listed, f"{len(labels):,} distinct whole numbers from "
                                       f"{min(values):,.0f} to {max(values):,.0f}: counts or "
                                       f"measurements; a column of codes has at most {MAX_CODES}")
    if not all(_in_status_range(label) for label in labels):
        return _codes_error(labels, listed, "outcome labels look like numeric codes, not HTTP "
                                            "statuses (100 to 599)", "say")
    statuses = [_is_status(label) for label in labels]
    if not all(statuses):
        others = [label for label, h, s in zip(labels, personal_mask(labels), statuses,
                                                strict=True) if not h and not s]
        named = (" and ".join(map(repr, others)) if len(others) <= 2 else
                 f"{', '.join(map(repr, others[:2]))} and {len(others) - 2} more")
        which = "HTTP statuses" if not any(statuses) else \
            f"all HTTP statuses ({named or 'some'} {'is' if len(others) == 1 else 'are'} not)"
        return _codes_error(labels, listed, f"outcome labels are whole numbers from 100 to 599 "
                                            f"but not {which}", "if they are codes, say")
    return OutcomeError(
        f"outcome labels look like numeric codes: {listed}; say which are "
        "successes with "
        + say("outcomes= (status ranges allowed: {'2xx': 'success', '3xx': 'success', '4xx': "
              "'client_error', '5xx': 'server_error'}, or '4xx': 'skip' to leave client errors "
              "out).",
              "--outcomes (status ranges allowed: 2xx=success,3xx=success,4xx=client_error,"
              "5xx=server_error, or 4xx=skip to leave client errors out).")
        + f" If they are counts or measurements instead, {TURN_INTO_OUTCOMES}.")


def numbers_note(dtype: Any, values: np.ndarray | None, name: Any) -> tuple[str, ...]:
    """The statement for a numeric column read as labels (HTTP statuses in Parquet, or codes an
    ``outcomes=`` mapping names; ``values``: its whole distinct values, or ``None``), which calls
    them statuses by the rule of :func:`numeric_labels_error`; nothing for a complex column.

    >>> numbers_note(np.dtype("int64"), np.array([200.0, 503.0]), "status")
    ("column 'status': whole numbers, read as labels (HTTP statuses)",)
    """
    if pd.api.types.is_complex_dtype(dtype):
        return ()
    what = f"column {name!r}" if isinstance(name, str) else "the outcome column"
    http = " (HTTP statuses)" if values is not None and len(values) and \
        set(values.astype(np.int64).tolist()) <= HTTP_STATUSES else ""
    return (f"{what}: {'numbers' if values is None else 'whole numbers'}, read as labels{http}",)


def non_boolean_error(what: str, bad: np.ndarray, numbers: bool) -> OutcomeError:
    """The refusal of values of a true/false column that are not booleans (``bad``: which rows;
    ``numbers``: the values are numbers). When no row is a boolean the column is not a success
    column at all, and the message says so: numbers are a metric series, text may be labels.
    So are numbers most of whose rows are not booleans (a count series whose 1s read as true).

    >>> str(non_boolean_error("success", np.ones(4032, dtype=bool), True)).split(". ")[0]
    'none of the 4,032 rows of the success column is a boolean (true/false or 1/0): this looks \
like a metric series'
    >>> str(non_boolean_error("success", np.arange(4032) >= 15, True)).split(". ")[0]
    '4,017 of the 4,032 rows of the success column are not booleans (true/false or 1/0): this \
looks like a metric series'
    """
    n_bad = int(bad.sum())
    if not bad.all() and not (numbers and 2 * n_bad > len(bad)):
        return OutcomeError(f"non-boolean {what} {noun_for(n_bad, 'value')} at "
                            f"{row_numbers(bad)}; use true/false or 1/0.")
    head = (f"the one row of the {what} column is not a boolean" if len(bad) == 1 else
            f"none of the {len(bad):,} rows of the {what} column is a boolean" if bad.all() else
            f"{n_bad:,} of the {len(bad):,} rows of the {what} column are not booleans") + \
        " (true/false or 1/0)"
    if numbers:
        return OutcomeError(f"{head}: this looks like a metric series. {METRIC_SERIES}; "
                            f"{TURN_INTO_OUTCOMES}.")
    return OutcomeError(f"{head}: if it holds outcome labels (success, timeout, ...), name it "
                        f"with {say('outcome= instead of ok=', '--outcome instead of --ok')}.")


def too_many_labels_error(n: int, limit: int) -> OutcomeError:
    """The refusal of an outcome column with more than ``limit`` distinct labels (``n``), in the
    words of the other refusals of a metric series (:func:`numeric_labels_error`).

    >>> print(too_many_labels_error(7150, 1000))
    the outcome column has 7,150 distinct labels (more than 1,000): it does not look like an
    outcome column. A metric series (...) is not an outcome log: ... Name the outcome column with
    outcome= (or a true/false success column with ok=); a metric series has to be turned into ...
    """
    return OutcomeError(f"the outcome column has {n:,} distinct labels (more than {limit:,}): it "
                        f"does not look like an outcome column. {METRIC_SERIES}. "
                        f"{_NAME_THE_COLUMN}")
