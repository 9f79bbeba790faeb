"""Line-oriented logs by pattern (issue 29 point 3): presets on real public samples, hand counts
from tests/fixtures/loghub/README.md (grep, independent of budgetlab), patterns, time formats,
years and the New Year rule, strict mode, compressed text logs."""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

import pandas as pd
import pytest

from budgetlab import ReadSpec, how_read, read_events
from budgetlab.cli import main
from budgetlab.errors import ConfigError, FileFormatError, InputError, TimestampError

LOGHUB = Path(__file__).parent.parent / "fixtures" / "loghub"
SSH = LOGHUB / "openssh_300.log"
PROXY = LOGHUB / "proxifier_300.log"


def test_sshd_preset_on_the_openssh_sample_against_its_hand_count():
    ev = read_events(SSH, preset="sshd", year=2015, by="host")
    assert len(ev) == 66 and int(ev["ok"].sum()) == 1  # grep: 1 Accepted, 65 Failed
    assert ev["bucket"].astype(str).value_counts().to_dict() == {"failure": 65, "success": 1}
    assert ev["ts"].iloc[0] == pd.Timestamp("2015-12-10T09:18:06Z")
    assert ev["ts"].iloc[-1] == pd.Timestamp("2015-12-10T10:55:13Z")
    assert ev.loc[ev["ok"], "ts"].tolist() == [pd.Timestamp("2015-12-10T09:32:20Z")]  # line 156
    assert list(ev["host"].cat.categories) == ["LabSZ"]
    how = how_read(ev)
    assert how.rows_read == 66 and how.files == (("openssh_300.log", 66),)
    assert "234 of 300 lines (78.0 %) do not match the pattern" in " ".join(how.notes)
    assert "format '%b %d %H:%M:%S', year 2015 given" in how.time_reading


def test_proxifier_preset_on_the_proxy_sample_against_its_hand_count():
    ev = read_events(PROXY, preset="proxifier", year=2016, by="program")
    assert len(ev) == 150 and int(ev["ok"].sum()) == 148
    per = ev.groupby("program", observed=True)["ok"].agg(["sum", "count"])
    hand = {"chrome.exe": (133, 133), "QQ.exe": (1, 3), "WeChat.exe": (5, 5), "SogouCloud.exe": (4,
                                                                                                 4),
            "Wiz.exe": (2, 2), "svchost.exe *64": (2, 2), "Dropbox.exe": (1, 1)}
    assert {k: (int(r["sum"]), int(r["count"])) for k, r in per.iterrows()} == hand
    assert ev["ts"].iloc[0] == pd.Timestamp("2016-10-30T16:49:07Z")
    assert ev["ts"].iloc[-1] == pd.Timestamp("2016-10-30T17:36:00Z")
    assert "150 of 300 lines (50.0 %)" in " ".join(how_read(ev).notes)


def test_how_read_names_the_presets_mapping_not_an_outcomes_mapping_nobody_gave():
    how = how_read(read_events(SSH, preset="sshd", year=2026))
    assert how.vocabulary == "the sshd preset's mapping"
    assert "outcomes: column 'outcome', the sshd preset's mapping" in str(how)
    given = how_read(read_events(SSH, preset="sshd", year=2026,
                        outcomes={"accepted": "success", "failed": "timeout"}))
    assert given.vocabulary == "outcomes=" and "mapping outcomes=" in str(given)


def test_a_pattern_of_ones_own_reads_like_the_preset():
    spec = ReadSpec(pattern=r"^\[(?P<ts>[0-9.]+ [0-9:]+)\] (?P<program>.+?) - \S+ "
                            r"(?P<outcome>close|error)\b",
                    time_format="%m.%d %H:%M:%S", year=2016, outcomes={"close": "success",
                                                                       "error": "failure"})
    mine = read_events(PROXY, spec)
    preset = read_events(PROXY, preset="proxifier", year=2016)
    pd.testing.assert_frame_equal(mine, preset)


