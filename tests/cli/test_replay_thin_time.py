"""``replay`` says, per group, how much of its time at WARNING or worse was read on windows too
thin for a verdict (s62 on-call, item 2). Before, the "thin windows" line spoke only of final
statuses and transitions: image/fra's 54 h EXHAUSTED, all of it on windows of 12-13 events (the
group made 97.5 % over 10 days against 95 %), stood in the table with nothing said.

Hand log, window 24 h, target 95 %: a window needs 10 / 0.05 = 200 events for 10 expected
failures (the package's rule, ``events_for``). The observation: 00:00 .. 47:59 (the last event).

* ``sparse``: one event an hour at :30 for 48 h (00:30 .. 47:30), all failing; its window never
  empties (gaps of 1 h) and holds at most 25 events: EXHAUSTED 00:30 .. 47:59, 47 h 29 min, all
  of it thin.
* ``dense``: one event a minute for 48 h, minutes 0 .. 9 failing (10 failures). At x minutes
  (x < 1,440) the window holds floor(x) + 1 events. EXHAUSTED while 10 >= 0.05 n, n <= 199:
  [0, 199 min), 3 h 19 min, all thin (n < 200); CRITICAL while the remaining fraction
  1 - 10 / (0.05 n) < 0.1, n <= 222: [199, 222 min), 23 min; WARNING while it is < 0.5, n < 400:
  [222, 399 min), 2 h 57 min; none of those thin (n >= 200). After 24 h the failures leave.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def test_replay_says_the_time_at_warning_or_worse_read_on_thin_windows(tmp_path, capsys):
    minutes = np.arange(48 * 60)
    dense = pd.DataFrame({"ts": T0 + pd.to_timedelta(minutes, unit="min"), "g": "dense",
                          "outcome": np.where(minutes < 10, "timeout", "success")})
    sparse = pd.DataFrame({"ts": T0 + pd.Timedelta("30min") + pd.to_timedelta(np.arange(48),
                                                                               unit="h"),
                           "g": "sparse", "outcome": "timeout"})
    log = tmp_path / "log.csv"
    pd.concat([dense, sparse]).sort_values("ts", kind="stable").to_csv(log, index=False)
    assert main(["replay", str(log), "--by", "g", "--window", "24h", "--target", "0.95"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("thin windows, in time: of the time at WARNING or worse, read on windows of fewer "
            "than 200 events (under 95 % they hold fewer than 10 expected failures: too few for "
            "a verdict): g=sparse 47 h 29 min of its 47 h 29 min EXHAUSTED; g=dense 3 h 19 min "
            "of its 3 h 19 min EXHAUSTED.") in said
