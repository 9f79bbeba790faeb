"""Naive local times that a DST change leaves without an instant are refused kind by kind (tz53):
ambiguous (the clocks go back: the wall time happens twice) or nonexistent (the clocks skip it),
with the first rows of each kind, the wall-clock span of the change and the fix. Before, one
message said "ambiguous or do not exist" for both, so a user could not tell a repeated hour from
a log that is not in the zone at all.

Hand facts (tzdata, Europe/Berlin 2026): on 29 March the clocks go from 02:00 CET to 03:00 CEST,
so 02:00-03:00 does not exist; on 25 October they go from 03:00 CEST back to 02:00 CET, so
02:00-03:00 happens twice.
"""

from __future__ import annotations

import pytest

from budgetlab import TimestampError, read_events
from budgetlab.cli import main

FALL = "ts,outcome\n2026-10-25 01:30:00,ok\n2026-10-25 02:30:00,ok\n2026-10-25 03:30:00,failed\n"
SPRING = ("ts,outcome\n2026-03-29 01:30:00,ok\n2026-03-29 01:45:00,ok\n"
          "2026-03-29 02:30:00,failed\n2026-03-29 03:30:00,ok\n")
AMBIGUOUS = ("ambiguous at row 2 (1-based, after the header): 2026-10-25 02:00-03:00 happens "
             "twice in Europe/Berlin")
NONEXISTENT = ("nonexistent at row 3 (1-based, after the header): 2026-03-29 02:00-03:00 does "
               "not exist in Europe/Berlin")
FIX = "log times with UTC offsets (e.g. 2026-10-25T02:30:00+01:00) or in UTC"


@pytest.mark.parametrize("text, kind", [(FALL, AMBIGUOUS), (SPRING, NONEXISTENT)],
                         ids=["fall-back", "spring-gap"])
def test_the_api_says_which_kind_which_row_and_the_fix(tmp_path, text: str, kind: str) -> None:
    path = tmp_path / "log.csv"
    path.write_text(text)
    with pytest.raises(TimestampError) as err:
        read_events(path, time="ts", outcome="outcome", tz="Europe/Berlin")
    message = str(err.value)
    assert kind in message and FIX in message
    other = NONEXISTENT if kind == AMBIGUOUS else AMBIGUOUS
    assert other.split(" at ")[0] not in message  # only the kind the log has
    assert ("check tz=" in message) == (kind == NONEXISTENT)


def test_both_kinds_in_one_log_in_row_order(tmp_path) -> None:
    # rows 1-4 the spring day (row 3 in the gap), rows 5-7 the autumn day (row 6 twice)
    path = tmp_path / "log.csv"
    path.write_text(SPRING + FALL.split("\n", 1)[1])
    with pytest.raises(TimestampError) as err:
        read_events(path, time="ts", outcome="outcome", tz="Europe/Berlin")
    message = str(err.value)
    assert NONEXISTENT in message
    assert AMBIGUOUS.replace("row 2", "row 6") in message
    assert message.index("nonexistent") < message.index("ambiguous")


@pytest.mark.parametrize("text, kind", [(FALL, AMBIGUOUS), (SPRING, NONEXISTENT)],
                         ids=["fall-back", "spring-gap"])
def test_the_cli_names_its_flag(tmp_path, capsys, text: str, kind: str) -> None:
    path = tmp_path / "log.csv"
    path.write_text(text)
    code = main(["replay", str(path), "--time", "ts", "--outcome", "outcome",
                 "--tz", "Europe/Berlin", "--window", "1h"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "naive local times in --tz Europe/Berlin" in err and kind in err and FIX in err
    assert "tz=" not in err
    assert ("check --tz" in err) == (kind == NONEXISTENT)


def test_a_time_format_log_is_refused_the_same_way(tmp_path, capsys) -> None:
    # a text log read with --pattern and --time-format: the bad time is named by the file's line
    # (hand-counted: the comment, the first event, the noise, then line 4), not by event
    path = tmp_path / "app.log"
    path.write_text("# started\n2026-10-25 01:30:00 200\nnoise\n2026-10-25 02:30:00 500\n")
    code = main(["replay", str(path), "--pattern", r"^(?P<ts>\S+ \S+) (?P<status>\d+)$",
                 "--time", "ts", "--outcome", "status", "--outcomes", "200=success,500=error",
                 "--time-format", "%Y-%m-%d %H:%M:%S", "--tz", "Europe/Berlin", "--window", "1h"])
    err = capsys.readouterr().err
    assert code == 2
    assert ("ambiguous at line 4 of app.log: 2026-10-25 02:00-03:00 happens twice in "
            "Europe/Berlin") in err


@pytest.mark.parametrize("text, said", [
    (FALL, "2026-10-25 02:00-03:00 happens twice in Europe/Berlin (two instants each)"),
    (SPRING, "2026-03-29 02:00-03:00 does not exist in Europe/Berlin (no instant; is the log in "
             "another zone? check tz=)")], ids=["fall-back", "spring-gap"])
def test_each_kind_says_how_many_instants(tmp_path, text: str, said: str) -> None:
    # an ambiguous time has two instants, a nonexistent one none: the message said both were
    # "without an instant"
    path = tmp_path / "log.csv"
    path.write_text(text)
    with pytest.raises(TimestampError) as err:
        read_events(path, time="ts", outcome="outcome", tz="Europe/Berlin")
    message = " ".join(str(err.value).split())
    assert said in message
    assert "without an instant" not in message
    assert "that a DST change leaves without one instant each:" in message
