"""A scope's conditions are joined by ``&``. Joined by ``,`` (``ip=203.0.113.7,city=Köln``) the
whole rest was read as the ``ip`` value: ``hash_scope`` hashed "203.0.113.7,city=Köln" as one ip
and the city condition vanished, so ``incident_report(scope=...)`` found nothing. Since stop 58
the one split of a scope (:func:`budgetlab.events.scopes.scope_parts`, under ``parse_scope`` and
the scopes' hashing alike) refuses a value holding ``=`` and gives the scope joined by ``&``.

Oracle: the scope rewritten by hand."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import InputError
from budgetlab.events.schema import parse_scope

FIX = r"join conditions with & \('ip=203\.0\.113\.7&city=Köln'\)"


def test_parse_scope_refuses_conditions_joined_by_a_comma():
    with pytest.raises(InputError, match=FIX):
        parse_scope("ip=203.0.113.7,city=Köln")
    with pytest.raises(InputError, match=r"\('region=fra&method=GET'\)"):
        parse_scope("region=fra; method=GET")
    assert parse_scope("ip=203.0.113.7&city=Köln") == {"ip": "203.0.113.7", "city": "Köln"}


@pytest.fixture
def events():
    raw = pd.DataFrame({"ts": pd.date_range("2026-11-29", periods=4, freq="1min", tz="UTC"),
                        "ok": [True, False, True, True],
                        "ip": ["203.0.113.7", "203.0.113.7", "198.51.100.2", "203.0.113.7"],
                        "city": ["Köln", "Köln", "Bonn", "Bonn"]})
    return bl.read_events(raw, ok="ok", by=["ip", "city"], pii="hash", salt="s3cret")


def test_hash_scope_refuses_it_instead_of_hashing_one_value(events):
    with pytest.raises(InputError, match=FIX):
        bl.hash_scope("ip=203.0.113.7,city=Köln", events, salt="s3cret")
    good = bl.hash_scope("ip=203.0.113.7&city=Köln", events, salt="s3cret")
    assert good.endswith("&city=Köln") and "203.0.113.7" not in good


def test_incident_report_refuses_it(events):
    t = events["ts"]
    with pytest.raises(InputError, match="join conditions with &"):
        bl.incident_report(events, bl.SLO(0.9, "1min"), t.iloc[0], t.iloc[-1],
                           scope="ip=203.0.113.7,city=Köln")
