"""recalibrate on a group with one lone event: its window holds it through ``ts + window``, the
instant its warm-up closes, and leaves 1 ns later: one instant, no evaluated time, no evidence.
The group is withheld in words: no estimate in the summary, no figure in ``candidates`` or
``distribution``, nothing drawn by plot_recalibration, which names it in the figure instead."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import recalibrate
from budgetlab.analyses.recalibration.tables import ESTIMATES
from budgetlab.plotting import plot_recalibration


@pytest.fixture(autouse=True)
def _close():
    """Every figure closed after each test, also after one that fails."""
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def lone():
    """Group ``a``: a success every 10 min for two days (288 events); group ``b``: one failure at
    12:00 on the first day."""
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(288) * 10, unit="min")
    a = pd.DataFrame({"ts": ts, "ok": True, "g": "a"})
    b = pd.DataFrame({"ts": [pd.Timestamp("2026-01-01 12:00:30", tz="UTC")], "ok": [False],
                      "g": ["b"]})
    ev = pd.concat([a, b]).sort_values("ts", kind="stable").reset_index(drop=True)
    ev["ts"] = ev["ts"].astype("datetime64[ns, UTC]")
    ev["g"] = ev["g"].astype("category")
    # max_share=0.05: under 1 % the window's rule withholds a's recommendation (g63recal): one
    # failure in its 6-event 1 h window puts it at 83.3 %, EXHAUSTED under its capped 0.96 (1 -
    # 10 / 282 evaluated events, rounded down), for up to 1 h of its 47 h (2.1 % > 1 %)
    return recalibrate(ev, by="g", window="1h", n_boot=20, max_share=0.05)


def test_the_lone_event_group_is_withheld_in_words_with_its_counts(lone):
    s = lone.summary.set_index("g")
    b = s.loc["b"]
    # its counts stay: no event a full window after its stretch began; no evaluated time (the
    # window held the event after its warm-up at one instant only: it said 1 ns and 1 day with
    # traffic)
    assert (b["events"], b["failures"], b["traffic_days"]) == (0, 0, 0)
    assert b["hours"] == 0
    # its one event is its stretch's warm-up: said so, not as "too few events" (0 expected)
    assert b["verdict_reason"] == (
        "0 events in the evaluated span: the group's one event fell within a warm-up (the first "
        "1 h of a stretch of traffic, which only fills the window); no verdict and no "
        "recommendation without events after it")
    assert b[list(ESTIMATES)].isna().all()
    assert {"p1", "p5", "p10", "p50", "events_per_day", "window_events"} <= set(ESTIMATES)
    assert np.isnan(b["recommended_target"])
    # group a: all successes, so the rolling rate is 1 all the time: every quantile is 1
    assert s.loc["a", ["p1", "p5", "p10", "p50", "success_rate"]].tolist() == [1.0] * 5


def test_no_figure_of_the_withheld_group_in_candidates_or_distribution(lone):
    d = lone.distribution
    assert d.loc[d["g"] == "b", "success_rate"].isna().all()
    assert (d.loc[d["g"] == "a", "success_rate"] == 1.0).all()
    c = lone.candidates
    figures = ["share_healthy", "share_warning", "share_critical", "share_exhausted",
               "hours_exhausted", "transitions_per_day", "pages_per_day"]
    assert c.loc[c["g"] == "b", figures].isna().all().all()
    assert c.loc[c["g"] == "a", figures].notna().all().all()


def test_the_plot_leaves_the_withheld_group_out_and_says_so(lone):
    # the axes of a figure of its own: a figure left open by another test is not drawn on
    ax = plot_recalibration(lone, ax=plt.subplots()[1])
    gids = [a.get_gid() for a in [*ax.lines, *ax.patches, *ax.collections]]
    assert "distribution:a" in gids and not any(str(g).endswith(":b") for g in gids)
    texts = [t.get_text() for t in ax.texts if t.get_gid() == "left_out"]
    assert texts == ["not drawn (evidence too thin for a recommendation; the summary says why): b"]
    # the x axis spans group a's rates only (all 1.0) and the candidates, never 0 %
    assert ax.get_xlim()[0] > 50


def test_the_plot_names_a_few_withheld_groups_then_counts_the_rest():
    # group a as above; 25 groups of one lone failure each (l00 .. l24, a minute apart on the
    # first day), all withheld: the note names the first six and counts the 19 others, never
    # all 25 (5,000 thin sitekeys covered the plot with their names)
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(288) * 10, unit="min")
    a = pd.DataFrame({"ts": ts, "ok": True, "g": "a"})
    lone_ts = pd.Timestamp("2026-01-01 12:00:30", tz="UTC") + pd.to_timedelta(np.arange(25),
                                                                              unit="min")
    many = pd.DataFrame({"ts": lone_ts, "ok": False, "g": [f"l{i:02d}" for i in range(25)]})
    ev = pd.concat([a, many]).sort_values("ts", kind="stable").reset_index(drop=True)
    ev["ts"] = ev["ts"].astype("datetime64[ns, UTC]")
    ev["g"] = ev["g"].astype("category")
    ax = plot_recalibration(recalibrate(ev, by="g", window="1h", n_boot=0, max_share=0.05),
                            ax=plt.subplots()[1])
    texts = [t.get_text() for t in ax.texts if t.get_gid() == "left_out"]
    assert texts == ["not drawn (evidence too thin for a recommendation; the summary says why): "
                     "l00, l01, l02, l03, l04, l05 and 19 more"]
