"""One spelling of a window in the CLI's text: as its headers spell it (``24 h``, ``5 min``,
``calendar:day``; budgetlab._util.validation.window_words), never the compact labels of the API's
tables (``1d``, ``5m``), which stay in ``--out``."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay
from budgetlab.cli import main

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"
READ = ["--preset", "access", "--outcomes", "2xx=success,3xx=success,4xx=skip,5xx=server_error"]
COMPACT = re.compile(r"(?<![\w:])\d+[mhd](?![\w])")  # 5m, 1h, 1d as a word of the text


def test_compare_windows_spells_each_window_as_its_header(tmp_path, capsys):
    out = tmp_path / "cw.csv"
    assert main(["compare-windows", str(APACHE), *READ, "--windows", "5min,1h,24h,calendar:1D",
                 "--target", "0.99", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    spelled = ["5 min", "1 h", "24 h", "calendar:day"]
    header = text.split("SLO: ")[0].split("\n\n")[-1]  # the lines before the SLO's, joined
    assert " ".join(header.split()).endswith("windows: " + ", ".join(spelled))
    # the table's rows, in the header's order and spelling
    rows = [ln.strip() for ln in text.splitlines() if ln.strip().startswith(tuple(spelled))]
    assert [next(w for w in spelled if r.startswith(w)) for r in rows[:4]] == spelled
    assert not COMPACT.findall(text.split(header)[1]), COMPACT.findall(text)
    # the API's labels are unchanged in --out
    assert pd.read_csv(out)["window"].tolist() == ["5m", "1h", "1d", "calendar:day"]


def test_replay_says_the_full_warm_up_as_the_window():
    # a full window's warm-up is the window: 24 h, as in the SLO line, not 24.0 h
    from budgetlab.cli.clock_text import summary_notes

    summary = pd.DataFrame({**{f"hours_{s}": [10.0] for s in ("healthy", "warning", "critical",
                                                                "exhausted", "no_traffic")},
                            "warmup_hours": [24.0], "refill_hours": [0.0], "silences": [0]})
    notes = " ".join(" ".join(summary_notes(summary, pd.Timedelta("24h"))).split())
    assert "up to 24 h per group" in notes and "24.0 h" not in notes
    # a warm-up cut short by the data is a measured time, said as one (hours and minutes)
    partial = summary.assign(warmup_hours=[9.5])
    assert "up to 9 h 30 min per group" in " ".join(
        " ".join(summary_notes(partial, pd.Timedelta("24h"))).split())
    # 5 statuses x 10 h = 50 h, a log's length in its one spelling (length_words)
    assert "(first to last event of the log, 2 d 2 h)" in notes


def test_the_partial_window_warning_spells_the_window_in_prose():
    events = as_events(pd.date_range("2026-01-01", periods=10, freq="1h"), [True] * 10)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replay(events, SLO(0.9, window="1D"))
    assert [str(w.message) for w in caught] == [
        "the window (24 h) is longer than the data (9 h); every window is partial."]


def test_an_elapsed_duration_uses_the_windows_units(capsys):
    # a dwell time (elapsed) of 10 minutes beside a 5-minute window: both in minutes, "min"
    assert main(["compare-windows", str(APACHE), *READ, "--windows", "5min,1h", "--target",
                 "0.99", "--min-dwell", "10min"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    # 1.3533 h, all of it after warm-ups that hold every event (0 events in it: withheld)
    assert "5 min, dwell 10 min: 0 events in the evaluated span: for its 1 h 21 min of " \
        "evaluated time" in text
    assert not re.search(r"\d m\b", text)
    from budgetlab._util.words import duration_words, prose_duration

    # the two spellings of one duration agree where both apply: whole minutes, hours, days
    for d in ("45min", "2h", "3D"):
        assert duration_words(d) == prose_duration(d)
    assert duration_words("6h10min") == "6 h 10 min"


def test_a_measured_span_is_said_as_a_logs_length():
    # the loghub proxifier sample spans 16:49:07 .. 17:36:00 = 46 min 53 s (2813 s), which a 1 h
    # window outlasts: said as every log's length, in all its units truncated to the second
    # (length_words: "46 min 53 s"), never "2813 s"
    ts = pd.to_datetime(["2026-10-30 16:49:07", "2026-10-30 17:36:00"], utc=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replay(as_events(ts, [True, True]), SLO(0.9, window="1h"))
    assert [str(w.message) for w in caught] == [
        "the window (1 h) is longer than the data (46 min 53 s); every window is partial."]


def test_the_recalibration_axis_says_the_span_measured_in_its_two_largest_units():
    # 82 h 1 min measured (the Elastic log's span after a 1 h warm-up): "3 d 10 h", not "4921 min"
    from budgetlab.plotting.analyses import _recalibration_xlabel

    lo = pd.Timestamp("2015-05-17 11:05", tz="UTC")
    label = _recalibration_xlabel({"window": pd.Timedelta("1h"), "span_start": lo,
                                   "span_end": lo + pd.Timedelta(minutes=4921)})
    # without the groups' hours (a table built by hand) the calendar span, named as such
    assert label == ("target, on the rolling 1 h window, 3 d 10 h from the first evaluated "
                     "instant to the last (%)")


def test_the_cli_says_a_window_longer_than_the_data_in_the_apis_words(capsys):
    # the loghub OpenSSH sample spans 09:18:06 .. 10:55:13 (1 h 37 min 7 s) under the default
    # 24 h window: the command's note and the API's warning are one text (it printed "1.62 h")
    ssh = Path(__file__).parents[1] / "fixtures" / "loghub" / "openssh_300.log"
    assert main(["replay", str(ssh), "--preset", "sshd", "--year", "2026"]) == 0
    assert ("note: the window (24 h) is longer than the data (1 h 37 min 7 s); every window "
            "is partial.") in capsys.readouterr().out


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_the_summarys_note_is_no_group_key():
    """replay_summary's last column, ``note``, is a figure's words, not a group: the printed table
    and its lines name the group ``g`` alone."""
    from budgetlab import replay_summary
    from budgetlab.cli.clock_text import format_summary, thin_rate_line

    ev = as_events(pd.date_range("2026-01-01", periods=4, freq="h"), [True] * 4,
                   groups={"g": ["a"] * 4})
    s = replay_summary(replay(ev, SLO(target=0.9, window="1h"), by="g"), ev)
    # hourly 00:00 .. 03:00: 3 h from the first event to the last, no gap over 24 h (sending
    # time, the clock of events a day since stop 62)
    assert s.loc[0, "note"].startswith("only 3 h of sending time (4 events in it)")
    assert format_summary(s, "1h").splitlines()[0].split()[:2] == ["g", "events"]
    line = " ".join(str(thin_rate_line(s)).split())
    assert line == ("events/day left blank, too thin to go by (a rate per day needs at least 24 h "
                    "of sending time): g=a (4 events in 3 h).")


def test_a_window_of_3601_seconds_is_said_as_given(tmp_path, capsys):
    # 1 h 1 s is no whole number of minutes: said in seconds, every digit (it printed "1.00 h")
    log = tmp_path / "log.csv"
    log.write_text("ts,ok\n2026-01-01T00:00:00Z,true\n2026-01-01T01:00:00Z,false\n"
                   "2026-01-01T02:00:00Z,true\n")
    assert main(["replay", str(log), "--ok", "ok", "--target", "0.9", "--window", "3601s"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "SLO: target 0.9, window 3,601 s, warning < 0.5" in out
    assert "Silences longer than the window (3,601 s): none." in out
    assert "1.00 h" not in out


def test_a_duration_without_a_unit_is_refused_not_read_as_nanoseconds(tmp_path, capsys):
    # pandas reads the text "300" as 300 ns: --window 300 replayed a 0.0000003 s window and
    # --thresholds 1 counted the successes within 1 ns (0 of 191 on loghub's OpenStack log); a
    # number without its unit is refused before any output, with the fix spelled out
    out = tmp_path / "o.yaml"
    for argv, said in (
            (["replay", str(APACHE), *READ, "--window", "300"], "--window 300"),
            (["export", "openslo", "--target", "0.99", "--histogram", "h", "--slow-above", "300",
              str(out)], "--slow-above 300"),
            (["latency", str(APACHE), *READ, "--duration", "d", "--thresholds", "1"],
             "--thresholds 1")):
        assert main(argv) == 2
        err = capsys.readouterr().err.splitlines()
        value = said.split()[1]
        assert err[-1] == (f"budgetlab: error: {said} has no unit; write one: '{value}s' "
                           f"(seconds), '{value}min', '{value}h' or '{value}D'.")
    assert not out.exists()
    # with the unit it reads as written: 300 s is 5 min in the SLO line
    assert main(["replay", str(APACHE), *READ, "--window", "300s"]) == 0
    assert "window 5 min," in capsys.readouterr().out
