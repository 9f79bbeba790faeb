"""An incident that began while the window was already CRITICAL is counted apart, never
"detected in 0 s".

compare_windows counted such an incident as detected with a detection delay of 0 s (the docs'
example: ``recaptcha_v2 24 h ... detected 1 ... detection_median 0 s``), and the plot drew
"median detection delay 0 min", while ``budgetlab demo`` and ``budgetlab incident`` said the
tracker could not show it. It is now ``already_at_alert``: neither detected nor missed, no
detection time; the detection figures are over the incidents that began below the alert status.

Hand log (1 h window, target 0.9, one event a minute 00:00 .. 06:59, all successes but
01:00-01:29 and 04:00-04:29, which all fail).

* Incident A, 01:15-01:30. In the instant before 01:15 the window holds 00:15 .. 01:14: 60 events,
  15 failures; budget 60 x 0.1 = 6, 15 >= 6: EXHAUSTED, at least CRITICAL. Already there.
* Incident B, 04:00-04:30. In the instant before 04:00 the window holds 03:00 .. 03:59: 60
  successes, HEALTHY. At the 04:05 arrival it holds 03:05 .. 04:05, 61 events, 6 failures
  (04:00 .. 04:05), budget 6.1: 6 / 6.1 = 0.98 of it spent, remaining 0.016 < 0.1: CRITICAL for
  that instant; 03:05 leaves 1 ns later (60 events, 6 failures >= 5.999...: EXHAUSTED). The
  change is dated at 04:05 (the last instant 03:05 is in the window): detection 5 min.
* Recovery, both the same way: below CRITICAL once 5 failures of 60 events are left (5 / 6 spent,
  remaining 0.167): after the 5th-last failure (01:24, 04:24) leaves, dated at 02:24 and 05:24,
  54 min after each end (01:30, 04:30).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows, incident_report, window_incidents
from budgetlab.cli import main

DAY = pd.Timestamp("2026-01-01", tz="UTC")
A = (DAY + pd.Timedelta("1h15min"), DAY + pd.Timedelta("1h30min"))
B = (DAY + pd.Timedelta("4h"), DAY + pd.Timedelta("4h30min"))


def hand_log() -> pd.DataFrame:
    ts = pd.date_range(DAY, periods=7 * 60, freq="1min")
    minute = np.arange(len(ts))
    fail = ((60 <= minute) & (minute < 90)) | ((240 <= minute) & (minute < 270))
    return as_events(ts, ~fail)


def incidents(*which: tuple[pd.Timestamp, pd.Timestamp]) -> pd.DataFrame:
    names = {A: "A", B: "B"}
    return pd.DataFrame({"incident_id": [names[w] for w in which], "scope": ["*"] * len(which),
                         "start": [w[0] for w in which], "end": [w[1] for w in which]})


def test_compare_windows_counts_the_incident_already_critical_apart():
    t = compare_windows(hand_log(), SLO(target=0.9), "1h", incidents=incidents(A, B))
    row = t.iloc[0]
    # over B alone: 5 min (old code: A's 0 s made the median 2 min 30 s)
    assert row["detection_median"] == row["detection_max"] == pd.Timedelta("5min")
    assert (row["incidents"], row["detected"], row["missed"], row["unseen"]) == (2, 1, 0, 0)
    assert row["already_at_alert"] == 1
    assert row["recovery_median"] == row["recovery_max"] == pd.Timedelta("54min")
    assert row["unrecovered"] == 0
    assert t.attrs["alert_at"] == "critical"


def test_a_median_over_no_incident_below_the_alert_status_is_withheld_in_words():
    from budgetlab.plotting.window_gaps import why_no_time

    t = compare_windows(hand_log(), SLO(target=0.9), "1h", incidents=incidents(A))
    row = t.iloc[0]
    assert pd.isna(row["detection_median"]) and pd.isna(row["detection_max"])  # old: 0 s
    assert (row["already_at_alert"], row["detected"], row["missed"]) == (1, 0, 0)
    assert why_no_time(t, "detection_median").tolist() == ["already CRITICAL or worse at start"]
    assert row["recovery_median"] == pd.Timedelta("54min")
    assert why_no_time(t, "recovery_median").tolist() == [""]


def test_the_plot_says_why_it_draws_no_detection_delay():
    import matplotlib.pyplot as plt

    from budgetlab.plotting import plot_window_comparison

    t = compare_windows(hand_log(), SLO(target=0.9), "1h", incidents=incidents(A))
    ax = plot_window_comparison(t)  # the detection panel: no mark at 0 min, the reason in words
    drawn = [line for line in ax.y2_ax.get_lines() if len(line.get_ydata())]
    assert not any(np.isfinite(np.asarray(line.get_ydata(), dtype=float)).any()
                   for line in drawn)
    said = {str(x.get_gid()): " ".join(x.get_text().split()) for x in ax.y2_ax.texts}
    assert said.get("no_time:detection_median:1h") == "already CRITICAL or worse at start"
    plt.close("all")


def test_window_incidents_marks_the_pair_and_incident_report_reads_the_same_status():
    w = window_incidents(hand_log(), SLO(target=0.9), incidents(A, B), "1h").set_index(
        "incident_id")
    assert not w.loc["A", "detected"] and pd.isna(w.loc["A", "detection"])  # old: True, 0 s
    assert w.loc["A", "already_at_alert"] and not w.loc["B", "already_at_alert"]
    assert w.loc["A", "note"].startswith("the window was already CRITICAL or worse")
    assert w.loc["B", "detected"] and w.loc["B", "detection"] == pd.Timedelta("5min")
    assert w.loc["A", "recovery"] == w.loc["B", "recovery"] == pd.Timedelta("54min")
    # the rule the incident report reads its status at the start by (demo: "already CRITICAL")
    slo = SLO(target=0.9, window="1h")
    for (start, end), status in ((A, "exhausted"), (B, "healthy")):
        rep = incident_report(hand_log(), slo, start, end)
        assert str(rep.tracker["status_at_start"].iloc[0]) == status


@pytest.fixture
def files(tmp_path):
    ev = hand_log()
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ev["ok"], "success", "timeout")}).to_csv(
        tmp_path / "log.csv", index=False)
    for name, which in (("both", (A, B)), ("a", (A,))):
        incidents(*which).assign(start=lambda f: f["start"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                 end=lambda f: f["end"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).to_csv(
            tmp_path / f"{name}.csv", index=False)
    return tmp_path


def _cell_rows(out: str) -> dict[str, str]:
    """Each printed column of the table's one row (``1 h``) and its cell, read off the blocks
    pandas prints: a header line, the index name, the row, its cells right-aligned under the
    header's names."""
    lines = out.splitlines()
    cells: dict[str, str] = {}
    for k, line in enumerate(lines[:-2]):
        if lines[k + 1].strip() != "window" or not lines[k + 2].startswith("1 h"):
            continue
        row = lines[k + 2]
        ends = [m.end() for m in re.finditer(r"\S+", line.rstrip(" \\"))]
        names = line.rstrip(" \\").split()
        starts = [4, *ends[:-1]]
        for name, a, b in zip(names, starts, ends, strict=True):
            cells[name] = row[a:b].strip()
    return cells


