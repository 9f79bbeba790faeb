"""A naive local time given by the user, as one instant in its zone: a time in the hour the
clocks go back over happens twice, a time in the hour they skip does not exist, and either is
refused with the two readings written out (the same time with each UTC offset), never guessed.
"""

from __future__ import annotations

import pandas as pd

from ..errors import ConfigError

__all__ = ["localize_wall_time"]


def localize_wall_time(ts: pd.Timestamp, tz: str, *, name: str) -> pd.Timestamp:
    """The naive ``ts`` read on the clock of ``tz``; :class:`ConfigError` naming ``name`` when
    the clocks' change leaves it two instants or none.

    >>> localize_wall_time(pd.Timestamp("2026-10-25 03:15"), "Europe/Berlin", name="start")
    Timestamp('2026-10-25 03:15:00+0100', tz='Europe/Berlin')
    >>> localize_wall_time(pd.Timestamp("2026-10-25 02:15"), "Europe/Berlin", name="start")
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: start='2026-10-25 02:15' happens twice in Europe/Berlin (the
    clocks go back at 03:00): give it with its UTC offset, start='2026-10-25T02:15+02:00' (the
    first, CEST) or start='2026-10-25T02:15+01:00' (the second, CET).
    """
    try:
        return ts.tz_localize(tz, ambiguous="raise", nonexistent="raise")
    except ValueError:  # pandas' DST errors (ambiguous or nonexistent) are ValueErrors
        pass
    said = f"{name}={_clock(ts)!r}"
    if pd.isna(ts.tz_localize(tz, ambiguous=True, nonexistent="NaT")):  # a time the clocks skip
        before = ts.tz_localize(tz, nonexistent="shift_backward")  # the last instant before it
        after = ts.tz_localize(tz, nonexistent="shift_forward")  # at or after the change
    else:  # a time the clocks go back over: the first reading on the clock before the change
        before, after = (ts.tz_localize(tz, ambiguous=dst) for dst in (True, False))
    change = _change(before, after, tz)
    old, new = (_wall(change, z) for z in (before, after))
    readings = [(f"{name}='{_iso(ts)}{_offset(z)}'", z.tzname()) for z in (before, after)]
    if _utc_offset(before) > _utc_offset(after):
        raise ConfigError(f"{said} happens twice in {tz} (the clocks go back at {old}): give it "
                          f"with its UTC offset, {readings[0][0]} (the first, {readings[0][1]}) "
                          f"or {readings[1][0]} (the second, {readings[1][1]}).")
    raise ConfigError(f"{said} does not exist in {tz} (the clocks go forward from {old} to "
                      f"{new}): give it with a UTC offset, {readings[0][0]} (on the "
                      f"{readings[0][1]} clock, {_other(ts, before, tz)}) or {readings[1][0]} "
                      f"(on the {readings[1][1]} clock, {_other(ts, after, tz)}).")


def _wall(at: pd.Timestamp, clock: pd.Timestamp) -> str:
    """The instant ``at`` on a clock with ``clock``'s UTC offset, ``HH:MM``."""
    return f"{at.tz_convert('UTC').tz_localize(None) + _utc_offset(clock):%H:%M}"


def _utc_offset(at: pd.Timestamp) -> pd.Timedelta:
    """The UTC offset of the aware ``at``: its wall time less its UTC time."""
    return at.tz_localize(None) - at.tz_convert("UTC").tz_localize(None)


def _change(before: pd.Timestamp, after: pd.Timestamp, tz: str) -> pd.Timestamp:
    """The first whole minute (UTC) after ``before`` whose offset is ``after``'s: the change."""
    grid = pd.date_range(before.tz_convert("UTC").ceil("min"), after.tz_convert("UTC"),
                         freq="min").tz_convert(tz)
    offsets = pd.Series([t.utcoffset() for t in grid])
    return grid[int((offsets == after.utcoffset()).to_numpy().argmax())]


def _other(ts: pd.Timestamp, clock: pd.Timestamp, tz: str) -> str:
    """What the wall time ``ts`` read with ``clock``'s offset is on the zone's own clock."""
    instant = pd.Timestamp(f"{_iso(ts)}{_offset(clock)}").tz_convert(tz)
    return f"i.e. {instant:%H:%M} {instant.tzname()}"


def _offset(at: pd.Timestamp) -> str:
    """``+02:00``: the UTC offset of the aware ``at``."""
    text = at.strftime("%z")
    return f"{text[:3]}:{text[3:]}"


def _clock(ts: pd.Timestamp) -> str:
    """The naive ``ts`` as the user wrote it, to the minute unless it has seconds."""
    return ts.strftime("%Y-%m-%d %H:%M") if _whole_minute(ts) else str(ts)


def _iso(ts: pd.Timestamp) -> str:
    return ts.strftime("%Y-%m-%dT%H:%M") if _whole_minute(ts) else ts.isoformat()


def _whole_minute(ts: pd.Timestamp) -> bool:
    return ts == ts.floor("min")
