"""Every time a command prints follows ``--tz``: on that zone's clock with its UTC offset, a span
naming the zone after it; without ``--tz`` the text is UTC as it always was.

Oracle: a hand-written log across Berlin's fall-back (25 October 2026, 01:00 UTC: 03:00 CEST
becomes 02:00 CET). One event every 10 min from 2026-10-24 23:00 UTC (01:00 +02:00) to
2026-10-25 02:00 UTC (03:00 +01:00), 19 of them; a timeout at 00:30 UTC (02:30 +02:00) and, at
01:30 UTC (02:30 +01:00), a timeout beside that instant's success: a tie whose outcomes differ, in
the repeated hour. 20 events, 2 failures. Each expected line is written out here by hand from
those times.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

BERLIN = ["--tz", "Europe/Berlin"]
#: The log's span, first to last event, as every header says it.
SPAN_BERLIN = "2026-10-25 01:00 +02:00 .. 2026-10-25 03:00 +01:00 (Europe/Berlin)"
SPAN_UTC = "2026-10-24 23:00 .. 2026-10-25 02:00 UTC"


@pytest.fixture
def log(tmp_path):
    rows = ["ts,outcome,duration_ms"]
    for t in pd.date_range("2026-10-24 23:00", "2026-10-25 02:00", freq="10min", tz="UTC"):
        stamp = f"{t:%Y-%m-%dT%H:%M:%SZ}"
        rows.append(f"{stamp},timeout,5000" if stamp == "2026-10-25T00:30:00Z"
                    else f"{stamp},success,900")
        if stamp == "2026-10-25T01:30:00Z":  # the tie, in the repeated hour
            rows.append(f"{stamp},timeout,5000")
    path = tmp_path / "fallback.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def incidents(tmp_path):
    """One incident before the log (left out, or outside it) and one around the first timeout."""
    path = tmp_path / "inc.csv"
    path.write_text("incident_id,start,end,scope\n"
                    "early,2026-10-24T20:00:00Z,2026-10-24T21:00:00Z,*\n"
                    "fallback,2026-10-25T00:20:00Z,2026-10-25T01:40:00Z,*\n", encoding="utf-8")
    return path


def printed(capsys, argv):
    assert main(argv) == 0
    return capsys.readouterr().out


def flat(text):
    return " ".join(text.split())


def test_replay_header_and_ties_on_the_tz_clock_and_utc_as_before_without_it(log, capsys):
    argv = ["replay", str(log), "--target", "0.9", "--window", "1h"]
    out = printed(capsys, [*argv, *BERLIN])
    assert out.splitlines()[0] == f"fallback.csv: 20 events, {SPAN_BERLIN}"
    assert ("At that instant the outcomes differ (2026-10-25 02:30:00 +01:00): the per-event "
            "replay") in flat(out)
    # without --tz: the old text, byte for byte
    out = printed(capsys, argv)
    assert out.splitlines()[0] == ("fallback.csv: 20 events, 2026-10-24 23:00 .. 2026-10-25 "
                                   "02:00 UTC")
    assert ("At that instant the outcomes differ (2026-10-25 01:30:00 UTC): the per-event "
            "replay") in flat(out)


@pytest.mark.parametrize("argv, head", [
    (["compare-windows", "--target", "0.9", "--windows", "1h,6h"],
     "fallback.csv: 20 events, {span}; the seed tracker under 2 windows: 1 h, 6 h"),
    (["buckets", "--target", "0.9", "--window", "1h"],
     "fallback.csv: 20 events, {span}, 2 failures in the bucket 'timeout'"),
    (["latency", "--duration", "duration_ms", "--duration-unit", "ms", "--thresholds", "1s"],
     "fallback.csv: 20 attempts with durations, {span}"),
])
def test_each_log_commands_header_span_follows_tz(log, capsys, argv, head):
    argv = [argv[0], str(log), *argv[1:]]
    assert flat(printed(capsys, [*argv, *BERLIN])).startswith(head.format(span=SPAN_BERLIN))
    assert flat(printed(capsys, argv)).startswith(head.format(span=SPAN_UTC))


def test_recalibrate_says_its_evaluated_span_and_the_history_cut_on_the_tz_clock(log, capsys):
    """The evaluated span starts one 1 h window (the warm-up) after the first event: 00:00 UTC,
    02:00 +02:00; with --history 90min it starts 90 min before the last event, 00:30 UTC, and
    the log it cuts began at 01:00 +02:00."""
    argv = ["recalibrate", str(log), "--target", "0.9", "--window", "1h", "--n-boot", "0",
            *BERLIN]
    assert ("evaluated span: 2026-10-25 02:00 +02:00 .. 2026-10-25 03:00 +01:00 (Europe/Berlin), "
            "per group only the time") in flat(printed(capsys, argv))
    assert ("evaluated span: 2026-10-25 02:30 +02:00 .. 2026-10-25 03:00 +01:00 (Europe/Berlin) "
            "(--history: the last 90 min of the log, which begins 2026-10-25 01:00 +02:00; no "
            "figure counts its earlier events), per group") in flat(
                printed(capsys, [*argv, "--history", "90min"]))


def test_compare_windows_names_the_first_event_of_a_left_out_incident_on_the_tz_clock(
        log, incidents, capsys):
    out = printed(capsys, ["compare-windows", str(log), "--target", "0.9", "--windows", "1h",
                           "--incidents", str(incidents), *BERLIN])
    assert "1 starts before the first event (2026-10-25 01:00:00 +02:00);" in flat(out)


@pytest.mark.usefixtures("wide_terminal")  # reads the tiers' row
def test_incident_notes_and_first_alert_on_the_tz_clock(log, capsys):
    """The single_window policy (1 h at burn 0.9 on 1 min bins) fires at the end of the bin of
    the 00:30 UTC timeout: 00:31 UTC, 02:31 +02:00, the summary's "paged at 02:31"."""
    out = printed(capsys, ["incident", str(log), "--target", "0.9", "--window", "1h", "--start",
                           "2026-10-25T00:20:00Z", "--end", "2026-10-25T01:40:00Z", "--policy",
                           "single_window", *BERLIN])
    assert "note: the data start only at 2026-10-25 01:00:00 +02:00, inside" in flat(out)
    assert "note: the data end at 2026-10-25 03:00:00 +01:00, inside the context" in flat(out)
    row = next(line for line in out.splitlines() if line.startswith("page_1h"))
    assert row.split()[4:7] == ["2026-10-25", "02:31", "+02:00"]


