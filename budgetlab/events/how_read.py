"""How a reader read an input.

Every reader keeps how it read an input on ``events.attrs["how_read"]``, a :class:`HowRead`: the
files and rows read, the rows left out and why, how the time column was read (form, zone, span),
what each outcome label (or HTTP status) was read as, with its count (:class:`LabelReading`), and
(``notes``) each decision the reader took without being told (compression recognised by content,
CR-only line ends, a Parquet binary column decoded as UTF-8, numbers read as labels; with several
files, each note names its files). ``str()`` is the block the CLI prints on stderr before any
result, :meth:`HowRead.as_dict` what its JSON run record keeps.

Rows stamped after the time of reading get a note (:func:`after_reading_note`): a log that ends
in the future was read with a wrong year (a time format without one, ``year=``/``--year``), a
wrong zone or by a clock that is off. budgetlab cannot know which, so it states its reading, it
does not refuse: the count of such rows, the time of reading and the skew allowed, the last time,
and the likely fix. The readers count the rows (:func:`budgetlab.read_events` from its times, the
Dask reader from its partitions' counts).

A metric series read by a threshold keeps the threshold itself (``threshold``, a
:class:`~budgetlab.events.threshold.Threshold`: column, operator, number as written) and its
block prints from those parts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .._util.words import counted, prose_duration, say
from .schema import SKIP, SUCCESS

if TYPE_CHECKING:
    import pandas as pd

    from .threshold import Threshold

__all__ = ["LabelReading", "HowRead", "how_read", "skip_reasons", "SERIES_ROWS",
           "after_reading_note"]

#: What one row of a metric series read by a threshold (``ok_when``) is, said beside its reading.
SERIES_ROWS = "each row is one measured interval, not a request: every figure counts rows"


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
    #: the threshold a metric series was read by (its column, operator and number), or ``None``
    threshold: Threshold | None = None
    #: rows stamped later than the time of reading (beyond the clock skew allowed; a note says
    #: so) and that time (ISO UTC), or 0 and ``None``
    rows_after_reading: int = 0
    reading_time: str | None = None

    @property
    def ok_when(self) -> str | None:
        """The threshold in its canonical spelling (``"value < 300"``), or ``None``."""
        return None if self.threshold is None else str(self.threshold)

    def as_dict(self) -> dict[str, Any]:
        """The facts as plain JSON-able values (labels as ``label``/``meaning``/``rule``/
        ``rows``; the threshold as ``column``/``op``/``number``, the number as written, and
        ``ok_when``, its canonical spelling)."""
        t = self.threshold
        return {**asdict(self), "files": [{"name": n, "rows": r} for n, r in self.files],
                "skipped": [{"reason": n, "rows": r} for n, r in self.skipped],
                "labels": [asdict(x) for x in self.labels], "notes": list(self.notes),
                "threshold": None if t is None else {"column": t.column, "op": t.op,
                                                     "number": t.text},
                "ok_when": self.ok_when}

    @classmethod
    def from_dict(cls, facts: Mapping[str, Any]) -> HowRead:
        """The facts back from :meth:`as_dict` (``HowRead.from_dict(h.as_dict()) == h``)."""
        from .threshold import Threshold

        t = facts.get("threshold")
        plain = {k: v for k, v in facts.items() if k in _PLAIN}
        return cls(**plain, files=tuple((f["name"], f["rows"]) for f in facts["files"]),
                   skipped=tuple((f["reason"], f["rows"]) for f in facts["skipped"]),
                   labels=tuple(LabelReading(**x) for x in facts["labels"]),
                   notes=tuple(facts["notes"]),
                   threshold=None if t is None else Threshold(t["column"], t["op"], t["number"],
                                                              float(t["number"])))

    def _label_lines(self) -> list[str]:
        shown_ = [x for x in self.labels if x.label is not None]
        hidden = [x for x in self.labels if x.label is None]
        common = len({x.rule for x in self.labels}) == 1
        width = max([len(repr(x.label)) for x in shown_] + [8])
        mwidth = max([len(x.meaning) for x in self.labels] + [7])
        cwidth = max([len(f"{x.rows:,}") for x in self.labels] + [1])
        lines = [f"    {x.label!r:<{width}}  -> {x.meaning:<{mwidth}}  {x.rows:>{cwidth},}"
                 + ("" if common or x.rule in ("vocabulary", x.label) else f"  ({x.rule})")
                 for x in shown_[:40]]
        if len(shown_) > 40:
            lines.append(f"    ... {counted(len(shown_) - 40, 'more label')}: "
                         f"{counted(sum(x.rows for x in shown_[40:]), 'row')}")
        for m in sorted({x.meaning for x in hidden}):
            rows = [x.rows for x in hidden if x.meaning == m]
            look = "it looks" if len(rows) == 1 else "they look"
            lines.append(f"    {counted(len(rows), 'label')} not shown ({look} like personal data) "
                         f"-> {m}  {sum(rows):,}")
        return lines

    def __str__(self) -> str:
        names = ", ".join(n for n, _ in self.files[:5])
        names += f" and {len(self.files) - 5} more" if len(self.files) > 5 else ""
        files = f"{len(self.files)} files: " if len(self.files) > 1 else ""
        n_skip = sum(r for _, r in self.skipped)
        why = f" ({'; '.join(f'{n}: {r:,}' for n, r in self.skipped)})" if self.skipped else ""
        span = f"{self.first} .. {self.last} (UTC)" if self.first else "no rows kept"
        rules = {x.rule for x in self.labels}
        one = next(iter(rules)) if len(rules) == 1 else "vocabulary"
        alone = len(self.labels) == 1 and one == self.labels[0].label
        rule = "" if one == "vocabulary" or alone else f" ({one})"
        vocabulary = {"built-in": "built-in vocabulary", "outcomes=": "mapping outcomes=",
                      "true/false": "true/false values"}.get(self.vocabulary, self.vocabulary)
        lines = [f"how it was read: {files}{names} ({counted(self.rows_read, 'row')})",
                 f"  rows: {self.rows_read:,} read, {self.rows_kept:,} kept, {n_skip:,} "
                 f"skipped{why}",
                 f"  time: column {self.time_column!r}, {self.time_reading}; {span}",
                 self._outcomes_line(vocabulary, rule),
                 *(self._label_lines() if self.threshold is None else [])]
        if self.slow_above is not None:
            lines.append("  latency: successes slower than "  # the prose spelling: 0.06 s
                         f"{prose_duration(self.slow_above)} counted as failures "
                         f"in bucket 'slow': {counted(self.slow_rows, 'row')}")
        return "\n".join([*lines, *(f"  note: {n}" for n in self.notes)])

    def _outcomes_line(self, vocabulary: str, rule: str) -> str:
        """``outcomes: column 'outcome', built-in vocabulary``; a success column names its option
        once, beside the column (``column 'ok' (ok=), true/false values``), never a second
        "column" after the values."""
        col = f"column {self.outcome_column!r}"
        t = self.threshold
        if t is not None:  # a metric series: the threshold and the rows each side
            good = sum(x.rows for x in self.labels if x.meaning == SUCCESS)
            return (f"  outcomes: column {t.column!r} {t.op} {t.text} (ok_when=): "
                    f"{good:,} success, {sum(x.rows for x in self.labels) - good:,} failure; "
                    f"{SERIES_ROWS}")
        if rule == " (ok= column)":
            return f"  outcomes: {col} (ok=), {vocabulary}"
        return f"  outcomes: {col}, {vocabulary}{rule}"

    def __repr__(self) -> str:
        return str(self)


#: The fields :meth:`HowRead.as_dict` keeps as they are.
_PLAIN = ("rows_read", "rows_kept", "time_column", "time_reading", "first", "last",
          "outcome_column", "vocabulary", "slow_above", "slow_rows", "rows_after_reading",
          "reading_time")


def how_read(table: pd.DataFrame) -> HowRead | None:
    """How budgetlab read the events of ``table`` (its ``attrs["how_read"]``, the plain dict of
    :meth:`HowRead.as_dict`, so that ``DataFrame.to_parquet`` saves it), or ``None`` when the
    attrs hold none. ``print(how_read(events))`` prints the block the CLI prints.

    >>> import pandas as pd
    >>> import budgetlab as bl
    >>> ev = bl.read_events(pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["success"]}))
    >>> how_read(ev).rows_kept, ev.attrs["how_read"]["rows_kept"]
    (1, 1)
    """
    facts = table.attrs.get("how_read")
    if facts is None or isinstance(facts, HowRead):  # a table whose attrs were set by hand
        return facts
    return HowRead.from_dict(facts)


def skip_reasons(labels: Sequence[LabelReading],
                 what: str = "outcome") -> tuple[tuple[str, int], ...]:
    """One skip reason per label sent to ``skip`` (hidden labels counted together)."""
    out = [(f"{what} {x.label!r} -> skip", x.rows) for x in labels
           if x.meaning == SKIP and x.label is not None]
    hidden = sum(x.rows for x in labels if x.meaning == SKIP and x.label is None)
    return (*out, *([(f"{what} labels not shown -> skip", hidden)] if hidden else []))


def after_reading_note(late: int, now: pd.Timestamp, last: pd.Timestamp, skew: pd.Timedelta, *,
                       year: int | None) -> tuple[str, tuple[str, ...]]:
    """``now`` as an ISO string and the note on the ``late`` rows (counted by the caller) later
    than ``now`` by more than ``skew``, up to ``last`` (the year given for times without one is
    the likely fix, else the zone or the clock).

    >>> import pandas as pd
    >>> at, note = after_reading_note(1, pd.Timestamp("2026-12-06 07:00", tz="UTC"),
    ...                               pd.Timestamp("2026-12-10 06:55", tz="UTC"),
    ...                               pd.Timedelta(hours=1), year=2026)
    >>> at
    '2026-12-06T07:00:00Z'
    >>> print(note[0])
    1 row is after the time of reading (2026-12-06 07:00 UTC, 1 h of clock skew allowed), up to
    2026-12-10 06:55 UTC: check year=
    """
    at, latest = (x.strftime("%Y-%m-%d %H:%M") for x in (now, last))
    fix = say("year=", "--year") if year is not None else \
        say("the clock that stamped the log, and for times written without a UTC offset the "
            "time zone (tz=)",
            "the clock that stamped the log, and for times written without a UTC offset the "
            "time zone (--tz)")
    return now.isoformat().replace("+00:00", "Z"), (
        f"{counted(late, 'row')} {'is' if late == 1 else 'are'} after the time of reading "
        f"({at} UTC, {prose_duration(skew)} of clock skew allowed), up to {latest} UTC: "
        f"check {fix}",)
