"""Issue 14 on the command line: a real third-party access log (hand counts from its published
status counts), a job-status log, status ranges and skip, the "how it was read" block on stderr,
the JSON run record beside --out, many files, --slow-above, one-line refusals, and a closed pipe."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, read_access_log, read_events, replay, transitions
from budgetlab.cli import main

FIXTURES = Path(__file__).parents[1] / "fixtures"
APACHE = FIXTURES / "elastic_apache" / "apache_logs"
JOBS = FIXTURES / "jobs" / "job_status.csv"
# ../shared/data/README.md (github.com/elastic/examples @ 6d86454): the published status counts
STATUS = {200: 9126, 304: 445, 404: 213, 301: 164, 206: 45, 500: 3, 403: 2, 416: 2}
RANGES = "2xx=success,3xx=success,4xx=skip,5xx=server_error"


def rate(printed: str) -> list[str]:
    return re.findall(r"([0-9.]+) %", printed.split("Summary")[1].split("Transitions")[0])


def test_access_log_replays_with_the_hand_counted_success_rate(capsys):
    assert main(["replay", str(APACHE), "--window", "1h", "--outcomes", RANGES]) == 0
    out, err = capsys.readouterr()
    # hand count under the mapping: successes 2xx + 3xx, 4xx left out, failures 5xx
    good = STATUS[200] + STATUS[206] + STATUS[301] + STATUS[304]
    kept = good + STATUS[500]
    assert (good, kept) == (9780, 9783)
    assert rate(out)[0] == f"{good / kept * 100:.2f}"  # 99.97
    # the block is on stderr, before the results, and names every status with its count
    assert ("how it was "
            "read") not in out and err.startswith("how it was read: apache_logs (10,000 "
                                                           "rows)")
    assert (
        "10,000 read, 9,783 kept, 217 skipped (status '404' -> skip: 213; status '403' -> skip: 2; "
        "status '416' -> skip: 2)" in " ".join(err.split())  # filled to 100 columns
    )
    for code, n in STATUS.items():
        assert re.search(rf"'{code}'\s+-> \w+\s+{n:,}", err), code
    assert "timeout" not in out + err and "solve_error" not in out + err  # domain-neutral


def test_access_log_default_reading_and_the_api_agree(capsys):
    assert main(["replay", str(APACHE), "--window", "1h"]) == 0
    out, err = capsys.readouterr()
    # 99.97: only the three 500s fail
    assert rate(out)[0] == f"{(10_000 - STATUS[500]) / 10_000 * 100:.2f}"
    assert "default: status < 500 is a success" in err
    ev = read_access_log(APACHE, outcomes=dict(p.split("=") for p in RANGES.split(",")))
    assert int(ev["ok"].sum()) == 9780 and len(ev) == 9783


def test_run_record_beside_out(tmp_path, capsys):
    out = tmp_path / "tr.csv"
    assert main(["replay", str(APACHE), "--window", "1h", "--outcomes", RANGES, "--out",
                 str(out)]) == 0
    record = json.loads((tmp_path / "tr.csv.run.json").read_text())
    import budgetlab

    assert record["budgetlab_version"] == budgetlab.__version__
    assert record["inputs"] == [{"name": "apache_logs", "bytes": APACHE.stat().st_size,
                                 "sha256": hashlib.sha256(APACHE.read_bytes()).hexdigest()}]
    assert (
        record["inputs"][0]["sha256"]
        == "f15c31e905f86c7b4b6ab44aee74d0a2086dce89f010187d983edea7ef0364ef"
    )
    assert record["parameters"]["outcomes"] == RANGES and record["parameters"]["window"] == "1h"
    assert record["how_read"]["rows_kept"] == 9783 and record["slo"]["target"] == 0.95
    assert "salt" not in json.dumps(record)
    capsys.readouterr()
    # the record is an output like the table: not overwritten without --force
    assert main(["replay", str(APACHE), "--outcomes", RANGES, "--out",
                 str(tmp_path / "t2.csv")]) == 0
    (tmp_path / "t3.csv.run.json").write_text("keep")
    assert main(["replay", str(APACHE), "--outcomes", RANGES, "--out",
                 str(tmp_path / "t3.csv")]) == 2
    assert (tmp_path / "t3.csv.run.json").read_text() == "keep" and not (
        tmp_path / "t3.csv"
    ).exists()


def test_job_status_log_end_to_end(capsys):
    argv = ["replay", str(JOBS), "--time", "finished_at", "--outcome", "state", "--window", "1h"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pending=?" in err and "--outcomes" in err
    mapping = ("succeeded=success,failed=failure,timed "
               "out=timeout,pending=skip,running=skip,cancelled=skip")
    assert main([*argv, "--outcomes", mapping]) == 0
    out, err = capsys.readouterr()
    assert rate(out)[0] == f"{160 / 180 * 100:.2f}"  # hand count: 88.89
    assert "200 read, 180 kept, 20 skipped" in err and "2026-11-28T23:00:00Z" in err
    assert main([*argv, "--outcomes", mapping, "--duration", "duration_ms", "--duration-unit", "ms",
                 "--slow-above", "2s"]) == 0
    out, err = capsys.readouterr()
    assert rate(out)[0] == f"{113 / 180 * 100:.2f}" and "'slow': 47 rows" in err


def test_many_files_and_a_folder(tmp_path, capsys):
    folder = tmp_path / "days"
    folder.mkdir()
    for day, labels in (("01", ["ok", "failed"]), ("02", ["ok", "ok"])):
        pd.DataFrame({"ts": [f"2026-01-{day}T0{i}:00:00Z" for i in range(2)],
                      "outcome": labels}).to_csv(
            folder / f"2026-01-{day}.csv", index=False)
    assert main(["replay", str(folder), "--window", "1h"]) == 0
    out, err = capsys.readouterr()
    assert "2 files: 2026-01-01.csv, 2026-01-02.csv (4 rows)" in err and rate(out)[0] == "75.00"
    assert main(["replay", str(folder / "2026-01-01.csv"), str(folder / "2026-01-02.csv"),
                 "--window", "1h"]) == 0
    assert rate(capsys.readouterr().out)[0] == "75.00"


@pytest.mark.parametrize("argv, needle", [
    (["--slow-above", "2s"], "--duration"),
    (["--outcomes", "2xx=success"], "'304' (445)"),
    (["--format", "csv"], "has no column 'ts'"),
])
def test_access_log_refusals_are_one_line(argv, needle, capsys):
    assert main(["replay", str(APACHE), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err, err


def test_access_log_with_a_bad_line_names_the_flag_that_reads_it(tmp_path, capsys):
    log = tmp_path / "access.log"
    log.write_bytes(APACHE.read_bytes() + b"garbage line here\n")
    assert main(["replay", str(log), "--window", "1h"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1 line not in common/combined log format (line 10001)" \
        in err and "pass --on-error skip" in err and "on_error" not in err, err
    assert main(["replay", str(log), "--window", "1h", "--on-error", "skip"]) == 0
    err = capsys.readouterr().err
    assert "skipped 1 line not in common/combined log format (line 10001)" in err, err
    assert main(["replay", str(log), "--window", "1h", "--preset", "access"]) == 0
    err = capsys.readouterr().err
    # 1 / 10,001 = 0.00999... %: one decimal read 0.0 %, two give 0.01 %
    assert "1 of 10,001 lines (0.01 %) do not match the pattern" in err, err
    assert main(["replay", str(log), "--window", "1h", "--on-error", "count"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pass --preset access to count" in err, err


def test_closed_pipe_ends_quietly_with_the_shells_status(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "budgetlab.cli", "replay", str(APACHE),
                             "--window", "1h"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    proc.stdout.close()  # like `| head` that has already gone
    err = proc.stderr.read().decode()
    assert proc.wait() == 141  # 128 + SIGPIPE, what a shell reports for `yes | head`
    assert "Broken pipe" not in err and "Error" not in err and "Traceback" not in err
    assert err.startswith("how it was read")


def test_plot_of_many_groups_draws_four_and_never_scans_all_transitions_per_group(tmp_path,
                                                                                  monkeypatch,
                                                                                  capsys):
    """Issue 15: --plot chose 12 groups only after a mask over all transitions for every group
    (20,000 groups: 80 s). Counted, not timed: the steps handed to plot_timeline are those of the
    4 groups with the most evidence (all equal here: key order), with none of their per-event
    rows (no event of theirs lies outside the steps' observation: issue 30), and no boolean mask
    over the transitions table is built per group."""
    import budgetlab.cli.replay as replay_mod
    import budgetlab.plotting as plotting

    n_groups = 20_000
    keys = [f"g{i:05d}" for i in range(n_groups)]
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(3 * n_groups), unit="s")
    outcome = np.tile(["success", "timeout", "success"], n_groups)
    log = tmp_path / "many.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome,
                  "key": np.repeat(keys, 3)}).to_csv(log, index=False)
    drawn: list[tuple[list[pd.Timestamp], int, object, pd.DataFrame]] = []

    def fake_plot(states, *, slo=None, incidents=None, transitions=None, ax=None, tz=None, **kw):
        drawn.append((states["ts"].tolist(), len(transitions), tz, kw["spans"]))
        return ax

    masks = {"n": 0}
    real_getitem = pd.DataFrame.__getitem__

    def counting_getitem(self, key):
        if isinstance(key, (pd.Series, np.ndarray)) and pd.api.types.is_bool_dtype(key.dtype):
            masks["n"] += 1
        return real_getitem(self, key)

    real_write = replay_mod.write_timeline

    def counted_write(*args, **kwargs):
        monkeypatch.setattr(pd.DataFrame, "__getitem__", counting_getitem)
        try:
            return real_write(*args, **kwargs)
        finally:
            monkeypatch.setattr(pd.DataFrame, "__getitem__", real_getitem)

    monkeypatch.setattr(plotting, "plot_timeline", fake_plot)
    monkeypatch.setattr(replay_mod, "write_timeline", counted_write)
    png = tmp_path / "many.pdf"
    assert main(["replay", str(log), "--by", "key", "--window", "1h", "--tz", "Europe/Berlin",
                 "--plot", str(png)]) == 0
    err = " ".join(capsys.readouterr().err.split())  # the note is filled to 100 columns
    assert ("the timeline shows 4 of 20,000 groups: the most failures first, then the most "
            "events") in err
    # oracle: each group has 3 events; with a 1 h window every group's one timeout (1 of 2 events
    # at that moment) makes it EXHAUSTED and stays in the window: one transition per group
    events = read_events(log, by=["key"])
    want = transitions(replay(events, SLO(window="1h"), by="key"))
    assert len(want) == n_groups
    assert [(n_tr, tz) for _, n_tr, tz, _ in drawn] == [(1, "Europe/Berlin")] * 4
    # the first 4 groups' steps, over the whole log's observation; no per-event row of theirs
    assert [sorted(set(steps["key"].astype(str))) for *_, steps in drawn] == [[k] for k in keys[:4]]
    assert {(steps["start"].iloc[0], steps["end"].iloc[-1]) for *_, steps in drawn} == {
        (events["ts"].iloc[0], events["ts"].iloc[-1])}
    assert [rows for rows, *_ in drawn] == [[]] * 4
    assert masks["n"] < 50  # not one per group (the old code built 20,000)
    assert png.read_bytes()[:5] == b"%PDF-"
