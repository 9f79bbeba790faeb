"""replay says when the summary's time names a status its transitions never show: on NAB's
ec2_request_latency_system_failure.csv (--ok-when 'value<50', 24 h window) the summary gave
7.7 h CRITICAL and no transition went to CRITICAL, without a word: at each 5-minute event the
window still held the event exactly 24 h old (WARNING), between events it had left (CRITICAL).

The log, by hand (target 0.5: the budget is half the window's events; window 1 h, an event
leaves it 1 ns after ``ts + 1h``); group a: successes at 00:00 and 00:30, a failure at 01:00, a
success at 01:30. At 01:00 the window holds S S F: budget 1.5, one failure, 1/3 left: WARNING
(healthy -> warning, the only transition). 1 ns later 00:00 has left: S F, budget 1, nothing
left: EXHAUSTED. At 01:30 the window holds S F S: WARNING again, and the log ends (group b's last
event is at 01:30 too). So EXHAUSTED for 30 min less 1 ns, between events only; group b, two
successes, is healthy throughout."""

from __future__ import annotations

from budgetlab.cli import main

ROWS = [("00:00", "a", "true"), ("00:00", "b", "true"), ("00:30", "a", "true"),
        ("01:00", "a", "false"), ("01:30", "a", "true"), ("01:30", "b", "true")]


def _log(tmp_path, with_groups):
    path = tmp_path / "log.csv"
    rows = ROWS if with_groups else [r for r in ROWS if r[1] == "a"]
    path.write_text("ts,g,ok\n" + "".join(f"2026-01-01T{t}:00Z,{g},{ok}\n" for t, g, ok in rows))
    return str(path)


def _replay(path, *by):
    return ["replay", path, "--ok", "ok", "--target", "0.5", "--window", "1h", *by]


def test_a_status_reached_only_between_events_is_said_so(tmp_path, capsys):
    assert main(_replay(_log(tmp_path, False))) == 0
    out = capsys.readouterr().out
    assert " ".join(out.split()).endswith(
        "Time in the summary at a status no transition shows (they are taken at events), reached "
        "only between events as older events left the window: EXHAUSTED (30 min).")
    assert "healthy warning" in " ".join(out.split())  # the one transition, to WARNING


def test_per_group_the_groups_are_named(tmp_path, capsys):
    assert main(_replay(_log(tmp_path, True), "--by", "g")) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.endswith("reached only between events as older events left the window: "
                        "EXHAUSTED for g=a (30 min).")


def test_no_line_when_the_transitions_show_every_status(tmp_path, capsys):
    # a's failure at 01:30 instead: at 01:30 the window holds S F F: budget 1.5, 2 failures,
    # EXHAUSTED at that event, a transition shows it
    path = tmp_path / "log.csv"
    path.write_text("ts,ok\n" + "".join(f"2026-01-01T{t}:00Z,{ok}\n" for t, ok in [
        ("00:00", "true"), ("00:30", "true"), ("01:00", "false"), ("01:30", "false")]))
    assert main(_replay(str(path))) == 0
    out = capsys.readouterr().out
    assert "reached only between events" not in out and "warning exhausted" in " ".join(
        out.split())
