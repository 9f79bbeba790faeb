"""Incident scopes under ``--pii hash`` (stop 55): a scope value that looks like personal data is
hashed with the events' salt, so the incident matches the hashed group; the refusal without it
counts the scope's values (not its keys) and names the flag that hashes."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.alerts.incidents_file import read_incidents
from budgetlab.cli import main
from budgetlab.errors import PersonalDataError

IP_A, IP_B = "203.0.113.7", "198.51.100.23"
# 10:00-10:09: IP_A fails 4 of 5, IP_B succeeds 5 of 5 (counted by hand below)
LOG = "ts,outcome,ip\n" + "".join(
    f"2026-01-06T10:0{i}:00Z,{'failure' if ip == IP_A and i < 8 else 'success'},{ip}\n"
    for i, ip in [(0, IP_A), (1, IP_B), (2, IP_A), (3, IP_B), (4, IP_A), (5, IP_B), (6, IP_A),
                  (7, IP_B), (8, IP_A), (9, IP_B)])
INCIDENTS = f"incident_id,start,end,scope\nS1,2026-01-06T10:00:00Z,2026-01-06T10:10:00Z,ip={IP_A}\n"
READ = ["--outcomes", "success=success,failure=failure", "--by", "ip"]


def _files(tmp_path):
    (tmp_path / "log.csv").write_text(LOG)
    (tmp_path / "inc.csv").write_text(INCIDENTS)
    return tmp_path / "log.csv", tmp_path / "inc.csv"


def _hashed_group(log, ip):
    """The group the events reader makes of ``ip`` under the salt: the row of that IP's time."""
    events = read_events(log, by="ip", pii="hash", salt="s3cret",
                         outcomes={"success": "success", "failure": "failure"})
    first = {IP_A: "2026-01-06T10:00:00Z", IP_B: "2026-01-06T10:01:00Z"}[ip]
    return str(events.loc[events["ts"] == pd.Timestamp(first), "ip"].iloc[0])


def test_a_personal_scope_value_is_hashed_as_the_events_are(tmp_path):
    log, inc = _files(tmp_path)
    table = read_incidents(inc, pii="hash", salt="s3cret")
    assert table["scope"].tolist() == [f"ip={_hashed_group(log, IP_A)}"]
    assert IP_A not in table.to_string()


def test_the_refusal_counts_the_scope_values_and_names_the_fix(tmp_path, capsys):
    _, inc = _files(tmp_path)
    with pytest.raises(PersonalDataError) as err:
        read_incidents(inc)
    assert str(err.value).startswith("the 'scope' column of 'inc.csv': the one scope value looks "
                                     "like personal data (1 like an IPv4 address)")
    assert "read_incidents(..., pii='hash', salt=...)" in str(err.value)
    assert IP_A not in str(err.value)
    two = tmp_path / "two.csv"
    two.write_text(INCIDENTS.replace(f"ip={IP_A}", f"ip={IP_A}&region=fra"))
    with pytest.raises(PersonalDataError, match="1 of the 2 scope values looks like"):
        read_incidents(two)


def test_a_plain_value_of_a_hashed_key_is_matched_by_its_hash(tmp_path):
    from budgetlab.alerts.incident_scopes import match_hashed_keys  # new in stop 55

    log, _ = _files(tmp_path)
    events = read_events(log, by="ip", pii="hash", salt="s3cret",
                         outcomes={"success": "success", "failure": "failure"})
    table = pd.DataFrame({"incident_id": ["x"], "scope": [f"ip={IP_B}&region=fra"]})
    # IP_B's hash is in the hashed column; region is no column of the events and stays as given
    assert match_hashed_keys(table, events, "s3cret")["scope"].tolist() == [
        f"ip={_hashed_group(log, IP_B)}&region=fra"]


def test_incident_and_alerts_match_the_hashed_group(tmp_path, capsys):
    log, inc = _files(tmp_path)
    pii = ["--pii", "hash", "--salt", "s3cret"]
    assert main(["incident", str(log), *READ, *pii, "--incidents", str(inc), "--id", "S1",
                 "--window", "1h"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the prose is filled to 100 columns
    group = _hashed_group(log, IP_A)
    assert f"scope ip={group}" in out
    # in the scope, by hand: IP_A's 5 events from 10:00 to 10:08, 4 failures (10:00..10:06)
    # burn: failure rate 4/5 over the allowed 0.05 = 16; the 5 events hold 0.25 expected
    # failures under 95 %, too few for a verdict, but P(X >= 4 | 5, 0.05) = 3.0e-5 decides a miss
    assert "saw 4 failures in 5 events (burn 16 over the incident)" in out
    assert ("the incident's 5 events hold 0.25 expected failures under the target, too few for a "
            "verdict, but the failures decide it") in out
    assert IP_A not in out
    # the same from the command line's --scope
    assert main(["incident", str(log), *READ, *pii, "--start", "2026-01-06T10:00:00Z", "--end",
                 "2026-01-06T10:10:00Z", "--scope", f"ip={IP_A}", "--window", "1h"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"scope ip={group}" in out and "saw 4 failures in 5 events" in out
    # alerts reads the file the same way (before: refused, suggesting the flags given)
    assert main(["alerts", str(log), *READ, *pii, "--incidents", str(inc)]) == 0
    assert IP_A not in capsys.readouterr().out
