"""``replay --incidents`` without the scope's key in ``--by`` says how it reads such a scope, in
the words ``alerts`` and ``compare-windows`` give: the key does not restrict which timelines
draw the incident (stop 58: the all-events timeline shaded incident D1, scope
captcha_type=recaptcha_v2, without a word)."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main

NOTE = ("incident scopes name captcha_type, not a --by key: it does not restrict which timelines "
        "draw an incident; give --by captcha_type to match each incident to its own groups only.")


def _files(tmp_path):
    ts = pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in ts],
                  "outcome": ["error" if 100 <= i < 110 else "success" for i in range(240)],
                  "captcha_type": ["recaptcha_v2", "image"] * 120}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    pd.DataFrame({"incident_id": ["D1"], "start": ["2026-01-01T01:40:00Z"],
                  "end": ["2026-01-01T01:50:00Z"],
                  "scope": ["captcha_type=recaptcha_v2"]}).to_csv(inc, index=False)
    return str(log), str(inc)


def test_replay_says_a_scope_key_outside_by_does_not_restrict(tmp_path, capsys) -> None:
    log, inc = _files(tmp_path)
    assert main(["replay", log, "--target", "0.95", "--window", "1h", "--incidents", inc]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert NOTE in out
    # with the key in --by each incident goes to its own group's timeline: no note
    assert main(["replay", log, "--target", "0.95", "--window", "1h", "--incidents", inc,
                 "--by", "captcha_type"]) == 0
    assert "incident scopes name" not in capsys.readouterr().out
