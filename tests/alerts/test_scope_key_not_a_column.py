"""Stop 59: an incident scope naming a key that is no column of the log (of the events) is not
advised as a group key. ``alerts``, ``compare-windows`` and the window comparison's API said
"give --by svc,region" (``by=['svc', 'region']``) of a log of columns ts, outcome, svc, and
``incident --scope region=eu`` said "give --by svc,region": following either was refused ("log.csv
has no column 'region'"). Now the words say the key is not a column; a key the log holds is still
advised; the alert scoring, which sees bins and episodes and not the events, says its advice on
that condition."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab import SLO, AlertPolicy
from budgetlab.cli import main
from budgetlab.errors import BudgetlabWarning
from budgetlab.windows.binning import bin_events

ABSENT_CLI = ("incident scopes name region, which is not a column of the log: it does not "
              "restrict {what}, and no --by can make it; name the log's columns in the scopes to "
              "match each incident to its own groups only.")


def flat(text: str) -> str:
    return " ".join(text.split())


def _frame(region: bool) -> pd.DataFrame:
    """One event a minute 2026-06-01 00:00 .. 05:59 UTC, alternately svc api and web (region eu
    and us when ``region``); the api events of 03:00 .. 03:29 fail."""
    ts = pd.date_range("2026-06-01", periods=360, freq="1min", tz="UTC")
    i = np.arange(360)
    api = i % 2 == 0
    out = pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": np.where(
        api & (i >= 180) & (i < 210), "error", "ok"), "svc": np.where(api, "api", "web")})
    if region:
        out["region"] = np.where(api, "eu", "us")
    return out


@pytest.fixture
def files(tmp_path):
    for region in (False, True):
        _frame(region).to_csv(tmp_path / f"log{'_region' if region else ''}.csv", index=False)
    (tmp_path / "inc.csv").write_text(
        "incident_id,start,end,scope\ni1,2026-06-01T03:00Z,2026-06-01T03:30Z,region=eu\n")
    return tmp_path


def test_alerts_does_not_advise_a_column_the_log_lacks(files, capsys):
    slo = ["--target", "0.99", "--by", "svc", "--incidents", str(files / "inc.csv")]
    assert main(["alerts", str(files / "log.csv"), *slo]) == 0
    out = flat(capsys.readouterr().out)
    assert ABSENT_CLI.format(what="which groups' alerts match an incident") in out
    assert "--by svc,region" not in out
    # a log holding region: the advice stands, and following it is read
    log = str(files / "log_region.csv")
    assert main(["alerts", log, *slo]) == 0
    assert ("incident scopes name region, not a --by key: it does not restrict which groups' "
            "alerts match an incident; give --by svc,region to match each incident to its own "
            "groups only.") in flat(capsys.readouterr().out)


def test_compare_windows_does_not_advise_a_column_the_log_lacks(files, capsys):
    assert main(["compare-windows", str(files / "log.csv"), "--target", "0.99", "--by", "svc",
                 "--windows", "1h,2h", "--incidents", str(files / "inc.csv")]) == 0
    out = flat(capsys.readouterr().out)
    assert ABSENT_CLI.format(what="which groups an incident counts for") in out
    assert "--by svc,region" not in out


def test_replay_does_not_advise_a_column_the_log_lacks(files, capsys):
    assert main(["replay", str(files / "log.csv"), "--target", "0.99", "--window", "1h", "--by",
                 "svc", "--incidents", str(files / "inc.csv")]) == 0
    out = flat(capsys.readouterr().out)
    assert ABSENT_CLI.format(what="which timelines draw an incident") in out
    assert "--by svc,region" not in out


def test_incident_scope_of_a_column_the_log_lacks_is_refused_without_a_by(files, capsys):
    window = ["--start", "2026-06-01T03:00Z", "--end", "2026-06-01T03:30Z"]
    assert main(["incident", str(files / "log.csv"), "--target", "0.99", "--by", "svc",
                 "--scope", "region=eu", *window]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("budgetlab: error: --scope names 'region', which is not a column of the "
                       "log: a scope's keys must be group keys, columns of the log given to --by; "
                       "name one of the log's columns.")
    # the log holds region, read without it: the fix is --by
    assert main(["incident", str(files / "log_region.csv"), "--target", "0.99", "--by", "svc",
                 "--scope", "region=eu", *window]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith("give --by svc,region.")


def _incidents() -> pd.DataFrame:
    return pd.DataFrame({"incident_id": ["i1"], "scope": ["region=eu"],
                         "start": pd.to_datetime(["2026-06-01T03:00Z"], utc=True),
                         "end": pd.to_datetime(["2026-06-01T03:30Z"], utc=True)})


API_ABSENT = ("incident scopes name region, which is not a column of these events: it does not "
              "restrict which groups an incident counts for; if the data they were read from has "
              "a column region, read them with by=['svc', 'region'] and give the same by= here to "
              "match each incident to its own groups only.")


def test_the_api_says_the_key_is_no_column_of_the_events():
    ev = bl.read_events(_frame(False), by="svc")
    with pytest.warns(BudgetlabWarning) as said:
        bl.compare_windows(ev, SLO(target=0.99), "1h", incidents=_incidents(), by="svc")
    # the events keep only the columns they were read with: the API cannot know the data's
    assert [str(w.message) for w in said if "incident scopes" in str(w.message)] == [API_ABSENT]


@pytest.mark.parametrize("func", ["compare_windows", "window_incidents"])
def test_the_api_never_says_no_by_can_make_a_column_the_file_holds(func):
    """Stop 60: the file holds region, read with by=svc only (notebook 02 read its log so): the
    API said "region, which is not a column of the events ... and no by= can make it"; following
    its own advice (read with by=['svc', 'region']) matches the incident to api alone."""
    ev = bl.read_events(_frame(True), by="svc")
    run = getattr(bl, func)
    args = (SLO(target=0.99), _incidents(), "1h") if func == "window_incidents" else (
        SLO(target=0.99), "1h")
    kw = {} if func == "window_incidents" else {"incidents": _incidents()}
    with pytest.warns(BudgetlabWarning) as said:
        run(ev, *args, by="svc", **kw)
    words = [str(w.message) for w in said if "incident scopes" in str(w.message)]
    assert words == [API_ABSENT] and "no by= can make it" not in words[0]
    both = bl.read_events(_frame(True), by=["svc", "region"])  # the advice, followed
    with warnings.catch_warnings():
        warnings.simplefilter("error", BudgetlabWarning)
        t = bl.compare_windows(both, SLO(target=0.99), "1h", incidents=_incidents(),
                               by=["svc", "region"])
    # by hand: region=eu is the api events (even minutes); web (us) has no incident
    assert dict(zip(t["svc"].astype(str), t["incidents"], strict=True)) == {"api": 1, "web": 0}
    # the scoring sees bins, not the events: it gives its advice on that condition
    bins = bin_events(ev, "1min", by="svc")
    pol = AlertPolicy.single_window("5min", 10)
    ep = bl.alert_episodes(bins, SLO(0.99), pol)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BudgetlabWarning)
        sc = bl.score_alerts(ep, _incidents(), bins=bins, target=SLO(0.99), policy=pol)
    assert sc.attrs["scope_note"] == (
        "incident scopes name region, not a by= key: it does not restrict which groups' alerts "
        "match an incident; if the events have a column region, give by=['svc', 'region'] to "
        "match each incident to its own groups only.")
