"""Issue 16, point 7 (every analysis from the command line) and point 1's CLI part (per-group SLOs
with --slo / --target), and issue 15's "--plot draws N groups in O(N)".

The oracle of every test is the API called directly in the test on the same events; for a
per-group run, separate runs per group, each with its own SLO."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, read_events, replay, transitions
from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.incidents_file import read_incidents
from budgetlab.alerts.policy import as_policy
from budgetlab.alerts.scoring import score_alerts
from budgetlab.analyses.failure_buckets import bucket_breakdown
from budgetlab.analyses.incident import incident_report
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.analyses.window_lengths import compare_windows
from budgetlab.cli import main
from budgetlab.windows.binning import bin_events
from tests.group_lines import group_lines

FIXTURES = Path(__file__).parents[1] / "fixtures"
APACHE = FIXTURES / "elastic_apache" / "apache_logs"
TARGETS = {"recaptcha_v2": 0.93, "turnstile": 0.97}
TARGET_ARG = "recaptcha_v2=0.93,turnstile=0.97"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Four days of two captcha types, one degraded 2 h window (an incident), as CSV files."""
    d = tmp_path_factory.mktemp("analyses")
    rng = np.random.default_rng(16)
    n = 8000
    t = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 4 * 86400,
                                                                                   n)), unit="s")
    bad = (t >= pd.Timestamp("2026-11-03 10:00", tz="UTC")) & (t < pd.Timestamp("2026-11-03 12:00",
                                                                                tz="UTC"))
    ctype = rng.choice(["recaptcha_v2", "turnstile"], n)
    p_ok = np.where(bad, 0.5, np.where(ctype == "recaptcha_v2", 0.94, 0.98))
    outcome = np.where(rng.random(n) < p_ok, "success", np.where(rng.random(n) < 0.5, "timeout",
                                                                 "solve_error"))
    log = d / "log.csv"
    pd.DataFrame({"ts": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "outcome": outcome,
                  "captcha_type": ctype}).to_csv(
        log, index=False)
    inc = d / "incidents.csv"
    inc.write_text("incident_id,start,end,scope,kind\n"
                   "i1,2026-11-03T10:00:00Z,2026-11-03T12:00:00Z,*,outage\n"
                   "i2,2026-11-02T03:00:00Z,2026-11-02T03:30:00Z,captcha_type=turnstile,blip\n")
    return {"log": log, "incidents": inc, "events": read_events(log, by=["captcha_type"])}


def by_type(events, ctype):
    return events[events["captcha_type"] == ctype].reset_index(drop=True)


# --- recalibrate --------------------------------------------------------------------------------


