"""The demo's words on each incident and on its verdicts agree with its own figures.

Oracle: under a 12 h window the recaptcha_v2 tracker was CRITICAL when incident D1 began
(2026-10-07 23:30) and went EXHAUSTED at 01:43, 3 status changes inside the incident (the
stranger's ``--out`` of the demo: critical -> exhausted at 01:43:57, back at 01:44:02, exhausted
again at 01:44:39); the demo said after that summary "The tracker could not show this incident
... the incident changed nothing". Under the default 24 h window the sample's D1 changes nothing
at its events. The verdict rule said only "CRITICAL or worse more than 1 % of the time" above
verdicts of 7.24 % that were "ok": the interval half of the rule was missing."""

from __future__ import annotations

from budgetlab.cli import main


def _incident(out: str, ident: str) -> str:
    part = out.split(f"\nIncident {ident} ", 1)[1]
    return " ".join(part.split("\nIncident ", 1)[0].split("\nVerdicts", 1)[0].split())


def test_an_incident_the_tracker_showed_by_its_changes_is_not_said_unseen(capsys):
    assert main(["demo", "--window", "12h"]) == 0
    out = capsys.readouterr().out
    d1 = _incident(out, "D1")
    assert "it changed status 3 times" in d1
    assert "could not show" not in d1
    assert ("The tracker was already CRITICAL when the incident began: it showed the incident "
            "only by its changes, the first at 2026-10-08 01:43 UTC (CRITICAL -> EXHAUSTED).") in d1
    verdicts = " ".join(out.split("\nVerdicts", 1)[1].split())
    # the rule as the verdicts follow it since stop 58: over the limit is too strict
    assert ("CRITICAL or worse more than 1 % of the time; too loose when the bootstrap interval "
            "of the rule's target lies wholly above it") in verdicts
    # prose fits 100 columns; a command to copy stays whole on its own line
    assert max(len(line) for line in out.splitlines()
               if not line.startswith("  budgetlab ")) <= 100
