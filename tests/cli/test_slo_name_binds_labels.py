"""``--slo FILE#NAME`` applies the picked SLO to the events its labels select (stop 55: it was
applied to every event, and with ``--by`` to every group), in every command that reads a log."""

from __future__ import annotations

import pytest

from budgetlab.cli import main

ONE = """\
apiVersion: openslo/v1
kind: SLO
metadata: {name: NAME, labels: LABELS}
spec:
  service: captcha
  indicatorRef: solves
  budgetingMethod: Occurrences
  timeWindow: [{duration: 30d, isRolling: true}]
  objectives: [{target: TARGET}]
"""
SLOS = "---\n".join(ONE.replace("NAME", n).replace("LABELS", lab).replace("TARGET", t)
                    for n, lab, t in [("slo-a", "{captcha_type: a, team: web}", "0.9"),
                                      ("slo-b", "{captcha_type: b}", "0.8"),
                                      ("slo-c", "{captcha_type: c}", "0.7")])
# group a: 10 events, 2 failures (80 % success); group b: 5 events, all successes
ROWS = [("a", "failure" if i in (3, 7) else "success") for i in range(10)] + [("b", "success")] * 5
LOG = "ts,outcome,captcha_type\n" + "".join(
    f"2026-01-06T10:{i:02d}:00Z,{o},{t}\n" for i, (t, o) in enumerate(ROWS))


@pytest.fixture
def files(tmp_path):
    (tmp_path / "slos.yaml").write_text(SLOS)
    (tmp_path / "log.csv").write_text(LOG)
    return tmp_path


def _out(capsys):
    return " ".join(capsys.readouterr().out.split())


def test_replay_applies_the_slo_to_its_labelled_events_only(files, capsys):
    assert main(["replay", str(files / "log.csv"), "--slo", f"{files}/slos.yaml#slo-a"]) == 0
    out = _out(capsys)
    # by hand: 10 of the 15 events are a's; label team names no column of the log
    assert (f"{files}/slos.yaml#slo-a: the events its labels select, captcha_type=a: 10 of 15; "
            "label team=web names no column of the log and selects nothing") in out
    assert "log.csv: 10 events" in out and "SLO: target 0.9," in out
    assert " 10 80.00 % " in out  # the summary's events and success rate: 8 successes of 10


def test_with_by_the_slo_covers_its_group_alone(files, capsys):
    assert main(["replay", str(files / "log.csv"), "--slo", f"{files}/slos.yaml#slo-b",
                 "--by", "captcha_type"]) == 0
    out = _out(capsys)
    assert "captcha_type=b: 5 of 15" in out and "log.csv: 5 events" in out
    assert "100.00 %" in out and "80.00 %" not in out  # group a is not replayed at 0.8


@pytest.mark.parametrize("command", [["recalibrate", "--by", "captcha_type", "--window", "2min"],
                                     ["compare-windows"], ["buckets"]])
def test_every_command_reads_the_same_events(files, capsys, command):
    log = files / "log.csv"
    code = main([command[0], str(log), *command[1:], "--slo", f"{files}/slos.yaml#slo-a"])
    out = _out(capsys)
    assert code == 0, out
    assert "captcha_type=a: 10 of 15" in out and f"{log.name}: 10 events" in out


def test_a_label_the_log_does_not_hold_is_refused_with_the_fix(files, capsys):
    assert main(["replay", str(files / "log.csv"), "--slo", f"{files}/slos.yaml#slo-c"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"{files}/slos.yaml#slo-c: no event of the log has captcha_type=c, which the SLO's "
            "labels select; pick the SLO of a group the log holds, or give the whole file with "
            "--by KEY to bind each SLO to its group.") in err
