"""The timeline's legends name what is drawn, in any group's panels (one set for several groups),
and a short exhausted stretch is marked above the lines. Checked through the artists: the legend
texts against the statuses worked out by hand for hand-built logs, the exhausted strip's data
against the stretch's times."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from budgetlab import SLO, as_events, replay, status_spans, transitions  # noqa: E402
from budgetlab.cli import main  # noqa: E402
from budgetlab.plotting import STATUS_COLORS, plot_timeline  # noqa: E402
from budgetlab.plotting._pixels import pixel_columns  # noqa: E402
from budgetlab.plotting.status_bands import WARMUP_LABEL  # noqa: E402
from budgetlab.plotting.timeline_marks import merge_legends  # noqa: E402
from tests.plotting.hand_spans import with_figures  # noqa: E402

T0 = pd.Timestamp("2026-03-02", tz="UTC")
SLO_1H = SLO(target=0.9, window="1h")
# the budget panel's line and its dashed thresholds (SLO's defaults: warning 0.5, critical 0.1)
BUDGET, THRESHOLDS = "budget remaining (%)", "thresholds 50%, 10%"
WARMUP = WARMUP_LABEL


def texts(panel):
    legend = panel.get_legend()
    return [] if legend is None else [t.get_text() for t in legend.get_texts()]


def two_groups():
    """Group a: an event every 10 min from 00:00 to 06:00, the one at 03:00 failed (in a 1 h
    window of 7 events the budget is 0.7 failures: exhausted until the failure leaves at 04:00,
    healthy otherwise; never silent). Group b: every 10 min from 00:00 to 01:00 and from 05:00
    to 06:00, all good: healthy, and no traffic from 02:00 (its last event left) to 05:00."""
    a = T0 + pd.to_timedelta(np.arange(0, 361, 10), unit="min")
    b = T0 + pd.to_timedelta(np.r_[np.arange(0, 61, 10), np.arange(300, 361, 10)], unit="min")
    ts = a.append(b)
    ok = np.r_[a != T0 + pd.Timedelta("3h"), np.ones(len(b), dtype=bool)]
    return as_events(ts, ok, groups={"g": ["a"] * len(a) + ["b"] * len(b)})


def test_the_legend_names_what_any_group_draws_and_only_that():
    ev = two_groups()
    states, spans = replay(ev, SLO_1H, by="g"), status_spans(ev, SLO_1H, by="g", steps=True)
    fig = plt.figure(figsize=(10, 8))
    tops = []
    for i, g in enumerate(["a", "b"]):
        st = states[states["g"] == g].drop(columns="g").reset_index(drop=True)
        sp = spans[spans["g"] == g].reset_index(drop=True)
        tops.append(plot_timeline(st, slo=SLO_1H, spans=sp, transitions=transitions(st),
                                  ax=fig.add_subplot(2, 1, i + 1)))
    # each alone names what it draws: a no silence, b no exhausted band and no status change
    # (each group's first window is its warm-up)
    assert texts(tops[0].panels[-1]) == [BUDGET, THRESHOLDS, "2 status changes at events",
                                         WARMUP, "healthy", "exhausted (≤ 0)"]
    assert texts(tops[1].panels[-1]) == [BUDGET, THRESHOLDS, "no traffic (window empty)",
                                         WARMUP, "healthy"]
    merge_legends(tops)
    assert texts(tops[0].panels[-1]) == [BUDGET, THRESHOLDS, "status changes at events",
                                         "no traffic (window empty)", WARMUP, "healthy",
                                         "exhausted (≤ 0)"]
    assert texts(tops[0]) == ["success rate in window (%)", "target 90%"]
    assert texts(tops[0].burn_ax) == ["burn rate", "1× = the allowed pace"]
    assert all(p.get_legend() is None for p in tops[1].panels)
    plt.close(fig)


def test_a_labelled_bar_drawn_before_keeps_its_legend_entry():
    """A timeline drawn on axes that already hold a labelled bar chart (plot_timeline draws on
    ``plt.gca()`` by default): the bars' container, no Artist and without a gid, is named in the
    top panel's legend after the timeline's own lines (it failed with an AttributeError)."""
    ev = two_groups()
    st = replay(ev[ev["g"] == "a"].drop(columns="g"), SLO_1H)
    fig, ax = plt.subplots(figsize=(10, 6))
    ax.bar([0.0], [1.0], label="my bars")
    top = plot_timeline(st, ax=ax)
    assert texts(top) == ["success rate in window (%)", "target 90%", "my bars"]
    assert texts(top.burn_ax) == ["burn rate", "1× = the allowed pace"]
    plt.close(fig)


def test_each_groups_own_target_is_one_legend_entry():
    """Groups a and b of :func:`two_groups` drawn with their own targets (90 % and 80 %, as
    ``--target a=0.9,b=0.8`` gives) and thresholds (b: warning at 40 %): the merged legend names
    the dashed target once, with both values in the drawings' order, not one "target" per
    group beside the first group's panel; the thresholds likewise; what is the same for both
    (the 1x line, the critical threshold) once, as it was."""
    ev = two_groups()
    slos = {"a": SLO_1H, "b": SLO(target=0.8, window="1h", warning=0.4)}
    states = replay(ev, SLO_1H, by="g")
    fig = plt.figure(figsize=(10, 8))
    tops = []
    for i, g in enumerate(["a", "b"]):
        st = states[states["g"] == g].drop(columns="g").reset_index(drop=True)
        tops.append(plot_timeline(st, slo=slos[g], ax=fig.add_subplot(2, 1, i + 1)))
    merge_legends(tops)
    assert texts(tops[0]) == ["success rate in window (%)",
                              "target 90% / 80%\n(per group, in order)"]
    assert texts(tops[0].burn_ax) == ["burn rate", "1× = the allowed pace"]
    assert texts(tops[0].panels[-1])[:2] == [BUDGET,
                                             "thresholds 50% / 40%, 10%\n(per group, in order)"]
    # the drawn target lines keep their own labels
    assert [ln.get_label() for top in tops for ln in top.get_lines()
            if ln.get_gid() == "target"] == ["target 90%", "target 80%"]
    plt.close(fig)


def test_four_targets_in_one_entry_fit_in_the_cli_figure():
    """Four groups with four targets in the figure ``replay --plot`` draws (four is the most it
    draws): one target entry naming the four, inside the figure, not cut at its edge."""
    from budgetlab.cli.drawn import MAX_DRAWN
    from budgetlab.cli.replay import _timeline_figure

    ev = two_groups()
    st = replay(ev, SLO_1H, by="g")
    st = st[st["g"] == "a"].drop(columns="g").reset_index(drop=True)
    targets = [0.935, 0.975, 0.885, 0.9125][:MAX_DRAWN]
    fig, axes = _timeline_figure(len(targets), False)
    tops = [plot_timeline(st, slo=SLO(target=t, window="1h"), ax=ax)
            for t, ax in zip(targets, axes, strict=True)]
    merge_legends(tops)
    assert texts(tops[0])[1] == "target 93.5% / 97.5% / 88.5% / 91.25%\n(per group, in order)"
    fig.canvas.draw()
    assert tops[0].get_legend().get_window_extent().x1 <= fig.bbox.width
    plt.close(fig)


def test_replay_plot_by_group_names_a_silence_only_a_later_group_has(tmp_path, monkeypatch):
    """The CLI's figure (``--by g --plot``): group a is drawn first (the most failures), only
    group b is ever silent; the legend beside a's panels names no traffic all the same."""
    import budgetlab._util.figures as figures

    ev = two_groups()
    log = tmp_path / "two.csv"
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ev["ok"], "success", "timeout"),
                  "g": ev["g"].astype(str)}).to_csv(log, index=False)
    seen = []
    real = figures.figure_bytes

    def keep(fig, path, **kw):
        seen.append([[texts(ax) for ax in fig.axes]])
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "figure_bytes", keep)
    assert main(["replay", str(log), "--by", "g", "--target", "0.9", "--window", "1h",
                 "--plot", str(tmp_path / "t.png")]) == 0
    ((legends,),) = seen
    drawn = [t for t in legends if t]
    assert len(drawn) == 3  # one set: the first group's three panels
    assert drawn[-1] == [BUDGET, THRESHOLDS, "status changes at events",
                         "no traffic (window empty)", WARMUP, "healthy", "exhausted (≤ 0)"]


