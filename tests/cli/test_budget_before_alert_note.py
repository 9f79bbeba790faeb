"""``alerts --out``: the score rows' budget_before_alert_* columns are withheld when the log is
shorter than the budget period, and the text says why in words (the rule of backtest's
budget_spent_pct; the table's own figures: tests/alerts/test_scoring.py)."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-05 00:00", tz="UTC")


def test_alerts_out_says_why_budget_before_alert_is_withheld(tmp_path, capsys):
    ts = T0 + pd.to_timedelta(range(0, 2 * 1440), unit="min")  # 2 d, one event a minute
    ok = ~((ts >= T0 + pd.Timedelta("10h")) & (ts < T0 + pd.Timedelta("11h")))
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": ok}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end,scope\ni1,2026-01-05T10:00:00Z,2026-01-05T11:00:00Z,*\n")
    out = tmp_path / "scores.csv"
    argv = ["alerts", str(log), "--ok", "ok", "--target", "0.95",
            "--incidents", str(inc)]
    assert main([*argv, "--out", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("budget_before_alert withheld: the bins span 2 d, less than the 30 d budget period, "
            "and a share of the 30 d budget needs a whole period of traffic (2 d would be scaled "
            "to 30 d); read at least 30 d.") in text
    assert "nan" not in text.lower().split()
    scores = pd.read_csv(out)
    assert scores["budget_before_alert_max"].isna().all()
    # without --out the columns are not shown, nor is the note
    assert main(argv) == 0
    assert "budget_before_alert" not in capsys.readouterr().out
