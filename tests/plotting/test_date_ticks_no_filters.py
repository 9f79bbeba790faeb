"""Stop 60: the date ticks of a narrow axis learn whether matplotlib finds an interval without a
``warnings.catch_warnings`` filter (it swaps the process-wide filters, not safe on threads): the
locator restates matplotlib's rule instead of turning its warning into an error. Oracle: the
ticks the warning-driven search picks (matplotlib's own "unable to pick an appropriate interval"
as the signal, recorded by the test), on a grid of spans and widths."""

from __future__ import annotations

import datetime as dt
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab.plotting._common import time_axis  # noqa: E402
from budgetlab.plotting._dates import TICK_INCHES  # noqa: E402
from tests.filter_callers import filter_callers  # noqa: E402

START = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _reference_ticks(end: dt.datetime, inches: float) -> list[float]:
    """matplotlib's ticks with ``minticks`` lowered until it stops warning that no interval
    fits ``maxticks`` (one per TICK_INCHES, at least 3)."""
    loc = mdates.AutoDateLocator(tz="UTC")
    loc.maxticks = dict.fromkeys(loc.maxticks, max(3, int(inches / TICK_INCHES)))
    for most in range(loc.minticks, 1, -1):
        loc.minticks = most
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            try:
                return list(loc.get_locator(START, end).tick_values(START, end))
            except UserWarning:
                pass
    loc.minticks = 1
    return list(loc.get_locator(START, end).tick_values(START, end))


def _axis(inches: float, end: dt.datetime):
    fig = plt.figure(figsize=(inches, 2), dpi=100)
    ax = fig.add_axes((0.0, 0.3, 1.0, 0.6))
    ax.plot([START, end], [0, 1])
    time_axis(ax, "UTC")
    ax.set_xlim(START, end)
    return fig, ax


@pytest.mark.parametrize("inches", [1.0, 2.5, 3.7, 6.5])
def test_narrow_axes_tick_as_matplotlibs_warning_driven_search(monkeypatch, inches):
    callers = filter_callers(monkeypatch)
    spans = np.geomspace(2, 6 * 365 * 86400, 30)  # 2 s to 6 years
    for seconds in spans:
        end = START + dt.timedelta(seconds=float(seconds))
        fig, ax = _axis(inches, end)
        loc = ax.xaxis.get_major_locator()
        drawn = ax.get_window_extent().width / fig.dpi  # the axis' width once laid out
        assert list(loc.tick_values(START, end)) == _reference_ticks(end, drawn), seconds
        plt.close(fig)
    assert callers == []


def test_drawing_a_narrow_time_axis_sets_no_warnings_filter(monkeypatch):
    callers = filter_callers(monkeypatch)
    fig, ax = _axis(2.0, START + dt.timedelta(days=40))
    real = warnings.catch_warnings
    with real():
        warnings.simplefilter("error")  # a warning of matplotlib's would raise here
        fig.canvas.draw()
    assert callers == []
    ticks = pd.to_datetime(ax.xaxis.get_majorticklocs(), unit="D", utc=True)
    assert len(ticks) >= 2  # the axis shows dates
