"""The options shared by :func:`~budgetlab.analyses.window_lengths.compare_windows` and
:func:`~budgetlab.analyses.window_lengths.window_incidents`, as one frozen object checked once
(:class:`WindowOptions`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import (
    check_argument,
    check_tz,
    options_object,
    refuse_joined,
    to_timedelta,
)
from .._util.words import duration_words, prose_duration
from ..budget.figures import STATUSES
from ..errors import ConfigError
from .sorted_events import Sorted, WindowSpec, parse_window

__all__ = ["WindowOptions", "after_warmup", "window_options"]


@dataclass(frozen=True)
class WindowOptions:
    """The windows to compare and how to read them: each field as the keyword of the same name of
    :func:`~budgetlab.analyses.window_lengths.compare_windows` (``round_trip`` is used by it only).
    Checked on construction, which also parses them (``specs``, ``dwells_ns``, ``round_trip_ns``,
    ``grace_ns``, ``warmup_ns``, ``alert_level``).

    >>> o = WindowOptions(windows=("1h", "calendar:day"), min_dwell=("0min", "15min"),
    ...                   tz="Europe/Berlin")
    >>> [w.label for w in o.specs], o.dwells_ns, o.alert_level
    (['1h', 'calendar:day'], (0, 900000000000), 2)
    >>> WindowOptions(windows=("1h", "60min"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: windows= lists the same window twice ('1h' and '60min'); ...
    """

    windows: Any = ("1h", "6h", "24h", "7D")
    tz: str = "UTC"
    min_dwell: Any = 0
    round_trip: Any = "1h"
    alert_at: str = "critical"
    grace: Any = "1h"
    warmup: Any = 0
    show_progress: bool | None = None
    #: checked and parsed on construction:
    specs: tuple[WindowSpec, ...] = field(init=False, repr=False)
    dwells_ns: tuple[int, ...] = field(init=False, repr=False)
    round_trip_ns: int = field(init=False, repr=False)
    grace_ns: int = field(init=False, repr=False)
    warmup_ns: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "specs", tuple(_specs(self.windows)))
        put(self, "tz", check_tz(self.tz))
        put(self, "dwells_ns", tuple(_durations(self.min_dwell, "min_dwell")))
        put(self, "round_trip_ns", int(to_timedelta(self.round_trip, name="round_trip").value))
        check_argument("alert_at", self.alert_at, STATUSES[1:])
        put(self, "grace_ns", int(to_timedelta(self.grace, name="grace", allow_zero=True).value))
        put(self, "warmup_ns", int(to_timedelta(self.warmup, name="warmup", allow_zero=True).value))

    @property
    def alert_level(self) -> int:
        """The status code of ``alert_at`` (1 warning, 2 critical, 3 exhausted)."""
        return STATUSES.index(self.alert_at)


def window_options(options: WindowOptions | None, given: dict[str, Any]) -> WindowOptions:
    """``options``, or the keyword options ``given`` as one; with ``options`` the keywords must be
    at their defaults (a keyword given as well is refused, never dropped)."""
    return options_object(WindowOptions, options, given, "WindowOptions(windows=('1h', '24h'))")


def _durations(value: Any, name: str) -> list[int]:
    refuse_joined(value, name)
    if value is None:
        return [0]
    if isinstance(value, (str, pd.Timedelta, int, float, np.integer,
                          np.floating)) or not isinstance(value, Sequence):
        value = [value]
    out = [int(to_timedelta(v, name=name, allow_zero=True).value) for v in value]
    if not out:
        raise ConfigError(f"{name} is empty; give e.g. {name}=('0min', '15min').")
    if len(set(out)) != len(out):
        raise ConfigError(f"{name} lists the same duration twice.")
    return out


def _specs(windows: Any) -> list[WindowSpec]:
    refuse_joined(windows, "windows")
    if isinstance(windows, (str, pd.Timedelta, WindowSpec)) or not isinstance(windows, Sequence):
        windows = [windows]
    specs = [parse_window(w) for w in windows]
    if not specs:
        raise ConfigError("windows is empty; give e.g. windows=('1h', '24h').")
    labels = [s.label for s in specs]
    twice = [w for w, label in zip(windows, labels, strict=True) if labels.count(label) > 1]
    if twice:
        shown = " and ".join(f"'{w}'" for w in twice)
        raise ConfigError(f"windows= lists the same window twice ({shown}); give each once.")
    return specs


def after_warmup(srt: Sorted, opts: WindowOptions) -> int:
    """Where the time :func:`~budgetlab.analyses.window_lengths.compare_windows` compares
    starts: ``warmup`` after the first event. A ``warmup`` reaching the last event leaves no time
    to compare, and is refused as such (every row would say "no evaluated time: the window held
    no traffic after its warm-up", though it held some)."""
    first, last = int(srt.t.min()), int(srt.t.max())
    if opts.warmup_ns and first + opts.warmup_ns >= last:
        given = opts.warmup if isinstance(opts.warmup, str) else prose_duration(opts.warmup)
        raise ConfigError(f"warmup='{given}' leaves no time to compare: the log spans "
                          f"{duration_words(pd.Timedelta(last - first, unit='ns'))} from its "
                          "first event to its last; give a shorter warmup=.")
    return first + opts.warmup_ns
