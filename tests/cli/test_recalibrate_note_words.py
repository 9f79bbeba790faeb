"""recalibrate's notes in its ``--out`` table name the command's flags, as its printed lines do;
the API's table keeps the keywords (expected words written by hand)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from budgetlab import read_events
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.cli import main


def test_the_out_table_names_flags_and_the_api_table_keywords(tmp_path, capsys):
    # three days, one event a minute, every 20th a timeout
    ts = pd.date_range("2026-11-01", periods=3 * 1440, freq="1min", tz="UTC")
    outcome = np.where(np.arange(len(ts)) % 20 == 0, "timeout", "success")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome}).to_csv(
        log, index=False)
    out = tmp_path / "rec.csv"
    assert main(["recalibrate", str(log), "--window", "6h", "--n-boot", "0", "--out",
                 str(out)]) == 0
    # no target, no verdict: the missing interval is said once, under the rule, above the groups
    text = capsys.readouterr().out
    assert ("of the evaluated time\nno bootstrap, --n-boot 0: no target below comes with a "
            "confidence interval\n\nall events: ") in text
    assert text.count("no bootstrap") == 1
    reason = pd.read_csv(out)["verdict_reason"].iloc[0]
    # no current target, so no verdict: what rests on the point is the recommendation. Every 6 h
    # window after the warm-up holds 360 events, 18 of them failures: 0.95 is the highest usual
    # target never EXHAUSTED (the seed's budget 360 x (1 - 0.95) is a hair above 18 in floats)
    assert reason == ("no current target given (--target or --slo); the rule's target 0.95 (no "
                      "bootstrap, --n-boot 0: the recommendation rests on this point)")
    api = recalibrate(read_events(log), window="6h", n_boot=0).summary["verdict_reason"].iloc[0]
    assert api == ("no current target given (target= or slo=); the rule's target 0.95 (no "
                   "bootstrap, n_boot=0: the recommendation rests on this point)")
    # with a current target the verdict rests on it: 0.95 observed, the rule's 0.95 lies above
    # 0.9 (5 % of 6 h windows' 360 events fail: 9 hours in 10 the window burns 0.05 / 0.1 = 0.5
    # of its budget, above the 0.25 limit, so not too loose): keep 0.9
    given = recalibrate(read_events(log), window="6h", n_boot=0, target=0.9).summary.iloc[0]
    assert given["verdict"] == "ok"
    assert ("the rule's target 0.95 (no bootstrap, n_boot=0: the verdict rests on this point) "
            "lies above 0.9, but 9 hours in 10 the 6 h window burns at most 0.5 of its budget "
            "(limit: loose_burn 0.25): keep 0.9") in given["verdict_reason"]


def test_a_group_with_one_evaluated_event_says_one_event(tmp_path, capsys):
    # 1 h window; group a: 00:00 is warm-up, 01:00 (at the warm-up's end) the one evaluated event,
    # its window holding traffic until the log's last event (b's, 02:00): 1 h. Wilson 95 % lower
    # bound of 1 in 1: 1 / (1 + 1.96^2) = 20.65 %
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome,g\n2026-11-01T00:00:00Z,success,a\n"
                   "2026-11-01T01:00:00Z,success,a\n2026-11-01T02:00:00Z,success,b\n")
    assert main(["recalibrate", str(log), "--window", "1h", "--n-boot", "0", "--by", "g"]) == 0
    text = capsys.readouterr().out
    # the group's line filled to 100 columns, as the notes under it are: "recommended" would end
    # at column 112, so it begins the second line (at column 0, the notes' lines at 4)
    assert ("\ng=a: observed 100.00 % over 1 event in 1 h of evaluated time (95 % interval "
            "20.65 % .. 100.00 %); no\nrecommended target; no verdict\n") in text
    assert all(len(line) <= 100 for line in text.splitlines())


def test_a_recommendation_the_evidence_capped_says_so_in_its_action(tmp_path, capsys):
    # three days, one event a minute: group a never fails, so the rule alone gives the top of the
    # range (99.99 %), which fewer than 100,000 events cannot judge: the recommendation is capped
    # at the highest usual target its evaluated events hold 10 expected failures under; group b
    # (every 20th a timeout, 5 %) is judged well inside what its events can judge: not capped
    ts = pd.date_range("2026-11-01", periods=3 * 1440, freq="1min", tz="UTC")
    i = np.arange(len(ts))
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.append(ts).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.r_[np.full(len(ts), "success"),
                                   np.where(i % 20 == 0, "timeout", "success")],
                  "g": ["a"] * len(ts) + ["b"] * len(ts)}).sort_values("ts", kind="stable").to_csv(
        log, index=False)
    s = recalibrate(read_events(log, keep=["g"]), window="6h", n_boot=0,
                    by="g").summary.set_index("g")
    a, b = s.loc["a"], s.loc["b"]
    assert a["recommended_target"] <= 1 - 10 / a["events"]  # the cap, by hand
    assert a["action"] == (f"use {a['recommended_target']:.4g} (capped: as high as "
                           f"{a['events']:,} events can judge)")
    assert b["action"] == f"use {b['recommended_target']:.4g}"


def test_the_evaluated_time_is_said_as_its_note_and_plot_say_it(tmp_path, capsys):
    # stop 59 item 2: the group's line said "47 h 59 min of evaluated time", its note "1 d 23 h
    # of evaluated history" and the plot's x label "1 d 23 h": one span in two spellings. One event
    # a minute, 00:00 .. 48:59 (49 h): a 1 h warm-up, then 47 h 59 min of evaluated time
    ts = pd.date_range("2026-11-01", periods=49 * 60, freq="1min", tz="UTC")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success"}).to_csv(
        log, index=False)
    # --max-share 0.05: under 1 % the window's rule withholds the recommendation (g63recal): one
    # failure in the 60-event window puts it at 98.33 %, EXHAUSTED under the capped 0.996 (1 - 10
    # / 2,880), for up to 1 h of 47 h 59 min (2.1 % > 1 %), and no provisional note is said
    assert main(["recalibrate", str(log), "--window", "1h", "--n-boot", "0",
                 "--max-share", "0.05"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    line = re.search(r"over 2,880 events in (.+?) of evaluated time", text)
    note = re.search(r"provisional: (.+?) of evaluated history", text)
    assert line is not None and note is not None
    assert line.group(1) == note.group(1) == "1 d 23 h"  # 47 h 59 min in days and hours
