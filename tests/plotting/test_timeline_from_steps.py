"""``plot_timeline`` drawn from the window's steps alone (``states`` optional with ``spans=``):
the lines, bands, time axis and SLO come from the steps; of the per-event states only the rows
outside the steps' observation change the figure (the events at its end after a silence are
dots). The legends placed to make their room are kept when they name what is drawn. Oracle: logs
worked out by hand."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab.plotting.timeline as timeline_mod  # noqa: E402
from budgetlab import SLO, PerGroup, as_events, replay, status_spans  # noqa: E402
from budgetlab.errors import ConfigError, InputError  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402
from budgetlab.plotting.status_bands import WARMUP_LABEL  # noqa: E402
from tests.plotting.test_timeline_clock_lines import NS, at, steps  # noqa: E402
from tests.plotting.test_timeline_legends import texts  # noqa: E402

# target 0.5: half the window may fail; remaining = 1 - (failures / total) / 0.5, warning below
# 0.5, critical below 0.1, exhausted at or below 0 (the SLO's defaults)
SLO_50 = SLO(target=0.5, window="1h")


def silence_then_two():
    """Successes at 00:00 and 00:10, a failure at 00:20, silence, then a success and a failure
    at 05:00: the log's last instant, the end of the steps' observation."""
    ts = pd.to_datetime([at("0h"), at("10min"), at("20min"), at("5h"), at("5h")]).tz_localize(
        "UTC")
    return as_events(ts, [True, True, False, True, False])


# By hand (window [T - 1 h, T]; an event leaves 1 ns after ts + 1 h):
#   [00:00, 00:20)         successes only                 100 %
#   [00:20, 01:00 + 1 ns)  2 of 3                          66.7 %
#   [01:00 + 1 ns, ...)    00:00 leaves: 1 of 2            50 %
#   [01:10 + 1 ns, ...)    00:10 leaves: 0 of 1            0 %
#   [01:20 + 1 ns, 05:00)  empty: no traffic               the lines break (NaN)
#   05:00, no step holds it: 1 success of 2 after both events: 50 %, burn (0.5 / 0.5) = 1,
#   budget remaining 1 - 1 = 0 %: drawn as a dot on each panel
HAND_SUCCESS = [(at("0h"), 100.0), (at("20min"), 200 / 3), (at("1h") + NS, 50.0),
                (at("70min") + NS, 0.0), (at("80min") + NS, np.nan)]
HAND_DOT = {"success_rate_lone": 50.0, "burn_rate_lone": 1.0, "budget_remaining_lone": 0.0}


def lines_of(ax):
    return {ln.get_gid(): ln for p in ax.panels for ln in p.get_lines()}


def assert_hand_lines(ax):
    drawn, last_x = steps(lines_of(ax)["success_rate"])
    assert [x for x, _ in drawn] == [x for x, _ in HAND_SUCCESS]  # to the nanosecond
    np.testing.assert_allclose([y for _, y in drawn], [y for _, y in HAND_SUCCESS], rtol=1e-12)
    assert last_x == at("5h")  # the no-traffic NaN held to the observation's end
    # the time axis: the observation 00:00 .. 05:00, padded by 1 % of it (3 min) each side
    np.testing.assert_allclose(ax.panels[-1].get_xlim(),
                               mdates.date2num([at("-3min"), at("5h3min")]), rtol=0, atol=1e-9)


def test_without_states_the_figure_is_the_steps_and_their_slo():
    ev = silence_then_two()
    fig = plt.figure()
    ax = plot_timeline(spans=status_spans(ev, SLO_50, steps=True), ax=fig.add_subplot())
    assert_hand_lines(ax)
    assert not [g for g in lines_of(ax) if str(g).endswith("_lone")]  # no event given: no dot
    assert "lone event" not in texts(ax.panels[-1])
    assert texts(ax)[1] == "target 50%"  # the SLO of the steps (their attrs)
    bands = {str(c.get_gid()) for c in ax.panels[-1].collections}
    assert {"status_healthy", "status_warning", "status_exhausted",
            "status_no_traffic"} <= bands
    plt.close(fig)


@pytest.mark.parametrize("rows", ["every event", "the events at the end only"])
def test_the_events_after_the_steps_are_the_dots_and_nothing_else_is_read(rows):
    ev = silence_then_two()
    states = replay(ev, SLO_50)
    if rows != "every event":
        states = states[states["ts"] >= at("5h").tz_localize("UTC")].reset_index(drop=True)
        assert len(states) == 2  # the premise: the two events at 05:00
    fig = plt.figure()
    ax = plot_timeline(states, slo=SLO_50, spans=status_spans(ev, SLO_50, steps=True),
                       ax=fig.add_subplot())
    assert_hand_lines(ax)
    dots = {g: ln for g, ln in lines_of(ax).items() if str(g).endswith("_lone")}
    assert set(dots) == set(HAND_DOT)
    for gid, want in HAND_DOT.items():
        x, y = dots[gid].get_xdata(), dots[gid].get_ydata()
        assert pd.to_datetime(np.asarray(x)).tolist() == [at("5h")]
        assert np.asarray(y, dtype=float).tolist() == pytest.approx([want])
    assert "lone event" in texts(ax.panels[-1])
    plt.close(fig)


@pytest.mark.parametrize("states", [None, "no row"])
def test_a_per_group_slo_is_read_from_the_steps_group(states):
    """Group b's own target (50 %, not a's 90 %), from the keys of its steps when no state row
    names the group."""
    ts = pd.to_datetime([at("0h"), at("10min"), at("20min")]).tz_localize("UTC")
    ev = as_events(ts, [True, True, False], groups={"g": ["a", "b", "b"]})
    per = PerGroup({"a": 0.9, "b": 0.5}, base=SLO(window="1h"))
    spans = status_spans(ev, per, by="g", steps=True)
    mine = spans[spans["g"] == "b"].reset_index(drop=True)
    given = None
    if states is not None:
        given = replay(ev, per, by="g").iloc[:0]
        assert "slo" in given.attrs and len(given) == 0  # the premise
    fig = plt.figure()
    ax = plot_timeline(given, spans=mine, ax=fig.add_subplot())
    assert texts(ax)[1] == "target 50%"
    plt.close(fig)


def test_nothing_to_draw_and_several_groups_are_refused():
    ev = silence_then_two()
    spans = status_spans(ev, SLO_50, steps=True)
    with pytest.raises(ConfigError, match=r"spans= with rows"):
        plot_timeline(slo=SLO_50)
    with pytest.raises(ConfigError, match=r"spans= with rows"):
        plot_timeline(slo=SLO_50, spans=spans.iloc[:0])
    two = as_events(ev["ts"], ev["ok"], groups={"g": ["a", "a", "b", "b", "b"]})
    with pytest.raises(InputError, match=r"spans holds several groups \('g' varies\)"):
        plot_timeline(slo=SLO_50, spans=status_spans(two, SLO_50, by="g", steps=True))
    plt.close("all")


def counted_placements(monkeypatch):
    calls = []
    real = timeline_mod.place_legends

    def spy(panels, entries):
        calls.append([h.get_label() for h in entries[-1]])
        return real(panels, entries)

    monkeypatch.setattr(timeline_mod, "place_legends", spy)
    return calls


def test_legends_placed_once_when_they_name_what_is_drawn(monkeypatch):
    calls = counted_placements(monkeypatch)
    ev = silence_then_two()
    fig = plt.figure()
    ax = plot_timeline(spans=status_spans(ev, SLO_50, steps=True), ax=fig.add_subplot())
    assert len(calls) == 1
    assert texts(ax.panels[-1]) == ["budget remaining (%)", "thresholds 50%, 10%",
                                    "no traffic (window empty)", WARMUP_LABEL, "healthy",
                                    "warning (< 50%)", "exhausted (≤ 0)"]
    # the entries handed on (merge_legends reads them) are those of the legends shown
    assert [h.get_label() for h in ax.legend_entries[-1]] == texts(ax.panels[-1])
    plt.close(fig)


def test_a_status_held_for_one_instant_is_named_by_no_legend(monkeypatch):
    """A success at 00:00, failures at 01:00 and 01:30, target 0.4 (the budget is 0.6 of the
    window's events), 1 h window: healthy until 01:00; at 01:00 for one instant warning (1
    failure of 2: 1 - 0.5 / 0.6 = 0.17 left; the 00:00 success is at the cut-off), exhausted
    from 1 ns later (1 of 1). The blip is drawn as the status before it: the legends placed
    from the steps' statuses named warning, so they are placed again without it."""
    calls = counted_placements(monkeypatch)
    ts = pd.to_datetime([at("0h"), at("1h"), at("90min")]).tz_localize("UTC")
    ev = as_events(ts, [True, False, False])
    slo = SLO(target=0.4, window="1h")
    spans = status_spans(ev, slo, steps=True)
    assert spans.loc[spans["instant"], "status"].astype(str).tolist() == ["warning"]  # premise
    fig = plt.figure()
    ax = plot_timeline(spans=spans, ax=fig.add_subplot())
    assert len(calls) == 2 and "warning (< 50%)" in calls[0]
    assert texts(ax.panels[-1]) == ["budget remaining (%)", "thresholds 50%, 10%", WARMUP_LABEL,
                                    "healthy", "exhausted (≤ 0)"]
    plt.close(fig)
