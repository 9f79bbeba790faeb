"""``budgetlab incident``: with ``--incidents FILE``, incidents outside the log (NAB's 2014 label
windows against a 2026 log, a list longer than the log): each such incident is named in one
paragraph and the others are reported (``--out`` written); when none has traffic, one line and
exit 2. Before, the first such incident stopped the command (exit 2, ``--out`` not written) with
a fix naming --start/--end, which an --incidents run did not give. And the tier table's peaks,
written as the summary writes burns."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

# the tests read a table's rows, one row a line: at any terminal width
pytestmark = pytest.mark.usefixtures("wide_terminal")


def _run(log, rows, *extra):
    """``incident`` on ``log`` (the 3 h log of tests/conftest.py ``outage_log``: 00:00 ..
    02:59:54, 10 events a minute, every event of 01:40 .. 01:50 failed) with ``rows`` as
    ``--incidents``."""
    inc = log.parent / "incidents.csv"
    inc.write_text("incident_id,start,end\n" + "".join(f"{r}\n" for r in rows))
    return main(["incident", str(log), "--incidents", str(inc), "--target", "0.9",
                 "--window", "1h", "--context", "30min", "--outcomes",
                 "success=success,error=error", *extra])


def test_an_incident_after_the_log_is_named_and_the_others_reported(outage_log, tmp_path, capsys):
    out = tmp_path / "changes.csv"
    rc = _run(outage_log, ["i1,2026-01-05T01:40:00Z,2026-01-05T01:50:00Z",
                           "L1,2027-01-01T00:00:00Z,2027-01-01T01:00:00Z"], "--out", str(out))
    text = " ".join(capsys.readouterr().out.split())
    assert rc == 0
    assert "i1: 2026-01-05 01:40 .. 2026-01-05 01:50 UTC, scope *" in text
    # the window is the incident and 30 min either side; the last event is 02:59:54, and the
    # 1 h window empties at 03:59:54, long before 2026-12-31 23:30
    assert ("L1: not reported: no traffic in the report window (2026-12-31 23:30:00 UTC to "
            "2027-01-01 01:30:00 UTC, the incident and its context): the log ends at 2026-01-05 "
            "02:59:54 UTC, so there is nothing to report there; the tracker's window (1 h) was "
            "empty all that time (no traffic, no status).") in text
    assert "move --start" not in text
    written = pd.read_csv(out)
    assert set(written["incident_id"]) == {"i1"}


def test_no_incident_with_traffic_is_one_line_and_exit_2(outage_log, capsys):
    rc = _run(outage_log, ["N1,2014-03-14T03:31:00Z,2014-03-14T14:41:00Z",
                           "N2,2014-03-18T17:06:00Z,2014-03-19T04:16:00Z"])
    out, err = capsys.readouterr()
    assert rc == 2
    assert err.splitlines()[-1] == (
        "budgetlab: error: none of the 2 incidents of --incidents has events in its report "
        "window (the incident and its --context): nothing to report; check their times and zone "
        "against the log's.")
    assert ("N1: not reported: no traffic in the report window (2014-03-14 03:01:00 UTC to "
            "2014-03-14 15:11:00 UTC, the incident and its context): the log begins at "
            "2026-01-05 00:00:00 UTC, after the window; nothing to report.") in " ".join(
                out.split())


def test_the_tier_table_writes_peaks_as_the_summary_does(outage_log, capsys):
    """i1's tier table on the 3 h log (600 events an hour, 100 failed in 01:40 .. 01:50, target
    0.9): page_1h's peak 1 h burn is (100 / 600) / 0.1 = 1.667, written as the summary writes
    burns, to three significant digits: 1.67 (was 1.67 beside 0.91, two decimals). The log starts
    at 00:00: the 6 h, 1 d and 3 d windows never lie after the data's start during the incident,
    so those tiers are not evaluated and their peaks withheld (stop 55 printed 0.909, 100 failures
    in the 1,100 events of a 6 h window holding 1 h 50 min of data)."""
    assert _run(outage_log, ["i1,2026-01-05T01:40:00Z,2026-01-05T01:50:00Z"]) == 0
    rows = {ln.split()[0]: ln.split() for ln in capsys.readouterr().out.splitlines()
            if ln.split()[:1] in (["page_1h"], ["page_6h"], ["ticket_1d"], ["ticket_3d"])}
    # tier severity burn fired first_alert detection_delay peak_burn_long (no alert: words)
    # at 90 % page_1h needs an error ratio above 14.4 x 0.1 = 1.44: it can never fire
    never = ["False", "none", "can", "never", "fire", "at", "target", "0.9"]
    assert rows["page_1h"] == ["page_1h", "page", "14.4", *never, "1.67"]
    unknown = ["False", "none", "not", "evaluated", "withheld"]
    assert rows["page_6h"] == ["page_6h", "page", "6", *unknown]
    assert rows["ticket_1d"] == ["ticket_1d", "ticket", "3", *unknown]
    assert rows["ticket_3d"] == ["ticket_3d", "ticket", "1", *unknown]


def test_a_tier_firing_before_the_incident_reads_already_firing(outage_log, capsys):
    """i2 begins at 02:00, after the outage (every event of 01:40 .. 01:50 failed, 10 a minute,
    target 0.9). The single-window policy's 1 h tier (burn 0.9: fires while the hour holds more
    than 0.09 x 600 = 54 failures) fired at 01:46, evaluated every minute: the hour ending 01:45
    holds 50 failures, the one ending 01:46 holds 60; at 02:00 the hour still holds all 100. Its
    detection delay is "already firing" (no delay: it did not detect the incident), never "0 s"
    as if it had fired at the start."""
    assert _run(outage_log, ["i2,2026-01-05T02:00:00Z,2026-01-05T02:10:00Z"], "--policy",
                "single_window") == 0
    rows = [ln.split() for ln in capsys.readouterr().out.splitlines()
            if ln.split()[:1] == ["page_1h"]]
    # tier severity burn fired first_alert (date, time) detection_delay peak_burn_long
    assert rows[0][:7] == ["page_1h", "page", "0.9", "True", "2026-01-05", "01:46", "already"]


def test_tiers_out_writes_an_alert_already_firing_without_a_delay(outage_log, tmp_path, capsys):
    """i2 as above: page_1h fired at 01:46, before i2's start (02:00). ``--tiers-out`` writes it
    as the table reads it and as ``score_alerts`` counts it: ``already_firing`` True and no
    ``detection_delay`` (an empty cell), never "0s" as if it had detected the incident at
    once."""
    out = tmp_path / "tiers.csv"
    assert _run(outage_log, ["i2,2026-01-05T02:00:00Z,2026-01-05T02:10:00Z"], "--policy",
                "single_window", "--tiers-out", str(out)) == 0
    row = pd.read_csv(out, keep_default_na=False).set_index("tier").loc["page_1h"]
    assert pd.Timestamp(row["first_alert"]) == pd.Timestamp("2026-01-05 01:46", tz="UTC")
    assert str(row["already_firing"]) == "True"
    assert row["detection_delay"] == ""
