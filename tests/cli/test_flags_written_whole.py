"""A flag is written whole: argparse reads a prefix as the one flag it begins, a guess that once
made latency's ``--slo FILE`` its ``--slow-above FILE``. A prefix is refused (exit 2, one line)
and the refusal names the flags it begins."""

import pandas as pd

from budgetlab.cli import main


def _log(tmp_path):
    ts = pd.date_range("2026-01-05", periods=10, freq="1min", tz="UTC")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts, "outcome": "success"}).to_csv(log, index=False)
    return str(log)


def test_a_prefix_of_a_flag_is_refused_and_named(tmp_path, capsys):
    log = _log(tmp_path)
    assert main(["replay", log, "--win", "1h"]) == 2  # argparse took it as --window 1h
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("budgetlab: error: unrecognized arguments: --win 1h; flags are written "
                          "whole (--win begins --window)")


def test_a_prefix_of_two_flags_names_both(tmp_path, capsys):
    log = _log(tmp_path)
    assert main(["replay", log, "--tar", "0.9"]) == 2
    err = capsys.readouterr().err
    assert "(--tar begins --target)" in err
    assert main(["export", "openslo", "--from-recalibration", log, "--by", "g",
                 str(tmp_path / "x.yaml"), "--targ", "0.9"]) == 2
    err = capsys.readouterr().err
    assert "--targ begins --target or --target-column" in err


def test_the_whole_flag_still_reads(tmp_path, capsys):
    log = _log(tmp_path)
    assert main(["replay", log, "--window", "1h"]) == 0
    assert "window 1 h" in capsys.readouterr().out
