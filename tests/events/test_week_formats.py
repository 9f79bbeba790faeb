"""Time formats that name the day by a week and a weekday are read (tz53): ISO weeks
(``%G-W%V-%u``) and weeks of the calendar year (``%Y-%U-%w``, ``%Y-%W-%a``). Before, the check
that a format holds a day and a month refused them. Arrow's strptime misreads them (ISO weeks as
1900-01-01, ``2026-52-6`` with ``%Y-%U-%w`` as 2028-02-03), so they are read by pandas' strptime;
a date that strptime rolls into another year is refused, never moved.

Hand-computed dates (2026-01-01 is a Thursday):
- ISO week 1 of 2026 is the week with that Thursday: Monday 29 December 2025 to Sunday 4 January.
  Week 10 starts 9 weeks later, Monday 2 March; its Wednesday is 4 March.
- ISO week 53 of 2020 (2020 began on a Wednesday, leap year): Monday 28 December 2020, so its
  Friday is 1 January 2021. 2025 began on a Wednesday and is not a leap year: no week 53.
- %U counts weeks from the first Sunday (4 January 2026 opens week 1; 1-3 January are week 0):
  week 10 opens 8 March, its Wednesday (%w 3) is 11 March; week 51 opens 20 December, its
  Saturday (%w 6) is 26 December. Week 52 opens 27 December 2026, so its Saturday is 2 January
  2027, which strftime writes as week 0 of 2027: not a date of 2026's week 52, refused.
- %W counts from the first Monday (5 January 2026 opens week 1): week 1's Monday is 5 January.
"""

from __future__ import annotations

import pytest

from budgetlab import ConfigError, ReadSpec, TimestampError, read_events
from budgetlab.cli import main


def read_log(tmp_path, lines: list[str], time_format: str, **options) -> list[str]:
    path = tmp_path / "app.log"
    path.write_text("".join(f"{line} ok\n" for line in lines))
    events = read_events(path, pattern=r"^(?P<ts>.+) (?P<outcome>\w+)$",
                         time_format=time_format, **options)
    return events["ts"].dt.strftime("%Y-%m-%d %H:%M").tolist()


@pytest.mark.parametrize("fmt, lines, want", [
    ("%G-W%V-%u %H:%M", ["2020-W53-5 06:00", "2026-W01-1 10:00", "2026-W10-3 00:00"],
     ["2021-01-01 06:00", "2025-12-29 10:00", "2026-03-04 00:00"]),
    ("%G-W%V-%a %H:%M", ["2026-W01-Mon 10:00"], ["2025-12-29 10:00"]),
    ("%Y-%U-%w %H:%M", ["2026-00-4 00:00", "2026-10-3 12:00", "2026-51-6 23:00"],
     ["2026-01-01 00:00", "2026-03-11 12:00", "2026-12-26 23:00"]),
    ("%Y-%W-%a %H:%M", ["2026-01-Mon 08:00"], ["2026-01-05 08:00"]),
])
def test_week_formats_name_the_day(tmp_path, fmt: str, lines: list[str], want: list[str]) -> None:
    assert read_log(tmp_path, lines, fmt) == want


def test_iso_weeks_in_a_zone_and_with_offsets(tmp_path) -> None:
    # ISO week 44 of 2026 opens Monday 26 October; its Sunday is 1 November, CET (UTC+1)
    assert read_log(tmp_path, ["2026-W44-7 02:30"], "%G-W%V-%u %H:%M",
                    tz="Europe/Berlin") == ["2026-11-01 01:30"]
    assert read_log(tmp_path, ["2026-W01-1 10:00 +0100"],
                    "%G-W%V-%u %H:%M %z") == ["2025-12-29 09:00"]


@pytest.mark.parametrize("fmt, text", [
    ("%Y-%U-%w %H:%M", "2026-52-6 10:00"),  # Saturday 2 January 2027
    ("%Y-%U-%w %H:%M", "2026-00-0 10:00"),  # the Sunday before 1 January: 28 December 2025
    ("%G-W%V-%u %H:%M", "2025-W53-1 10:00"),  # 2025 has 52 ISO weeks
])
def test_a_week_outside_its_year_is_refused_not_rolled_over(tmp_path, fmt: str,
                                                            text: str) -> None:
    with pytest.raises(TimestampError,
                       match=r"the time at line 1 of app.log does not match the time format"):
        read_log(tmp_path, [text], fmt)


@pytest.mark.parametrize("fmt, words", [
    ("%Y-W%V-%u", r"an ISO week \(%V\) goes with the ISO year \(%G, not %Y\)"),
    ("%G-W%V", r"and a weekday \(%u or %a\), e.g. '%G-W%V-%u %H:%M'"),
    ("%Y-%U", r"has no day and month .* a week %V, %U or %W with a weekday"),
    ("%Y-%U-%w %H:%M %z", r"weeks %U/%W are read with their year \(%Y\) and without an offset"),
    # without its year a week's days are not known (1 January 2026 is in week 0, 2000's week 0
    # holds only 1 January): refused, not read with year=
    ("%U-%w %H:%M", r"weeks %U/%W are read with their year .* e.g. '%Y-%U-%w %H:%M'"),
])
def test_week_formats_that_name_no_day_are_refused_with_the_fix(fmt: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        ReadSpec(time_format=fmt)


def test_the_cli_reads_iso_weeks(tmp_path, capsys) -> None:
    path = tmp_path / "app.log"
    path.write_text("2026-W01-1 10:00 200\n2026-W01-1 10:20 500\n")
    code = main(["replay", str(path), "--pattern", r"^(?P<ts>\S+ \S+) (?P<status>\d+)$",
                 "--time", "ts", "--outcome", "status", "--outcomes", "200=success,500=error",
                 "--time-format", "%G-W%V-%u %H:%M", "--window", "1h"])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 events, 2025-12-29 10:00 .. 2025-12-29 10:20 UTC" in out
