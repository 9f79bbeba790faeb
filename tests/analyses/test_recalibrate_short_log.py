"""A log no longer than the window leaves recalibrate nothing to evaluate after the warm-up: the
message says how long the log is and what helps (``history=`` never does: it only shortens the
evaluated span)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import as_events, recalibrate
from budgetlab.errors import ConfigError


def test_a_log_shorter_than_the_window_is_refused_with_its_span():
    # 16:49:07 .. 17:36:00 (the proxifier sample's span): 46 min 53 s, under a 1 h window
    ts = pd.to_datetime(["2016-10-30 16:49:07", "2016-10-30 17:10:00", "2016-10-30 17:36:00"],
                        utc=True)
    ev = as_events(ts, [True, False, True])
    with pytest.raises(ConfigError) as err:
        recalibrate(ev, window="1h", target=0.9)
    assert str(err.value) == (
        "the events span 46 min 53 s (2016-10-30 16:49:07 .. 17:36:00 UTC), no longer than the "
        "1 h window: its first window is warm-up, which leaves nothing to evaluate; give a "
        "longer log or a shorter window=.")
    # a longer history does not help, a shorter window does
    with pytest.raises(ConfigError, match="no longer than the 1 h window"):
        recalibrate(ev, window="1h", history="365D", target=0.9)
    assert len(recalibrate(ev, window="10min", target=0.9).summary) == 1
