"""The New Year rule on unsorted lines (a time format without a year, ``year=``): each line is
read in the year that puts it nearest the latest time before it, so a ``Dec 31`` line written a
few seconds late, after ``Jan 1``, stays in the old year and the next ``Jan 1`` does not move on
another year. Expected instants written by hand."""

import pandas as pd

from budgetlab import ReadSpec, how_read, read_events

SPEC = ReadSpec(pattern=r"^(?P<ts>\w{3} [ 0-9]?[0-9] \S+) (?P<outcome>\w+)",
                time_format="%b %d %H:%M:%S")


def test_late_dec_31_line_stays_in_the_old_year(tmp_path):
    log = tmp_path / "ooo.log"
    log.write_text("Dec 31 23:59:50 ok\nDec 31 23:59:58 failed\nJan  1 00:00:01 ok\n"
                   "Dec 31 23:59:59 ok\nJan  1 00:00:05 ok\n")
    ev = read_events(log, SPEC, year=2025)
    # hand: five events over 15 s across one New Year, the 4th written 2 s late
    assert sorted(ev["ts"].tolist()) == [pd.Timestamp("2025-12-31T23:59:50Z"),
                                         pd.Timestamp("2025-12-31T23:59:58Z"),
                                         pd.Timestamp("2025-12-31T23:59:59Z"),
                                         pd.Timestamp("2026-01-01T00:00:01Z"),
                                         pd.Timestamp("2026-01-01T00:00:05Z")]
    said = how_read(ev).time_reading
    assert "crossed New Year once: 2026 from there on" in said
    assert "1 line written late across New Year" in said


def test_late_line_before_the_first_crossing_and_sorted_crossings(tmp_path):
    log = tmp_path / "a.log"
    # hand: Jan 1 2025 first, a Dec 31 line 3 s late is 2024; then a year later, Dec 31 .. Jan 1
    log.write_text("Jan  1 00:00:02 ok\nDec 31 23:59:59 ok\nJun 30 12:00:00 ok\n"
                   "Sep 30 12:00:00 ok\nDec 31 23:00:00 ok\nJan  1 01:00:00 ok\n")
    ev = read_events(log, SPEC, year=2025)
    assert sorted(ev["ts"].tolist()) == [pd.Timestamp("2024-12-31T23:59:59Z"),
                                         pd.Timestamp("2025-01-01T00:00:02Z"),
                                         pd.Timestamp("2025-06-30T12:00:00Z"),
                                         pd.Timestamp("2025-09-30T12:00:00Z"),
                                         pd.Timestamp("2025-12-31T23:00:00Z"),
                                         pd.Timestamp("2026-01-01T01:00:00Z")]
    assert "crossed New Year once: 2026 from there on" in how_read(ev).time_reading
