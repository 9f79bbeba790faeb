"""The status strip along the top of the timeline's bottom panel: each warning, critical or
exhausted stretch, however short, marked by a solid bar in its status's colour over the lines
(a stretch of one pixel column hides behind the budget line's vertical step), and named so in
the legend. Checked through the artists: the strip's bars against the stretches worked out by
hand for a hand-built log, and for hand-built spans reduced to the pixel columns."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from budgetlab import SLO, as_events, replay, status_spans  # noqa: E402
from budgetlab.plotting import STATUS_COLORS, plot_timeline  # noqa: E402
from budgetlab.plotting._pixels import pixel_columns  # noqa: E402
from tests.plotting.hand_spans import with_figures  # noqa: E402

T0 = pd.Timestamp("2026-03-02", tz="UTC")
N = 2 * 24 * 60  # one event a minute for two days
# a 1 h window holds 60 or 61 events (61 at the instant an event arrives one window after
# another): a budget of 15 or 15.25 failures, so 8 failures in the window are warning (remaining
# 7/15 or 7.25/15.25: < 50 %), 7 healthy (8/15, 8.25/15.25), 14 critical (1/15, 1.25/15.25: < 10 %),
# 13 warning (2/15, 2.25/15.25); no count near a threshold
SLO_75 = SLO(target=0.75, window="1h")
A, B = 600, 2000  # minutes: where the warning and the critical stretch are built


def minutes(m):
    return mdates.date2num((T0 + pd.Timedelta(minutes=m)).tz_localize(None).to_datetime64())


def short_stretches():
    """Failures at minutes A, A+8, ..., A+48 and A+55: the 8th arrives at A+55 and the first
    leaves at A+60, so warning for 5 minutes, healthy around. Failures at B, B+4, ..., B+48 and
    B+55: warning from the 8th (B+28), critical from the 14th (B+55) until the first leaves
    (B+60), warning again until 7 are left (the 7th failure, B+24, leaves at B+84)."""
    ok = np.ones(N, dtype=bool)
    ok[[A + k for k in (*range(0, 49, 8), 55)]] = False
    ok[[B + k for k in (*range(0, 49, 4), 55)]] = False
    return as_events(T0 + pd.to_timedelta(np.arange(N), unit="min"), ok)


def strips(ax):
    """``{status: [(x0, x1), ...]}`` of the strip's bars (matplotlib days), each strip checked to
    be drawn in its status's colour over the budget line."""
    bottom = ax.panels[-1]
    budget = next(ln for ln in bottom.get_lines() if ln.get_gid() == "budget_remaining")
    out = {}
    for c in bottom.collections:
        gid = str(c.get_gid())
        if gid.endswith("_strip"):
            name = gid.removesuffix("_strip")
            assert c.get_zorder() > budget.get_zorder()  # over the budget line, not behind it
            assert np.allclose(c.get_facecolor(), to_rgba(STATUS_COLORS[name]))
            out[name] = [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in c.get_paths()]
    return out


def test_a_five_minute_warning_and_critical_stretch_are_marked_in_their_colours():
    """On the window's clock (what ``replay --plot`` draws), two days of one event a minute:
    each five-minute stretch is under a pixel column, and the strip holds it exactly."""
    ev = short_stretches()
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_75), slo=SLO_75, spans=status_spans(ev, SLO_75, steps=True),
                       ax=fig.add_subplot())
    assert 5 * (minutes(N) - minutes(0)) / N < (minutes(N) - minutes(0)) / pixel_columns(
        ax.panels[-1])  # the premise: five minutes are less than a column
    drawn = strips(ax)
    assert set(drawn) == {"warning", "critical"}
    exact = {"warning": [(A + 55, A + 60), (B + 28, B + 55), (B + 60, B + 84)],
             "critical": [(B + 55, B + 60)]}
    for name, stretches in exact.items():
        np.testing.assert_allclose(sorted(drawn[name]),
                                   [(minutes(s), minutes(e)) for s, e in stretches], rtol=0,
                                   atol=1e-9)
    plt.close(fig)


def test_per_event_statuses_reduced_to_columns_keep_a_short_stretch_in_the_strip():
    """Without spans, the tracker's per-event statuses (more events than the lines keep, so
    reduced to the columns): the event statuses A+55 .. A+60 are warning (the failure at A is at
    the cut-off at A+60, still in), B+55 .. B+60 critical; each strip bar holds its stretch and
    spans at most two columns beyond it."""
    ev = short_stretches()
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_75), slo=SLO_75, ax=fig.add_subplot())
    column = (minutes(N - 1) - minutes(0)) / pixel_columns(ax.panels[-1])
    drawn = strips(ax)
    for name, (s, e) in (("warning", (A + 55, A + 60)), ("critical", (B + 55, B + 60))):
        (bar,) = [(x0, x1) for x0, x1 in drawn[name] if x0 <= minutes(s) + 1e-9]
        assert bar[0] <= minutes(s) + 1e-9 and minutes(e) <= bar[1] + 1e-9
        assert bar[1] - bar[0] <= minutes(e) - minutes(s) + 2 * column
    plt.close(fig)


def minute_spans(n, marked):
    """``n`` one-minute healthy spans from T0, those starting at the minutes of ``marked`` (minute
    -> status) in that status."""
    start = T0 + pd.to_timedelta(np.arange(n), unit="min")
    status = np.array([marked.get(k, "healthy") for k in range(n)])
    return with_figures(pd.DataFrame({"start": start, "end": start + pd.Timedelta("1min"),
                                      "status": status}))