def minute_spans(n, exhausted_at):
    """``n`` one-minute healthy spans from T0, the one starting ``exhausted_at`` minutes in
    exhausted."""
    start = T0 + pd.to_timedelta(np.arange(n), unit="min")
    status = np.where(np.arange(n) == exhausted_at, "exhausted", "healthy")
    return with_figures(pd.DataFrame({"start": start, "end": start + pd.Timedelta("1min"),
                                      "status": status}))


def strip_of(ax):
    (strip,) = [c for c in ax.panels[-1].collections if c.get_gid() == "exhausted_strip"]
    budget = next(ln for ln in ax.panels[-1].get_lines() if ln.get_gid() == "budget_remaining")
    assert strip.get_zorder() > budget.get_zorder()  # over the budget line, not behind it
    assert np.allclose(strip.get_facecolor()[0], to_rgba(STATUS_COLORS["exhausted"]))
    return [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in strip.get_paths()]


def minutes(m):
    return mdates.date2num((T0 + pd.Timedelta(minutes=m)).tz_localize(None).to_datetime64())


def test_a_one_column_exhausted_stretch_is_marked_over_the_lines():
    """Two thousand one-minute spans, one exhausted: more spans than pixel columns, so the bands
    are reduced to the columns; the exhausted minute still gets a strip, one column wide, at its
    time, in the exhausted colour, drawn over the budget line."""
    n, at = 2000, 1000
    ev = as_events(T0 + pd.to_timedelta(np.arange(n), unit="min"), np.ones(n, dtype=bool))
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_1H), slo=SLO_1H, spans=minute_spans(n, at),
                       ax=fig.add_subplot())
    columns = pixel_columns(ax.panels[-1])
    assert columns < n  # the premise: reduced to the columns
    ((lo, hi),) = strip_of(ax)
    assert lo <= minutes(at + 0.5) <= hi
    assert hi - lo <= (minutes(n) - minutes(0)) / columns * 1.01
    plt.close(fig)


