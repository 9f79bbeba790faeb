"""Helpers the analysis subcommands share: their options (those of ``replay``), the SLO lines,
tables to ``--out`` and figures to ``--plot``."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Sequence
from typing import Any

import pandas as pd

from ..slo import SLO, PerGroup
from .options import OUT_DIGITS
from .prose import path_label, wrap
from .reading import describe_slo

__all__ = ["print_slo", "save_plot", "group_label", "write_output", "out_figures", "wrap",
           "table_text"]


def print_slo(slo: SLO | PerGroup, by: list[str], *, events: pd.DataFrame,
              window: bool = True, tracker: bool = True) -> None:
    """The SLO line (without its window unless ``window``, with its target only unless
    ``tracker``): the SLOs of the groups of ``events``, the log
    (:func:`~budgetlab.cli.reading.describe_slo`); and how per-group SLOs were bound."""
    print(wrap(describe_slo(slo, by, window=window, events=events, tracker=tracker), indent=""))
    if isinstance(slo, PerGroup) and slo.binding:
        print(wrap(f"SLOs bound to groups: {slo.binding}", indent=""))


def group_label(row: pd.Series, by: list[str]) -> str:
    """A group as ``key=value, ...`` (``all events`` without keys)."""
    return ", ".join(f"{k}={row[k]}" for k in by) or "all events"


def table_text(show: pd.DataFrame, keys: Sequence[str] = (), *, width: int | None = None,
               **options: Any) -> str:
    """A table as every command prints it: ``show.to_string(index=False)`` when its rows fit
    ``width`` columns (the terminal's, ``COLUMNS`` honoured, 100 when unknown); a wider one cut by
    pandas into blocks of columns that fit, each block repeating the ``keys``, the columns that
    name a row (the ``--by`` keys, the window, the tier...; their names on the line under the
    block's header, which ends in ``\\`` when another block follows). Without ``keys`` (a
    one-row table) the blocks go without them. ``options`` are ``to_string``'s (``float_format``).

    >>> t = pd.DataFrame({"method": ["GET", "OPTIONS"], "events": ["9,952", "1"],
    ...     "share_warning": ["0.0 %", ""], "detection_median": ["none detected", "no incident"]})
    >>> print(table_text(t, ["method"], width=60))
     method events share_warning detection_median
        GET  9,952         0.0 %    none detected
    OPTIONS      1                    no incident
    >>> print(table_text(t, ["method"], width=40))
            events share_warning  \\
    method
    GET      9,952         0.0 %
    OPTIONS      1
    <BLANKLINE>
            detection_median
    method
    GET        none detected
    OPTIONS      no incident
    """
    width = shutil.get_terminal_size(fallback=(100, 24)).columns if width is None else width
    text: str = show.to_string(index=False, **options)
    if max(map(len, text.splitlines()), default=0) <= width:
        return text
    # pandas repeats the index in every block; every row keeps its names (no sparse index)
    wide = show.set_index(list(keys)) if keys else show
    text = wide.to_string(index=bool(keys), line_width=width, sparsify=False, **options)
    return "\n".join(line.rstrip() for line in text.splitlines())  # no padding at the ends


def save_plot(draw: Any, path: str, *, force: bool, rows: int = 1) -> None:
    """Draw with ``draw(ax)`` on a new 11 x 6 in figure and save it (format from the suffix: png,
    svg or pdf). The figure's constrained layout makes room for the legends the plots put beside or
    above their axes and for panels a plot adds below ``ax`` (``tight_layout`` knows neither).
    With ``rows`` > 1, ``draw`` gets that many axes stacked, sharing the time axis, the figure
    that much taller."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._util.figures import save_figure

    fig, ax = plt.subplots(rows, 1, figsize=(11, 6 * (1 + 0.75 * (rows - 1))),
                           layout="constrained", sharex=True)
    try:
        draw(ax)
        save_figure(fig, path, force=force)
    finally:
        plt.close(fig)
    print(f"wrote the plot to {path_label(path)}")


def write_output(table: pd.DataFrame, args: argparse.Namespace, noun: str,
                 detail: str = "", *, path: str | None = None) -> None:
    """Write ``table`` to ``--out`` (or ``path``: another output flag's file), its figures as
    :func:`out_figures` writes them, and say so: its rows counted as ``noun`` (singular, put in
    the number the count takes: ``1 group row``, ``3 group rows``), then ``detail``."""
    from .._util.files import write_table
    from .._util.words import counted

    path = args.out if path is None else path
    out = out_figures(table)
    out.attrs = {}
    write_table(out, path, force=args.force)
    said = counted(len(out), noun) + (f" {detail}" if detail else "")
    print(f"wrote {said} to {path_label(path)}")


def out_figures(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` as every table output writes it (``--out``, ``--summary-out``, ``--tiers-out``;
    ``replay --out`` and ``demo --out`` write the seed tracker's own rounding): its float figures
    and durations to :data:`~budgetlab.cli.options.OUT_DIGITS` significant digits, counts
    (integers) exactly. A CSV writes a duration as the ``window`` column does (``7h5m``:
    :func:`budgetlab._util.files.write_table`).

    >>> out_figures(pd.DataFrame({"burn": [0.1 + 0.2], "events": [3]})).to_dict("list")
    {'burn': [0.3], 'events': [3]}

    The nanosecond of a status change dated just after a window's closed edge is below those
    digits: a detection 7 h 5 min and 1 ns after an incident's start is written ``7h5m``.

    >>> d = pd.to_timedelta(["7h5min1ns", "1ns", None])
    >>> out_figures(pd.DataFrame({"d": d}))["d"].tolist()
    [Timedelta('0 days 07:05:00'), Timedelta('0 days 00:00:00.000000001'), NaT]
    """
    out = table.copy()
    floats = out.select_dtypes("float").columns
    out[floats] = out[floats].map(lambda v: float(f"{v:.{OUT_DIGITS}g}"))
    for name in out.select_dtypes("timedelta").columns:
        out[name] = pd.to_timedelta([_duration_digits(v) for v in out[name]],
                                    unit="ns").as_unit("ns").to_numpy()
    return out


def _duration_digits(value: Any) -> Any:
    """A duration's nanoseconds to :data:`~budgetlab.cli.options.OUT_DIGITS` significant digits
    (through :class:`~decimal.Decimal`: exact, no float on the way back); NaT stays."""
    from decimal import Decimal

    if pd.isna(value):
        return pd.NaT
    return int(Decimal(f"{pd.Timedelta(value).value:.{OUT_DIGITS - 1}e}"))
