"""Notebook 02's calendar-day timeline left a silence blank: it was drawn from the replay's
events only, while the rolling timelines draw the window's clock (``status_spans``), a silence
hatched as no traffic. :func:`calendar_spans` gives the calendar window's clock in the same
table, so the timeline draws its silences the same way.

The oracle, by hand (target 90 %, Europe/Berlin: local midnight of 3 March is 2 March 23:00
UTC): a failure at 20:00 UTC and a success at 21:00 UTC on 2 March, a success at 05:00 UTC on
3 March. The window holds 1 event (1 failure: exhausted) from 20:00, 2 events (1 failure, 50 %:
exhausted) from 21:00, nothing from the reset at 23:00 (no traffic) until 05:00, then 1 success
(healthy)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.dates as mdates
import nbformat
import pandas as pd
import pytest

import budgetlab
from budgetlab import SLO, as_events
from budgetlab.analyses.calendar_spans import calendar_spans
from budgetlab.plotting import plot_timeline
from budgetlab.plotting.status_bands import NO_TRAFFIC

#: the notebooks of the budgetlab imported
FOLDER = Path(budgetlab.__file__).resolve().parent / "notebooks"

T = pd.to_datetime(["2026-03-02 20:00", "2026-03-02 21:00", "2026-03-03 05:00"], utc=True)
EVENTS = as_events(T, [False, True, True])
SLO90 = SLO(target=0.9)
BERLIN = "Europe/Berlin"


def hours(frame: pd.DataFrame) -> list[tuple[str, str, str, int, int]]:
    return [(f"{r.start:%d %H:%M}", f"{r.end:%d %H:%M}", str(r.status), r.total, r.failures)
            for r in frame.itertuples()]


def test_the_reset_at_local_midnight_empties_the_window_until_the_next_event():
    sp = calendar_spans(EVENTS, SLO90, tz=BERLIN, end="2026-03-03 08:00")
    assert hours(sp) == [("02 20:00", "02 21:00", "exhausted", 1, 1),
                         ("02 21:00", "02 23:00", "exhausted", 2, 1),
                         ("02 23:00", "03 05:00", "no_traffic", 0, 0),
                         ("03 05:00", "03 08:00", "healthy", 1, 0)]
    assert sp["burn_rate"].tolist() == pytest.approx([10.0, 5.0, 0.0, 0.0])  # 1 / (n x 0.1)
    assert sp.attrs["steps"] and sp.attrs["calendar"] == "day" and sp.attrs["tz"] == BERLIN


def test_events_before_the_observation_count_in_their_day():
    sp = calendar_spans(EVENTS, SLO90, tz=BERLIN, start="2026-03-02 21:30",
                        end="2026-03-03 01:00")
    assert hours(sp) == [("02 21:30", "02 23:00", "exhausted", 2, 1),
                         ("02 23:00", "03 01:00", "no_traffic", 0, 0)]


@pytest.mark.usefixtures("close_figures")
def test_the_timeline_hatches_the_calendar_days_silence_as_no_traffic():
    ax = plot_timeline(slo=SLO90, tz=BERLIN, spans=calendar_spans(
        EVENTS, SLO90, tz=BERLIN, end="2026-03-03 08:00"))
    (band,) = [c for c in ax.budget_ax.collections if c.get_gid() == "status_no_traffic"]
    assert band.get_hatch() == NO_TRAFFIC[1]
    (path,) = band.get_paths()
    x = path.vertices[:, 0]
    assert [mdates.num2date(v).strftime("%d %H:%M") for v in (x.min(), x.max())] == [
        "02 23:00", "03 05:00"]


def test_notebook_02_draws_the_calendar_day_on_its_clock():
    nb = nbformat.read(FOLDER / "02_window_length.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert 'calendar_spans(sub, group_slo, calendar="day", tz=tz, start=lo, end=hi)' in code
