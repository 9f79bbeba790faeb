"""A declared column the line pattern has no group for: the refusal names what the user gave, the
preset (``preset=``/``--preset``) or their own ``pattern=``/``--pattern``, and the option that
declared the column. Expected texts are written by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetlab import ReadSpec
from budgetlab.cli import main
from budgetlab.errors import ConfigError

ACCESS = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"
# the access preset's named groups, in its pattern: time, request method, HTTP status
FIELDS = "ts, method, outcome"


def preset_refusal(named, option, pattern, extra=""):
    return (f"the access preset has no field {named}; its fields are {FIELDS}: declare only "
            f"those, or give a {pattern} of your own with a named group for it (and {extra}) in "
            f"place of {option}.")


def key_refusal(named, pattern, extra, pii):
    """A missing group key: no advice to extract one that names a person (the guard refuses it)."""
    return (f"the access preset has no field {named}; its fields are {FIELDS}: group by those, or "
            f"by a {pattern} (with {extra}) whose named group names no person, or hash it: {pii}.")


def test_a_missing_group_key_is_steered_to_keys_that_name_no_person(capsys):
    with pytest.raises(ConfigError) as info:
        ReadSpec(preset="access", by="status")
    assert str(info.value) == key_refusal("'status' (by=)", "pattern=",
                                          "time_format=, outcomes=", "pii='hash' with salt=")
    assert main(["replay", str(ACCESS), "--preset", "access", "--by", "status"]) == 2
    assert capsys.readouterr().err == "budgetlab: error: " + key_refusal(
        "'status' (--by)", "--pattern", "--time-format, --outcomes", "--pii hash --salt S") + "\n"


def test_a_login_name_is_not_what_the_refusal_steers_to(capsys):
    """``--preset sshd --by user`` said "give a --pattern of your own with a named group for it",
    steering to extracting login names, which the personal-data guard refuses."""
    sshd = Path(__file__).parents[1] / "fixtures" / "loghub" / "openssh_300.log"
    assert main(["replay", str(sshd), "--preset", "sshd", "--year", "2015", "--by", "user"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: the sshd preset has no field 'user' (--by); its fields are ts, host, "
        "repeated, outcome: group by those, or by a --pattern (with --time-format, --outcomes) "
        "whose named group names no person, or hash it: --pii hash --salt S.\n")


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"duration": "bytes", "duration_unit": "ms"}, "'bytes' (duration=)"),
])
def test_a_preset_without_the_field_is_named_not_a_pattern_never_given(kwargs, named):
    with pytest.raises(ConfigError) as info:
        ReadSpec(preset="access", **kwargs)
    assert str(info.value) == preset_refusal(named, "preset=", "pattern=",
                                             "time_format=, outcomes=")


@pytest.mark.parametrize(("argv", "named"), [
    (["--duration", "bytes"], "'bytes' (--duration)"),
])
def test_the_command_line_names_the_preset_and_the_flag(capsys, argv, named):
    assert main(["replay", str(ACCESS), "--preset", "access", *argv]) == 2
    assert capsys.readouterr().err == "budgetlab: error: " + preset_refusal(
        named, "--preset", "--pattern", "--time-format, --outcomes") + "\n"


def test_two_missing_fields_are_named_once_each():
    with pytest.raises(ConfigError) as info:
        ReadSpec(preset="access", by=["status", "method", "host"])
    assert str(info.value) == (
        f"the access preset has no field 'status' (by=) or 'host' (by=); its fields are {FIELDS}: "
        "group by those, or by a pattern= (with time_format=, outcomes=) whose named groups name "
        "no person, or hash them: pii='hash' with salt=.")


def test_an_own_pattern_is_still_called_the_pattern():
    with pytest.raises(ConfigError) as info:
        ReadSpec(pattern=r"^(?P<ts>\S+ \S+) (?P<outcome>\w+)", by="status")
    assert str(info.value) == (
        "pattern= has no named group for 'status' (by=); its named groups are ts, outcome. Write "
        "(?P<name>...) around the part of the line that holds it.")


def test_a_column_two_options_declare_names_both_options(capsys):
    # --ok and --duration both name 'bytes', which the access preset does not read: the refusal
    # names both flags, not the first one alone
    assert main(["replay", str(ACCESS), "--preset", "access", "--ok", "bytes", "--duration",
                 "bytes"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: the access preset has no field 'bytes' (--ok and --duration); its "
        f"fields are {FIELDS}: declare only those, or give a --pattern of your own with a named "
        "group for it (and --time-format, --outcomes) in place of --preset.\n")
    with pytest.raises(ConfigError) as info:
        ReadSpec(preset="access", ok="bytes", duration="bytes")
    assert str(info.value) == preset_refusal("'bytes' (ok= and duration=)", "preset=", "pattern=",
                                             "time_format=, outcomes=")


def test_a_missing_file_column_two_options_declare_names_both(tmp_path, capsys):
    path = tmp_path / "log.csv"
    path.write_text("when,outcome\n2026-01-01T00:00:00Z,ok\n")
    assert main(["replay", str(path), "--time", "t", "--by", "t"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: log.csv has no column 't' (the time column: name the right one with "
        "--time; declared in --by: give the name the file uses). Columns present: 'when', "
        "'outcome'.\n")
