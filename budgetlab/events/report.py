"""How an input was read: the facts a reader had to decide, kept with the table it returns.

Every reader puts a :class:`HowRead` on ``events.attrs["how_read"]``: the files and rows read,
the rows left out and why, how the time column was read (form, zone, span), and what each
outcome label (or HTTP status) was read as, with its count, and (``notes``) each reading decision
the reader took without being told: compression recognised by content (or named by the suffix),
CR-only line ends read as line ends, a Parquet binary column decoded as UTF-8, numbers read as
labels (HTTP statuses); with several files, each note names the files it concerns. ``str()``
(and ``repr()``, for notebooks) is the compact block the CLI prints on stderr before any result;
:meth:`HowRead.as_dict` is what the CLI's JSON run record keeps. Labels that look like personal data are counted, never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .outcomes import SKIP, LabelReading

__all__ = ["HowRead", "LabelReading", "skip_reasons", "time_span"]


@dataclass(frozen=True)
class HowRead:
    """The facts of one read (see the module docs). Counts are rows; times are ISO UTC strings.

    >>> h = HowRead(files=(("log.csv", 3),), rows_read=3, rows_kept=2, skipped=(("outcome 'pending' -> skip", 1),),
    ...             time_column="ts", time_reading="ISO-8601 text with UTC offsets", first="2026-11-29T02:00:00Z",
    ...             last="2026-11-29T02:47:00Z", outcome_column="outcome", vocabulary="outcomes=",
    ...             labels=(LabelReading("done", "success", "done", 2), LabelReading("pending", "skip", "pending", 1)),
    ...             notes=("compression: gzip (recognised by content)",))
    >>> print(h)
    how it was read: log.csv (3 rows)
      rows: 3 read, 2 kept, 1 skipped (outcome 'pending' -> skip: 1)
      time: column 'ts', ISO-8601 text with UTC offsets; 2026-11-29T02:00:00Z .. 2026-11-29T02:47:00Z (UTC)
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
        """The facts as plain JSON-able values (labels as ``label``/``meaning``/``rule``/``rows``)."""
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
                 ("" if common or x.rule in ("vocabulary", x.label) else f"  ({x.rule})") for x in shown[:40]]
        if len(shown) > 40:
            lines.append(f"    ... {len(shown) - 40} more label(s): {sum(x.rows for x in shown[40:]):,} rows")
        for m in sorted({x.meaning for x in hidden}):
            rows = [x.rows for x in hidden if x.meaning == m]
            lines.append(f"    {len(rows)} label(s) not shown (they look like personal data) -> {m}  {sum(rows):,}")
        return lines

    def __str__(self) -> str:
        names = ", ".join(n for n, _ in self.files[:5]) + (f" and {len(self.files) - 5} more" if len(self.files) > 5 else "")
        files = f"{len(self.files)} files: " if len(self.files) > 1 else ""
        lines = [f"how it was read: {files}{names} ({self.rows_read:,} rows)"]
        n_skip = sum(r for _, r in self.skipped)
        why = f" ({'; '.join(f'{n}: {r:,}' for n, r in self.skipped)})" if self.skipped else ""
        lines.append(f"  rows: {self.rows_read:,} read, {self.rows_kept:,} kept, {n_skip:,} skipped{why}")
        span = f"{self.first} .. {self.last} (UTC)" if self.first else "no rows kept"
        lines.append(f"  time: column {self.time_column!r}, {self.time_reading}; {span}")
        rules = {x.rule for x in self.labels}
        rule = f" ({next(iter(rules))})" if len(rules) == 1 and next(iter(rules)) not in ("vocabulary",) and \
            not (len(self.labels) == 1 and self.labels[0].rule == self.labels[0].label) else ""
        lines.append(f"  outcomes: column {self.outcome_column!r}, {_vocabulary_text(self.vocabulary)}{rule}")
        lines.extend(self._label_lines())
        if self.slow_above is not None:
            lines.append(f"  latency: successes slower than {self.slow_above} counted as failures in bucket 'slow': "
                         f"{self.slow_rows:,} rows")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)


def _vocabulary_text(vocabulary: str) -> str:
    return {"built-in": "built-in vocabulary", "outcomes=": "mapping outcomes=",
            "true/false": "true/false values"}.get(vocabulary, vocabulary)


def skip_reasons(labels: Sequence[LabelReading], what: str = "outcome") -> tuple[tuple[str, int], ...]:
    """One skip reason per label sent to ``skip`` (hidden labels counted together)."""
    out = [(f"{what} {x.label!r} -> skip", x.rows) for x in labels if x.meaning == SKIP and x.label is not None]
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
