"""The bottom panel's foot holds the warm-up strip and the rug of status changes in bands of
their own: the rug covered most of the sky-blue warm-up strip (``replay --window 6h --plot`` on a
recaptcha log: some 20 of its 51 pixels showed). The oracle: the pixels of the rendered figure,
read on a line through the strip across the warm-up's span, which is computed by hand from the
event times (the first event, plus the window; the silence's end, plus the window)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import Collection, LineCollection
from matplotlib.colors import to_rgb
from matplotlib.legend import Legend
from matplotlib.transforms import Bbox

from budgetlab import SLO, as_events, replay, status_spans, transitions
from budgetlab.plotting import plot_timeline

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-01-01", tz="UTC")
#: The strip's fill, by hand: Okabe-Ito sky blue #56B4E9 at 60 % on white.
FILL = tuple(1 - 0.6 + 0.6 * c for c in to_rgb("#56B4E9"))


def _flapping() -> tuple[pd.DataFrame, SLO]:
    """An event a minute for 12 h, silence for 10 h, then 12 h again (a 1 h window), a fifth of
    them failing at random under a 75 % target: the budget left swings about 20 %, across the
    critical and warning thresholds, in hundreds of status changes (a rug), many in each
    warm-up (00:00 .. 01:00, and 22:00 .. 23:00 after the silence)."""
    minutes = np.r_[np.arange(12 * 60), np.arange(22 * 60, 34 * 60)]
    ok = np.random.default_rng(5).random(len(minutes)) > 0.2
    return as_events(T0 + pd.to_timedelta(minutes, unit="min"), ok), SLO(target=0.75, window="1h")


def _strip_row(fig, ax, frac: float) -> np.ndarray:
    """The rendered RGB pixels of ``ax``'s row at ``frac`` of its height."""
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[:, :, :3] / 255.0
    y = ax.transAxes.transform((0, frac))[1]
    return img[int(round(img.shape[0] - y))]


@pytest.mark.parametrize("start,end", [("0h", "1h"), ("22h", "23h")])
def test_the_warm_up_strip_shows_over_its_whole_span(start, end):
    ev, slo = _flapping()
    states = replay(ev, slo)
    tr = transitions(states)
    assert len(tr) > 60  # a rug, not lines
    fig = plt.figure(figsize=(10, 6), dpi=100)
    ax = plot_timeline(states, slo=slo, transitions=tr, spans=status_spans(ev, slo, steps=True))
    bottom = ax.panels[-1]
    lo, hi = (mdates.date2num((T0 + pd.Timedelta(v)).tz_localize(None)) for v in (start, end))
    x0, x1 = (bottom.transData.transform((v, 0))[0] for v in (lo, hi))
    assert x1 - x0 > 15  # the span is some 17 pixels wide (1 h of 34)
    # inside the outline (0.8 pt) at each end, every pixel of a line through the strip's middle
    row = _strip_row(fig, bottom, 0.025)[int(np.ceil(x0)) + 2:int(np.floor(x1)) - 1]
    off = np.abs(row - np.array(FILL)).max(axis=1) > 0.02
    assert not off.any(), f"{off.sum()} of {len(row)} pixels are not the strip's fill"
    # the rug is still drawn, above the strip: its ticks show in the warm-up's columns
    (rug,) = [c for c in bottom.collections if c.get_gid() == "transitions"]
    assert len(rug.get_segments()) > 60
    above = _strip_row(fig, bottom, 0.075)[int(np.ceil(x0)) + 2:int(np.floor(x1)) - 1]
    assert (np.abs(above - np.array(FILL)).max(axis=1) > 0.02).any()


def _boxes(a, renderer) -> list:
    """Display boxes of what ``a`` draws: a collection's each path or segment (its own window
    extent is not reliable for a blended transform), else its window extent."""
    if isinstance(a, Collection):
        paths = (a.get_segments() if isinstance(a, LineCollection)
                 else [p.vertices for p in a.get_paths()])
        pts = [a.get_transform().transform(np.asarray(v)) for v in paths if len(v)]
        return [Bbox.from_extents(*v.min(axis=0), *v.max(axis=0)) for v in pts]
    return [a.get_window_extent(renderer)]


def test_nothing_is_drawn_over_the_strip():
    """In matplotlib's drawing order (by zorder, then as added), every artist of the bottom
    panel drawn after the warm-up strip stays out of its band (axes fraction 0 .. 0.05) over
    the strip's spans: the incidents' shading across the panel and the rug included; the lines
    stay above the band (their lowest value at 0.097 of the panel's height)."""
    ev, slo = _flapping()
    states = replay(ev, slo)
    inc = pd.DataFrame({"start": [T0 + pd.Timedelta("10min")], "end": [T0 + pd.Timedelta("2h")]})
    fig = plt.figure(figsize=(10, 6), dpi=100)
    ax = plot_timeline(states, slo=slo, transitions=transitions(states), incidents=inc,
                       spans=status_spans(ev, slo, steps=True))
    bottom = ax.panels[-1]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    (strip,) = [c for c in bottom.collections if c.get_gid() == "warmup"]
    spans = _boxes(strip, renderer)
    assert len(spans) == 2  # the first window and the refill
    band = bottom.transAxes.transform([(0, 0), (0, 0.05)])[:, 1]
    assert all(b.y1 <= band[1] + 1 for b in spans)  # its outline: half a pixel more
    order = sorted(bottom.get_children(), key=lambda a: a.get_zorder())  # stable: as added
    later = [a for a in order[order.index(strip) + 1:] if a.get_visible()
             and a not in (bottom.patch, *bottom.spines.values()) and not isinstance(a, Legend)]
    for a in later:
        if hasattr(a, "get_xydata"):  # a line: its points, not its box
            y = bottom.transData.transform(a.get_xydata())[:, 1]
            assert not (y[np.isfinite(y)] < band[1]).any(), a.get_gid()
            continue
        for box in _boxes(a, renderer):
            if box.width > 0 and any(box.overlaps(s) for s in spans):
                pytest.fail(f"{a.get_gid() or a} drawn over the warm-up strip")
