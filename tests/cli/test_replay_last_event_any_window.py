"""A group's last event is said and drawn at every window (s62 on-call, item 3).

Before, ``replay --window 7d`` said nothing of turnstile/fra, which stopped 2 days before the
log's end: its 7 d window never emptied, so it had no "no traffic" time and no "After their last
event" line (at 24 h it had one), and its timeline ran on to the end with nothing marking its
last event. Now a group that stopped sending (its last event more than a day before the log's
last, or its window emptied) is named with the time since its last event, and its timeline
carries a dashed line at that event.

Hand log: ``steady`` one event an hour from 2026-01-01 00:00 to 2026-01-11 00:00 (the log's
last event); ``stops`` one an hour from 00:00 to 2026-01-09 00:00, 48 h before the end.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, as_events, replay, status_spans  # noqa: E402
from budgetlab.cli import main  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402

T0 = pd.Timestamp("2026-01-01", tz="UTC")
LAST = pd.Timestamp("2026-01-09", tz="UTC")


def _frame() -> pd.DataFrame:
    steady = pd.DataFrame({"ts": pd.date_range(T0, periods=241, freq="h"), "svc": "steady"})
    stops = pd.DataFrame({"ts": pd.date_range(T0, LAST, freq="h"), "svc": "stops"})
    frame = pd.concat([steady, stops]).sort_values("ts", kind="stable").reset_index(drop=True)
    frame["outcome"] = "success"
    return frame


@pytest.mark.parametrize(("window", "what"), [
    ("7d", "its window still holds its last events at the end: at_end is their status"),
    # at 24 h the window holds the last event through 01-10 00:00, then 24 h of no traffic
    ("24h", "24 h of it no traffic, from its window emptying; not among the silences")])
def test_replay_names_a_group_that_stopped_at_every_window(tmp_path, capsys, window, what):
    log = tmp_path / "log.csv"
    _frame().to_csv(log, index=False)
    assert main(["replay", str(log), "--by", "svc", "--window", window]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"After their last event (to the log's last event): svc=stops 48 h ({what})." in said
    assert "svc=steady" not in said.split("After their last event")[1].split(".")[0]


def test_the_timeline_marks_the_last_event_of_a_group_that_stopped():
    from budgetlab.plotting.last_event import LAST_EVENT_GID, mark_last_event, stopped_at

    frame = _frame()
    ev = as_events(frame["ts"], np.ones(len(frame), dtype=bool),
                   groups={"svc": frame["svc"].to_numpy()})
    slo = SLO(target=0.95, window="7d")
    spans = status_spans(ev, slo, by="svc")
    assert stopped_at(ev, spans, ["svc"], ("stops",)) == LAST
    assert stopped_at(ev, spans, ["svc"], ("steady",)) is None  # its last event is the end
    mine = ev[ev["svc"] == "stops"].reset_index(drop=True)
    ax = plot_timeline(replay(mine, slo))
    panels = getattr(ax, "panels", [ax])
    mark_last_event(panels, stopped_at(ev, spans, ["svc"], ("stops",)), "last event")
    want = matplotlib.dates.date2num(LAST.tz_localize(None))
    for p in panels:
        xs = [matplotlib.dates.date2num(line.get_xdata()[0]) if not isinstance(
            line.get_xdata()[0], float) else line.get_xdata()[0]
              for line in p.get_lines() if line.get_gid() == LAST_EVENT_GID]
        assert xs == [pytest.approx(want)]
    plt.close("all")
