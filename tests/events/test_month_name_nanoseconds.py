"""Stop 59: times written with a month name (read by dateutil, which keeps microseconds) keep
every digit of their fraction of a second up to the nanosecond, as ISO-8601 times do; the last 3
of 9 digits were silently dropped. Oracles: the instants converted by hand (2026-11-29T00:00Z is
day 20786 since 1970, 20786 * 86400 = 1_795_910_400 s)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab import read_events

DAY_S = 1_795_910_400  # 2026-11-29T00:00:00Z in epoch seconds
NS = 10**9


def _read(tmp_path: Path, times: list[str], **kw) -> list[int]:
    path = tmp_path / "log.csv"
    path.write_text("ts,outcome\n" + "".join(f'"{t}",success\n' for t in times), encoding="utf-8")
    return [int(t.value) for t in read_events(path, **kw)["ts"]]


@pytest.mark.parametrize(("text", "ns"), [
    # 10:00 +01:00 = 09:00Z
    ("29 Nov 2026 10:00:00.123456789 +0100", (DAY_S + 9 * 3600) * NS + 123_456_789),
    # 1999 ns: pandas kept 1000 of them
    ("Sun, 29 Nov 2026 10:00:00.000001999 +0100", (DAY_S + 9 * 3600) * NS + 1999),
    # 10:00:05 PM -05:00 = 22:00:05 + 5 h = 03:00:05Z the next day; a decimal comma
    ("Nov 29 2026 10:00:05,12345678 PM -05:00", (DAY_S + 27 * 3600 + 5) * NS + 123_456_780),
])
def test_month_name_times_keep_nanoseconds(tmp_path, text, ns):
    assert _read(tmp_path, [text]) == [ns]


def test_month_name_and_iso_times_of_one_file_keep_every_digit(tmp_path):
    # ISO-8601 kept its 9 digits already; a tenth was 100 ms already: all now read alike
    # (10:00 +01:00 = 09:00Z; 11:00 +01:00 = 10:00Z; sorted by instant)
    got = _read(tmp_path, ["2026-11-29T10:00:00.123456789+01:00", "29 Nov 2026 10:00:00.1 +0100",
                           "29 Nov 2026 11:00:00.000001999 +0100"])
    base = (DAY_S + 9 * 3600) * NS
    assert got == [base + 100_000_000, base + 123_456_789, base + 3600 * NS + 1999]


def test_naive_month_name_times_keep_nanoseconds_in_tz(tmp_path):
    # 10:00:00.987654321 wall time in Europe/Berlin (CET, +01:00) = 09:00:00.987654321Z;
    # 11:00:00.000000999 = 10:00:00.000000999Z
    got = _read(tmp_path, ["Sun Nov 29 10:00:00.987654321 2026", "29 Nov 2026 11:00:00.000000999"],
                tz="Europe/Berlin")
    assert got == [(DAY_S + 9 * 3600) * NS + 987_654_321, (DAY_S + 10 * 3600) * NS + 999]
    assert pd.Timestamp(got[0], tz="UTC") == pd.Timestamp("2026-11-29T09:00:00.987654321Z")
