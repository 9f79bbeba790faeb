"""A hand-built log where a group too thin for a verdict decides the alert policy: the tests of
budgetlab.analyses.choices.policy_thin and notebook 02's section 4 (stop 60).

Group ``big``: one event a minute, 30 s past it, for 7 days from 2026-03-02 00:00 UTC (10,080
events; under a target of 90 % 1,008 expected failures). It fails for the 30 minutes of the
incident ``I1`` (day 3, 00:00-00:30) and for 10 minutes on day 5 from 10:00, outside any
incident. Group ``tiny``: 20 events (2 expected failures under 90 %: too thin for a verdict): two
failures at day 1 12:00, one at day 2 12:00, and 17 successes at day 6 12:00, a minute apart.

A single 1 h window firing above burn 1 (an error ratio above 0.1 under 90 %), by hand:

* ``big``: the incident's failures reach 7 of 60 in the window after 7 minutes (one page that
  overlaps the incident: true); the 10 failures of day 5 reach 7 of 60 too (one false page);
* ``tiny``: each failing minute fills its window with failures only (ratio 1): one page on day 1
  and one on day 2, a day apart, both false.

All groups: 4 pages, 3 false. The observed time of the all-groups row: from the grid's start plus
the long window (01:00 of day 0) to the grid's end (day 7 00:00), ``big`` holding an event in
every window: 167 h, 167/168 of a week. So 3 false pages are 3 * 168 / 167 = 3.018 a week (over
a limit of 2), and without ``tiny`` 1 false page is 168 / 167 = 1.006 a week.
"""

from __future__ import annotations

import pandas as pd

from budgetlab import as_events

DAY0 = pd.Timestamp("2026-03-02", tz="UTC")
#: Hand-counted weeks of observed time: 167 h.
WEEKS = 167 / 168


def log() -> pd.DataFrame:
    """The events of both groups (canonical, ``g`` the group column)."""
    minutes = pd.date_range(DAY0, periods=7 * 1440, freq="1min") + pd.Timedelta("30s")
    incident = (minutes >= DAY0 + pd.Timedelta("3D")) & (
        minutes < DAY0 + pd.Timedelta("3D30min"))
    outside = (minutes >= DAY0 + pd.Timedelta("5D10h")) & (
        minutes < DAY0 + pd.Timedelta("5D10h10min"))
    big_ok = ~(incident | outside)
    tiny_ts = ([DAY0 + pd.Timedelta("1D12h10s"), DAY0 + pd.Timedelta("1D12h20s"),
                DAY0 + pd.Timedelta("2D12h10s")]
               + [DAY0 + pd.Timedelta("6D12h") + pd.Timedelta(minutes=i) for i in range(17)])
    tiny_ok = [False, False, False] + [True] * 17
    ts = list(minutes) + tiny_ts
    ok = list(big_ok) + tiny_ok
    bucket = ["success" if x else "solve_error" for x in ok]
    return as_events(ts, ok, bucket, groups={"g": ["big"] * len(minutes) + ["tiny"] * 20})


def incidents() -> pd.DataFrame:
    """The one labelled incident, on every group."""
    return pd.DataFrame({"incident_id": ["I1"], "scope": ["*"],
                         "start": [DAY0 + pd.Timedelta("3D")],
                         "end": [DAY0 + pd.Timedelta("3D30min")]})


def capture_policy_figure(monkeypatch) -> dict:
    """What the command's policy figure drew, filled when it is drawn: ``bars`` (each bar
    container's label: its bars' hatch and alpha) and ``keys`` (the legend's texts)."""
    import budgetlab.cli.alert_figure as af

    drawn: dict = {}
    real = af.policy_figure

    def keep(*args, **kw):
        fig, note = real(*args, **kw)
        ax = fig.axes[0]
        drawn["bars"] = {c.get_label(): [(b.get_hatch(), b.get_alpha()) for b in c]
                         for c in ax.containers}
        drawn["keys"] = [t.get_text() for t in ax.get_legend().get_texts()]
        return fig, note

    monkeypatch.setattr(af, "policy_figure", keep)
    return drawn


def assert_thin_bars_drawn(drawn: dict) -> None:
    """Hand rule of the figure: tiny's two page_1h bars light and hatched, big's two plain, the
    legend keying the thin group as left out of the scores."""
    tiny, big = drawn["bars"]["tiny · page_1h"], drawn["bars"]["big · page_1h"]
    assert len(tiny) == 2 and all(h and a < 1 for h, a in tiny)
    assert len(big) == 2 and not any(h for h, _ in big)
    assert any("too thin for a verdict" in t and "left out of the scores" in t
               for t in drawn["keys"])

