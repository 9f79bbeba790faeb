"""Stop 57: under ``--pii hash`` (``pii="hash"``) an incident scope's value is put in the one
spelling of group keys (stripped, NFC) before it is hashed, as the events' keys are, so a scope
typed decomposed matches its hashed group; a value with an invisible character is refused in the
events reader's words. Oracles: the rows of the logs below, counted by hand, and the events
reader's hash of the composed spelling."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, incident_report, read_events
from budgetlab.alerts.incident_scopes import match_hashed_keys
from budgetlab.alerts.incidents_file import read_incidents
from budgetlab.cli import main
from budgetlab.errors import InputError

COMPOSED, DECOMPOSED = "K\u00f6ln", "Ko\u0308ln"
MAIL, MAIL_NFD = "j\u00f6rg@example.org", "jo\u0308rg@example.org"
SALT = "s3cret"
OUTCOMES = {"success": "success", "failure": "failure"}
START, END = "2026-01-06T10:00:00Z", "2026-01-06T10:10:00Z"


def _log(path, key, mine, other):
    """10:00-10:09, one event a minute: ``mine`` at even minutes fails at 10:00, 10:02, 10:04,
    10:06 and succeeds at 10:08 (4 failures in 5 events); ``other`` at odd minutes succeeds."""
    rows = [f"2026-01-06T10:0{i}:00Z,{'failure' if i % 2 == 0 and i < 8 else 'success'},"
            f"{mine if i % 2 == 0 else other}" for i in range(10)]
    path.write_text(f"ts,outcome,{key}\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _hash_of(path, key, value):
    """The events reader's hashed group of ``value`` (written composed) read alone."""
    one = path.with_name("one.csv")
    one.write_text(f"ts,outcome,{key}\n{START},success,{value}\n", encoding="utf-8")
    ev = read_events(one, by=key, pii="hash", salt=SALT)
    return str(ev[key].iloc[0])


def _incidents(path, scope):
    path.write_text(f"incident_id,start,end,scope\nS1,{START},{END},{scope}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("key", "typed", "composed", "other"), [
    ("customer", DECOMPOSED, COMPOSED, "ams"),  # named for people: hashed by its name
    ("contact", MAIL_NFD, MAIL, "ann@example.org"),  # e-mail addresses: hashed by their values
])
def test_a_decomposed_scope_matches_its_hashed_group_on_the_command_line(tmp_path, capsys, key,
                                                                          typed, composed,
                                                                          other):
    log = _log(tmp_path / "log.csv", key, composed, other)
    group = _hash_of(log, key, composed)
    args = ["incident", str(log), "--outcomes", "success=success,failure=failure", "--by", key,
            "--pii", "hash", "--salt", SALT, "--start", START, "--end", END, "--window", "1h"]
    assert main([*args, "--scope", f"{key}={typed}"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"scope {key}={group}" in out
    # by hand: 4 failures in 5 events; 5 x 0.05 = 0.25 expected failures, too few for a verdict,
    # but P(X >= 4 | 5, 0.05) = 3.0e-5 decides a miss: the burn 4/5 over 0.05 = 16 is said
    assert "saw 4 failures in 5 events (burn 16 over the incident)" in out
    assert ("the incident's 5 events hold 0.25 expected failures under the target, too few for a "
            "verdict, but the failures decide it") in out


def test_an_invisible_character_in_the_scope_is_refused_in_the_reader_s_words(tmp_path, capsys):
    log = _log(tmp_path / "log.csv", "customer", COMPOSED, "ams")
    args = ["incident", str(log), "--outcomes", "success=success,failure=failure", "--by",
            "customer", "--pii", "hash", "--salt", SALT, "--start", START, "--end", END]
    assert main([*args, "--scope", f"customer={COMPOSED}\u200b"]) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err
    assert last == ("budgetlab: error: --scope holds invisible characters (zero-width, format, "
                    "bidirectional, variation selectors, fillers or control characters) in the "
                    "one scope value; they would make groups that print alike: remove them from "
                    "the scope.")


def test_the_api_hashes_the_scope_in_one_spelling(tmp_path):
    log = _log(tmp_path / "mail.csv", "contact", MAIL, "ann@example.org")
    events = read_events(log, by="contact", pii="hash", salt=SALT, outcomes=OUTCOMES)
    table = read_incidents(_incidents(tmp_path / "inc.csv", f"contact={MAIL_NFD}"), pii="hash",
                           salt=SALT)
    assert table["scope"].tolist() == [f"contact={_hash_of(log, 'contact', MAIL)}"]
    report = incident_report(events, SLO(target=0.95, window="1h"), START, END,
                             scope=table["scope"].iloc[0], by="contact", context="1h")
    assert "saw 4 failures in 5 events" in " ".join(report.summary.split())


def test_the_api_matches_a_plain_decomposed_value_of_a_hashed_key(tmp_path):
    # "customer" is hashed for its name; Köln does not look personal, so read_incidents keeps it
    # plain (in one spelling) and match_hashed_keys finds its hash among the events'
    log = _log(tmp_path / "log.csv", "customer", COMPOSED, "ams")
    events = read_events(log, by="customer", pii="hash", salt=SALT, outcomes=OUTCOMES)
    table = read_incidents(_incidents(tmp_path / "inc.csv", f"customer={DECOMPOSED}"),
                           pii="hash", salt=SALT)
    assert table["scope"].tolist() == [f"customer={COMPOSED}"]
    raw = pd.DataFrame({"incident_id": ["S1"], "scope": [f"customer={DECOMPOSED}"]})
    want = [f"customer={_hash_of(log, 'customer', COMPOSED)}"]
    assert match_hashed_keys(table, events, SALT)["scope"].tolist() == want
    assert match_hashed_keys(raw, events, SALT)["scope"].tolist() == want


def test_the_api_refuses_an_invisible_character_in_a_scope(tmp_path):
    path = _incidents(tmp_path / "inc.csv", "customer=fr\u200ba")
    with pytest.raises(InputError, match=r"^the 'scope' column of 'inc.csv' holds invisible "
                                         r"characters \(zero-width, .*\) in the one scope value"):
        read_incidents(path, pii="hash", salt=SALT)