def test_recalibrate_table_equals_the_api(files, tmp_path, capsys):
    out = tmp_path / "rec.csv"
    assert main(["recalibrate", str(files["log"]), "--by", "captcha_type", "--target", "0.95",
                 "--window", "6h",
                 "--n-boot", "0", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    want = recalibrate(files["events"], by="captcha_type", slo=SLO(0.95, window="6h"),
                       n_boot=0).summary
    got = pd.read_csv(out)
    assert got["captcha_type"].tolist() == want["captcha_type"].astype(str).tolist()
    for col in ("events", "success_rate", "p1", "current_share_limit", "recommended_target"):
        assert np.allclose(got[col], want[col], rtol=0, atol=1e-12, equal_nan=True), col
    assert got["verdict"].tolist() == want["verdict"].astype(str).tolist()
    for _, row in want.iterrows():  # the printed line names the figures of the API
        line = group_lines(printed, "captcha_type=")[f"captcha_type={row['captcha_type']}"]
        assert f"the rule's target {row['recommended_target']:.4g}" in line
        assert (f"observed {row['success_rate'] * 100:.2f} % over {int(row['events']):,} "
                "events") in line


def test_recalibrate_shows_a_progress_bar_on_a_terminal(files, tmp_path, capsys, monkeypatch):
    import budgetlab._util.progress as progress_module

    args = ["recalibrate", str(files["log"]), "--by", "captcha_type", "--target", "0.95",
            "--window", "6h",
            "--n-boot", "20"]
    monkeypatch.setattr(progress_module, "progress_enabled", lambda: True)  # stderr as a terminal
    assert main(args) == 0
    assert "recalibrate" in capsys.readouterr().err
    monkeypatch.setattr(progress_module, "progress_enabled", lambda: False)  # a log file: no bar
    assert main(args) == 0
    assert "recalibrate:" not in capsys.readouterr().err


def test_recalibrate_per_group_targets_equal_separate_runs(files, tmp_path, capsys):
    out = tmp_path / "rec.csv"
    assert main(["recalibrate", str(files["log"]), "--by", "captcha_type", "--target", TARGET_ARG,
                 "--window", "6h",
                 "--n-boot", "0", "--limit-status", "critical", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "SLO: target recaptcha_v2 0.93, turnstile 0.97; window 6 h" in printed
    got = pd.read_csv(out).set_index("captcha_type")
    # oracle: a one-SLO run per type's target over the same history
    for ctype, target in TARGETS.items():
        sep = recalibrate(files["events"], by="captcha_type", slo=SLO(target, window="6h"),
                          n_boot=0,
                          limit_status="critical").summary.set_index("captcha_type").loc[ctype]
        assert got.loc[ctype, "current_target"] == target
        for col in ("events", "success_rate", "current_share_limit", "recommended_target"):
            assert got.loc[ctype, col] == pytest.approx(sep[col], abs=1e-12, nan_ok=True), (ctype,
                                                                                            col)
        assert got.loc[ctype, "verdict"] == str(sep["verdict"])


def test_recalibrate_without_a_target_says_so_once(tmp_path, capsys):
    # the header says there is no current target; no group's lines repeat it, and each still
    # gives the rule's target (or why there is none) as the table has it
    out = tmp_path / "rec.csv"
    assert main(["recalibrate", str(APACHE), "--preset", "access", "--outcomes",
                 "2xx=success,3xx=success,4xx=skip,5xx=server_error", "--window", "1h", "--by",
                 "method", "--n-boot", "0", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    table = pd.read_csv(out)
    assert len(table) > 1 and table["current_target"].isna().all()
    assert text.count("no current target") == 1
    assert "no current target given (--target or --slo): recommendations only" in text
    lines = group_lines(text, "method=")  # each group's line, filled to 100 columns
    for _, row in table.iterrows():
        line = lines[f"method={row['method']}"]
        if pd.notna(row["recommended_target"]):
            assert f"the rule's target {row['recommended_target']:.4g}" in line
        else:
            assert "no recommended target" in line


# --- compare-windows ----------------------------------------------------------------------------


def test_compare_windows_table_equals_the_api(files, tmp_path, capsys):
    out, png = tmp_path / "cw.csv", tmp_path / "cw.svg"
    assert main(["compare-windows", str(files["log"]), "--windows", "1h,6h,24h", "--target", "0.9",
                 "--incidents", str(files["incidents"]), "--out", str(out), "--plot",
                 str(png)]) == 0
    capsys.readouterr()
    inc = read_incidents(files["incidents"])
    want = compare_windows(files["events"], SLO(0.9), ["1h", "6h", "24h"], incidents=inc)
    got = pd.read_csv(out)
    assert got["window"].tolist() == want["window"].astype(str).tolist() == ["1h", "6h", "1d"]
    for col in ("transitions", "share_exhausted", "round_trips", "detected", "incidents"):
        assert np.allclose(got[col], want[col], atol=1e-12), col
    assert b"<svg" in png.read_bytes()[:2000]


def test_compare_windows_per_group_equals_separate_runs(files, tmp_path, capsys):
    out = tmp_path / "cw.csv"
    assert main(["compare-windows", str(files["log"]), "--windows", "1h,6h", "--by", "captcha_type",
                 "--target", TARGET_ARG, "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_csv(out)
    for ctype, target in TARGETS.items():
        # a group's rows equal those of a one-SLO run of the whole table (the observation ends at
        # the table's last event for every group: time after a group's last event is no traffic)
        want = compare_windows(files["events"], SLO(target), ["1h", "6h"], by="captcha_type")
        want = want[want["captcha_type"] == ctype]
        mine = got[got["captcha_type"] == ctype]
        for col in ("events", "transitions", "share_warning", "share_critical", "share_exhausted"):
            assert np.allclose(mine[col], want[col], atol=1e-12), (ctype, col)


@pytest.mark.parametrize("target", ["0.9", TARGET_ARG])
def test_compare_windows_header_names_the_windows_compared_not_the_slos(files, target, capsys):
    # the SLO's own window (24 h by default) is none of those compared: the header lists the
    # compared windows and the SLO line says no window
    argv = ["compare-windows", str(files["log"]), "--windows", "1h,6h,calendar:day", "--target",
            target, "--by", "captcha_type"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("SLO: target "))
    head = " ".join(lines[:at])  # the header, filled to 100 columns
    assert head.endswith("the seed tracker under 3 windows: 1 h, 6 h, calendar:day"), head
    assert "window" not in lines[at], lines[at]


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_compare_windows_leaves_thin_rows_blank_and_says_why(tmp_path, capsys):
    # the web log's requests come in a one-minute burst each hour: a 5 min window holds traffic
    # about 6 min an hour, 5 of them warm-up; far less than the day its shares and rates need
    out = tmp_path / "cw.csv"
    assert main(["compare-windows", str(APACHE), "--preset", "access", "--outcomes",
                 "2xx=success,3xx=success,4xx=skip,5xx=server_error", "--windows", "5min,1h",
                 "--target", "0.99", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    got = pd.read_csv(out, keep_default_na=False).set_index("window")
    five, hour = got.loc["5m"], got.loc["1h"]
    assert five["hours"] < 24 <= hour["hours"] and hour["note"] == ""
    # 81.2 min evaluated in all (1.3533 h), in words truncated to its two largest units
    assert five["hours"] == pytest.approx(81.2 / 60)
    # and no event in it (every burst's requests are in its warm-up): no figure off the status
    assert five["note"] == ("0 events in the evaluated span: for its 1 h 21 min of evaluated "
                            "time the window held only events of a warm-up (the first 5 min of a "
                            "stretch of traffic, which only fills the window); no time shares, "
                            "status changes, rates per day or detections without an event in it")
    # the table spells a window as its header does ("5 min", "1 h"; the --out table keeps "5m")
    rows = {" ".join(ln.split()[:2]): ln.split()[2:] for ln in text.splitlines()
            if ln.split()[:2] in (["5", "min"], ["1", "h"])}
    # the thin row: its counts and hours, then blank shares and rates; the other row in full
    assert rows["5 min"] == [str(five["events"]), f"{five['hours']:.2f}",
                             f"{five['hours_no_traffic']:.2f}"]
    per_day = float(hour["transitions_per_day"])  # read as text: the thin row's cell is empty
    assert rows["1 h"].count("%") == 3 and rows["1 h"][-2] == f"{per_day:.2f}"
    assert five["transitions_per_day"] == five["share_exhausted"] == ""  # as the table shows
    flat = " ".join(text.split())
    assert ("shares and rates per day (and, without an event, detections) left blank, too thin "
            "to go by: 5 min: " + five["note"]) in flat


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_compare_windows_shows_unseen_incidents_when_there_are_some(tmp_path, capsys):
    # 04:20-04:40 falls between two hourly bursts: with a 10 min grace the 30 s window holds no
    # traffic from its start to its end + grace (unseen); the 1 h window still holds 04:05's.
    # (A 5 min window holds no event after its warm-ups, its detections withheld: 30 s, whose
    # bursts outlast it, has 4,851 events in its evaluated span.)
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end,scope\n"
                   "gap,2015-05-18T04:20:00Z,2015-05-18T04:40:00Z,*\n")
    argv = ["compare-windows", str(APACHE), "--preset", "access", "--outcomes",
            "2xx=success,3xx=success,4xx=skip,5xx=server_error", "--windows", "30s,1h",
            "--target", "0.999", "--incidents", str(inc)]
    assert main([*argv, "--grace", "10min"]) == 0
    text = capsys.readouterr().out
    head = next(ln.split() for ln in text.splitlines() if ln.split()[:1] == ["window"])
    # a row's cells after its window ("30 s", "1 h": two words), against the header's after
    # "window"
    rows = {" ".join(ln.split()[:2]): ln.replace(" %", "%").split()[2:]
            for ln in text.splitlines() if ln.split()[:2] in (["30", "s"], ["1", "h"])}
    k = head.index("unseen") - 1
    assert head[k - 2:k + 2] == ["incidents", "detected", "missed", "unseen"]
    # the 30 s row's shares and rates are blank (too thin): its cells shift left by five; so are
    # the 1 h row's since stop 59 (9,710 events x 0.001 = 9.71 expected failures, under 10)
    assert rows["30 s"][k - 5] == "1" and rows["1 h"][k - 5] == "0"
    assert "unseen: incidents during which the window held no traffic" in " ".join(text.split())
    assert main([*argv, "--grace", "1h"]) == 0  # 05:05's burst is within the grace: seen
    assert "unseen" not in capsys.readouterr().out


def test_compare_windows_says_when_no_incident_counts(files, tmp_path, capsys):
    # the log starts 2026-11-01 at its first event (a seeded uniform draw: read from the events);
    # one incident a month before it, one whose scope covers no captcha type: neither counts
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end,scope\n"
                   "early,2026-10-01T10:00:00Z,2026-10-01T11:00:00Z,*\n"
                   "other,2026-11-03T10:00:00Z,2026-11-03T11:00:00Z,captcha_type=image\n")
    argv = ["compare-windows", str(files["log"]), "--windows", "1h,6h", "--target", "0.9",
            "--by", "captcha_type", "--incidents", str(inc)]
    assert main([*argv, "--warmup", "2h"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    first = f"{files['events']['ts'].min():%Y-%m-%d %H:%M:%S}"
    # the scope that matches no group said as alerts says it; the left-out line counts the other
    assert ("1 of the 2 incidents of --incidents ('other') has a scope that matches no group of "
            "the log (by captcha_type): not scored, neither detected nor missed; check its "
            "scope.") in text
    assert ("1 of the 2 incidents of --incidents is left out (no row, no detection or recovery "
            f"counted for it): 1 starts before the first event ({first} UTC); check its times "
            "(UTC) and scopes against the log") in text
    # the file's incidents that do count (the fixture's): no such line
    assert main([*argv[:-1], str(files["incidents"])]) == 0
    assert "left out" not in capsys.readouterr().out


def test_compare_windows_says_which_incidents_are_left_out_when_others_count(files, tmp_path,
                                                                            capsys):
    # 1 h after the first event (in the 2 h warm-up), a month before it, a scope with no group:
    # left out, each for its reason; 2026-11-03 10:00 (inside the log, all types) counts
    first = files["events"]["ts"].min()
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end,scope\n"
                   f"warm,{first + pd.Timedelta('1h'):%Y-%m-%dT%H:%M:%SZ},"
                   f"{first + pd.Timedelta('90min'):%Y-%m-%dT%H:%M:%SZ},*\n"
                   "early,2026-10-01T10:00:00Z,2026-10-01T11:00:00Z,*\n"
                   "other,2026-11-03T10:00:00Z,2026-11-03T11:00:00Z,captcha_type=image\n"
                   "counted,2026-11-03T10:00:00Z,2026-11-03T11:00:00Z,*\n")
    argv = ["compare-windows", str(files["log"]), "--windows", "1h,6h", "--target", "0.9",
            "--by", "captcha_type", "--incidents", str(inc), "--warmup", "2h"]
    assert main(argv) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("2 of the 4 incidents of --incidents are left out (no row, no detection or recovery "
            f"counted for them): 1 starts before the first event ({first:%Y-%m-%d %H:%M:%S} "
            "UTC); 1 starts in the warm-up (the 2 h of --warmup after the first event); check "
            "their times (UTC) and scopes against the log") in text
    assert ("1 of the 4 incidents of --incidents ('other') has a scope that matches no group of "
            "the log (by captcha_type)") in text


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_compare_windows_says_an_incident_unrecovered_at_the_end(tmp_path, capsys):
    # one attempt a minute 00:00 .. 01:59, every one from 01:30 on fails, the incident 01:30 ..
    # 02:00 (the log ends inside it). Under 0.9 with a 1 h window the window is below target from
    # the first few failures on and stays there to the end: detected, never recovered, so the
    # recovery cell says "none recovered" and the text says why (an unrecovered column, as
    # unseen has one)
    log, inc = tmp_path / "log.csv", tmp_path / "inc.csv"
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": ["success"] * 90 + ["timeout"] * 30}).to_csv(log, index=False)
    inc.write_text("incident_id,start,end\nend,2026-01-01T01:30:00Z,2026-01-01T02:00:00Z\n")
    assert main(["compare-windows", str(log), "--windows", "1h", "--target", "0.9",
                 "--incidents", str(inc)]) == 0
    text = capsys.readouterr().out
    head = next(ln.split() for ln in text.splitlines() if ln.split()[:1] == ["window"])
    assert head[-6:] == ["incidents", "detected", "missed", "unrecovered", "detection_median",
                         "recovery_median"]
    row = next(ln.split() for ln in text.splitlines() if ln.split()[:2] == ["1", "h"])
    # incidents, detected, missed (none: the one incident is detected), unrecovered; detected at
    # the 6th failure (01:35: 6 of ~60 events leave under 10 % of the budget of 6), 5 min after
    # the start; the recovery cell says why it has no time (never a blank)
    assert row[-8:] == ["1", "1", "0", "1", "5", "min", "none", "recovered"]
    assert ("unrecovered: incidents still at critical or worse when the log ends (no recovery "
            "time)") in " ".join(text.split())


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_compare_windows_says_why_a_detection_or_recovery_cell_has_no_time(tmp_path, capsys):
    # two kinds, one success a minute each 00:00 .. 03:59; the incident 02:00 .. 02:30 is scoped
    # to kind a, which never fails: under 0.9 its 1 h window never reaches critical (none
    # detected, so nothing to recover from); kind b has no incident. Each cell says which, in
    # the words the figure writes at that window, never a blank
    log, inc = tmp_path / "log.csv", tmp_path / "inc.csv"
    ts = pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC")
    pd.DataFrame({"ts": np.repeat(ts.strftime("%Y-%m-%dT%H:%M:%SZ"), 2),
                  "kind": ["a", "b"] * 240, "outcome": "success"}).to_csv(log, index=False)
    inc.write_text("incident_id,start,end,scope\n"
                   "quiet,2026-01-01T02:00:00Z,2026-01-01T02:30:00Z,kind=a\n")
    assert main(["compare-windows", str(log), "--windows", "1h", "--target", "0.9", "--by",
                 "kind", "--incidents", str(inc)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {ln.split()[0]: ln.split() for ln in lines if ln.split()[:1] in (["a"], ["b"])}
    # incidents, detected, missed (a: its one incident; b: none), then the time cells
    assert rows["a"][-7:] == ["1", "0", "1", "none", "detected", "none", "detected"]
    assert rows["b"][-7:] == ["0", "0", "0", "no", "incident", "no", "incident"]


def test_compare_windows_legend_says_a_calendar_window_has_no_warmup(tmp_path, capsys):
    # one success a minute 00:00 .. 03:59 (3 h 59 min from the first event to the last): the 1 h
    # window's first hour is warm-up (2 h 59 min counted), the calendar day counts from 00:00
    # (3 h 59 min); the legend says so, and says nothing of calendar windows without one
    log = tmp_path / "log.csv"
    ts = pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success"}).to_csv(
        log, index=False)
    out = tmp_path / "cw.csv"
    argv = ["compare-windows", str(log), "--target", "0.9", "--out", str(out)]
    assert main([*argv, "--windows", "1h,calendar:day"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    hours = pd.read_csv(out).set_index("window")["hours"]
    assert hours["1h"] == pytest.approx(179 / 60) and hours["calendar:day"] == pytest.approx(
        239 / 60)
    assert ("hours: time the window held traffic, after warm-up (a rolling window: the first "
            "window of each stretch of traffic; a calendar window has none, it counts from a "
            "stretch's first event and resets at midnight in UTC, --tz; weeks on Monday);") in text
    assert "under 2 windows: 1 h, calendar:day" in text
    # the zone of the resets is the one given (the table's days are not UTC days then)
    assert main([*argv, "--windows", "calendar:day", "--tz", "Asia/Tokyo", "--force"]) == 0
    assert "resets at midnight in Asia/Tokyo, --tz;" in " ".join(capsys.readouterr().out.split())
    assert main([*argv, "--windows", "1h", "--force"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "calendar" not in text and "under 1 window: 1 h" in text


# --- buckets ------------------------------------------------------------------------------------


def test_compare_windows_states_its_warmup_and_refuses_one_longer_than_the_log(tmp_path, capsys):
    # 00:00 .. 03:59, one success a minute; --warmup 3h: from 03:00 on (59 min compared); 4 h
    # reaches past the last event (3 h 59 min after the first)
    log = tmp_path / "log.csv"
    ts = pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success"}).to_csv(
        log, index=False)
    assert main(["compare-windows", str(log), "--windows", "5min,1h", "--warmup", "3h"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("hours: time the window held traffic, after the first window of each stretch of "
            "traffic (warm-up) and from 3 h after the log's first event on (--warmup); shares and "
            "rates per day are over it;") in text
    assert main(["compare-windows", str(log), "--windows", "5min,1h", "--warmup", "4h"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "budgetlab: error: --warmup 4h leaves no time to compare: the log spans 3 h 59 min from "
        "its first event to its last; give a shorter --warmup.")


def test_compare_windows_names_a_window_given_twice_by_its_flag(tmp_path, capsys):
    # 1h and 60min are one window: the refusal names both spellings and --windows (it said
    # "windows lists the same window twice.")
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome\n2026-01-01T00:00:00Z,success\n2026-01-01T01:00:00Z,success\n")
    assert main(["compare-windows", str(log), "--windows", "1h,60min,24h"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "budgetlab: error: --windows lists the same window twice ('1h' and '60min'); give each "
        "once.")


def test_buckets_table_equals_the_api_and_groups_are_off_by_default(files, tmp_path, capsys):
    out = tmp_path / "b.csv"
    assert main(["buckets", str(files["log"]), "--target", "0.95", "--window", "1h", "--out",
                 str(out)]) == 0
    printed = capsys.readouterr().out
    want = bucket_breakdown(files["events"], SLO(0.95, window="1h"), by=None)
    got = pd.read_csv(out)
    assert "captcha_type" not in got.columns  # default --by: none
    assert got["bucket"].tolist() == want["bucket"].astype(str).tolist()
    for col in ("failures", "burn_rate", "sli_without", "transitions", "transitions_caused",
                "pages_caused"):
        assert np.allclose(got[col], want[col], atol=1e-12), col
    assert (f"{int(want['failures'].sum()):,} failures in the buckets 'timeout', "
            "'solve_error'") in " ".join(printed.split())  # the header, filled to 100 columns


def test_buckets_per_group_targets_equal_separate_runs(files, tmp_path, capsys):
    out, png = tmp_path / "b.csv", tmp_path / "b.png"
    assert main(["buckets", str(files["log"]), "--by", "captcha_type", "--target", TARGET_ARG,
                 "--window", "1h",
                 "--out", str(out), "--plot", str(png)]) == 0
    capsys.readouterr()
    got = pd.read_csv(out)
    for ctype, target in TARGETS.items():  # share_of_all_failures spans the groups: not compared
        want = bucket_breakdown(by_type(files["events"], ctype), SLO(target, window="1h"),
                                by="captcha_type")
        mine = got[got["captcha_type"] == ctype].reset_index(drop=True)
        assert mine["bucket"].tolist() == want["bucket"].astype(str).tolist()
        for col in ("failures", "burn_rate", "sli_without", "transitions", "transitions_caused",
                    "alerts_caused",
                    "pages_caused"):
            assert np.allclose(mine[col], want[col], atol=1e-12), (ctype, col)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_buckets_on_a_web_log_name_the_buckets_from_the_data(capsys):
    # ../shared/data/README.md: 3 responses with status 500 among 10,000 (vendored copy)
    assert main(["buckets", str(APACHE), "--window", "1h", "--outcomes",
                 "2xx=success,3xx=success,4xx=skip,5xx=server_error"]) == 0
    out = capsys.readouterr().out
    assert "3 failures in the bucket 'server_error' SLO: " in " ".join(out.split())  # header end
    assert "timeout" not in out and "solve_error" not in out and "captcha" not in out


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_buckets_leave_a_thin_group_blank_and_say_why(capsys):
    """The Apache log by method (shared/data/README.md: GET 9,952, HEAD 42, OPTIONS 1, POST 5
    requests; OPTIONS' one is a 500): at 95 % a verdict needs 200 events (10 expected failures),
    so only GET gets figures; OPTIONS' burn rate 20 (1 / (1 x 0.05)) and its pages are not
    printed."""
    assert main(["buckets", str(APACHE), "--preset", "access", "--by", "method"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.split()[:1] in (["GET"], ["HEAD"], ["OPTIONS"], ["POST"])}
    assert rows["OPTIONS"] == ["OPTIONS", "server_error", "1", "1"]
    assert rows["HEAD"] == ["HEAD", "server_error", "42", "0"]
    assert rows["POST"] == ["POST", "server_error", "5", "0"]
    assert rows["GET"][:7] == ["GET", "server_error", "9,952", "2", "100.00", "%", "0.02"]
    text = " ".join(out.split())
    assert "figures left blank, too thin for a verdict:" in text
    assert ("method=OPTIONS: 1 event in the group: too few for a verdict (under 95 % it holds "
            "0.05 expected failures; one needs at least 10, i.e. 200 events)") in text
    assert "method=GET" not in text


def test_buckets_refuse_a_freq_that_does_not_divide_the_policy_before_the_read(tmp_path, capsys):
    # the workbook policy of a 30 d period: page_1h's windows are 1 h and 5 min; 7 min divides
    # neither. Refused by its flag before the log is read (this one does not exist), as alerts
    # refuses it, never as the API's "window=1h is not a whole number of bins of 7m"
    assert main(["buckets", str(tmp_path / "absent.csv"), "--freq", "7min"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        "budgetlab: error: --freq 7min does not divide the 1 h window of the workbook policy's "
        "page_1h tier (its windows are whole numbers of bins); give a --freq that divides every "
        "window, e.g. 1min.")


# --- incident -----------------------------------------------------------------------------------


def test_incident_prints_the_report_of_the_api(files, tmp_path, capsys):
    out, pdf = tmp_path / "inc.csv", tmp_path / "inc.pdf"
    assert main(["incident", str(files["log"]), "--start", "2026-11-03T10:00", "--end",
                 "2026-11-03T12:00",
                 "--target", "0.9", "--window", "1h", "--out", str(out), "--plot", str(pdf)]) == 0
    printed = capsys.readouterr().out
    rep = incident_report(files["events"], SLO(0.9, window="1h"), "2026-11-03T10:00",
                          "2026-11-03T12:00")
    assert " ".join(rep.summary.split()) in " ".join(printed.split())
    got = pd.read_csv(out)
    assert len(got) == len(rep.transitions)
    assert got["to_status"].tolist() == rep.transitions["to_status"].astype(str).tolist()
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_incident_from_the_incidents_file_uses_each_scope(files, capsys):
    assert main(["incident", str(files["log"]), "--incidents", str(files["incidents"]), "--by",
                 "captcha_type",
                 "--target", TARGET_ARG, "--window", "1h"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    inc = read_incidents(files["incidents"])
    # oracle: the turnstile incident replayed with turnstile's own SLO
    for _, row in inc.iterrows():
        scope = row["scope"]
        slo = SLO(TARGETS["turnstile"], window="1h") if scope == "captcha_type=turnstile" else None
        if slo is None:
            continue
        rep = incident_report(files["events"], slo, row["start"], row["end"], by="captcha_type",
                              scope=scope,
                              incidents=inc)
        assert " ".join(rep.summary.split()) in printed
    assert "i1:" in printed and "i2:" in printed


# --- alerts -------------------------------------------------------------------------------------


def test_alerts_scores_equal_the_api_per_policy(files, tmp_path, capsys):
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(files["log"]), "--incidents", str(files["incidents"]), "--target",
                 "0.95",
                 "--policy", "workbook,pyrra", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    inc = read_incidents(files["incidents"])
    bins = bin_events(files["events"], "1min")
    got = pd.read_csv(out)
    for name in ("workbook", "pyrra"):
        pol = as_policy(name, period="30D")
        ep = alert_episodes(bins, 0.95, pol)
        want = score_alerts(ep, inc, bins=bins, target=0.95, period=pol.period, policy=pol)
        mine = got[got["policy"] == name].reset_index(drop=True)
        assert mine["tier"].tolist() == want["tier"].astype(str).tolist()
        for col in ("episodes", "detected", "precision", "recall", "alerts_per_day"):
            assert np.allclose(mine[col], want[col], equal_nan=True, atol=1e-12), (name, col)
        assert f"policy {name} ({len(ep)} alert episode{'' if len(ep) == 1 else 's'}" in printed


def test_the_policy_line_fills_to_100_columns(files, capsys):
    """The workbook's four tiers (the SRE workbook's burns: 14.4 over 1 h, 6 over 6 h, 3 over 1 d,
    1 over 3 d) made a line of 112 characters; it is filled to 100, each tier's name whole."""
    assert main(["alerts", str(files["log"]), "--incidents", str(files["incidents"]), "--target",
                 "0.95"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("policy workbook ("))
    head = lines[at: at + 2]
    assert all(len(ln) <= 100 for ln in head) and len(head[1]) > 0
    assert " ".join(head).endswith("tiers: page_1h burn 14.4 over 1h/5m, page_6h burn 6 over "
                                   "6h/30m, ticket_1d burn 3 over 1d/2h, ticket_3d burn 1 over "
                                   "3d/6h)")


def test_alerts_per_group_targets_equal_separate_runs(files, tmp_path, capsys):
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(files["log"]), "--incidents", str(files["incidents"]), "--by",
                 "captcha_type",
                 "--target", TARGET_ARG, "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_csv(out)
    inc = read_incidents(files["incidents"])
    pol = as_policy("workbook", period="30D")
    for ctype, target in TARGETS.items():
        bins = bin_events(by_type(files["events"], ctype), "1min", by="captcha_type")
        ep = alert_episodes(bins, target, pol)
        want = score_alerts(ep, inc, bins=bins, target=target, period=pol.period, policy=pol)
        want = want[want["captcha_type"] == ctype].reset_index(drop=True)
        mine = got[got["captcha_type"] == ctype].reset_index(drop=True)
        assert mine["tier"].tolist() == want["tier"].astype(str).tolist()
        for col in ("episodes", "incidents", "detected", "recall"):
            assert np.allclose(mine[col], want[col], equal_nan=True), (ctype, col)


# --- per-group SLOs from an OpenSLO file ----------------------------------------------------------

_ONE = ("apiVersion: openslo/v1\nkind: SLO\nmetadata: {{name: {name}, labels: {{captcha_type: "
        "{ctype}}}}}\n"
        "spec: {{service: captcha, indicatorRef: solves, budgetingMethod: Occurrences,\n"
        "  timeWindow: [{{duration: 30d, isRolling: true}}], objectives: [{{target: "
        "{target}}}]}}\n")


def test_replay_with_label_bound_slos_applies_each_to_its_group(files, tmp_path, capsys):
    slos = tmp_path / "slos.yaml"
    slos.write_text("---\n".join(_ONE.format(name=f"{c.replace('_', '-')}-avail", ctype=c, target=t)
                                 for c, t in TARGETS.items()))
    out = tmp_path / "tr.csv"
    assert main(["replay", str(files["log"]), "--slo", str(slos), "--by", "captcha_type",
                 "--window", "1h",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert ("SLOs bound to groups: slos.yaml: captcha_type=recaptcha_v2 -> recaptcha-v2-avail "
            "(target 0.93)") in printed
    assert "SLO: target recaptcha_v2 0.93, turnstile 0.97; window 1 h" in printed
    want = pd.concat([transitions(replay(by_type(files["events"], c), SLO(t, window="1h"),
                                         by="captcha_type"))
                      for c, t in TARGETS.items()]).sort_values(["ts", "captcha_type"],
                                                                kind="stable")
    got = pd.read_csv(out).sort_values(["ts", "captcha_type"], kind="stable")
    assert len(got) == len(want) > 0
    assert got["to_status"].tolist() == want["to_status"].astype(str).tolist()
    assert got["burn_rate"].tolist() == want["burn_rate"].tolist()
    record = json.loads((tmp_path / "tr.csv.run.json").read_text())
    assert [(g["group"], g["target"], g["window"]) for g in record["slo"]["per_group"]] == [
        (["recaptcha_v2"], 0.93, "1h"), (["turnstile"], 0.97, "1h")]
    # the same file drives an analysis: recalibrate takes each group's current target from it
    assert main(["recalibrate", str(files["log"]), "--slo", str(slos), "--by", "captcha_type",
                 "--window", "6h",
                 "--n-boot", "0"]) == 0
    rec = capsys.readouterr().out
    lines = group_lines(rec, "captcha_type=")
    for c, t in TARGETS.items():
        assert re.search(rf"^captcha_type={c}: .*current target {t:.4g};",
                         lines[f"captcha_type={c}"])


def test_alerts_use_each_groups_openslo_period(files, tmp_path, capsys):
    """The SRE budget period is each SLO's ``timeWindow`` (7 d and 28 d here), never a default
    30 d: the workbook preset is built per group for its own period (review of issue 16)."""
    periods = {"recaptcha_v2": "7d", "turnstile": "28d"}
    slos = tmp_path / "slos.yaml"
    slos.write_text("---\n".join(
        _ONE.format(name=f"{c.replace('_', '-')}-avail", ctype=c, target=t).replace("30d",
                                                                                    periods[c])
        for c, t in TARGETS.items()))
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(files["log"]), "--incidents", str(files["incidents"]), "--by",
                 "captcha_type",
                 "--slo", str(slos), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "SRE budget period per group: recaptcha_v2 7 d, turnstile 28 d" in " ".join(
        printed.split())  # the header, filled to 100 columns
    got = pd.read_csv(out)
    inc = read_incidents(files["incidents"])
    # each group alone, with the workbook built for its period, over the log's grid (the tiers'
    # long windows fill from the log's start)
    first = files["events"]["ts"].min().floor("1min")
    for ctype, target in TARGETS.items():
        slo = SLO(target, window="24h", period=periods[ctype].upper())
        bins = bin_events(by_type(files["events"], ctype), "1min", by="captcha_type", start=first)
        pol = as_policy("workbook", period=slo.period)
        ep = alert_episodes(bins, slo, pol)
        # a tier's window fills by the longest of the groups' (the 28 d preset's), as in the run
        ep.attrs["tier_windows"] = {t.name: t.long_window.value
                                    for t in as_policy("workbook", period="28D").tiers}
        want = score_alerts(ep, inc, bins=bins, target=slo)
        want = want[want["captcha_type"] == ctype].reset_index(drop=True)
        mine = got[(got["captcha_type"] == ctype) & (got["policy"] == "workbook")].reset_index(
            drop=True
        )
        assert mine["tier"].tolist() == want["tier"].astype(str).tolist()
        for col in ("episodes", "incidents", "detected", "recall"):
            assert np.allclose(mine[col], want[col], equal_nan=True), (ctype, col)


# --- one-line refusals --------------------------------------------------------------------------


@pytest.mark.parametrize("argv, needle", [
    ("alerts {log}", "--incidents"),
    ("incident {log}", "--start T --end T"),
    ("recalibrate {log} --target recaptcha_v2=0.9", "--by"),
    ("recalibrate {log} --by captcha_type --target recaptcha_v2=x", "GROUP=TARGET"),
    ("compare-windows {log} --target abc", "--target takes a number"),
    ("buckets {log} --plot {tmp}/b.gif", ".png, .svg, .pdf"),
    ("buckets {log} --out {tmp}/same.csv --plot {tmp}/same.csv", ".png"),
    ("alerts {log} --incidents {inc} --policy workbook,workbook", "twice"),
    ("recalibrate {log} --by captcha_type --target recaptcha_v2=0.9", "turnstile"),
])
def test_refusals_are_one_line_with_exit_2(argv, needle, files, tmp_path, capsys):
    args = shlex.split(argv.format(log=files["log"], inc=files["incidents"], tmp=tmp_path))
    assert main(args) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("budgetlab: error")]
    assert len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in err


def test_outputs_that_are_inputs_are_refused_before_the_work(files, tmp_path, capsys):
    before = files["incidents"].read_bytes()
    assert main(["alerts", str(files["log"]), "--incidents", str(files["incidents"]), "--out",
                 str(files["incidents"]), "--force"]) == 2
    assert files["incidents"].read_bytes() == before
    assert "budgetlab: error" in capsys.readouterr().err


def test_alerts_text_has_no_nan_and_states_observed_time(files, capsys):
    """A tier that never fired has no precision: the text says so in words (the table keeps NaN)."""
    assert main(["alerts", str(files["log"]), "--incidents", str(files["incidents"]), "--target",
                 "0.95",
                 "--policy", "workbook"]) == 0
    printed = capsys.readouterr().out
    bins = bin_events(files["events"], "1min")
    pol = as_policy("workbook", period="30D")
    want = score_alerts(alert_episodes(bins, 0.95, pol), read_incidents(files["incidents"]),
                        bins=bins, target=0.95,
                        policy=pol)
    assert want["precision"].isna().any()  # the fixture has a tier that never fired
    assert "never fired" in printed and "observed_days" in printed and "observed time" in printed
    for word in ("nan", "NaN", "NaT"):
        assert word not in printed


@pytest.mark.parametrize("start, end, row", [
    # detected: detection 6 min, reset -55 min (pandas' Timedelta says "-1 days +23:05")
    ("01:00", "03:00", ["1", "1", "1", "1", "6", "min", "-55", "min"]),
    # missed: no detection or reset time, said in words, never a blank cell
    ("04:00", "04:30", ["0", "1", "0", "0", "none", "detected", "none", "detected"]),
])
@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_alerts_print_a_reset_before_the_incident_end_as_its_negative_size(tmp_path, capsys,
                                                                          start, end, row):
    """One event a minute, 6 h, the minutes 60..69 failed; target 0.9, the single-window policy
    (1 h, burn 0.9: fires while the hour's bins hold more than 0.09 x 60 = 5.4 failures).

    By hand: the hour ending 01:06 holds the failures of minutes 60..65 (6): fires at 01:06; the
    hour ending 02:05 holds those of 65..69 (5): stops at 02:05. The incident [01:00, 03:00) is
    detected at 01:06 (6 min), its reset 02:05 - 03:00 = -55 min. The incident [04:00, 04:30)
    holds no failure; the episode ended before it began (an alert detects an incident when it
    fires between its start and its end plus the 1 h grace): not detected, precision 0.
    The hour's window is full from 01:00: the episode and the incident are scored; the 5 h after
    it are under a day of observed time, so alerts_per_day reads "withheld" and a line says why.
    """
    ts = pd.date_range("2026-01-05", periods=360, freq="1min", tz="UTC")
    outcome = np.where((np.arange(360) >= 60) & (np.arange(360) < 70), "solve_error", "success")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts, "outcome": outcome}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text(f"incident_id,start,end\ni1,2026-01-05T{start}:00Z,2026-01-05T{end}:00Z\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9",
                 "--policy", "single_window"]) == 0
    out = capsys.readouterr().out
    rows = [ln.split() for ln in out.splitlines() if ln.split()[:2] == ["page_1h", "page"]]
    # tier severity episodes (precision incidents detected recall detection reset: row)
    # alerts_per_day observed_days episodes_filling incidents_filling
    assert rows == [["page_1h", "page", "1", *row, "withheld", "0.208", "0", "0"]]
    assert ("alerts_per_day withheld, too thin to go by (a rate per day needs at least 24 h of "
            "observed time): page_1h (5 h observed), the page tiers merged (5 h observed), all "
            "tiers merged (5 h observed).") in " ".join(out.split())


def test_incident_on_the_elastic_log_counts_by_hand(capsys):
    """docs/incident.md's "Two peak burns" case, target 99.9 %, 1 h, 03:00-05:00 on May 18.

    Counted in the raw file with grep: the 03:05 burst has 114 requests (one 500, at 03:05:34),
    97 of them at 03:05:06 or later; the 04:05 burst has 115, 10 of them before the first of the
    two requests of 04:05:06. The tracker's peak is at that request: 1 / ((97 + 10 + 1 - 1) x
    0.001) = 1 / 0.107 = 9.35 (its hour [03:05:06, 04:05:06] holds 107 events up to it); the
    policy's hour ending at 04:05 holds the whole 03:05 burst: 1 / 0.114 = 8.77; the incident
    holds both bursts: 1 failure in 229 events, burn 1 / 0.229 = 4.37, withheld with the budget
    share: 229 events hold 0.229 expected failures under 99.9 %, too few for a verdict."""
    assert main(["incident", str(APACHE), "--preset", "access", "--start", "2015-05-18T03:00Z",
                 "--end", "2015-05-18T05:00Z", "--target", "0.999", "--window", "1h"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(at its events: peak 1 h burn 9.35 at 04:05, lowest 1 h success 99.07 %;" in text
    # held on the window's clock (counted with pandas over [t - 1 h, t] at every arrival and
    # departure): fewest events with the failure in at 04:05:05 + 1 ns, once the 03:05:05 request
    # has left and before the 04:05:06 ones arrive: 1 / (106 x 0.001) = 9.43, 105 / 106 = 99.06 %
    assert ("held on the window's clock, as the figure draws it: peak 1 h burn 9.43 from 04:05, "
            "lowest 1 h success 99.06 %)") in text
    assert "page_1h's 1 h burn, evaluated every minute, peaked at 8.77" in text
    assert ("the incident saw 1 failure in 229 events; its burn over the incident and its share "
            "of a 30 d error budget are withheld (the incident's 229 events hold 0.229 expected "
            "failures under the target") in text


def test_alerts_name_the_episodes_of_partial_windows(tmp_path, capsys):
    """Six hours, one event a minute, the minutes 2, 3 and 200..209 failed; target 0.9.

    By hand (a window W at the end t of a bin holds the bins [t - W, t)): at 00:03 every window
    holds the minutes 0..2, 1 failure in 3 (0.33): the workbook's 1 d tier (more than 3 x 0.1)
    and 3 d tier (1 x 0.1) and the single 1 h window (0.9 x 0.1) fire, all within their first
    long window of the log; its 1 h and 6 h pages (1.44, 0.6) never fire. The single window fires
    again at 03:26 (minutes 200..205 in its hour: 6 / 60 = 0.1 > 0.09), more than an hour after
    the log's start: 1 of its 2 episodes is scored apart, 2 of the workbook's 2 (their windows,
    1 d and 3 d, fill over the whole 6 h log, as does the incident at 03:20 for them)."""
    ts = pd.date_range("2026-01-05", periods=360, freq="1min", tz="UTC")
    failed = np.isin(np.arange(360), [2, 3, *range(200, 210)])
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts, "outcome": np.where(failed, "solve_error", "success")}).to_csv(
        log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end\ni1,2026-01-05T03:20:00Z,2026-01-05T03:30:00Z\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9",
                 "--policy", "workbook,single_window"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for tier, window in (("ticket_1d", "24 h"), ("ticket_3d", "3 d")):  # as the headers say them
        # the log's length, first to last event: 00:00 .. 05:59 (its 1 min bins reach 06:00)
        assert (f"{tier}'s long window ({window}) never filled: the log is 5 h 59 min long; its 1 "
                "episode is scored apart, 1 met no incident; 1 incident began then: not "
                "scored for this tier.") in text
    assert ("1 episode of page_1h began and ended in the first 1 h of a group's traffic (or of "
            "its return after a silence that long), while its long window filled; scored apart: "
            "1 met no incident.") in text


def test_alerts_say_how_naive_incident_times_were_read(tmp_path, capsys):
    """NAB's labelled windows are naive times; with --tz the log's naive times are Berlin's, the
    incidents file's stay UTC: said in one line, with the fix."""
    log = tmp_path / "log.csv"
    ts = pd.date_range("2026-01-05", periods=120, freq="1min")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%d %H:%M:%S"), "outcome": "success"}).to_csv(
        log, index=False)
    inc = tmp_path / "windows.csv"
    inc.write_text("incident_id,start,end\nW1,2026-01-05 00:30:00.000000,2026-01-05 01:00:00\n"
                   "W2,2026-01-05T01:10:00Z,2026-01-05T01:20:00Z\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--tz", "Europe/Berlin"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("windows.csv: 1 of 2 incidents has times without an offset, read as UTC (--tz "
            "applies to the log, not to this file); write them with Z or an offset such as +01:00 "
            "to mean another zone.") in text


@pytest.mark.parametrize("argv, tail", [
    # 7 min divides none of the presets' windows: the first policy named is the one said
    (["alerts", "{log}", "--incidents", "{inc}", "--policy", "sloth,workbook", "--freq", "7min"],
     "the 1 h window of the sloth policy's page_quick tier"),
    # Pyrra's 30 d windows: 1 h 4 min (64 min) is no whole number of 5-minute bins
    (["incident", "{log}", "--incidents", "{inc}", "--policy", "pyrra", "--freq", "5min"],
     "the 64 min window of the pyrra policy's critical_1h4m tier"),
])
def test_a_freq_that_does_not_divide_a_window_names_freq(files, capsys, argv, tail):
    """It said "window=1h is not a whole number of bins of 7m; bin the events with a freq that
    divides it": the tracker's --window named for a policy's window, and no flag for the fix."""
    argv = [a.format(log=files["log"], inc=files["incidents"]) for a in argv]
    assert main(argv) == 2
    freq = argv[-1]
    assert capsys.readouterr().err == (
        f"budgetlab: error: --freq {freq} does not divide {tail} (its windows are whole numbers "
        "of bins); give a --freq that divides every window, e.g. 1min.\n")


def test_incident_header_speaks_the_zone_of_the_summary(tmp_path, capsys):
    """--tz Europe/Berlin: the header gave the window in UTC ("00:40 .. 04:10 UTC") above a
    summary in CET ("Between 01:40 and 05:10 CET"); across the end of summer time each end has
    its own zone (02:30 CEST is 00:30 UTC, 02:30 CET is 01:30 UTC)."""
    log = tmp_path / "log.csv"
    ts = pd.date_range("2026-10-24 12:00", periods=36 * 60, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts, "outcome": "success"}).to_csv(log, index=False)
    for start, end, header in [
        ("2026-10-25 02:30+02:00", "2026-10-25 02:30+01:00",
         "incident: 2026-10-25 02:30 CEST .. 2026-10-25 02:30 CET, scope *"),
        ("2026-10-24 20:00", "2026-10-24 22:00",
         "incident: 2026-10-24 20:00 .. 2026-10-24 22:00 CEST, scope *"),
    ]:
        assert main(["incident", str(log), "--start", start, "--end", end, "--tz",
                     "Europe/Berlin", "--target", "0.9", "--window", "1h"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert header in lines
