"""A naive local time given by the user in the hour the clocks go back over (it happens twice)
or in the hour they skip (it does not exist) is refused in one line naming the option and both
readings, with their UTC offsets; before, pandas' "Cannot infer dst time" ValueError escaped
(on the command line: "internal error (ValueError)", exit 1). Europe/Berlin, 2026: the clocks go
back from 03:00 CEST to 02:00 CET on 25 October (at 01:00 UTC) and forward from 02:00 CET to
03:00 CEST on 29 March (at 01:00 UTC)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay
from budgetlab.analyses.incident_review import incident_span, tracker_at
from budgetlab.cli import main
from budgetlab.errors import ConfigError


def _incident(log, start, end):
    return main(["incident", str(log), "--target", "0.9", "--window", "1h", "--outcomes",
                 "success=success,error=error", "--tz", "Europe/Berlin", "--start", start,
                 "--end", end])


def test_a_start_in_the_repeated_hour_is_refused_naming_the_flag(outage_log, capsys):
    rc = _incident(outage_log, "2026-10-25 02:15", "2026-10-25 02:45")
    assert rc == 2
    assert capsys.readouterr().err.splitlines() == [
        "budgetlab: error: --start '2026-10-25 02:15' happens twice in Europe/Berlin (the clocks "
        "go back at 03:00): give it with its UTC offset, --start 2026-10-25T02:15+02:00 (the "
        "first, CEST) or --start 2026-10-25T02:15+01:00 (the second, CET)."]


def test_an_end_in_the_repeated_hour_is_refused_naming_the_flag(outage_log, capsys):
    rc = _incident(outage_log, "2026-10-25 02:15+02:00", "2026-10-25 02:45")
    assert rc == 2
    assert capsys.readouterr().err.splitlines() == [
        "budgetlab: error: --end '2026-10-25 02:45' happens twice in Europe/Berlin (the clocks "
        "go back at 03:00): give it with its UTC offset, --end 2026-10-25T02:45+02:00 (the "
        "first, CEST) or --end 2026-10-25T02:45+01:00 (the second, CET)."]


def test_a_start_in_the_skipped_hour_is_refused_naming_the_flag(outage_log, capsys):
    rc = _incident(outage_log, "2026-03-29 02:30", "2026-03-29 04:00")
    assert rc == 2
    # 02:30 on the CET clock (+01:00) is 01:30 UTC, 03:30 CEST; on the CEST clock (+02:00)
    # 00:30 UTC, 01:30 CET
    assert capsys.readouterr().err.splitlines() == [
        "budgetlab: error: --start '2026-03-29 02:30' does not exist in Europe/Berlin (the "
        "clocks go forward from 02:00 to 03:00): give it with a UTC offset, --start "
        "2026-03-29T02:30+01:00 (on the CET clock, i.e. 03:30 CEST) or --start "
        "2026-03-29T02:30+02:00 (on the CEST clock, i.e. 01:30 CET)."]


@pytest.fixture(scope="module")
def night():
    """One event a minute, 2026-10-24 22:00 .. 2026-10-25 03:59 UTC, all successes."""
    ts = pd.date_range("2026-10-24 22:00", "2026-10-25 03:59", freq="min", tz="UTC")
    return replay(as_events(ts, [True] * len(ts)), SLO(target=0.9, window="30min"))


def test_the_api_names_its_keyword_and_reads_either_offset(night):
    with pytest.raises(ConfigError) as caught:
        tracker_at(night, "2026-10-25 02:59", tz="Europe/Berlin")
    assert str(caught.value) == (
        "at='2026-10-25 02:59' happens twice in Europe/Berlin (the clocks go back at 03:00): "
        "give it with its UTC offset, at='2026-10-25T02:59+02:00' (the first, CEST) or "
        "at='2026-10-25T02:59+01:00' (the second, CET).")
    # either fix reads one instant: 02:59 CEST is 00:59 UTC, 02:59 CET 01:59 UTC
    assert tracker_at(night, "2026-10-25T02:59+02:00", tz="Europe/Berlin")["ts"] == pd.Timestamp(
        "2026-10-25 00:59", tz="UTC")
    assert tracker_at(night, "2026-10-25T02:59+01:00", tz="Europe/Berlin")["ts"] == pd.Timestamp(
        "2026-10-25 01:59", tz="UTC")
    with pytest.raises(ConfigError, match=r"^start='2026-10-25 02:30:30' happens twice in "
                       r"Europe/Berlin .* start='2026-10-25T02:30:30\+02:00' \(the first, CEST\)"):
        incident_span(night, at="2026-10-25T02:59+01:00", start="2026-10-25 02:30:30",
                      end="2026-10-25 03:30", tz="Europe/Berlin")
