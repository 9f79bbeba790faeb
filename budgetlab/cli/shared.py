"""Helpers the analysis subcommands share: their options (those of ``replay``), the SLO lines,
tables to ``--out`` and figures to ``--plot``."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

import pandas as pd

from ..slo import SLO, PerGroup
from .labels import path_label
from .reading import describe_slo

__all__ = ["print_slo", "save_plot", "group_label", "write_output", "wrap", "pct",
           "SCORE_COLUMNS", "score_text"]

#: The columns of a score table (:func:`budgetlab.score_alerts`) the CLI prints.
SCORE_COLUMNS = ["tier", "severity", "episodes", "precision", "incidents", "detected", "recall",
                 "detection_median",
                 "reset_median", "pages_per_day", "observed_days"]


def print_slo(slo: SLO | PerGroup, by: list[str], *, window: bool = True) -> None:
    """The SLO line (without its window unless ``window``), and how per-group SLOs were bound."""
    print(describe_slo(slo, by, window=window))
    if isinstance(slo, PerGroup) and slo.binding:
        print(f"SLOs bound to groups: {slo.binding}")


def group_label(row: pd.Series, by: list[str]) -> str:
    """A group as ``key=value, ...`` (``all events`` without keys)."""
    return ", ".join(f"{k}={row[k]}" for k in by) or "all events"


def save_plot(draw: Any, path: str, *, force: bool, size: tuple[float, float] = (11, 6)) -> None:
    """Draw with ``draw(ax)`` on a new figure and save it (format from the suffix: png, svg or
    pdf). The figure's constrained layout makes room for the legends the plots put beside or
    above their axes and for panels a plot adds below ``ax`` (``tight_layout`` knows neither)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._util.figures import save_figure

    fig, ax = plt.subplots(figsize=size, layout="constrained")
    try:
        draw(ax)
        save_figure(fig, path, force=force)
    finally:
        plt.close(fig)
    print(f"wrote the plot to {path_label(path)}")


def write_output(table: pd.DataFrame, args: argparse.Namespace, what: str) -> None:
    from .._util.files import write_table

    out = table.copy()
    out.attrs = {}
    write_table(out, args.out, force=args.force)
    print(f"wrote {len(out)} {what} to {path_label(args.out)}")


def wrap(text: str, indent: str = "    ") -> str:
    glued = " ".join(str(text).split()).replace(" %", "\0%")  # never break "93.80 %" across lines
    return textwrap.fill(glued, width=100, initial_indent=indent,
                         subsequent_indent=indent).replace("\0", " ")


def pct(x: float, digits: int = 2) -> str:
    """A fraction as a percentage the way budgetlab prints them: ``93.80 %``.

    >>> pct(0.938044), pct(0.01, 0)
    ('93.80 %', '1 %')
    """
    return f"{x * 100:.{digits}f} %"


def score_text(rows: pd.DataFrame, duration: Any) -> str:
    """The score rows as text: a figure that does not exist in words or blank, never ``NaN``/``NaT``
    (``precision`` of a tier that never fired: ``never fired``; ``recall`` without incidents:
    ``no incidents``; a rate without observed time, a time without detection: blank);
    ``duration`` formats the times.

    >>> t = pd.DataFrame({"tier": ["p"], "severity": ["page"], "episodes": [0],
    ...     "precision": [float("nan")], "incidents": [0], "detected": [0],
    ...     "recall": [float("nan")], "detection_median": [pd.NaT],
    ...     "reset_median": [pd.NaT], "pages_per_day": [0.0], "observed_days": [1.5]})
    >>> print(score_text(t, str))
    tier severity  episodes   precision  incidents  detected       recall detection_median
    reset_median  pages_per_day  observed_days
       p     page         0 never fired          0         0 no incidents
       0            1.5
    """
    show = rows[[c for c in SCORE_COLUMNS if c in rows.columns]].copy()
    words = {"precision": "never fired", "recall": "no incidents"}
    for col, word in words.items():
        if col in show.columns:
            show[col] = show[col].map(lambda v, w=word: w if pd.isna(v) else f"{v:.3g}")
    for col in ("detection_median", "reset_median"):
        if col in show.columns:
            show[col] = show[col].map(lambda v: "" if pd.isna(v) else duration(v))
    for col in ("pages_per_day", "observed_days"):
        if col in show.columns:
            show[col] = show[col].map(lambda v: "" if pd.isna(v) else f"{v:.3g}")
    return show.to_string(index=False)
