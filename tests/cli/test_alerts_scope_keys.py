"""``alerts`` with incident scopes that name a key outside ``--by``: such a key does not restrict
(:func:`budgetlab.events.schema.scope_mask`), so the incident is matched by every group's alerts;
the output says that reading (it was silent, where ``incident --scope`` refuses such a key)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def _log(tmp_path, scope):
    """One event a minute for 3 h in regions a and c; c fails minutes 60..69 (the single-window
    policy's one episode); one incident over those minutes, in ``scope``."""
    ts = pd.date_range("2026-01-05", periods=180, freq="1min", tz="UTC")
    minute = np.arange(180)
    frames = [pd.DataFrame({"ts": ts, "region": r, "outcome": np.where(
        (r == "c") & (minute >= 60) & (minute < 70), "solve_error", "success")})
        for r in ("a", "c")]
    log = tmp_path / "log.csv"
    pd.concat(frames).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end,scope\n"
                   f"i1,2026-01-05T01:00:00Z,2026-01-05T01:10:00Z,{scope}\n")
    return log, inc


def _run(tmp_path, capsys, scope):
    log, inc = _log(tmp_path, scope)
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(log), "--by", "region", "--incidents", str(inc), "--target",
                 "0.9", "--policy", "single_window", "--out", str(out)]) == 0
    table = pd.read_csv(out)
    row = table[(table["tier"] == "page_1h") & (table["region"] == "c")].iloc[0]
    return " ".join(capsys.readouterr().out.split()), row


def test_a_scope_key_outside_by_is_said_not_to_restrict(tmp_path, capsys):
    # by hand: region c's one episode overlaps i1, whose key "host" the groups lack: matched.
    # The log (ts, region, outcome) has no column host: since stop 59 no --by is advised (it
    # said "give --by region,host", which the reader refuses)
    out, row = _run(tmp_path, capsys, "host=web1&region=c")
    assert ("incident scopes name host, which is not a column of the log: it does not restrict "
            "which groups' alerts match an incident, and no --by can make it; name the log's "
            "columns in the scopes to match each incident to its own groups only.") in out
    assert "--by region,host" not in out
    assert (row["incidents"], row["detected"]) == (1, 1)


def test_scopes_of_by_keys_only_need_no_note(tmp_path, capsys):
    out, row = _run(tmp_path, capsys, "region=c")
    assert "incident scopes name" not in out
    assert (row["incidents"], row["detected"]) == (1, 1)
