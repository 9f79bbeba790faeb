"""A value that begins with '-' (``--gap -5min``): argparse took it for a flag and said only
"expected one argument"; the refusal now says to join it to its flag with '='. Joined, the
value's own check refuses a negative duration by its flag, with what the flag wants and an
example of its own (it said "give e.g. '24h'" for every duration). Expected texts written by
hand."""

from __future__ import annotations

import pytest

from budgetlab._util.durations import to_timedelta
from budgetlab.cli import main
from budgetlab.errors import ConfigError


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    path.write_text("ts,ok,took\n2026-01-01T00:00:00Z,true,1.5\n2026-01-01T00:10:00Z,false,2\n")
    return str(path)


def _cases(log):
    return [
        (["demo"], "--gap", "-5min", "give zero or a positive duration, e.g. --gap 30min."),
        (["compare-windows", log, "--ok", "ok"], "--min-dwell", "-5min",
         "give zero or a positive duration, e.g. --min-dwell 5min."),
        (["latency", log, "--ok", "ok", "--duration", "took"], "--thresholds", "-2s",
         "give a positive duration, e.g. --thresholds 10s."),
        (["replay", log, "--ok", "ok"], "--window", "-1h",
         "give a positive duration, e.g. --window 24h."),
    ]


@pytest.mark.parametrize("case", range(4))
def test_a_dash_value_is_refused_with_how_to_write_it_then_by_its_own_check(log, case, capsys):
    head, flag, value, wanted = _cases(log)[case]
    command = head[0]
    assert main([*head, flag, value]) == 2
    assert capsys.readouterr().err == (
        f"budgetlab: error: {flag} {value}: a value that begins with '-' reads as a flag; join "
        f"it to {flag} with '=': {flag}={value} (see 'budgetlab {command} --help')\n")
    assert main([*head, f"{flag}={value}"]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"budgetlab: error: {flag} {value} is negative; {wanted}\n")
    assert "how it was read" not in err  # refused before the log is read


def test_a_flag_without_its_value_keeps_argparse_words(capsys):
    # the word after --gap is a flag of demo: no value was given, none to join
    assert main(["demo", "--gap", "--window", "1h"]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: argument --gap: expected one argument "
                                       "(see 'budgetlab demo --help')\n")


@pytest.mark.parametrize(("value", "name", "allow_zero", "words"), [
    ("-5min", "gap", True, "gap='-5min' is negative; give zero or a positive duration, e.g. "
                           "gap='30min'."),
    ("0s", "freq", False, "freq='0s' is zero; give a positive duration, e.g. freq='1min'."),
    ("-1h", "timeWindow", False, "timeWindow='-1h' is negative; give a positive duration, e.g. "
                                 "'24h'."),
])
def test_the_api_says_the_keyword_and_an_example_of_its_own(value, name, allow_zero, words):
    with pytest.raises(ConfigError) as info:
        to_timedelta(value, name=name, allow_zero=allow_zero)
    assert str(info.value) == words