def test_few_spans_mark_the_exhausted_stretch_exactly():
    n, at = 100, 50
    ev = as_events(T0 + pd.to_timedelta(np.arange(n), unit="min"), np.ones(n, dtype=bool))
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_1H), slo=SLO_1H, spans=minute_spans(n, at),
                       ax=fig.add_subplot())
    np.testing.assert_allclose(strip_of(ax), [(minutes(at), minutes(at + 1))], rtol=0,
                               atol=1e-9)
    plt.close(fig)


def test_a_lone_event_drawn_as_a_dot_is_named():
    """Events at 00:00, 00:10 and, after a day of silence, 12:00 the next day: the last one is
    alone between breaks (a dot on each panel), and the legend says what the dot is."""
    ts = T0 + pd.to_timedelta([0, 10, 36 * 60], unit="min")
    ev = as_events(ts, [True, True, True])
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_1H), slo=SLO_1H, spans=status_spans(ev, SLO_1H, steps=True),
                       ax=fig.add_subplot())
    assert [ln.get_gid() for ln in ax.get_lines() if ln.get_gid() == "success_rate_lone"]
    assert texts(ax.panels[-1]) == [BUDGET, THRESHOLDS, "lone event",
                                    "no traffic (window empty)", WARMUP, "healthy"]
    plt.close(fig)


