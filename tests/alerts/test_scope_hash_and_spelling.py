"""Stop 58: a scope in the API as on the command line.

* Hashed keys: ``budgetlab.hash_scope`` spells a scope (or an incidents table's scopes) through
  the keyed hash of events read with ``pii="hash"``, as ``--pii hash --salt S`` does to
  ``--scope``; a plain value of a key the events hold hashed is refused with that fix (before:
  the window "had no event in scope").
* One spelling: without ``pii="hash"`` too, a scope value is put in the one spelling of group keys
  (stripped, NFC) as the keys are on reading, so ``Ko\\u0308ln`` typed decomposed matches the key
  ``Köln``; an invisible character in it is refused, as in a key.

Oracles: the rows of the log below, counted by hand (``mine`` fails at 10:00, 10:02, 10:04, 10:06
and succeeds at 10:08: 4 failures in 5 events), and the pandas reader's hash of the composed
spelling read alone."""

from __future__ import annotations

import pytest

import budgetlab
from budgetlab import SLO, incident_report, read_events
from budgetlab.alerts.incidents_file import read_incidents
from budgetlab.cli import main
from budgetlab.errors import InputError, NoTrafficError
from budgetlab.events.schema import scope_mask
from tests.alerts.test_incident_scope_spelling import _hash_of, _log  # the same log, by hand

COMPOSED, DECOMPOSED = "K\u00f6ln", "Ko\u0308ln"
MAIL = "j\u00f6rg@example.org"
SALT = "s3cret"
OUTCOMES = {"success": "success", "failure": "failure"}
START, END = "2026-01-06T10:00:00Z", "2026-01-06T10:10:00Z"
SAW = "saw 4 failures in 5 events"


def _report(events, key, scope):
    report = incident_report(events, SLO(target=0.95, window="1h"), START, END, scope=scope,
                             by=key, context="1h")
    return " ".join(report.summary.split())


@pytest.mark.parametrize(("key", "mine", "typed"), [
    ("customer", COMPOSED, COMPOSED),  # hashed for its name; Köln does not look personal
    ("customer", COMPOSED, DECOMPOSED),  # typed decomposed: the hash of the one spelling
    ("contact", MAIL, MAIL),  # an e-mail address: hashed for its value
])
def test_hash_scope_spells_a_scope_as_the_command_line_does(tmp_path, key, mine, typed):
    log = _log(tmp_path / "log.csv", key, mine, "ann@example.org")
    events = read_events(log, by=key, pii="hash", salt=SALT, outcomes=OUTCOMES)
    scope = budgetlab.hash_scope(f"{key}={typed}", events, salt=SALT)
    assert scope == f"{key}={_hash_of(log, key, mine)}"
    assert SAW in _report(events, key, scope)
    # already hashed: as it is
    assert budgetlab.hash_scope(scope, events, salt=SALT) == scope


def test_hash_scope_spells_an_incidents_table(tmp_path):
    log = _log(tmp_path / "log.csv", "customer", COMPOSED, "ams")
    events = read_events(log, by="customer", pii="hash", salt=SALT, outcomes=OUTCOMES)
    path = tmp_path / "inc.csv"
    path.write_text(f"incident_id,start,end,scope\nS1,{START},{END},customer={DECOMPOSED}\n"
                    f"S2,{START},{END},*\n", encoding="utf-8")
    table = read_incidents(path, pii="hash", salt=SALT)
    out = budgetlab.hash_scope(table, events, salt=SALT)
    assert out["scope"].tolist() == [f"customer={_hash_of(log, 'customer', COMPOSED)}", "*"]
    assert table["scope"].tolist() == [f"customer={COMPOSED}", "*"]  # not modified


def test_a_plain_value_of_a_hashed_key_is_refused_with_the_fix(tmp_path):
    log = _log(tmp_path / "log.csv", "customer", COMPOSED, "ams")
    events = read_events(log, by="customer", pii="hash", salt=SALT, outcomes=OUTCOMES)
    with pytest.raises(NoTrafficError) as caught:
        _report(events, "customer", f"customer={COMPOSED}")
    assert str(caught.value) == (
        "the scope's value of 'customer' is not a keyed hash, but the events' 'customer' holds "
        "keyed hashes only (read with pii='hash'): pass scope=budgetlab.hash_scope(scope, "
        "events, salt=...) with the salt the events were read with.")


def test_a_value_of_no_hashed_group_is_refused_on_the_command_line(tmp_path, capsys):
    log = _log(tmp_path / "log.csv", "customer", COMPOSED, "ams")
    assert main(["incident", str(log), "--outcomes", "success=success,failure=failure", "--by",
                 "customer", "--pii", "hash", "--salt", SALT, "--start", START, "--end", END,
                 "--window", "1h", "--scope", "customer=Berlin"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Berlin" not in err
    assert err.strip().splitlines()[-1] == (
        "budgetlab: error: the scope's value of 'customer' is not a keyed hash, but the log's "
        "'customer' holds keyed hashes only: check the value, and pass --pii hash --salt S with "
        "the salt the log is hashed with.")


def test_a_decomposed_scope_matches_its_composed_key(tmp_path):
    log = _log(tmp_path / "log.csv", "city", COMPOSED, "ams")
    events = read_events(log, by="city", outcomes=OUTCOMES)
    assert set(events["city"].cat.categories) == {"ams", COMPOSED}
    assert int(scope_mask(events, f"city={DECOMPOSED}").sum()) == 5
    assert int(scope_mask(events, f"city= {DECOMPOSED} ").sum()) == 5
    assert SAW in _report(events, "city", f"city={DECOMPOSED}")


def test_a_decomposed_scope_matches_on_the_command_line(tmp_path, capsys):
    log = _log(tmp_path / "log.csv", "city", COMPOSED, "ams")
    assert main(["incident", str(log), "--outcomes", "success=success,failure=failure", "--by",
                 "city", "--start", START, "--end", END, "--window", "1h",
                 "--scope", f"city={DECOMPOSED}"]) == 0
    assert SAW in " ".join(capsys.readouterr().out.split())


def test_an_invisible_character_in_a_scope_is_refused(tmp_path):
    log = _log(tmp_path / "log.csv", "city", COMPOSED, "ams")
    events = read_events(log, by="city", outcomes=OUTCOMES)
    with pytest.raises(InputError) as caught:
        _report(events, "city", f"city={COMPOSED}\u200b")
    assert str(caught.value) == (
        "the incident scope's value of 'city' holds invisible characters (zero-width, format, "
        "bidirectional, variation selectors, fillers or control characters); they would make "
        "groups that print alike: remove them from the scope.")
