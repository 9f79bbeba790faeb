"""compare-windows and incident scopes, --alert-at/--grace, and rows without an event.

``compare-windows --by captcha_type --incidents`` scored an incident scoped ``region=ams``
against every group without a word, and took --alert-at and --grace without --incidents (exit 0,
the same output). Scopes are now said as ``alerts`` says them (keys that are not --by keys; scopes
that match no group, refused when none does), the two flags are refused without --incidents, and
a row whose evaluated span holds no event has its shares, rates and detections blank, the reason
in words below the table (never nan).

Hand-computed log (7 d window, target 0.9): group ``thin`` fails at D0 00:00 and succeeds at D6
00:00 (region fra); group ``busy`` (region ams) succeeds at D0 00:30 and every hour from D0 01:00
to D8 23:00. thin's evaluated span (D7 .. D8 23:00, 47 h) holds none of its events.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main

D0 = pd.Timestamp("2026-03-02", tz="UTC")


@pytest.fixture
def files(tmp_path):
    thin = [D0, D0 + pd.Timedelta(days=6)]
    busy = [D0 + pd.Timedelta(minutes=30),
            *(D0 + pd.Timedelta(hours=1) + pd.to_timedelta(np.arange(9 * 24 - 1), unit="h"))]
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in [*thin, *busy]],
                  "outcome": ["timeout", "success"] + ["success"] * len(busy),
                  "g": ["thin"] * 2 + ["busy"] * len(busy),
                  "region": ["fra"] * 2 + ["ams"] * len(busy)}).to_csv(tmp_path / "log.csv",
                                                                         index=False)
    (tmp_path / "inc.csv").write_text("incident_id,start,end,scope\n"
                                      "i,2026-03-02T00:00:00Z,2026-03-02T01:00:00Z,region=ams\n")
    (tmp_path / "typo.csv").write_text("incident_id,start,end,scope\n"
                                       "j,2026-03-02T00:00:00Z,2026-03-02T01:00:00Z,g=thinn\n")
    return {"log": str(tmp_path / "log.csv"), "inc": str(tmp_path / "inc.csv"),
            "typo": str(tmp_path / "typo.csv")}


def _run(capsys, argv):
    code = main(["compare-windows", *argv, "--windows", "7D", "--target", "0.9"])
    said = capsys.readouterr()
    return code, said.out, said.err


@pytest.mark.parametrize("flags", [["--alert-at", "warning"], ["--grace", "2h"]])
def test_alert_at_and_grace_without_incidents_are_refused(files, capsys, flags):
    code, out, err = _run(capsys, [files["log"], *flags])
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"{flags[0]} would do nothing" in lines[0]
    assert "--incidents" in lines[0] and lines[0].endswith("leave it out.")
    # with --incidents they are taken; --min-dwell and --warmup shape the shares: taken without
    assert _run(capsys, [files["log"], *flags, "--incidents", files["inc"]])[0] == 0
    for used in (["--min-dwell", "10min"], ["--warmup", "1h"]):
        assert _run(capsys, [files["log"], *used])[0] == 0


def test_a_scope_key_outside_by_is_said_as_alerts_says_it(files, capsys, wide_terminal):
    code, out, _ = _run(capsys, [files["log"], "--by", "g", "--incidents", files["inc"]])
    assert code == 0
    text = " ".join(out.split())
    assert ("incident scopes name region, not a --by key: it does not restrict which groups an "
            "incident counts for; give --by g,region to match each incident to its own groups "
            "only.") in text
    assert "nan" not in out.lower().split()


def test_a_scope_that_matches_no_group_is_refused_in_one_line(files, capsys):
    code, out, err = _run(capsys, [files["log"], "--by", "g", "--incidents", files["typo"]])
    assert code == 2 and out == ""  # nothing printed first (stderr: how the log was read)
    errors = [x for x in err.splitlines() if x.startswith("budgetlab: error: ")]
    assert len(errors) == 1 and "matches no group of the log (by g; 2 groups)" in errors[0]


def test_a_row_without_an_event_is_blank_and_says_why(files, capsys, wide_terminal):
    code, out, _ = _run(capsys, [files["log"], "--by", "g,region", "--incidents", files["inc"]])
    assert code == 0
    rows = {x.split()[0]: x.split() for x in out.splitlines() if x.split()[:1] in (["thin"],
                                                                                 ["busy"])}
    # thin: events 0, hours 47, hours_no_traffic 0 (D7 .. D8 23:00 all held), then no share, no
    # rate and no detection count; its incidents 0 (region=ams), so no time: "no incident"
    assert rows["thin"][:6] == ["thin", "fra", "7", "d", "0", "47.00"]
    assert "0 events in the evaluated span: for its 47 h of evaluated time" in " ".join(out.split())
    assert "nan" not in out.lower()
    # busy: 47 events, 46.5 h, no empty window from its first event on (the 0.5 h from D0 00:00
    # to its first event is before the group began: no traffic no more), all healthy
    # (since stop 59 its shares are blank: 47 events x 0.1 = 4.7 expected failures, under 10)
    assert rows["busy"][:7] == ["busy", "ams", "7", "d", "47", "46.50", "0.00"]
    assert rows["busy"][7] != "0.0"
    assert ("47 events in the evaluated span: too few for a verdict (under 90 %"
            in " ".join(out.split()))