@pytest.mark.parametrize("n", [100, 3000])
def test_one_minute_of_each_status_gets_its_strip_one_column_wide(n):
    """One warning, one critical and one exhausted minute among healthy ones: with 100 spans
    drawn exactly, with 3,000 (more than the pixel columns) reduced to the columns; each minute
    gets one bar of its colour at its time, no wider than a column."""
    marked = {n // 4: "warning", n // 2: "critical", 3 * n // 4: "exhausted"}
    ev = as_events(T0 + pd.to_timedelta(np.arange(n), unit="min"), np.ones(n, dtype=bool))
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_75), slo=SLO_75, spans=minute_spans(n, marked),
                       ax=fig.add_subplot())
    columns = pixel_columns(ax.panels[-1])
    assert (n > columns) == (n == 3000)  # the premise: reduced to the columns, or not
    drawn = strips(ax)
    assert set(drawn) == set(marked.values())
    for at, name in marked.items():
        ((lo, hi),) = drawn[name]
        assert lo <= minutes(at + 0.5) <= hi
        one = minutes(1) - minutes(0)
        assert hi - lo <= max(one, (minutes(n) - minutes(0)) / columns * 1.01) + 1e-9
    plt.close(fig)


def _one_minute_of_each_status():
    """100 minutes, healthy but for one minute each of warning, critical and exhausted, drawn."""
    n = 100
    marked = {25: "warning", 50: "critical", 75: "exhausted"}
    ev = as_events(T0 + pd.to_timedelta(np.arange(n), unit="min"), np.ones(n, dtype=bool))
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_75), slo=SLO_75, spans=minute_spans(n, marked),
                       ax=fig.add_subplot())
    return fig, ax, marked


def test_the_legend_shows_the_strip_of_each_status_drawn():
    """The legend's warning, critical and exhausted entries each hold a solid bar of the
    status's colour (the strip; the band beside it is translucent); healthy has none."""
    fig, ax, marked = _one_minute_of_each_status()
    legend = ax.panels[-1].get_legend()
    solid = {tuple(r.get_facecolor()) for r in legend.findobj(Rectangle)}
    for name in ("warning", "critical", "exhausted"):
        assert to_rgba(STATUS_COLORS[name]) in solid
    assert to_rgba(STATUS_COLORS["healthy"]) not in solid
    assert [t.get_text() for t in legend.get_texts()][-4:] == [
        "healthy", "warning (< 50%)", "critical (< 10%)", "exhausted (≤ 0)"]
    plt.close(fig)


def test_a_status_held_for_one_instant_gets_no_strip():
    """Failures at 00:00 and 01:00, successes at 00:30 and 02:00, target 0.4, 1 h window (the
    budget is 0.6 of the events in the window): exhausted at 00:00 (1 failure of 1), warning at
    00:30 (1 of 2: 0.2 / 1.2 left), at 01:00 for one instant exhausted (2 of 3: the failure at
    00:00 is at the cut-off) and warning again 1 ns later (1 of 2), exhausted when 00:30 leaves
    (1 of 1) until 02:00. The blip is folded into the warning before it (docs/conventions.md): no
    exhausted strip at 01:00, however thin the instant."""
    ts = T0 + pd.to_timedelta([0, 30, 60, 120], unit="min")
    ev = as_events(ts, [False, True, False, True])
    slo = SLO(target=0.4, window="1h")
    spans = status_spans(ev, slo, steps=True)
    assert spans["instant"].sum() == 1  # the premise: the blip is a row of the spans
    fig = plt.figure()
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=spans, ax=fig.add_subplot())
    drawn = strips(ax)
    np.testing.assert_allclose(drawn["exhausted"], [(minutes(0), minutes(30)),
                                                    (minutes(90), minutes(120))], rtol=0,
                               atol=1e-9)
    assert min(x0 for x0, _ in drawn["warning"]) == pytest.approx(minutes(30), abs=1e-9)
    assert max(x1 for _, x1 in drawn["warning"]) == pytest.approx(minutes(90), abs=1e-9)
    plt.close(fig)


def relative_luminance(rgba):
    """WCAG 2 relative luminance of an sRGB colour (alpha ignored)."""
    c = np.asarray(rgba[:3], dtype=float)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin @ [0.2126, 0.7152, 0.0722])


def on_white(rgba):
    """An RGBA fill as it shows over white (alpha compositing)."""
    r, g, b, a = rgba
    return (a * r + 1 - a, a * g + 1 - a, a * b + 1 - a, 1.0)


def cie_lightness(rgba):
    """CIE L* (D65) of an sRGB colour, by the textbook formula."""
    y = relative_luminance(rgba)
    return 116 * np.cbrt(y) - 16 if y > 0.008856 else 903.3 * y


def test_every_status_stands_out_from_white_and_the_bands_darken_with_severity():
    """One minute of each status among healthy ones, drawn: the strip of each status (status
    changes to it are thin dotted lines of the same colour) stands out from the white figure
    by at least 2:1 in WCAG contrast ((L1 + 0.05) / (L2 + 0.05)), where the Okabe–Ito
    yellow once used for warning had 1.3:1; the bands' tints over white darken from healthy to
    warning to critical (CIE L*), so that the order reads in any colour vision."""
    fig, ax, marked = _one_minute_of_each_status()
    bottom = ax.panels[-1]
    for name in marked.values():
        (strip,) = [c for c in bottom.collections if c.get_gid() == f"{name}_strip"]
        contrast = 1.05 / (relative_luminance(strip.get_facecolor()[0]) + 0.05)
        assert contrast >= 2.0, (name, contrast)
    lightness = {}
    for name in ("healthy", "warning", "critical"):
        (band,) = [c for c in bottom.collections if c.get_gid() == f"status_{name}"]
        lightness[name] = cie_lightness(on_white(band.get_facecolor()[0]))
    assert lightness["healthy"] > lightness["warning"] > lightness["critical"], lightness
    plt.close(fig)
