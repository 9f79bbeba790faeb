"""An alert episode of one minute in a two-day chart is drawn one pixel column wide at least (the
rule of the timeline's silences, issue 30 point 3): before, its bar was 1/2880 of the axis, a
sliver under the left spine. Checked on hand episodes through the bars drawn: the column width
is the axis span over the axes' pixel width at the figure's resolution, worked out here."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab.plotting import plot_alerts  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def day_number(offset):
    return mdates.date2num((T0 + pd.Timedelta(offset)).tz_localize(None).to_datetime64())


def test_a_one_minute_page_in_two_days_is_one_pixel_column_wide():
    ep = pd.DataFrame({"tier": ["page_1h", "page_6h"], "severity": ["page", "page"],
                       "start": [T0 + pd.Timedelta("20h"), T0 + pd.Timedelta("1min")],
                       "end": [T0 + pd.Timedelta("22h"), T0 + pd.Timedelta("2min")]})
    ep.attrs.update(grid_start=str(T0), grid_end=str(T0 + pd.Timedelta("2D")))
    fig = plt.figure(figsize=(8, 3), dpi=100)
    ax = plot_alerts(ep, ax=fig.add_subplot())
    # one pixel column in days: 2 days over the axes' pixel columns (its width in pixels at the
    # larger of the figure's and the saving resolution, as a saved PNG has them; a partial
    # pixel at the right edge a column too)
    dpi = max(fig.dpi, float(matplotlib.rcParams["savefig.dpi"])
              if matplotlib.rcParams["savefig.dpi"] != "figure" else fig.dpi)
    pixels = np.ceil(ax.get_position().width * fig.get_figwidth() * dpi)
    assert pixels > 500  # an 8-inch figure at 100 dpi: about 580 columns
    column = 2.0 / pixels
    assert 1 / 1440 < column / 2  # the premise: a minute is well under a column
    bars = {c.get_label(): c.patches for c in ax.containers}
    (short,) = bars["page_6h"]
    assert short.get_width() >= column * (1 - 1e-9)
    assert short.get_width() < 2 * column  # widened to a column, not more
    assert short.get_x() == pytest.approx(day_number("1min"), abs=1e-9)  # from its start
    (long,) = bars["page_1h"]  # two hours: many columns, drawn as it is
    np.testing.assert_allclose([long.get_x(), long.get_x() + long.get_width()],
                               [day_number("20h"), day_number("22h")], rtol=0, atol=1e-9)


def test_a_short_episode_at_the_end_of_the_span_stays_inside_it():
    ep = pd.DataFrame({"tier": ["page_6h"], "severity": ["page"],
                       "start": [T0 + pd.Timedelta("2D") - pd.Timedelta("1min")],
                       "end": [T0 + pd.Timedelta("2D")]})
    ep.attrs.update(grid_start=str(T0), grid_end=str(T0 + pd.Timedelta("2D")))
    fig = plt.figure(figsize=(8, 3), dpi=100)
    with matplotlib.rc_context({"savefig.dpi": "figure"}):
        ax = plot_alerts(ep, ax=fig.add_subplot())
    (bar,) = ax.containers[0].patches
    pixels = np.ceil(ax.get_position().width * fig.get_figwidth() * 100)  # savefig.dpi: figure
    assert bar.get_x() + bar.get_width() == pytest.approx(day_number("2D"), abs=1e-9)
    assert bar.get_width() >= 2.0 / pixels * (1 - 1e-9)  # a column, back from the span's end
