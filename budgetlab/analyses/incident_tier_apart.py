"""The incident report's alerts scored apart: an alert over while its tier's long window filled
(the group's first traffic, or its return after a silence at least that long) detects nothing,
by the one rule of :mod:`budgetlab.alerts.filling` (:func:`~budgetlab.alerts.filling.\
episodes_filling`, as ``budgetlab alerts`` and ``budgetlab backtest`` score it). The tier table
reads its alerts without them (:func:`scored_apart`); the table's cell, its note and the summary
say such an alert in words (:func:`apart_cell`, :func:`apart_note`, :func:`apart_words`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from .._util.words import prose_duration
from ..alerts.filling import episodes_filling, filling_spans
from .incident_end_words import clock_words
from .incident_group_words import for_group

__all__ = ["APART_CELL", "apart_cell", "apart_columns", "apart_note", "apart_words",
           "scored_apart"]

#: The tier table's cell (its ``detection_delay``) for a tier whose only alerts overlapping the
#: incident were scored apart, explained under the table (:func:`apart_note`).
APART_CELL = "scored apart"


def scored_apart(episodes: pd.DataFrame, attrs: Mapping[Hashable, Any]) -> np.ndarray:
    """Per episode of the report's replay: over while its tier's long window filled
    (:func:`~budgetlab.alerts.filling.episodes_filling`), read with ``attrs`` (the replay's
    ``grid_start``, ``tier_windows``, ``by``, ``stretches``: from the log's first event); the
    grid's end is at least the episodes' last end (an alert followed past the replay ends where
    it reset)."""
    if not len(episodes) or "tier_windows" not in attrs:
        return np.zeros(len(episodes), dtype=bool)
    last = int(utc_ns_column(episodes["end"], "episodes['end']").max())
    end = max(int(pd.Timestamp(attrs["grid_end"]).as_unit("ns").value), last)
    table = episodes.copy(deep=False)
    table.attrs = {**attrs, "grid_end": pd.Timestamp(end, unit="ns", tz="UTC").isoformat()}
    return episodes_filling(table)


def apart_columns(apart: pd.DataFrame, attrs: Mapping[Hashable, Any],
                  on: list[str]) -> pd.DataFrame:
    """Per group and tier (``on``) of the ``apart`` episodes overlapping the incident: its
    first one's start (``apart_alert``), when its tier's long window filled in the stretch it
    began in (``apart_filled``) and whether that stretch began after a silence
    (``apart_after_silence``: else at the group's first traffic in the log)."""
    first = apart.sort_values("start", kind="stable").groupby(on, sort=False).head(1)
    by = [str(k) for k in attrs.get("by") or []]
    filled: list[np.datetime64] = []
    silence: list[bool] = []
    for _, r in first.iterrows():
        spans = filling_spans(attrs, tuple(str(r[k]) for k in by), str(r["tier"]))
        at = pd.Timestamp(r["start"]).value
        j = max((i for i, (s, _) in enumerate(spans) if s <= at), default=0)
        filled.append(np.datetime64(spans[j][1], "ns") if spans else np.datetime64("NaT", "ns"))
        silence.append(j > 0)
    return pd.DataFrame({
        **{c: first[c].to_numpy() for c in on}, "apart_alert": first["start"].to_numpy(),
        "apart_filled": pd.to_datetime(np.array(filled, dtype="datetime64[ns]"), utc=True),
        "apart_after_silence": np.asarray(silence, dtype=bool)}).set_index(on)


def apart_cell(row: pd.Series) -> bool:
    """The tier of ``row`` (a tier table row) did not detect the incident and an alert of it
    scored apart overlapped it: its cell says :data:`APART_CELL`."""
    return not bool(row["fired"]) and pd.notna(row.get("apart_alert", pd.NaT))


def _why(r: pd.Series, tz: str, ref: pd.Timestamp) -> str:
    """``began and ended while its 6 h window filled after the group's silence (until 22:00)``"""
    since = "after the group's silence" if r["apart_after_silence"] else (
        "from the group's first event")
    return (f"began and ended while its {prose_duration(r['long_window'])} window filled "
            f"{since} (until {clock_words(r['apart_filled'], tz, ref)})")


def apart_note(rows: pd.DataFrame, cells: list[str], tz: str, ref: pd.Timestamp) -> str:
    """The note under the tier table for its :data:`APART_CELL` cells (``cells``: one per row of
    ``rows``, the rows shown); ``""`` when none says it."""
    said = [f"{r['tier']}'s alert at {clock_words(r['apart_alert'], tz, ref)} {_why(r, tz, ref)}"
            for (_, r), cell in zip(rows.iterrows(), cells, strict=True) if cell == APART_CELL]
    if not said:
        return ""
    said = list(dict.fromkeys(said))
    return (f"{APART_CELL}: {'; '.join(said)}: {'it detects' if len(said) == 1 else 'they detect'}"
            " nothing (not detected), as budgetlab alerts scores them.")


def apart_words(tiers: pd.DataFrame, keys: Sequence[str], tz: str, ref: pd.Timestamp) -> str:
    """``; page_6h's alert at 16:01 was scored apart: it began and ended while its 6 h window
    filled after the group's silence (until 22:00), so it detected nothing``: the summary's
    words for the tiers whose only alerts overlapping the incident were scored apart (the first
    by time, with how many others); ``""`` when none was."""
    if "apart_alert" not in tiers.columns or not len(tiers):
        return ""
    rows = tiers[[apart_cell(r) for _, r in tiers.iterrows()]]
    if not len(rows):
        return ""
    rows = rows.sort_values("apart_alert", kind="stable")
    r = rows.iloc[0]
    also = list(dict.fromkeys(str(t) for t in rows["tier"].iloc[1:] if t != r["tier"]))
    others = (f" (so {'was' if len(also) == 1 else 'were'} "
              f"{', '.join(t + chr(39) + 's' for t in also)})" if also else "")
    return (f"; {r['tier']}'s alert{for_group(r, keys)} at "
            f"{clock_words(r['apart_alert'], tz, ref)} was scored apart{others}: it "
            f"{_why(r, tz, ref)}, so it detected nothing")