@pytest.mark.parametrize(("name", "counts", "median"), [
    ("both", ("2", "1", "1"), "5 min"),
    ("a", ("1", "1", "0"), "already CRITICAL or worse at start")])
def test_cli_table_and_legend(files, capsys, name, counts, median):
    code = main(["compare-windows", str(files / "log.csv"), "--windows", "1h", "--target", "0.9",
                 "--incidents", str(files / f"{name}.csv")])
    out = capsys.readouterr().out
    assert code == 0
    cells = _cell_rows(out)
    assert cells["detection_median"] == median and cells["recovery_median"] == "54 min"
    assert (cells["incidents"], cells["already_at_alert"], cells["detected"]) == counts
    assert ("already_at_alert: incidents that began while the window was already CRITICAL or "
            "worse (--alert-at)") in " ".join(out.split())
    assert " 0 s" not in out


def test_the_words_say_or_worse_where_the_window_was_exhausted():
    # Incident A began with the window EXHAUSTED (15 failures of 60 events, budget 6: above), so
    # "already CRITICAL at start" named a status the window was not in: the column legend's "or
    # worse" says it. At alert_at="exhausted" nothing is worse: the status itself.
    from budgetlab.plotting.window_gaps import why_no_time

    t = compare_windows(hand_log(), SLO(target=0.9), "1h", incidents=incidents(A))
    assert why_no_time(t, "detection_median").tolist() == ["already CRITICAL or worse at start"]
    t = compare_windows(hand_log(), SLO(target=0.9), "1h", incidents=incidents(A),
                        alert_at="exhausted")
    assert t["already_at_alert"].iloc[0] == 1
    assert why_no_time(t, "detection_median").tolist() == ["already EXHAUSTED at start"]