def test_alerts_say_the_span_an_incident_lies_outside_on_the_tz_clock(log, incidents, capsys):
    """The 1 min bins run from the first event to one bin after the last: 23:00 .. 02:01 UTC."""
    out = printed(capsys, ["alerts", str(log), "--target", "0.9",
                           "--incidents", str(incidents), "--policy", "single_window", *BERLIN])
    assert ("1 of the 2 incidents of --incidents lies wholly outside the log (2026-10-25 01:00 "
            "+02:00 .. 2026-10-25 03:01 +01:00 (Europe/Berlin)): not scored") in flat(out)


def test_demo_header_and_verdicts_span_on_the_tz_clock(capsys):
    """The sample runs 2026-10-06 00:00 .. 2026-10-08 23:59 UTC, summer time in Berlin (+02:00);
    the verdicts count from one 24 h window after its start."""
    out = flat(printed(capsys, ["demo", *BERLIN]))
    assert ("demo: 207,980 events, 2026-10-06 02:00 +02:00 .. 2026-10-09 01:59 +02:00 "
            "(Europe/Berlin)") in out
    assert ("after the first 24 h window (warm-up), 2026-10-07 02:00 +02:00 .. 2026-10-09 01:59 "
            "+02:00 (Europe/Berlin); the summary above") in out


def test_demo_says_the_trackers_first_change_in_an_incident_on_the_tz_clock(log, capsys):
    """At 00:30 UTC the 1 h window holds the 7 events from 23:30 on, one of them the timeout: a
    budget of 0.7 failures at 0.9, spent: HEALTHY to EXHAUSTED at 02:30 +02:00."""
    from budgetlab import SLO, read_events
    from budgetlab.cli.demo import _print_incidents

    inc = pd.DataFrame({"incident_id": ["fallback"], "kind": ["timeouts"], "scope": ["*"],
                        "start": pd.to_datetime(["2026-10-25 00:20"], utc=True),
                        "end": pd.to_datetime(["2026-10-25 01:40"], utc=True)})
    _print_incidents(read_events(log), inc, SLO(target=0.9, window="1h"), [], "Europe/Berlin")
    assert ("The tracker saw it: first change at 2026-10-25 02:30 +02:00 (HEALTHY -> "
            "EXHAUSTED).") in flat(capsys.readouterr().out)
