"""Issue 14, point 5: offsets after GMT/UTC with the ISO sign (the POSIX inversion is the trap),
dates without a day or a year refused, the epoch unit checked against the values. Expected
instants are written by hand in UTC, with the offset arithmetic in the comments."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import TimestampError, how_read, read_events


def read(times, **kw):
    raw = pd.DataFrame({"ts": times, "outcome": ["ok"] * len(times)})
    return read_events(raw, **kw)["ts"].dt.strftime("%Y-%m-%d %H:%M:%S").tolist()


@pytest.mark.parametrize(
    "text, want",
    [
        # east of Greenwich is +: 03:47 at +01:00 is 02:47 UTC (POSIX "GMT+1" would mean 04:47 UTC)
        ("Sun, 29 Nov 2026 03:47:00 GMT+0100", "2026-11-29 02:47:00"),
        ("Sun Nov 29 2026 03:47:00 GMT+0100 (Central European Standard Time)",
         "2026-11-29 02:47:00"),
        ("29 Nov 2026 03:47:00 GMT+1", "2026-11-29 02:47:00"),
        ("2026-11-29 03:47:00 UTC+01:00", "2026-11-29 02:47:00"),
        ("2026-11-29T03:47:00 GMT-05:00", "2026-11-29 08:47:00"),  # 03:47 at -05:00 is 08:47 UTC
        ("November 29, 2026 03:47 UTC-0530", "2026-11-29 09:17:00"),  # + 5 h 30 min
        ("Sun, 29 Nov 2026 03:47:00 GMT", "2026-11-29 03:47:00"),
    ],
)
def test_gmt_offsets_have_the_iso_sign(text, want):
    assert read([text]) == [want]


def test_gmt_offset_rows_are_aware_even_with_a_local_tz():
    # the offset decides; tz= is only for naive times
    assert read(["Sun Nov 29 2026 03:47:00 GMT+0100"],
                tz="America/New_York") == ["2026-11-29 02:47:00"]


@pytest.mark.parametrize("text", ["Nov 2026", "November 2026", "2026-11", "29 Nov 03:47",
                                  "Sun Nov 29 03:47:00"])
def test_dates_without_day_or_year_are_refused(text):
    with pytest.raises(TimestampError) as info:
        read([text])
    assert "row 1" in str(info.value)


def test_a_partial_date_among_full_ones_is_named_by_row():
    with pytest.raises(TimestampError, match="without a day or a year at row 2"):
        read(["29 Nov 2026 03:47 +01:00", "Nov 2026 03:47 +01:00"])


def test_epoch_unit_is_checked_against_the_values():
    # 1_780_000_000 s is 2026-05-28; read as ms it would be 1970-01-21
    with pytest.raises(TimestampError, match="epoch='s'"):
        read(["1780000000", "1780000060"], epoch="ms")
    with pytest.raises(TimestampError, match="epoch='ms'"):  # ms read as us: 1970 again
        read([1780000000000, 1780000060000], epoch="us")
    with pytest.raises(TimestampError, match="before 2000 or after 2100"):
        read([5, 6], epoch="s")
    assert read(["1780000000"], epoch="s") == ["2026-05-28 20:26:40"]


def test_epoch_numbers_past_the_range_name_the_unit_they_look_like(tmp_path, capsys):
    # 1_780_000_000_000 ms (2026-05-28) read as seconds is some 56,000 years on: past the last
    # instant a datetime holds (2262), so it failed before the 2000-2100 check and said only
    # "check epoch='s'", the flag the user had given. The magnitude (1e12: between 1e11 and 1e14)
    # is milliseconds', as the 2000-2100 check says it; the row count takes its separator
    ms = [1_780_000_000_000 + 60_000 * i for i in range(1_006)]
    for values in (ms, [str(v) for v in ms]):  # numbers, and epoch text
        with pytest.raises(TimestampError) as info:
            read(values, epoch="s")
        assert str(info.value) == (
            "timestamps outside pandas' range 1677-09-21 .. 2262-04-11 at rows 1, 2, 3, 4, 5 and "
            "1,001 more (1-based); these numbers look like epoch='ms' (milliseconds).")
    assert read(ms[:1], epoch="ms") == ["2026-05-28 20:26:40"]
    # too large for any unit (as ns still 56,000 years on): no unit named
    with pytest.raises(TimestampError, match="at row 1 \\(1-based\\); check the time column.$"):
        read([1.78e21], epoch="s")
    log = tmp_path / "ms.csv"
    pd.DataFrame({"ts": ms[:2], "outcome": ["ok", "ok"]}).to_csv(log, index=False)
    from budgetlab.cli import main

    assert main(["replay", str(log), "--epoch", "s"]) == 2
    assert capsys.readouterr().err.endswith(
        "(1-based, after the header); these numbers look like --epoch ms (milliseconds).\n")


def test_seconds_and_milliseconds_mixed_in_one_column_are_refused():
    with pytest.raises(TimestampError) as info:
        read([1780000000, 1780000000000, 1780000001], epoch="ms")
    text = str(info.value)
    assert "mix units" in text and "seconds (rows 1, 3" in text and "milliseconds (row 2" in text


def test_decimal_epoch_text_gets_the_say_the_unit_hint():
    with pytest.raises(TimestampError, match="plain numbers; say their unit.*epoch='s'"):
        read(["1780000000.5", "1780000001.25"])
    with pytest.raises(TimestampError, match="these look like epoch='ms'"):
        read(["1780000000500.5"])
    assert read(["1780000000.5"], epoch="s") == ["2026-05-28 20:26:40"]


# Hour-only and basic ISO forms (readrest, item 3): an offset right after the hour, or after a
# basic-format clock (1030, 103000), decides the instant; tz= applies only to text without one.
# Hand-computed, tz=Europe/Berlin (UTC+01:00 in January): "without" rows are read as Berlin time.
@pytest.mark.parametrize(
    "text, want",
    [
        ("2026-01-01T10Z", "2026-01-01 10:00:00"),
        ("2026-01-01 10Z", "2026-01-01 10:00:00"),
        ("2026-01-01T10+02:00", "2026-01-01 08:00:00"),  # 10:00 at +02:00 is 08:00 UTC
        ("2026-01-01T10+02", "2026-01-01 08:00:00"),
        ("2026-01-01T10-0230", "2026-01-01 12:30:00"),  # 10:00 at -02:30 is 12:30 UTC
        ("2026-01-01T1030Z", "2026-01-01 10:30:00"),
        ("20260101T10Z", "2026-01-01 10:00:00"),
        ("20260101T1030+0200", "2026-01-01 08:30:00"),
        ("2026-01-01 10", "2026-01-01 09:00:00"),  # no offset: 10:00 Berlin is 09:00 UTC
        ("2026-01-01T10", "2026-01-01 09:00:00"),
    ],
)
@pytest.mark.parametrize("second", [None, "2026-01-01T11:00:00 UTC"])
def test_hour_only_iso_forms_are_read_as_their_instant(text, want, second):
    # second: a row only the careful parser reads (a trailing "UTC"), which takes every row there
    aware = not text.endswith("10")
    if second is not None and not aware:
        with pytest.raises(TimestampError, match=r"mixed naive and zone-aware timestamps \(1 "
                                                 r"without a UTC offset, at row 1 "):
            read([text, second], tz="Europe/Berlin")
        return
    times = [text] if second is None else [text, second]
    got = read(times, tz="Europe/Berlin")
    assert got == [want] if second is None else [want, "2026-01-01 11:00:00"]
    events = read_events(pd.DataFrame({"ts": times, "outcome": ["ok"] * len(times)}),
                         tz="Europe/Berlin")
    stated = "text with UTC offsets" if aware else "read as local times in Europe/Berlin"
    assert stated in str(how_read(events))


@pytest.mark.parametrize("text", ["2026-01-01T10z", "2026-01-01T10.5Z", "2026-01-01T1Z"])
def test_hour_forms_iso_does_not_know_are_refused_with_the_forms_it_reads(text):
    with pytest.raises(TimestampError, match=r"unparseable timestamp at row 1 .*use "
                                             r"ISO-8601 like 2026-11-29T03:47:00Z"):
        read([text])