def test_a_time_format_without_a_year_is_refused_with_that_reason():
    with pytest.raises(TimestampError,
                       match=r"has no year.*give year=YYYY, the year of the first line"):
        read_events(SSH, preset="sshd")


def test_a_short_year_is_refused_saying_which_years_are_read(capsys):
    """26 is a whole number, so "give a whole number" fixed nothing: the refusal says the year is
    read in full, 1970 to 2100, and the command line names --year with the value typed."""
    with pytest.raises(ConfigError, match=r"^year=26 is not a year .* from 1970 to 2100"):
        read_events(SSH, preset="sshd", year=26)
    assert main(["replay", str(SSH), "--preset", "sshd", "--year", "26"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: --year 26 is not a year budgetlab reads: give the year of the first "
        "line in full, from 1970 to 2100 (e.g. 2026).\n")
    # the bounds themselves are read (hand: the log's first line is Dec 10)
    assert read_events(SSH, preset="sshd", year=1970)["ts"].iloc[0] == pd.Timestamp(
        "1970-12-10 09:18:06", tz="UTC")
    assert read_events(SSH, preset="sshd", year=2100)["ts"].iloc[0].year == 2100


def test_a_year_for_a_preset_whose_times_carry_one_names_the_preset(tmp_path, capsys):
    # the access preset's format is '%d/%b/%Y:%H:%M:%S %z' (CLF, the year written): the refusal
    # said "--time-format '...' carries the year already", a flag the user never gave
    log = tmp_path / "access.log"
    log.write_text('1.2.3.4 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 5 "-" "-"\n')
    assert main(["replay", str(log), "--preset", "access", "--year", "2015"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: the access preset's times carry their year ('%d/%b/%Y:%H:%M:%S %z'); "
        "leave --year out.\n")
    with pytest.raises(ConfigError, match="access preset's times carry their year .*leave year="):
        ReadSpec(preset="access", year=2015)
    assert ReadSpec(preset="sshd", year=2015).time_format == "%b %d %H:%M:%S"  # needs one


def test_lines_not_in_the_format_are_listed_as_lines(capsys):
    # the README's hand count: 234 of openssh_300.log's 300 lines are not sshd Accepted/Failed
    # lines; the first of them are lines 2, 3, 4, 5, 6, 7, 9, 10, 11, 13 (line 8 is "Failed
    # password", line 12 too). It said "(line 2, 3, ...)"
    assert main(["replay", str(SSH), "--preset", "sshd", "--year", "2026", "--strict"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: openssh_300.log: 234 lines not in the format of the pattern (lines 2, "
        "3, 4, 5, 6, 7, 9, 10, 11, 13 and 224 more); fix them, or pass --on-error skip to drop "
        "them (with a warning).\n")


def test_new_year_rule_and_leap_days(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("Dec 31 23:59:58 ok\nJan  1 00:00:01 failed\nFeb 29 12:00:00 ok\n")
    spec = ReadSpec(pattern=r"^(?P<ts>\w{3} [ 0-9]?[0-9] \S+) (?P<outcome>\w+)",
                    time_format="%b %d %H:%M:%S")
    # hand: 2023-12-31, then 2024 (a leap year) from the second line
    ev = read_events(log, spec, year=2023)
    assert ev["ts"].tolist() == [pd.Timestamp("2023-12-31T23:59:58Z"),
                                 pd.Timestamp("2024-01-01T00:00:01Z"),
                                 pd.Timestamp("2024-02-29T12:00:00Z")]
    assert "crossed New Year once: 2024 from there on" in how_read(ev).time_reading
    log.write_text("Feb 28 12:00:00 ok\nFeb 29 12:00:00 ok\n")
    with pytest.raises(TimestampError, match="line 2 of app.log .*not dates in their year"):
        read_events(log, spec, year=2023)  # never rolled over to Mar 1


def test_unmatched_lines_strict_and_files_where_nothing_matches(tmp_path):
    log = tmp_path / "app.txt"
    log.write_text("2026-01-01T00:00:00Z ok fra\nstarting up\n\n2026-01-01T00:00:01Z failed ams\n")
    pattern = r"^(?P<ts>\S+) (?P<outcome>\w+) (?P<region>\w+)$"
    ev = read_events(log, pattern=pattern, by="region")
    assert ev["ok"].tolist() == [True, False] and ev["region"].astype(str).tolist() == ["fra",
                                                                                        "ams"]
    # the blank line is no line, and the share says it was left out
    assert "1 of 3 non-blank lines (33.3 %; 1 blank line left out)" in " ".join(how_read(ev).notes)
    with pytest.raises(InputError,
                       match=r"1 line not in the format of the pattern \(line 2\); fix "
                             r"it or pass on_error='skip'"):
        read_events(log, pattern=pattern, on_error="raise")
    with pytest.raises(FileFormatError, match="no line matches the pattern"):
        read_events(log, pattern=r"^(?P<ts>\d+) (?P<outcome>zzz)")


def _app_log(tmp_path):
    # line 2 is not an event, line 3 is blank (no line): 2 events, 1 line not in the format
    log = tmp_path / "app.txt"
    log.write_text("2026-01-01T00:00:00Z ok fra\nstarting up\n\n2026-01-01T00:00:01Z failed ams\n")
    return log


APP = r"^(?P<ts>\S+) (?P<outcome>\w+) (?P<region>\w+)$"
NOT_IN_FORMAT = r"1 line not in the format of the pattern \(line 2\)"


def test_strict_is_the_deprecated_spelling_of_on_error_raise(tmp_path):
    log = _app_log(tmp_path)
    with pytest.warns(FutureWarning, match=r"strict=True is deprecated.*on_error='raise'"):
        spec = ReadSpec(pattern=APP, strict=True)
    assert (spec.on_error, spec.strict) == ("raise", False)  # one field holds the choice
    with pytest.warns(FutureWarning, match="on_error='raise'"), \
            pytest.raises(FileFormatError, match=NOT_IN_FORMAT + "; fix it or pass on_error="):
        read_events(log, pattern=APP, strict=True)
    with pytest.raises(FileFormatError, match=NOT_IN_FORMAT + "; fix it or pass on_error="):
        read_events(log, spec)  # made once, the spec warns no more
    with pytest.raises(ConfigError, match="strict=True refuses the lines that on_error='skip'"):
        ReadSpec(pattern=APP, strict=True, on_error="skip")
    with pytest.raises(ConfigError, match="strict= takes True or False"):
        ReadSpec(pattern=APP, strict="yes")
    with pytest.warns(FutureWarning), pytest.raises(ConfigError, match="goes with pattern="):
        ReadSpec(strict=True)


def test_on_error_skip_leaves_out_line_2_with_a_warning(tmp_path):
    with pytest.warns(UserWarning, match=r"app.txt: skipped " + NOT_IN_FORMAT):
        ev = read_events(_app_log(tmp_path), pattern=APP, on_error="skip", by="region")
    assert ev["region"].astype(str).tolist() == ["fra", "ams"]
    assert dict(how_read(ev).skipped) == {"lines not in the format": 1}


@pytest.mark.parametrize("flags", [["--on-error", "raise"], ["--strict"]])
def test_the_command_line_refuses_line_2_with_either_flag(tmp_path, capsys, flags):
    argv = ["replay", str(_app_log(tmp_path)), "--pattern", APP, "--window", "1h", *flags]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1 line not in the format of the pattern (line 2)" in err \
        and "pass --on-error skip to drop it" in err and "on_error" not in err, err


LINES_ONLY = ("goes with {pattern} (or {preset}): it says what becomes of the lines the pattern "
              "does not match.")


@pytest.mark.parametrize("flags, name", [(["--strict"], "--strict"),
                                         (["--on-error", "raise"], "--on-error"),
                                         (["--on-error", "skip"], "--on-error")])
def test_a_csv_refuses_the_lines_flag_by_the_name_typed(tmp_path, capsys, flags, name):
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome\n2026-01-01T00:00:00Z,success\n2026-01-01T00:01:00Z,timeout,x\n")
    assert main(["replay", str(log), "--window", "1h", *flags]) == 2
    assert capsys.readouterr().err == f"budgetlab: error: {name} " + LINES_ONLY.format(
        pattern="--pattern", preset="--preset") + "\n"


def test_the_api_refuses_strict_by_its_name_and_on_error_by_its_own(tmp_path):
    frame = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["success"]})
    with pytest.warns(FutureWarning, match="strict=True is deprecated"), \
            pytest.raises(ConfigError) as info:
        read_events(frame, strict=True)
    assert str(info.value) == "strict=True (on_error='raise') " + LINES_ONLY.format(
        pattern="pattern=", preset="preset=")
    with pytest.raises(ConfigError) as info:
        read_events(frame, on_error="raise")
    assert str(info.value) == "on_error= " + LINES_ONLY.format(pattern="pattern=",
                                                               preset="preset=")


def test_the_command_line_skips_or_counts_line_2_as_asked(tmp_path, capsys):
    log = str(_app_log(tmp_path))
    assert main(["replay", log, "--pattern", APP, "--window", "1h", "--on-error", "skip"]) == 0
    err = capsys.readouterr().err
    assert "skipped 1 line not in the format of the pattern (line 2)" in err, err
    assert main(["replay", log, "--pattern", APP, "--window", "1h", "--on-error", "count"]) == 0
    assert "1 of 3 non-blank lines (33.3 %; 1 blank line left out) do not match the pattern" in \
        capsys.readouterr().err
    assert main(["replay", log, "--pattern", APP, "--strict", "--on-error", "skip"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_compressed_text_logs_are_read_by_their_first_bytes(tmp_path):
    raw = SSH.read_bytes()
    (tmp_path / "auth.log.gz").write_bytes(gzip.compress(raw))
    (tmp_path / "auth").write_bytes(bz2.compress(raw))  # no extension at all
    plain = read_events(SSH, preset="sshd", year=2015)
    for name in ("auth.log.gz", "auth"):
        ev = read_events(tmp_path / name, preset="sshd", year=2015)
        pd.testing.assert_frame_equal(ev, plain)
        assert any(n.startswith("compression: ") for n in how_read(ev).notes)


@pytest.mark.parametrize("suffix, kind", [(".gz", "gzip"), (".bz2", "bz2"), (".xz", "xz")])
def test_plain_text_named_as_compressed_is_refused_by_every_reader(tmp_path, capsys, suffix,
                                                                   kind):
    # a misnamed (or corrupt) file is never read silently as text: the line reader, the CSV
    # reader and the command line refuse it with the same words
    why = (f"is named {suffix} but is not {kind} data; the {kind} stream is truncated or corrupt, "
           "or the file is misnamed: rename or export it again.")
    log = tmp_path / f"x.log{suffix}"
    log.write_bytes(SSH.read_bytes())
    with pytest.raises(FileFormatError) as err:
        read_events(log, preset="sshd", year=2026)
    assert str(err.value) == f"x.log{suffix}: {why}"
    table = tmp_path / f"x.csv{suffix}"
    table.write_text("ts,ok\n2026-03-02T10:00:00Z,true\n")
    with pytest.raises(FileFormatError) as err:
        read_events(table)
    assert str(err.value) == f"x.csv{suffix}: {why}"
    assert main(["replay", str(log), "--preset", "sshd", "--year", "2026"]) == 2
    out, printed = capsys.readouterr()
    assert out == "" and printed == f"budgetlab: error: x.log{suffix}: {why}\n"


def test_a_compression_other_than_the_name_says_is_read_by_its_bytes_and_stated(tmp_path):
    (tmp_path / "auth.log.gz").write_bytes(bz2.compress(SSH.read_bytes()))
    ev = read_events(tmp_path / "auth.log.gz", preset="sshd", year=2015)
    assert len(ev) == 66 and int(ev["ok"].sum()) == 1  # grep: 1 Accepted, 65 Failed
    assert "compression: bz2 (recognised by content)" in how_read(ev).notes


def test_an_unreadable_file_is_refused_in_the_same_words_by_both_readers(tmp_path, monkeypatch):
    import builtins

    log, table = tmp_path / "auth.log", tmp_path / "t.csv"
    log.write_bytes(SSH.read_bytes())
    table.write_text("ts,ok\n2026-03-02T10:00:00Z,true\n")
    real = builtins.open

    def denied(file, *args, **kwargs):  # root reads any file: a refusal by the system, simulated
        if str(file) in (str(log), str(table)):
            raise PermissionError(13, "Permission denied")
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    for path, options in ((log, {"preset": "sshd", "year": 2026}), (table, {})):
        with pytest.raises(FileFormatError) as err:
            read_events(path, **options)
        assert str(err.value) == (f"{path.name}: cannot be read (Permission denied); check its "
                                  "permissions.")


UNNAMED = ("has a group without a name, ( ... ); each group is a column: write (?P<name>...) for "
           "a column, or (?:...) for a group that only groups (an optional part: (?:...)?).")


def test_an_unnamed_group_is_refused_with_the_fix_in_api_and_cli_words(tmp_path, capsys):
    # a plain ( ... )? is what a user writes for an optional part; Arrow's extract_regex takes
    # only named groups: refused naming both ways out, not with Arrow's words (stop 55)
    pattern = r"^(?P<ts>\S+) (\S+ )?(?P<outcome>\w+)"
    with pytest.raises(ConfigError) as err:
        ReadSpec(pattern=pattern, time_format="%Y-%m-%dT%H:%M:%S")
    assert str(err.value) == "pattern= " + UNNAMED
    log = tmp_path / "app.log"
    log.write_text("2026-01-01T00:00:00 x ok\n")
    assert main(["replay", str(log), "--pattern", pattern,
                 "--time-format", "%Y-%m-%dT%H:%M:%S"]) == 2
    assert capsys.readouterr().err == f"budgetlab: error: --pattern {UNNAMED}\n"
    # the fix reads: the same line with (?:...)? is read
    fixed = read_events(log, pattern=r"^(?P<ts>\S+) (?:\S+ )?(?P<outcome>\w+)",
                        time_format="%Y-%m-%dT%H:%M:%S", outcomes={"ok": "success"})
    assert len(fixed) == 1 and bool(fixed["ok"].iloc[0])


def test_patterns_arrow_cannot_run_are_refused_with_the_reason():
    with pytest.raises(ConfigError, match="lookaround or a backreference; patterns are RE2"):
        ReadSpec(pattern=r"^(?P<ts>\S+) (?P<outcome>\w+)(?=,)")
    with pytest.raises(ConfigError, match="lookaround or a backreference"):
        ReadSpec(pattern=r"^(?P<ts>\S+) (?P<outcome>\w+) \1")
    with pytest.raises(ConfigError, match="not a valid RE2"):
        ReadSpec(pattern=r"^(?P<ts>\S+ (?P<outcome>\w+)")
    with pytest.raises(ConfigError, match="no named group for 'outcome'"):
        ReadSpec(pattern=r"^(?P<ts>\S+) (?P<result>\w+)")
    with pytest.raises(ConfigError, match="no named group for 'region'"):
        ReadSpec(pattern=r"^(?P<ts>\S+) (?P<outcome>\w+)", by="region")
    with pytest.raises(ConfigError, match="either preset= or pattern="):
        ReadSpec(preset="sshd", pattern=r"(?P<ts>.)(?P<outcome>.)")
    with pytest.raises(ConfigError, match="on_error= goes with pattern="):
        ReadSpec(on_error="raise")
    with pytest.raises(ConfigError, match="carries the year already"):
        ReadSpec(time_format="%Y-%m-%d %H:%M", year=2026)
    # the time format is the preset's: the refusal names the preset, not time_format= (tz53)
    with pytest.raises(ConfigError, match=r"^preset='sshd' reads text times and epoch= numbers"):
        ReadSpec(preset="sshd", year=2026, epoch="ms")
    # a time without its date would be put on January 1st: '23:59:00' then '00:01:00' would run
    # 23 h 58 min backwards instead of 2 min forwards
    with pytest.raises(ConfigError, match=r"'%H:%M:%S' has no day and month"):
        ReadSpec(time_format="%H:%M:%S", year=2026)
    with pytest.raises(ConfigError, match=r"'%b %Y' has no day and month"):
        ReadSpec(time_format="%b %Y")
    with pytest.raises(ConfigError, match=r"'%s' has %s, epoch seconds: .* give epoch='s'"):
        ReadSpec(time_format="%s")
    assert ReadSpec(time_format="%j %H:%M", year=2026).time_format == "%j %H:%M"  # day of year


def test_a_dataframe_has_columns_not_lines():
    with pytest.raises(ConfigError, match="a DataFrame already has columns"):
        read_events(pd.DataFrame({"ts": ["x"], "outcome": ["ok"]}),
                    pattern=r"(?P<ts>\S+) (?P<outcome>\S+)")


def test_time_format_reads_a_csv_column_as_written(tmp_path):
    path = tmp_path / "log.csv"
    path.write_text("ts,outcome\n01/02/2026 10:00,success\n13/02/2026 10:00,failure\n")
    ev = read_events(path, time_format="%d/%m/%Y %H:%M", tz="Europe/Berlin")
    # hand: 1 Feb 10:00 CET = 09:00 UTC; 13 Feb 10:00 CET = 09:00 UTC
    assert ev["ts"].tolist() == [pd.Timestamp("2026-02-01T09:00Z"),
                                 pd.Timestamp("2026-02-13T09:00Z")]
    with pytest.raises(TimestampError,
                       match=r"the time at row 2 .*does not match the time format "
                             r"'%m/%d/%Y %H:%M'"):
        read_events(path, time_format="%m/%d/%Y %H:%M")


def test_two_digit_years_say_their_century(tmp_path):
    # strptime's pivot: '68' is 2068 and '69' is 1969; the reading says so instead of leaving
    # the century to be guessed from the span
    path = tmp_path / "log.csv"
    path.write_text("ts,outcome\n01/02/69 10:00,success\n01/02/68 10:00,failure\n")
    ev = read_events(path, time_format="%d/%m/%y %H:%M")
    assert ev["ts"].tolist() == [pd.Timestamp("1969-02-01T10:00Z"),
                                 pd.Timestamp("2068-02-01T10:00Z")]
    assert "two-digit years: 69-99 as 1969-1999, 00-68 as 2000-2068" in how_read(ev).time_reading


def test_spec_overrides_and_unknown_keywords():
    spec = ReadSpec(by=["region"], tz="Europe/Berlin")
    assert spec.replace(tz="UTC").tz == "UTC" and spec.replace(tz="UTC").by == ("region",)
    assert spec.replace() is spec
    with pytest.raises(TypeError, match="unexpected keyword argument.*'regoin'"):
        read_events(pd.DataFrame(), spec, regoin="x")
    with pytest.raises(ConfigError, match="preset"):
        ReadSpec(preset="apache")


APACHE = Path(__file__).parent.parent / "fixtures" / "elastic_apache" / "apache_logs"


def test_access_preset_on_the_elastic_sample_against_its_published_counts():
    # ../shared/data/README.md: 10,000 lines, 3 with status 500 (the rest below 500); GET on 9,952
    # (grep -c '"GET ' apache_logs), HEAD 42, POST 5, OPTIONS 1
    from budgetlab import read_access_log

    ev = read_events(APACHE, preset="access", by="method")
    assert len(ev) == 10_000 and int((~ev["ok"]).sum()) == 3
    assert ev["bucket"].astype(str).value_counts().to_dict() == {"success": 9997, "server_error": 3}
    assert ev["method"].astype(str).value_counts().to_dict() == {"GET": 9952, "HEAD": 42, "POST": 5,
                                                                 "OPTIONS": 1}
    web = read_access_log(APACHE, by="method")
    pd.testing.assert_series_equal(ev["ts"], web["ts"])
    assert ev["method"].astype(str).tolist() == web["method"].astype(str).tolist()


def test_times_are_never_rolled_over_to_another_day(tmp_path):
    # Arrow's strptime reads 31/04 as 1 May and +2400 as a day's offset; pandas refuses both: so
    # must we
    path = tmp_path / "log.csv"
    path.write_text("ts,outcome\n30/04/2026 10:00,success\n31/04/2026 10:00,success\n")
    with pytest.raises(TimestampError, match=r"the time at row 2 .*does not match the time format"):
        read_events(path, time_format="%d/%m/%Y %H:%M")
    log = tmp_path / "app.log"
    log.write_text("01/May/2026:10:00:00 +0200 ok\n31/Apr/2026:10:00:00 +0200 "
                   "ok\n01/May/2026:10:00:00 +2400 ok\n")
    spec = ReadSpec(pattern=r"^(?P<ts>\S+ \S+) (?P<outcome>\w+)$",
                    time_format="%d/%b/%Y:%H:%M:%S %z")
    with pytest.raises(TimestampError, match=r"lines 2, 3 of app.log do not match the time format"):
        read_events(log, spec)
    log.write_text("01/May/2026:10:00:00 +0200|ok\n02/May/2026:10:00:00 -0530|ok\n")
    spec = ReadSpec(pattern=r"^(?P<ts>[^|]+)\|(?P<outcome>\w+)$",
                    time_format="%d/%b/%Y:%H:%M:%S %z")
    # hand: 10:00 at +02:00 is 08:00 UTC, at -05:30 15:30 UTC
    assert read_events(log, spec)["ts"].tolist() == [pd.Timestamp("2026-05-01T08:00Z"),
                                                     pd.Timestamp("2026-05-02T15:30Z")]


def test_a_line_holding_the_reader_separator_is_refused_without_echoing_it(tmp_path):
    log = tmp_path / "app.log"
    log.write_bytes(b"01-05 10:00:01 ok\nsecret-user@example.com \x1f ok\n")
    with pytest.raises(FileFormatError, match="control character U\\+001F") as info:
        read_events(log, pattern=r"^(?P<ts>\S+ \S+) (?P<outcome>\w+)$",
                    time_format="%m-%d %H:%M:%S", year=2026)
    assert "secret" not in str(info.value)


def test_zone_names_are_refused_not_dropped(tmp_path):
    # Arrow's strptime matched %Z against any word and dropped it: '02:30:00 CET' and '02:30:00
    # CEST' both read as 02:30 UTC (hand: they are 01:30 and 00:30 UTC). Refused with the fix.
    log = tmp_path / "app.log"
    log.write_text("2026-10-25 02:30:00 CEST ok\n2026-10-25 02:30:00 CET fail\n")
    with pytest.raises(ConfigError, match=r"has %Z, a zone name .* use %z"):
        read_events(log, pattern=r"^(?P<ts>\S+ \S+ \S+) (?P<outcome>\w+)$",
                    time_format="%Y-%m-%d %H:%M:%S %Z")
    # the fix it names: a zone written as text in the format (times all in UTC)
    log.write_text("2026-10-25 02:30:00 UTC ok\n")
    ev = read_events(log, pattern=r"^(?P<ts>\S+ \S+ \S+) (?P<outcome>\w+)$",
                     time_format="%Y-%m-%d %H:%M:%S UTC")
    assert ev["ts"].tolist() == [pd.Timestamp("2026-10-25T02:30Z")]
