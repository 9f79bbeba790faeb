"""``alerts`` and :func:`budgetlab.score_alerts` with incidents whose scope matches no group: they
were dropped without a word (``1 incident from ie.csv``, then incidents 0, recall "no
incidents", precision 0), so a typo looked like an incident-free log. Now the API warns naming
them, the command line names them and scores the others, and refuses when none is left. Also:
a refused policy period among per-group SLOs stops the run before any result is printed, and
the incidents file's messages (``an end``; the rows that end at or before their start)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, alert_episodes, score_alerts
from budgetlab.cli import main
from budgetlab.errors import BudgetlabWarning, InputError
from budgetlab.windows.binning import bin_events

OUTCOMES = ["--outcomes", "success=success,error=error"]
GROUPS = {"alpha beta": (360, 390), "u": None, "=eq": (540, 570)}


def _bins():
    ev = _events().sort_values("ts", kind="stable")
    return bin_events(ev.assign(ok=ev["outcome"] == "success"), "1min", by="svc")


def _events() -> pd.DataFrame:
    """One event a minute for 12 h from 2026-03-02T00:00:30Z per group; alpha beta fails at
    minutes 360..389 (06:00..06:29), =eq at 540..569 (09:00..09:29), u never."""
    m = np.arange(720)
    ts = pd.Timestamp("2026-03-02T00:00:30Z") + pd.to_timedelta(m, "min")
    return pd.concat([pd.DataFrame({"ts": ts, "svc": g, "outcome": np.where(
        (m >= e[0]) & (m < e[1]) if e else np.zeros(720, bool), "error", "success")})
        for g, e in GROUPS.items()], ignore_index=True)


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log2.csv"
    ev = _events()
    ev.assign(ts=ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).to_csv(path, index=False)
    return path


def _alerts(log, inc, *extra):
    return ["alerts", str(log), "--by", "svc", "--target", "0.99", *OUTCOMES, "--incidents",
            str(inc), *extra]


def test_no_incident_matching_a_group_is_refused_before_any_output(log, tmp_path, capsys):
    inc = tmp_path / "ie.csv"
    inc.write_text("incident_id,start,end,scope\n"
                   "I1,2026-03-02T06:00:00Z,2026-03-02T06:30:00Z,svc=nosuch\n")
    assert main(_alerts(log, inc)) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert ("ie.csv: the scope of its one incident ('I1') matches no group of the log (by svc; "
            "3 groups): nothing to score") in said.err


def test_incidents_matching_no_group_are_named_and_the_others_scored(log, tmp_path, capsys):
    inc = tmp_path / "ie.csv"
    inc.write_text("incident_id,start,end,scope\n"
                   "I1,2026-03-02T06:00:00Z,2026-03-02T06:30:00Z,svc=nosuch\n"
                   "I2,2026-03-02T06:00:00Z,2026-03-02T06:30:00Z,svc=alpha beta\n")
    out = tmp_path / "sc.csv"
    assert main(_alerts(log, inc, "--out", str(out))) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("1 of the 2 incidents of --incidents ('I1') has a scope that matches no group of the "
            "log (by svc): not scored, neither detected nor missed; check its scope.") in said
    sc = pd.read_csv(out, keep_default_na=False)
    # by hand: I2 alone is scored (by page_1h, whose 1 h window filled at 01:00), in the row of
    # all groups and in alpha beta's, none in the others'
    page = sc[sc["tier"] == "page_1h"].set_index("svc")["incidents"]
    # (=eq is written '=eq in a CSV cell, as a cell that would start a formula)
    assert page.to_dict() == {"*": 1, "alpha beta": 1, "u": 0, "'=eq": 0}


def test_score_alerts_warns_naming_the_incidents_matching_no_group():
    bins = _bins()
    ep = alert_episodes(bins, SLO(0.99), "workbook")
    inc = pd.DataFrame({"incident_id": ["I1", "I2"], "scope": ["svc=nosuch", "svc=u"],
                        "start": pd.to_datetime(["2026-03-02T06:00Z"] * 2, utc=True),
                        "end": pd.to_datetime(["2026-03-02T06:30Z"] * 2, utc=True)})
    with pytest.warns(BudgetlabWarning) as caught:
        sc = score_alerts(ep, inc, bins=bins, target=SLO(0.99))
    said = [str(w.message) for w in caught if "matches no group" in str(w.message)]
    assert said == ["1 of the 2 incidents of incidents= ('I1') has a scope that matches no group "
                    "of the episodes (by svc): not scored, neither detected nor missed; check "
                    "its scope."]
    page = sc[sc["tier"] == "page_1h"].set_index("svc")["incidents"]
    assert page.to_dict() == {"*": 1, "alpha beta": 0, "u": 1, "=eq": 0}  # I2 (svc=u), by hand


def test_score_alerts_names_incidents_that_end_before_they_start():
    bins = _bins()
    ep = alert_episodes(bins, SLO(0.99), "workbook")
    inc = pd.DataFrame({"incident_id": ["ok", "back"], "scope": ["*", "*"],
                        "start": pd.to_datetime(["2026-03-02T06:00Z", "2026-03-02T07:00Z"],
                                                utc=True),
                        "end": pd.to_datetime(["2026-03-02T06:30Z", "2026-03-02T07:00Z"],
                                              utc=True)})
    with pytest.raises(InputError, match=r"incidents: incident 'back' ends at or before it "
                                         r"starts; 'end' is exclusive"):
        score_alerts(ep, inc, bins=bins, target=SLO(0.99))


def test_a_refused_period_stops_the_run_before_any_result(log, tmp_path, capsys):
    """alpha beta's SLO has a 7 d period (Sloth has no windows for it), the others 30 d: the
    run with workbook,sloth printed workbook's results before the refusal, and wrote no file."""
    one = ("apiVersion: openslo/v1\nkind: SLO\nmetadata: {{name: {name}, labels: {{svc: "
           "'{svc}'}}}}\nspec: {{service: s, indicatorRef: i, budgetingMethod: Occurrences,\n"
           "  timeWindow: [{{duration: {period}, isRolling: true}}], objectives: [{{target: "
           "0.99}}]}}\n")
    slos = tmp_path / "mixed.yaml"
    slos.write_text("---\n".join(one.format(name=n, svc=s, period=p) for n, s, p in (
        ("a", "alpha beta", "7d"), ("b", "u", "30d"), ("c", "=eq", "30d"))))
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end\nX1,2026-03-02T06:00:00Z,2026-03-02T06:30:00Z\n")
    out = tmp_path / "sc.csv"
    argv = ["alerts", str(log), "--by", "svc", "--slo", str(slos), *OUTCOMES, "--incidents",
            str(inc), "--out", str(out)]
    assert main([*argv, "--policy", "workbook,sloth"]) == 2
    said = capsys.readouterr()
    assert said.out == "" and not out.exists()
    assert "the SRE budget period 7 d (the --slo file's) has no Sloth windows" in said.err


@pytest.mark.parametrize(("rows", "said"), [
    ("A,2026-03-02T06:00:00Z,\n", "column 'end' is empty in row 1; give every incident an end "
                                  "time"),
    ("A,2026-03-02T06:00:00Z,2026-03-02T07:00:00Z\nB,2026-03-02T06:00:00Z,2026-03-02T06:00:00Z\n",
     "'inc.csv': row 2 ends at or before its start; 'end' is exclusive"),
    ("A,2026-03-02T06:00:00Z,2026-03-02T05:00:00Z\nB,2026-03-02T06:00:00Z,2026-03-02T06:00:00Z\n",
     "'inc.csv': rows 1, 2 end at or before their start"),
])
def test_incident_file_messages(log, tmp_path, capsys, rows, said):
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end\n" + rows)
    assert main(["alerts", str(log), *OUTCOMES, "--incidents", str(inc)]) == 2
    got = capsys.readouterr()
    assert got.out == ""  # refused as the file is read, before the first line
    assert said in got.err
