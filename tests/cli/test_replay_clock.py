"""`budgetlab replay` on the window's clock: a hand-made log with a 30-day silence and a tie.

Oracles: hours and counts computed by hand from the window rule (an event stays in the 1 h
window through ts + 1 h and leaves 1 ns later); the tie by construction.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from budgetlab.cli import main


def write_log(path):
    rows = [("2026-01-01T00:00:00Z", "quiet", "success"), ("2026-01-01T00:05:00Z", "quiet",
                                                           "timeout"),
            ("2026-01-01T00:10:00Z", "quiet", "timeout"), ("2026-01-31T00:00:00Z", "quiet",
                                                           "success"),
            ("2026-01-31T00:30:00Z", "quiet", "success")]
    rows += [(f"2026-01-01T00:{m:02d}:00Z", "busy", "success") for m in (0, 10, 20, 30, 40, 50)]
    rows += [("2026-01-01T00:20:00Z", "busy", "timeout")]  # a tie with another outcome
    df = pd.DataFrame(rows, columns=["ts", "group", "outcome"]).sort_values("ts", kind="stable")
    df.to_csv(path, index=False)


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_replay_prints_no_traffic_silences_and_ties(tmp_path, capsys):
    log = tmp_path / "hand.csv"
    write_log(log)
    out_file = tmp_path / "tr.csv"
    assert main(["replay", str(log), "--by", "group", "--window", "1h", "--target", "0.9", "--out",
                 str(out_file)]) == 0
    printed = capsys.readouterr().out
    table = printed.split("Summary")[1].split("Time counts")[0]
    out = " ".join(printed.split())  # the lines under the table are filled to 100 columns
    quiet = next(ln for ln in table.splitlines() if ln.strip().startswith("quiet"))
    # exhausted from 00:05 until the 00:10 failure leaves (01:10 + 1 ns): 1.1 h, not 30 days
    # of the 720.5 h observed: 65 min / 720.5 h = 0.15 %, in whole percent 0, so one decimal
    assert "1.1 h (0.2 %)" in quiet
    # no traffic: 30 days + 30 min - (5 min + 30 min healthy) - 65 min exhausted = 718.8 h;
    # 718.83 / 720.5 = 99.77 %, in whole percent 100 (as it read before), so one decimal
    assert "718.8 h (99.8 %)" in quiet
    # the one silence: the window empty from 01:10 (+1 ns) to Jan 31 00:00 = 29 d 22 h 50 min,
    # in hours like the table beside it (it read "30.0 days")
    assert ("Silences longer than the window (1 h): 1 in 1 group; the window stood empty for 718 h "
            "50 min after it (group=quiet): that time counts as no traffic.") in out
    # the observation: Jan 1 00:00 to Jan 31 00:30, 30 d 30 min (720.5 h), said as a log's
    # length is said everywhere (length_words)
    assert "(first to last event of the log, 30 d 30 min)" in out
    # warm-up: each group's first window from its first event (1 h, 00:00 to 01:00), and apart
    # quiet's window refilling after its silence: from Jan 31 00:00 to the observation's end,
    # 00:30 (its window would fill at 01:00)
    assert ("warm-up included: the first window from a group's first event (up to 1 h per "
            "group) and the window refilling after each silence (up to 30 min per group).") in out
    assert (
        "Ties: 2 rows share a timestamp with another row of their group (1 instant). At that "
        "instant the outcomes differ (2026-01-01 00:20:00 UTC)" in out
    )
    assert "nan" not in out.lower() and "NaT" not in out
    record = json.loads((tmp_path / "tr.csv.run.json").read_text())
    assert record["silences"]["total"] == 1 and record["silences"]["groups"][0]["group"] == [
        "quiet"
    ]
    assert round(record["silences"]["groups"][0]["longest_hours"], 1) == 718.8
    assert record["ties"]["outcomes_differ"] == 1


def test_a_silence_just_over_the_window_is_said_by_its_empty_time(tmp_path, capsys):
    # events every 5 min, one gap of 1 h 4 min (as NAB's ec2_request_latency file, 2014-03-09):
    # under a 1 h window the silence leaves the window empty for 4 min, said as such, not as a
    # "silence longer than the window" of 4 min
    log = tmp_path / "gap.csv"
    times = [pd.Timestamp("2026-01-01T00:00:00Z") + pd.Timedelta(minutes=5 * i) for i in range(13)]
    times += [times[-1] + pd.Timedelta(minutes=64 + 5 * i) for i in range(13)]
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in times],
                  "outcome": ["success"] * len(times)}).to_csv(log, index=False)
    assert main(["replay", str(log), "--window", "1h"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("Silences longer than the window (1 h): 1 in 1 group; the window stood empty for 4 "
            "min after it: that time counts as no traffic.") in out


def test_replay_without_ties_or_silences_says_none(tmp_path, capsys):
    log = tmp_path / "plain.csv"
    pd.DataFrame({"ts": [f"2026-01-01T00:{m:02d}:00Z" for m in range(0, 60, 5)],
                  "outcome": ["success"] * 12}).to_csv(log, index=False)
    assert main(["replay", str(log), "--window", "1h"]) == 0
    out = capsys.readouterr().out
    assert "Silences longer than the window (1 h): none." in out
    assert "Ties:" not in out


def test_the_transitions_line_says_which_first_window_it_counts(tmp_path, capsys):
    # group a from 00:00, group b's only event (a failure) at 05:00: b's transition comes at its
    # first event, in b's own warm-up (the summary's words) but after the log's first 1 h; the
    # line counts the log's first window and says so, not "the warm-up"
    log = tmp_path / "two.csv"
    rows = [(f"2026-01-01T0{h}:00:00Z", "a", "success") for h in range(6)]
    rows.insert(5, ("2026-01-01T05:00:00Z", "b", "timeout"))
    pd.DataFrame(rows, columns=["ts", "group", "outcome"]).to_csv(log, index=False)
    assert main(["replay", str(log), "--by", "group", "--window", "1h"]) == 0
    out = capsys.readouterr().out
    assert ("Transitions at events (1; 0 in the log's first 1 h, while the windows fill: listed; "
            "times UTC)" in out)
    assert "during the warm-up" not in out


def test_plot_groups_without_plot_is_refused_before_the_read(tmp_path, capsys):
    # --plot-groups only chooses what the --plot timeline draws: without --plot it would be
    # dropped without a word; refused before the log (which does not exist) is read
    assert main(["replay", str(tmp_path / "absent.csv"), "--by", "key",
                 "--plot-groups", "k1"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "budgetlab: error: --plot-groups chooses the groups the --plot timeline draws; give "
        "--plot FILE (.png, .svg or .pdf) too, or leave --plot-groups out.")


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_the_transitions_table_says_how_its_figures_are_rounded(tmp_path, capsys):
    # one failure at 0.95: budget_total = 1 x (1 - 0.95) = 0.05 failures, which the seed's
    # get_report() rounds to one decimal: round(0.05, 1) = 0.1 (0.05 is stored as
    # 0.05000000000000000277); burn = 1 / 0.05 = 20. The table shows the seed's figures and says
    # so beneath them
    log = tmp_path / "one.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z"],
                  "outcome": ["timeout", "success"]}).to_csv(log, index=False)
    out_csv = tmp_path / "tr.csv"
    assert main(["replay", str(log), "--window", "1h", "--out", str(out_csv)]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("2026-01-01 00:00:00"))
    assert lines[row].split()[-5:] == ["1", "0.1", "0.0", "0.0", "20.0"]
    assert " ".join(lines[row + 1:row + 3]) == (
        "The seed tracker's report figures, rounded as it rounds them (--out too): current_rate "
        "to 4 decimals, burn_rate to 2, budget_total, budget_remaining and budget_remaining_pct "
        "to 1.")
    assert pd.read_csv(out_csv)["budget_total"].tolist() == [0.1]


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_thousands_of_hours_carry_a_separator_as_the_text_beside_them(tmp_path, capsys):
    # Jan 1 00:00 to Mar 1 00:00 is 59 days, 1,416 h: healthy from the first event until it
    # leaves the 1 h window (01:00 + 1 ns), then no traffic until the last event, 1,415 h
    log = tmp_path / "two.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z"],
                  "outcome": ["success", "success"]}).to_csv(log, index=False)
    assert main(["replay", str(log), "--window", "1h"]) == 0
    printed = capsys.readouterr().out
    row = printed.split("Summary")[1].splitlines()[2]
    assert "1.0 h (0.1 %)" in row and "1,415.0 h (99.9 %)" in row
    # the log's length in its one spelling (length_words): 59 d
    assert "(first to last event of the log, 59 d)" in " ".join(printed.split())


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_transitions_with_tz_read_on_its_clock_with_offsets_and_out_stays_utc(tmp_path, capsys):
    """A hand-written log across Berlin's fall-back (25 October 2026, 01:00 UTC: 03:00 CEST back
    to 02:00 CET), target 0.5, 1 h window. The failure at 00:30 UTC beside the success at 00:00
    spends the whole budget (2 x 0.5 = 1 failure): exhausted at 02:30 CEST; the success at
    01:30:30 UTC is alone in its window (the failure left at 01:30:00 + 1 ns): healthy at
    02:30:30 CET. Both are 02:30 on the wall clock; the table writes the offset (it wrote the
    UTC times under no zone at all), --out keeps UTC (ISO-8601)."""
    log, out = tmp_path / "fallback.csv", tmp_path / "tr.csv"
    log.write_text("ts,outcome\n2026-10-24T22:00:00Z,success\n2026-10-25T00:00:00Z,success\n"
                   "2026-10-25T00:30:00Z,timeout\n2026-10-25T01:30:30Z,success\n",
                   encoding="utf-8")
    args = ["replay", str(log), "--target", "0.5", "--window", "1h"]
    assert main([*args, "--tz", "Europe/Berlin", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert ("Transitions at events (2; 0 in the log's first 1 h, while the windows fill: listed; "
            "times in Europe/Berlin, with their UTC offset)") in " ".join(text.split())
    rows = [line.split()[:4] for line in text.splitlines() if line.startswith("2026-10-25 ")]
    assert rows == [["2026-10-25", "02:30:00", "+02:00", "healthy"],
                    ["2026-10-25", "02:30:30", "+01:00", "exhausted"]]
    assert pd.read_csv(out)["ts"].tolist() == ["2026-10-25 00:30:00+00:00",
                                               "2026-10-25 01:30:30+00:00"]
    assert main(args) == 0  # no --tz: UTC, and the heading says so
    text = capsys.readouterr().out
    assert "while the windows fill: listed; times UTC)" in " ".join(text.split())
    assert [line.split()[:3] for line in text.splitlines() if line.startswith("2026-10-25 ")] == [
        ["2026-10-25", "00:30:00", "healthy"], ["2026-10-25", "01:30:30", "exhausted"]]
