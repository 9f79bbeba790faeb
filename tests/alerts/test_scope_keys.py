""":func:`budgetlab.score_alerts` with incident scopes that name a key the episodes are not
grouped by (stop 59): such a key does not restrict, so the incident is matched to every group's
alerts, which ``budgetlab alerts`` says ("incident scopes name svc, not a --by key ...") but the
API read in silence: an incident of the service ``late`` scored against all traffic, "detected"
with no word. Now the API warns the command's note in its own words, keeps it in
``attrs["scope_note"]``, and so do :func:`~budgetlab.incident_detections` and
:func:`~budgetlab.compare_policies`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import (
    SLO,
    AlertPolicy,
    alert_episodes,
    compare_policies,
    incident_detections,
    score_alerts,
)
from budgetlab.errors import BudgetlabWarning
from budgetlab.windows.binning import bin_events

#: The command line's note (budgetlab.alerts.incident_scopes), in the API's words. The scoring
#: sees bins and episodes, not the events' columns: since stop 59 its advice says on what it holds
#: (it advised by=['svc', 'nosuchkey'] of a key no events have, refused when followed).
NOTE_SVC = ("incident scopes name svc, not a by= key: it does not restrict which groups' alerts "
            "match an incident; if the events have a column svc, give by=['svc'] to match each "
            "incident to its own groups only.")


def _events() -> pd.DataFrame:
    """One event a minute for 6 h from 2026-03-02T00:00Z for each of api and late; api fails
    at minutes 120..149 (02:00..02:29), late never."""
    m = np.arange(360)
    ts = pd.Timestamp("2026-03-02T00:00Z") + pd.to_timedelta(m, "min")
    bad = (m >= 120) & (m < 150)
    return pd.concat([pd.DataFrame({"ts": ts, "svc": "api", "ok": ~bad}),
                      pd.DataFrame({"ts": ts, "svc": "late", "ok": True})], ignore_index=True)


def _incident(scope: str) -> pd.DataFrame:
    return pd.DataFrame({"incident_id": ["L1"], "scope": [scope],
                         "start": pd.to_datetime(["2026-03-02T02:00Z"], utc=True),
                         "end": pd.to_datetime(["2026-03-02T02:30Z"], utc=True)})


def _notes(caught: list) -> list[str]:
    return [str(w.message) for w in caught if "incident scopes name" in str(w.message)]


def test_a_scope_key_the_bins_are_not_grouped_by_is_said():
    bins = bin_events(_events().sort_values("ts", kind="stable"), "1min")  # no by=: no svc
    pol = AlertPolicy.single_window("5min", 10)
    ep = alert_episodes(bins, SLO(0.99), pol)
    with pytest.warns(BudgetlabWarning) as caught:
        sc = score_alerts(ep, _incident("svc=late"), bins=bins, target=SLO(0.99), policy=pol)
    assert _notes(caught) == [NOTE_SVC]
    assert sc.attrs["scope_note"] == NOTE_SVC
    # the reading said: by hand, all traffic (api and late, 2 events a minute) errs 5 of the 10
    # events of a 5 min window inside 02:00..02:30 (50 %, burn 50 > 10), so the incident of
    # late is matched to all traffic's alert
    star = sc[sc["tier"] == "*"].iloc[0]
    assert (star["incidents"], star["detected"]) == (1, 1)
    with pytest.warns(BudgetlabWarning) as caught:
        det = incident_detections(ep, _incident("svc=late"), bins=bins, target=SLO(0.99),
                                  policy=pol)
    assert _notes(caught) == [NOTE_SVC] and det.attrs["scope_note"] == NOTE_SVC


def test_a_scope_key_the_log_lacks_is_said_beside_the_group_keys():
    bins = bin_events(_events().sort_values("ts", kind="stable"), "1min", by="svc")
    pol = AlertPolicy.single_window("5min", 10)
    ep = alert_episodes(bins, SLO(0.99), pol)
    note = ("incident scopes name nosuchkey, not a by= key: it does not restrict which groups' "
            "alerts match an incident; if the events have a column nosuchkey, give by=['svc', "
            "'nosuchkey'] to match each incident to its own groups only.")
    with pytest.warns(BudgetlabWarning) as caught:
        sc = score_alerts(ep, _incident("nosuchkey=zzz"), bins=bins, target=SLO(0.99),
                          policy=pol)
    assert _notes(caught) == [note] and sc.attrs["scope_note"] == note
    with pytest.warns(BudgetlabWarning) as caught:
        both = compare_policies(bins, SLO(0.99), {"fast": pol}, _incident("nosuchkey=zzz"))
    assert _notes(caught) == [note] and both.attrs["scope_note"] == note


def test_scopes_of_group_keys_say_nothing():
    bins = bin_events(_events().sort_values("ts", kind="stable"), "1min", by="svc")
    pol = AlertPolicy.single_window("5min", 10)
    ep = alert_episodes(bins, SLO(0.99), pol)
    sc = score_alerts(ep, _incident("svc=late"), bins=bins, target=SLO(0.99), policy=pol)
    assert sc.attrs["scope_note"] == ""
    # by hand: late never errs, so its incident is missed in its own group's row
    late = sc[(sc["svc"] == "late") & (sc["tier"] == "*")].iloc[0]
    assert (late["incidents"], late["detected"]) == (1, 0)
