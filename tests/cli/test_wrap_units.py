"""cli.prose.wrap, the one filling of the command line's prose: the lines exactly (the doctests
compare whitespace loosely). Oracle: the lines counted by hand at 100 columns."""

from __future__ import annotations

from budgetlab.cli.prose import wrap


def test_a_duration_stays_on_one_line():
    text = ("image: CRITICAL or worse 6 % of the time (4 h 28 min); 2 episodes (31 before "
            "merging), longest 3 h 21 min from 2026-10-06 03:13")
    # "longest 3 h" ends at column 99; "3 h 21 min" goes whole to the next line
    assert wrap(text, indent="  ").splitlines() == [
        "  image: CRITICAL or worse 6 % of the time (4 h 28 min); 2 episodes (31 before merging), "
        "longest",
        "  3 h 21 min from 2026-10-06 03:13"]


def test_a_figure_keeps_its_unit_and_a_hyphen_its_word():
    text = ("Silences longer than the window (1 h): 24 in 2 groups; the window stood empty for "
            "up to 1119 h 59 min after one (method=POST), 69 h in all; warm-up 93.80 %")
    lines = wrap(text, indent="").splitlines()
    # "1119 h 59 min" would end at column 101: it moves whole, never "1119 h 59" / "min"
    assert lines[0] == ("Silences longer than the window (1 h): 24 in 2 groups; the window stood "
                        "empty for up to")
    assert lines[1].startswith("1119 h 59 min after one")
    assert all(len(line) <= 100 for line in lines)


def test_a_date_keeps_its_time():
    text = ("realKnownCause_ec2_request_latency_system_failure.csv: 4,032 events, 2014-03-07 "
            "03:41 .. 2014-03-21 03:41 UTC")
    # "2014-03-21" ends at column 99, "03:41" would end at 105: the date goes with its time
    assert wrap(text, indent="").splitlines() == [
        "realKnownCause_ec2_request_latency_system_failure.csv: 4,032 events, 2014-03-07 03:41 ..",
        "2014-03-21 03:41 UTC"]
