"""plot_window_comparison says why a detection or recovery time is missing (NaT: a gap in its
line) at its window: none detected, unseen (no traffic), no incident, none recovered. Tables
built by hand; the reasons are written out in each test from the rows' counts."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")


def table(**incident_columns) -> pd.DataFrame:
    """A compare_windows table by hand: GET and POST, windows 1 h, 6 h and 24 h (rows GET 1 h,
    6 h, 24 h, then POST's), 100 evaluated hours each, plus ``incident_columns``."""
    t = pd.DataFrame({"method": ["GET"] * 3 + ["POST"] * 3, "window": ["1h", "6h", "24h"] * 2,
                      "min_dwell": pd.Timedelta(0), "hours": 100.0,
                      "transitions_per_day": [6.0, 2.0, 0.5, 4.0, 1.0, 0.2],
                      "share_exhausted": 0.0, **incident_columns})
    t.attrs["by"] = ["method"]
    return t


def said(ax) -> dict[str, str]:
    """The words of each no_time mark on both panels, by gid, whitespace made single."""
    return {str(t.get_gid()): " ".join(t.get_text().split())
            for p in (ax, ax.y2_ax) for t in p.texts
            if str(t.get_gid()).startswith("no_time:")}


def minutes(*values):
    return pd.to_timedelta([None if v is None else f"{v}min" for v in values])


def note(ax) -> str:
    """The words of the note of missing times under the x label, whitespace made single."""
    found = [t for t in ax.y2_ax.texts if t.get_gid() == "no_time_label"]
    return " ".join(found[0].get_text().split()) if found else ""


def test_each_missing_detection_median_says_why_naming_the_series():
    t = table(incidents=[2, 2, 2, 0, 2, 2], detected=[2, 0, 2, 0, 0, 1],
              missed=[0, 2, 0, 0, 0, 1], unseen=[0, 0, 0, 0, 2, 0],
              detection_median=minutes(5, None, 30, None, None, 40))
    ax = plot_window_comparison(t)
    # by hand: GET 6 h detected none of 2 (2 missed); POST 1 h had no incident (GET's mark is
    # drawn there: said in the note under the x label); POST 6 h: both incidents unseen (no
    # traffic). 24 h: both have a median, nothing to say
    assert said(ax) == {"no_time:detection_median:6h":
                        "GET: none detected POST: unseen (no traffic)"}
    assert note(ax) == "median detection delay, no mark: at 1 h POST: no incident"
    # the gaps stay gaps: no point drawn where the words are
    (get,) = [ln for ln in ax.y2_ax.lines if ln.get_gid() == "detection_median:GET"]
    assert pd.isna(get.get_ydata()[1])


def test_words_alone_when_every_series_lacks_the_time():
    t = table(incidents=[2] * 6, detected=[2, 0, 2, 2, 0, 2], missed=[0, 2, 0, 0, 2, 0],
              detection_median=minutes(5, None, 30, 3, None, 40))
    assert said(plot_window_comparison(t)) == {"no_time:detection_median:6h": "none detected"}


def test_without_the_counts_a_missing_detection_reads_none_detected():
    # the table's own NaT rule ("NaT if none detected"), no incidents/detected/missed columns
    t = table(detection_median=minutes(5, 7, None, 3, 4, 6))
    ax = plot_window_comparison(t)
    assert said(ax) == {}
    assert note(ax) == "median detection delay, no mark: at 24 h GET: none detected"


def test_recovery_time_missing_because_none_recovered():
    # GET 1 h: 2 detected, neither recovered when the log ends; POST 1 h: none detected
    t = table(incidents=[2] * 6, detected=[2, 2, 2, 0, 2, 2], missed=[0, 0, 0, 2, 0, 0],
              recovery_median=minutes(None, 10, 20, None, 30, 40))
    ax = plot_window_comparison(t, y2="recovery_median")
    # in the order of REASONS: none detected first; every series lacks it, in the panel
    assert said(ax) == {"no_time:recovery_median:1h": "POST: none detected GET: none recovered"}
    assert note(ax) == ""


def test_nothing_said_when_every_time_is_there_or_the_column_is_not_a_time():
    t = table(incidents=[2] * 6, detected=[2] * 6, missed=[0] * 6,
              detection_median=minutes(5, 6, 7, 8, 9, 10))
    assert said(plot_window_comparison(t)) == {}
    # share_exhausted below: not a detection or recovery time, nothing to say
    t = table(detection_median=minutes(None, None, None, None, None, None))
    assert said(plot_window_comparison(t, y2="share_exhausted")) == {}


def test_words_of_a_window_with_marks_cover_none_of_them():
    # GET 1 h has a median of 20 min, about mid-height of a 0 .. 40 panel, where the words of
    # POST 1 h (no incident) were placed: every mark drawn lies outside every box of words
    t = table(incidents=[2, 2, 2, 0, 2, 2], detected=[2, 0, 2, 0, 0, 1],
              missed=[0, 2, 0, 0, 0, 1], unseen=[0, 0, 0, 0, 2, 0],
              detection_median=minutes(20, None, 40, None, None, 40))
    fig = plt.figure()
    ax = plot_window_comparison(t, ax=fig.gca())
    fig.canvas.draw()
    boxes = [x.get_window_extent() for p in (ax, ax.y2_ax) for x in p.texts
             if str(x.get_gid()).startswith("no_time")]
    assert len(boxes) == 2  # the 6 h words in the panel and the note of 1 h
    marks = [pt for p in (ax, ax.y2_ax) for ln in p.lines
             for pt in ln.get_transform().transform(ln.get_xydata())
             if np.isfinite(pt).all()]
    assert len(marks) == 6 + 3  # every row above, the 3 medians below (GET 1 h, 24 h; POST 24 h)
    for box in boxes:
        assert not [pt for pt in marks if box.contains(*pt)]
    (words,) = [x for x in ax.y2_ax.texts if x.get_gid() == "no_time_label"]
    assert words.get_window_extent().y1 < ax.y2_ax.get_window_extent().y0  # under the panel


TEN = ["1h", "2h", "3h", "6h", "12h", "24h", "2d", "3d", "7d", "30d"]


def ten_windows() -> pd.DataFrame:
    """GET, HEAD and POST under the ten windows 1 h .. 30 d, 2 incidents each, all detected
    (medians 5, 10, ... 50 min over the windows) but: at 2 h and 3 d none detected (2 missed),
    at 3 h and 7 d no incident counted, at 6 h both unseen (no traffic): no series has a mark
    there. Under 12 h and 24 h every series has 10 evaluated hours (under a day): their rates
    per day are withheld, a hatched band on each."""
    n, w = 3, len(TEN)
    incidents, detected, missed = np.full(n * w, 2), np.full(n * w, 2), np.zeros(n * w, int)
    median = np.tile(np.arange(1, w + 1) * 5.0, n)
    for x, why in ((1, "missed"), (7, "missed"), (2, "none"), (8, "none"), (3, "unseen")):
        rows = np.arange(n) * w + x
        median[rows] = np.nan
        detected[rows] = 0
        incidents[rows] = 0 if why == "none" else 2
        missed[rows] = 2 if why == "missed" else 0
    t = pd.DataFrame({"method": np.repeat(["GET", "HEAD", "POST"], w),
                      "window": pd.Categorical(TEN * n, categories=TEN),
                      "min_dwell": pd.Timedelta(0),
                      "hours": np.tile([10.0 if win in ("12h", "24h") else 600.0 for win in TEN],
                                       n),
                      "transitions_per_day": np.tile(np.linspace(20.0, 2.0, w), n)
                      + np.repeat([0.0, 1.0, 2.0], w),
                      "share_exhausted": 0.0, "incidents": incidents, "detected": detected,
                      "missed": missed, "detection_median": pd.to_timedelta(median, unit="min")})
    t.attrs["by"] = ["method"]
    return t


def mark_boxes(panel, r):
    """Each drawn mark's box in pixels: its centre, plus half its marker size on each side."""
    from matplotlib.transforms import Bbox

    boxes = []
    for ln in panel.lines:
        half = ln.get_markersize() * panel.figure.dpi / 72 / 2
        for x, y in ln.get_transform().transform(ln.get_xydata()):
            if np.isfinite([x, y]).all():
                boxes.append(Bbox.from_extents(x - half, y - half, x + half, y + half))
    return boxes


@pytest.mark.parametrize("size", [(6.4, 4.8), (9, 6)])
def test_words_at_ten_windows_overlap_no_other_words_and_no_mark(size):
    """Ten windows, five of them (2 h, 3 h, 6 h side by side; 3 d, 7 d) without a detection
    time in any series, two (12 h, 24 h) with every rate withheld: the words placed at each
    ("none detected", "no incident", "unseen (no traffic)", "under 24 h evaluated") were as
    wide as two windows and ran into each other. Drawn: no two boxes of words in a panel
    overlap, none overlaps a mark, and each reason is said, in the panel at its window or, keyed
    there, in the note under the x label."""
    fig = plt.figure(figsize=size)
    ax = plot_window_comparison(ten_windows(), ax=fig.gca())
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    marks_drawn = 0
    for panel in (ax, ax.y2_ax):
        words = [t.get_window_extent(r) for t in panel.texts
                 if str(t.get_gid()).startswith(("no_time:", "thin_label:"))]
        marks = mark_boxes(panel, r)
        marks_drawn += len(marks)
        for i, box in enumerate(words):
            assert not [b for b in words[i + 1:] if box.overlaps(b)]
            assert not [m for m in marks if box.overlaps(m)]
    assert marks_drawn == 3 * 8 + 3 * 5  # rates: 8 windows not withheld; medians: 5 windows
    # by hand, from the rows' counts
    reasons = {"2h": "none detected", "3h": "no incident", "6h": "unseen (no traffic)",
               "3d": "none detected", "7d": "no incident"}
    in_panel, text = said(ax), note(ax)
    for window, reason in reasons.items():
        here = in_panel.get(f"no_time:detection_median:{window}", "")
        words = f"at {window.replace('h', ' h').replace('d', ' d')} {reason}"
        assert here == reason or (f"{here} {words}" in text), (window, here, text)
    for window in ("12h", "24h"):  # the hatched band stays; its words are the legend's key's
        assert [p for p in ax.patches if p.get_gid() == f"thin:transitions_per_day:{window}"]
    assert "too thin for a verdict: not drawn" in [t.get_text()
                                                 for t in ax.get_legend().get_texts()]


def test_at_ten_windows_on_a_default_figure_the_words_are_keyed_in_window_order():
    """On a default figure (6.4 x 4.8 in) a window is some 36 pt wide, "none detected" at 8 pt
    some 55: every window without a mark has a key, (a) to (e) in window order, and the note
    says them; the band's words are taken out (the legend's hatched key says them)."""
    ax = plot_window_comparison(ten_windows(), ax=plt.figure().gca())
    assert said(ax) == {"no_time:detection_median:2h": "(a)", "no_time:detection_median:3h": "(b)",
                        "no_time:detection_median:6h": "(c)", "no_time:detection_median:3d": "(d)",
                        "no_time:detection_median:7d": "(e)"}
    assert note(ax) == ("median detection delay, no mark: (a) at 2 h none detected; (b) at 3 h no "
                        "incident; (c) at 6 h unseen (no traffic); (d) at 3 d none detected; "
                        "(e) at 7 d no incident")
    assert not [t for t in ax.texts if str(t.get_gid()).startswith("thin_label:")]
