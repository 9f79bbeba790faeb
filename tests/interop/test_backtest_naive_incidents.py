"""Stop 60: backtest's note on incident times without an offset said "--tz applies to the log",
but backtest reads no log: its --tz reads --start/--end and draws the plot. Oracle: the
sentence written by hand for one naive incident of one."""

from __future__ import annotations

from budgetlab.cli import main

INCIDENTS = """incident_id,start,end,scope,kind
fra-outage,2026-01-06 06:00,2026-01-06 06:20,region=fra,outage
"""


def test_the_naive_times_note_names_what_tz_reads_in_backtest(prom, tmp_path, capsys):
    (tmp_path / "inc.csv").write_text(INCIDENTS)
    rc = main(["backtest", "--prometheus", prom, "--total", "app_requests_total", "--errors",
               "app_request_errors_total", "--target", "0.999", "--policy", "workbook",
               "--by", "region", "--start", "2026-01-05 09:00", "--end", "2026-01-07 09:00",
               "--tz", "Asia/Tokyo", "--incidents", str(tmp_path / "inc.csv")])
    text = capsys.readouterr()
    assert rc == 0, text.err
    said = " ".join(text.out.split())
    assert ("inc.csv: 1 of 1 incident has times without an offset, read as UTC (--tz applies to "
            "--start/--end and the plot, not to this file); write them with Z or an offset such "
            "as +01:00 to mean another zone.") in said
    assert "applies to the log" not in said
