"""duration_words on signed durations: the sign, then the magnitude's words (hand-written)."""

import re

import pandas as pd
import pytest

from budgetlab._util.words import duration_words
from budgetlab.alerts.scoring import score_alerts
from budgetlab.cli.score_text import score_text


def test_a_negative_duration_is_its_sign_then_its_magnitudes_words():
    assert duration_words("-90min") == "-1 h 30 min"
    assert duration_words("-2D3h") == "-2 d 3 h"
    assert duration_words("-50h", days=False) == "-50 h"
    assert duration_words("-45min") == "-45 min"
    assert duration_words("-20.7s") == "-20 s"  # truncated toward 0, like 20.7 s -> 20 s
    assert duration_words("-0.5s") == "0 s"  # under a second: no sign on nothing
    assert duration_words(pd.Timedelta(minutes=-1)) == "-1 min"


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_a_reset_before_the_incident_ended_reads_as_a_negative_time():
    # the alert 10:05-10:20 matches the incident 10:00-10:30 and stops 10 minutes before its end:
    # reset time = 10:20 - 10:30 = -10 min (scoring's docs: signed)
    ep = pd.DataFrame({"tier": pd.Categorical(["page_1h"]), "severity": ["page"],
                       "start": pd.to_datetime(["2026-01-01 10:05"], utc=True),
                       "end": pd.to_datetime(["2026-01-01 10:20"], utc=True)})
    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                        "start": pd.to_datetime(["2026-01-01 10:00"], utc=True),
                        "end": pd.to_datetime(["2026-01-01 10:30"], utc=True)})
    rows = score_alerts(ep, inc, grace="0s", filling="count")  # no grid: every episode scored
    rows = rows[rows["tier"] == "page_1h"]
    assert rows["reset_median"].tolist() == [pd.Timedelta("-10min")]
    text = score_text(rows, duration_words)
    # detection_median (10:05 - 10:00) then reset_median, side by side in the row
    assert re.search(r" 5 min +-10 min ", text.splitlines()[1]), text


def test_hours_held_as_a_float_read_as_their_whole_minutes():
    # 65 min as a replay summary holds it (ns / HOUR_NS) is 1 ns short of 65 min once multiplied
    # back; truncated to whole seconds it read "1 h 4 min"
    from budgetlab._util.units import HOUR_NS
    from budgetlab._util.words import hours_words
    from budgetlab.cli.story import episode_lines

    h = 65 * 60 * 10**9 / HOUR_NS
    assert hours_words(h) == "1 h 5 min"
    assert hours_words(30 * 24 + 5 / 60) == "720 h 5 min"  # hours past a day stay hours
    zero = {f"hours_{s}": [0.0] for s in ("healthy", "warning", "exhausted", "no_traffic")}
    summary = pd.DataFrame({**zero, "hours_critical": [h],
                            **{f"share_{s}": [0.0] for s in ("critical", "exhausted")}})
    assert episode_lines(summary, pd.DataFrame(), []) == [
        "all events: CRITICAL or worse 0 % of the time (1 h 5 min); no episode."]
