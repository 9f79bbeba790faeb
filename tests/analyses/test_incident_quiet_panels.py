"""Stop 59: the incident figure's panels without a failure, or without an alert, say so legibly.

* A window whose events hold no failure bucket at all (``over_time`` empty) had its bucket panel
  say "no failures in these bins" whatever the bins held: over a silence it now rules the bins
  without events as ``plot_buckets`` does ("no traffic (bin empty)", gid ``no_traffic``) and says
  "no failures in the bins with events", the words of ``plot_buckets``.
* The words drawn in a panel ("no alert fired", the bucket panel's) sat on the grey rules of a
  silence; they stand on a white box.

The log, by hand: one event a minute 2026-01-01 07:00 .. 13:59, none failing (``as_events``
without buckets: no failure bucket in the log); the incident is [09:00, 12:00), context 2 h: the
window [07:00, 14:00) is cut in 5 min bins (7 h / 5 min = 84 bins, the finest usual width under
120 bins). Log ``silent``: no event 08:00 .. 13:00, a silence covering the whole incident: the
bins 08:00 .. 13:00 are empty, those of 07:00 .. 08:00 and 13:00 .. 13:59 hold an event a minute.
Log ``busy``: every bin holds 5 events.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from budgetlab import SLO, AlertPolicy, as_events, incident_report  # noqa: E402


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-01-01 {hhmm}", tz="UTC")


def figure(quiet: tuple[str, str] | None):
    ts = pd.date_range(at("07:00"), at("13:59"), freq="1min")
    if quiet is not None:
        ts = ts[(ts < at(quiet[0])) | (ts >= at(quiet[1]))]
    rep = incident_report(as_events(ts, np.ones(len(ts), bool)), SLO(target=0.9, window="1h"),
                          "2026-01-01 09:00", "2026-01-01 12:00", context="2h",
                          policy=AlertPolicy.single_window("1h", 5, severity="page"))
    assert len(rep.over_time) == 0  # no failure bucket: the panel is not plot_buckets'
    return rep.plot()


def bucket_panel(fig):
    """The lowest panel, the one that names the time axis (the timeline's panels come later in
    ``fig.axes``)."""
    (ax,) = [a for a in fig.axes if a.get_xlabel() == "time (UTC)"]
    return ax


def white_box(text) -> bool:
    box = text.get_bbox_patch()
    return box is not None and to_rgba(box.get_facecolor())[:3] == (1.0, 1.0, 1.0)


def test_a_silence_over_the_incident_is_ruled_and_not_called_no_failures():
    fig = figure(("08:00", "13:00"))
    ax = bucket_panel(fig)
    words = [t for t in ax.texts if t.get_gid() == "no_failures"]
    assert [t.get_text() for t in words] == ["no failures in the bins with events"]
    ruled = [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert len(ruled) == 1
    xs = np.concatenate([p.vertices[:, 0] for p in ruled[0].get_paths()])
    assert xs.min() == pytest.approx(mdates.date2num(at("08:00").tz_convert(None)), abs=1e-6)
    assert xs.max() == pytest.approx(mdates.date2num(at("13:00").tz_convert(None)), abs=1e-6)
    legend = ax.get_legend()
    assert legend is not None
    assert "no traffic (bin empty)" in [t.get_text() for t in legend.get_texts()]
    assert white_box(words[0])  # legible over the rules
    plt.close(fig)


def test_events_in_every_bin_without_a_failure_say_no_failures_in_these_bins_on_a_box():
    fig = figure(None)
    ax = bucket_panel(fig)
    words = [t for t in ax.texts if t.get_gid() == "no_failures"]
    assert [t.get_text() for t in words] == ["no failures in these bins"]
    assert not [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert white_box(words[0])
    plt.close(fig)


def test_no_alert_fired_stands_on_a_white_box_over_a_silence_in_the_window():
    # silent 09:30 .. 11:30: page_1h's row is ruled where its 1 h window is empty, 10:30 .. 11:30,
    # under the panel's middle, where "no alert fired" is written
    fig = figure(("09:30", "11:30"))
    (alert_ax,) = [a for a in fig.axes if a.get_ylabel() == "alert\ntier"]
    said = [t for t in alert_ax.texts if t.get_gid() == "no_alert"]
    assert [t.get_text() for t in said] == ["no alert fired"]
    assert white_box(said[0])
    plt.close(fig)
