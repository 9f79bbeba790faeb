"""Stop 59: a 12-hour time with AM/PM then its offset (``1 Mar 2026 10:00 PM +0100``) carries
that offset. The detector of zone-aware text did not see an offset after AM/PM, so a column of
such times beside ISO times with offsets was refused as mixed naive and zoned times, and a column
of them alone was taken for naive wall times: with ``tz=`` the instants (already converted by
their offsets) were shifted again by the zone (10:00 PM +0100 read as 20:00Z in Europe/Berlin,
an hour off), and ``how_read`` said "text without offsets". Oracles: the instants converted by
hand in each row's comment."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from budgetlab import how_read, read_events
from budgetlab.events.offsets import has_offset

ROWS = [("1 Mar 2026 10:00 PM +0100", "success"),     # 22:00+01:00 = 21:00Z
        ("1 Mar 2026 9:30 AM +0100", "timeout"),      # 09:30+01:00 = 08:30Z
        ("1 Mar 2026 11:15:30 p.m. -05:00", "success")]  # 23:15:30-05:00 = 04:15:30Z next day
WANT = [pd.Timestamp("2026-03-01T21:00:00Z"), pd.Timestamp("2026-03-01T08:30:00Z"),
        pd.Timestamp("2026-03-02T04:15:30Z")]


def _csv(tmp_path: Path, rows: list[tuple[str, str]]) -> Path:
    path = tmp_path / "ampm.csv"
    path.write_text("ts,outcome\n" + "".join(f"{t},{o}\n" for t, o in rows), encoding="utf-8")
    return path


def test_ampm_times_with_offsets_are_instants_even_with_tz(tmp_path):
    path = _csv(tmp_path, ROWS)
    for tz in (None, "Europe/Berlin", "America/New_York"):  # tz= is for naive times only
        got = read_events(path, tz=tz)
        assert got["ts"].tolist() == sorted(WANT)
    assert "text with UTC offsets" in str(how_read(read_events(path, tz="Europe/Berlin")))


def test_ampm_times_with_offsets_read_beside_iso_times_with_offsets(tmp_path):
    # the ISO row: 2026-03-01T23:45:00+01:00 = 22:45Z
    path = _csv(tmp_path, [*ROWS, ("2026-03-01T23:45:00+01:00", "timeout")])
    got = read_events(path)
    assert got["ts"].tolist() == sorted([*WANT, pd.Timestamp("2026-03-01T22:45:00Z")])


def test_the_detector_sees_an_offset_after_each_ampm_form():
    text = pd.Series(["1 Mar 2026 10:00 PM +0100", "1 Mar 2026 10:00pm+01:00",
                      "1 Mar 2026 10:00 P.M. Z", "1 Mar 2026 9 AM -0500",
                      "1 Mar 2026 10:00:05.25 a -05:00",
                      "1 Mar 2026 10:00 PM", "1 Mar 2026 9 AM"])  # the last two: naive
    assert has_offset(text).tolist() == [True] * 5 + [False] * 2
