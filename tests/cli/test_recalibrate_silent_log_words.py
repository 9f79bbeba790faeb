"""``budgetlab recalibrate`` on a log with a known silence (Stop 56): the note says the
recommendation is provisional, with the evaluated history and the span around it, each named,
and ``--out`` holds both (``history_days``, ``span_days``) beside ``hours``. The figures are
computed by hand in :mod:`tests.silence_log`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main
from tests.silence_log import GAPPY_HOURS, GAPPY_SPAN_DAYS, silence_log


def test_the_command_says_a_silent_history_is_provisional(tmp_path, capsys):
    ev = silence_log(("gappy",))
    log = tmp_path / "gappy.csv"
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ev["ok"], "success", "timeout")}).to_csv(log, index=False)
    out = tmp_path / "rec.csv"
    assert main(["recalibrate", str(log), "--window", "1h", "--target", "0.8", "--n-boot", "0",
                 "--out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    # the group's line counts 142 h 40 min with traffic (GAPPY_HOURS), said as its note says the
    # same time (stop 59: one span, one spelling): 5 d 22 h, truncated to two units
    assert "over 852 events in 5 d 22 h of evaluated time" in said
    assert ("note: provisional: 5 d 22 h of evaluated history (time with traffic after warm-up) "
            "in the 15 d 22 h from the first evaluated instant to the last, less than the 14 d a "
            "recommendation needs; re-run with more history") in said
    row = pd.read_csv(out).iloc[0]
    assert row["hours"] == pytest.approx(GAPPY_HOURS, abs=1e-6)
    assert row["history_days"] == pytest.approx(GAPPY_HOURS / 24, abs=1e-6)
    assert row["span_days"] == pytest.approx(GAPPY_SPAN_DAYS, abs=1e-6)
    assert row["recommendation_note"].startswith("provisional: 5 d 22 h of evaluated history")
