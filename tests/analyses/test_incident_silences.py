"""The incident report marks a tier's silence as ``budgetlab alerts --plot`` does: the alert
panel rules each tier's row grey where its long window holds no event, over the hand-computed
span, cut to the report's window; its tier table says "unseen" in one word, explained once in a
note under it, so that at 100 columns it stays one block of columns.

The log: one event at the start of each minute from 00:00 to 05:59 on 2026-03-02, none from
02:00 to 03:59. A tier is evaluated at each bin's end, its window holding the bins up to it: the
last event before the gap (bin 01:59) stays in a 10 min window through the evaluation at 02:09
and in a 1 h window through 02:59; the next (bin 04:00) is in both from 04:01. So the 10 min
tier is silent over [02:10, 04:01), the 1 h one over [03:00, 04:01), the 6 h one never."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, AlertPolicy, as_events, incident_report  # noqa: E402

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")
MINUTES = [m for m in range(360) if not 120 <= m < 240]
SILENCE = "no event in the tier's\nlong window: cannot fire"


def _events() -> pd.DataFrame:
    return as_events([T0 + pd.Timedelta(minutes=m) for m in MINUTES], [True] * len(MINUTES))


def _num(minutes: float) -> float:
    return float(mdates.date2num((T0 + pd.Timedelta(minutes=minutes)).tz_localize(None)))


def _ruled(ax) -> list[tuple[float, float, float]]:
    """``(row, x0, x1)`` of every silence bar drawn on the alert panel ``ax``."""
    out = []
    for c in ax.collections:
        if c.get_gid() == "no_traffic":
            for p in c.get_paths():
                (x0, y0), (x1, y1) = p.get_extents().get_points()
                out.append((round((y0 + y1) / 2, 6), x0, x1))
    return sorted(out)


def _alert_panel(fig):
    return next(ax for ax in fig.axes if ax.get_ylabel() == "alert\ntier")


def test_the_incident_alert_panel_rules_each_tier_s_silence() -> None:
    """Workbook at 99 %, incident 02:30 .. 04:30 with 1 h of context (the panel shows 01:30 ..
    05:30): page_1h (row 0) is ruled over [03:00, 04:01), no other row (page_6h's window holds
    the events of 00:00 .. 01:59 until 07:59; the day-long tiers' too)."""
    rep = incident_report(_events(), SLO(target=0.99, window="1h"), T0 + pd.Timedelta("2h30min"),
                          T0 + pd.Timedelta("4h30min"), context="1h", policy="workbook")
    fig = rep.plot()
    ax = _alert_panel(fig)
    ruled = _ruled(ax)
    assert len(ruled) == 1
    row, x0, x1 = ruled[0]
    assert row == 0
    assert (x0, x1) == pytest.approx((_num(180), _num(241)), abs=1e-9)
    assert SILENCE in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)


def test_the_silence_is_cut_to_the_report_window() -> None:
    """The 10 min tier is silent over [02:10, 04:01); incident 03:00 .. 03:50 with 20 min of
    context: the panel shows 02:40 .. 04:10, and the bar runs from its left edge to 04:01."""
    rep = incident_report(_events(), SLO(target=0.99, window="1h"), T0 + pd.Timedelta("3h"),
                          T0 + pd.Timedelta("3h50min"), context="20min",
                          policy=AlertPolicy.single_window("10min", burn=4.5))
    fig = rep.plot()
    ruled = _ruled(_alert_panel(fig))
    assert [r for r, _, _ in ruled] == [0]
    assert ruled[0][1:] == pytest.approx((_num(160), _num(241)), abs=1e-9)
    plt.close(fig)


def test_the_tier_table_says_unseen_in_a_word_and_fits_100_columns(tmp_path, capsys,
                                                                   monkeypatch) -> None:
    """single_window's 1 h tier at 99 %, incident 03:00 .. 04:00 (evaluations 03:01 .. 04:00):
    its window is empty at every one of them (silent from 03:00 to 04:01): unseen. At 100
    columns the table is one block (the header names every column on one line), the cell says
    "unseen", and one note under the table says what that means, naming the tier's window."""
    from budgetlab.cli import main

    monkeypatch.setenv("COLUMNS", "100")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [(T0 + pd.Timedelta(minutes=m)).strftime("%Y-%m-%dT%H:%M:%SZ")
                         for m in MINUTES], "outcome": "success"}).to_csv(log, index=False)
    assert main(["incident", str(log), "--start", "2026-03-02 03:00", "--end",
                 "2026-03-02 04:00", "--context", "1h", "--target", "0.99", "--window", "1h",
                 "--policy", "single_window", "--freq", "1min",
                 # no grace: with alerts' default 1 h the window holds events from 04:01, inside
                 # [03:00, 05:00), so the incident is seen (and missed) by the one rule
                 "--grace", "0s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if "detection_delay" in line)
    assert lines[head].split() == ["tier", "severity", "burn", "fired", "first_alert",
                                   "detection_delay", "peak_burn_long"]
    assert lines[head + 1].split()[0] == "page_1h"
    assert lines[head + 1].split()[-3:] == ["unseen", "no", "traffic"]
    note = " ".join(lines[head + 2:head + 4])
    assert note.startswith("note: unseen: the tier's long window (page_1h: 1 h) held no event "
                           "at any of its evaluations during the incident")
    assert max(len(line) for line in lines[head:head + 4]) <= 100