def test_the_fullest_merged_legend_fits_in_the_cli_figure():
    """Every entry at once (a rug of many changes and a few as lines, an incident, a lone event
    after a day's silence, no traffic, all four statuses), merged over two groups in the figure
    ``replay --plot`` draws: the bottom legend lies inside the figure, not cut at its edge."""
    from budgetlab.cli.replay import _timeline_figure

    rng = np.random.default_rng(1)
    ts = T0 + pd.to_timedelta(np.r_[np.sort(rng.uniform(0, 24 * 3600, 2400)), 48 * 3600],
                              unit="s")
    busy = as_events(ts, np.r_[rng.random(2400) > 0.08, True])
    quiet = as_events(T0 + pd.to_timedelta([0, 10, 20, 30], unit="min"), [True, False, True, True])
    slo = SLO(target=0.9, window="30min")
    incident = pd.DataFrame({"start": [T0 + pd.Timedelta("1h")], "end": [T0 + pd.Timedelta("2h")]})
    fig, axes = _timeline_figure(2, False)
    tops = []
    for ev, ax in zip([busy, quiet], axes, strict=True):
        st = replay(ev, slo)
        tops.append(plot_timeline(st, slo=slo, spans=status_spans(ev, slo, steps=True),
                                  incidents=incident, transitions=transitions(st), ax=ax))
    assert len(transitions(replay(busy, slo))) > 60  # the premise: a rug
    merge_legends(tops)
    labels = texts(tops[0].panels[-1])
    assert labels == [BUDGET, THRESHOLDS, "lone event", "incident", "status changes at events",
                      "status changes at events (rug)", "no traffic (window empty)", WARMUP,
                      "healthy", "warning (< 50%)", "critical (< 10%)", "exhausted (≤ 0)"]
    fig.canvas.draw()
    assert tops[0].panels[-1].get_legend().get_window_extent().x1 <= fig.bbox.width
    assert_legends_beside_their_panels(tops[0].panels)
    plt.close(fig)


def assert_legends_beside_their_panels(panels):
    """Every legend of a timeline's panels lies within the panels' vertical extent (none runs
    below the bottom panel, beside the next drawing's title, or above the top one), and no two
    overlap; measured on the drawn figure (display units, 1 px of slack)."""
    r = panels[0].figure.canvas.get_renderer()
    low, high = panels[-1].get_window_extent(r).y0, panels[0].get_window_extent(r).y1
    boxes = [p.get_legend().get_window_extent(r) for p in panels if p.get_legend() is not None]
    assert boxes
    for box in boxes:
        assert low - 1 <= box.y0 and box.y1 <= high + 1, (box.y0, box.y1, low, high)
    for upper, lower in itertools.pairwise(boxes):  # top-down, as the panels
        assert lower.y1 <= upper.y0 + 1, (upper.y0, lower.y1)


def test_the_demos_legends_stay_beside_the_first_groups_panels(tmp_path, monkeypatch):
    """``budgetlab demo --plot``: the first group's bottom legend (about ten entries in one column,
    two do not fit the figure's width) ran below its panel, beside the next group's title."""
    import budgetlab._util.figures as figures

    seen = []
    real = figures.figure_bytes

    def keep(fig, path, **kw):
        out = real(fig, path, **kw)  # drawn as saved; checked after the command (it would
        seen.append(fig)  # report a failed assert in here as an internal error)
        return out

    close = plt.close
    monkeypatch.setattr(figures, "figure_bytes", keep)
    monkeypatch.setattr(plt, "close", lambda *a: None)  # the figure is checked after the command
    assert main(["demo", "--plot", str(tmp_path / "demo.png")]) == 0
    (fig,) = seen
    panels = [ax for ax in fig.axes if ax.get_legend() is not None][:3]
    assert [p.get_ylabel().split()[0] for p in panels] == ["success", "burn", "budget"]
    assert len(panels[-1].get_legend().get_texts()) >= 10  # the premise: a tall legend
    assert_legends_beside_their_panels(panels)
    close(fig)
