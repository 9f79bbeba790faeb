"""The words about outcome labels. The refusal of labels nothing gives a meaning proposes the
exact ``outcomes=`` / ``--outcomes`` to paste, each unknown label as ``label=?``: budgetlab never
guesses a meaning. Numbers read as labels are called HTTP statuses by one rule
(:data:`HTTP_STATUSES`), in a refusal and in the "how it was read" note alike; numbers with
decimals, too many distinct numbers or labels, and a success column without booleans are called a
metric series, with what to do instead (:func:`turn_into_outcomes`). Labels that look like
personal data are never shown.
"""

from __future__ import annotations

import re
import shlex
from http import HTTPStatus
from typing import Any

import numpy as np
import pandas as pd

from .._util.pairs import needs_quotes, write_key
from .._util.words import counted, noun_for, say
from ..errors import OutcomeError
from ._messages import ROWS, personal_mask, row_numbers, threshold_words

__all__ = ["NON_FINAL_STATES", "show_labels", "outcomes_fix", "unknown_labels_error",
           "METRIC_SERIES", "turn_into_outcomes", "if_counts", "MAX_CODES", "HTTP_STATUSES",
           "numeric_labels_error", "numbers_note", "non_boolean_error", "too_many_labels_error"]

#: At most this many ``label=meaning`` pairs are proposed; then ``,...``.
_MAX_SUGGESTED = 30
_PLAIN = re.compile(r"[^\s,=']+")  # a label written bare in --outcomes
#: Labels that often name states that are not final (a job still running): the refusal says so,
#: the suggestion stays ``label=?`` (the user chooses).
NON_FINAL_STATES = frozenset({"pending", "processing", "queued", "running", "in_progress",
                              "started", "scheduled", "waiting", "retrying", "cancelled",
                              "canceled", "created", "submitted", "accepted", "active", "new",
                              "open", "in_queue"})


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


def outcomes_fix(known: dict[str, str], unknown: list[str]) -> str:
    """The exact ``--outcomes`` and ``outcomes=`` to pass: the labels already understood, then
    the unknown ones with ``?``: always ``?``, never a guessed meaning (``accepted`` is a success
    in an SSH log, a state that is not final in a job queue). A label holding ``,`` or ``=`` is
    quoted as ``--outcomes`` reads it (``"err,conn"=?``), and then the whole value for the shell.

    >>> from budgetlab._util.words import cli_words
    >>> with cli_words():
    ...     print(outcomes_fix({"ok": "success"}, ["err,conn", "a=b"]))
    --outcomes 'ok=success,"err,conn"=?,"a=b"=?'
    """
    pairs = [*known.items(), *((u, "?") for u in unknown)]
    more = ",..." if len(pairs) > _MAX_SUGGESTED else ""
    pairs = pairs[:_MAX_SUGGESTED]
    if any(needs_quotes(k) for k, _ in pairs):  # quoted for --outcomes, the whole for the shell
        cli = shlex.quote(",".join(f"{write_key(k)}={v}" for k, v in pairs) + more)
    else:
        cli = ",".join(f"{k if _PLAIN.fullmatch(k) else repr(k)}={v}" for k, v in pairs) + more
    api = ", ".join(f"{k!r}: {v!r}" for k, v in pairs)
    return say(f"outcomes={{{api}{more.replace(',', ', ')}}}", f"--outcomes {cli}")


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


def turn_into_outcomes() -> str:
    """What to do with a metric series, said at the end of every refusal that calls the column
    one: read it by a threshold (``ok_when``, CLI ``--ok-when``) on the column being read (the
    success or outcome column of this read; ``COLUMN`` outside one), the threshold left to the
    user.

    >>> turn_into_outcomes()
    'a metric series has to be turned into outcomes first, good or bad by a threshold you \
choose: read it with ok_when="COLUMN<THRESHOLD" (or <=, >, >=; the threshold is yours: budgetlab \
never proposes one), or give a true/false column with ok='
    """
    roles = (ROWS.get() or {}).get("roles", {})
    column = next((c for c, options in roles.items() if {"ok", "outcome"} & set(options)),
                  "COLUMN")
    return ("a metric series has to be turned into outcomes first, good or bad by a threshold "
            f"you choose: read it with {threshold_words(column)}, or give a true/false column "
            "with " + say("ok=", "--ok"))


def if_counts() -> str:
    """The last words of a refusal that asks what numeric labels mean: what to do if they are
    no codes at all (the column is then a metric series, and no mapping makes it outcomes)."""
    return f" If they are counts or measurements instead, {turn_into_outcomes()}."


def _name_the_column() -> str:
    """The fix of a refusal of the outcome column as a metric series: the column to name
    instead, or the threshold to read it by."""
    return ("Name the outcome column with outcome= (or a true/false success column with ok=); "
            f"{turn_into_outcomes()}.")


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


def _measured_error(listed: str, why: str) -> OutcomeError:
    return OutcomeError(
        f"outcome labels are measured values, not outcomes: {listed} ({why}). {METRIC_SERIES}. "
        f"{_name_the_column()}")


def _codes_error(labels: list[str], listed: str, head: str, ask: str) -> OutcomeError:
    """The refusal of whole numbers that are no HTTP statuses (``head``: why not): one meaning
    asked for each (``ask``: the words that ask), and what to do if they are counts."""
    fix = outcomes_fix({}, [label for label, h in zip(labels, personal_mask(labels), strict=True)
                            if not h])
    return OutcomeError(
        f"{head}: {listed}; {ask} what each means: {fix}; replace each ? by success, a failure "
        f"bucket name, or skip.{if_counts()}")


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
    values = [float(label) for label in labels]
    if any(np.isfinite(v) and v != np.round(v) for v in values):  # decimals (not 200.0, nan)
        return _measured_error(listed, "numbers with decimals")
    if len(labels) > MAX_CODES:
        return _measured_error(listed, f"{len(labels):,} distinct whole numbers from "
                                       f"{min(values):,.0f} to {max(values):,.0f}: counts or "
                                       f"measurements; a column of codes has at most {MAX_CODES}")
    if not all(100 <= v <= 599 for v in values):  # whole numbers from here on
        return _codes_error(labels, listed, "outcome labels look like numeric codes, not HTTP "
                                            "statuses (100 to 599)", "say")
    statuses = [int(v) in HTTP_STATUSES for v in values]
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
        + if_counts())


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
                            f"{turn_into_outcomes()}.")
    return OutcomeError(f"{head}: if it holds outcome labels (success, timeout, ...), name it "
                        f"with {say('outcome= instead of ok=', '--outcome instead of --ok')}.")


def too_many_labels_error(n: int, limit: int) -> OutcomeError:
    """The refusal of an outcome column with more than ``limit`` distinct labels (``n``), in the
    words of the other refusals of a metric series (:func:`numeric_labels_error`).

    >>> print(too_many_labels_error(7150, 1000))
    the outcome column has 7,150 distinct labels (more than 1,000): it does not look like an
    outcome column. A metric series (...) is not an outcome log: ... Name the outcome column with
    outcome= (or a true/false success column with ok=); a metric series has to be turned into
    outcomes first, good or bad by a threshold you choose: read it with
    ok_when="COLUMN<THRESHOLD" (or <=, >, >=; the threshold is yours: budgetlab never proposes
    one), or give a true/false column with ok=.
    """
    return OutcomeError(f"the outcome column has {n:,} distinct labels (more than {limit:,}): it "
                        f"does not look like an outcome column. {METRIC_SERIES}. "
                        f"{_name_the_column()}")
