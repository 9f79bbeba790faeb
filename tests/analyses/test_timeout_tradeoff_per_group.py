"""The timeout trade-off judges each candidate against each group's own timeout in force
(docs/latency.md: "Each group's timeout in force is read from its own timeout rows (no log-wide
timeout is defined)"). Before the fix a candidate longer than the smallest timeout of all groups
was refused for every group: with a's timeout 30 s and b's 10 s, 20 s was refused for a too.

The log, by hand: a succeeds in 2, 15, 25 s and times out at 30 s (its timeout in force 30 s);
b succeeds in 1, 8 s and times out at 10 s (10 s).

* 20 s, a: cut the 25 s success (lost) and the 30 s timeout: 2 of 4 timed out (50 %), 1 success
  lost (25 % of the attempts), waiting saved (25 - 20) + (30 - 20) = 15 s, 3.75 s per attempt,
  availability 2 / 4. b: 20 s > 10 s: withheld.
* 5 s, a: cut 15 s and 25 s (lost) and the timeout: 3 of 4, 2 lost, saved 10 + 20 + 25 = 55 s
  (13.75 s per attempt), availability 1 / 4. b: cut 8 s (lost) and the timeout: 2 of 3, 1 lost,
  saved 3 + 5 = 8 s, availability 1 / 3.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.analyses.timeout_tradeoff import timeout_tradeoff
from budgetlab.cli import main
from budgetlab.errors import ConfigError

ROWS = [  # (group, minute, bucket, seconds)
    ("a", 0, "success", 2), ("a", 1, "success", 15), ("a", 2, "success", 25),
    ("a", 3, "timeout", 30), ("b", 4, "success", 1), ("b", 5, "success", 8),
    ("b", 6, "timeout", 10),
]

WITHHELD_B = ("g=b: a client timeout of 20 s is longer than its timeout in force (10 s): the "
              "attempts cut there have unknown durations beyond it, so its trade-off at it is "
              "withheld")


def _events():
    bucket = [b for _, _, b, _ in ROWS]
    return pd.DataFrame({
        "ts": pd.to_datetime([f"2026-01-01T00:{m:02d}:00Z" for _, m, _, _ in ROWS],
                             utc=True).as_unit("ns"),
        "ok": [b == "success" for b in bucket],
        "bucket": pd.Categorical(bucket, categories=["success", "timeout", "solve_error"]),
        "g": pd.Categorical([g for g, _, _, _ in ROWS]),
        "duration": pd.to_timedelta([s for _, _, _, s in ROWS], unit="s").as_unit("ns"),
    })


def test_a_candidate_longer_than_one_groups_timeout_is_withheld_for_it_only():
    t = timeout_tradeoff(_events(), timeouts=["5s", "20s"], by="g")
    got = [(str(r["g"]), r["client_timeout"]) for _, r in t.iterrows()]
    assert got == [("a", pd.Timedelta("5s")), ("a", pd.Timedelta("20s")),
                   ("b", pd.Timedelta("5s"))]
    assert t["timed_out"].tolist() == [3, 2, 2]
    assert t["successes_lost"].tolist() == [2, 1, 1]
    assert t["wait_saved"].tolist() == [pd.Timedelta("55s"), pd.Timedelta("15s"),
                                        pd.Timedelta("8s")]
    assert t["availability"].tolist() == pytest.approx([1 / 4, 2 / 4, 1 / 3])
    assert t["current"].tolist() == [pd.Timedelta("30s")] * 2 + [pd.Timedelta("10s")]
    assert t.attrs["withheld"] == [WITHHELD_B]


def test_a_candidate_longer_than_every_groups_timeout_is_refused():
    with pytest.raises(ConfigError) as err:
        timeout_tradeoff(_events(), timeouts=["20s", "40s"], by="g")
    assert str(err.value) == (
        "a client timeout of 40 s is longer than the timeout in force of every group (the longest "
        "30 s): the attempts cut there have unknown durations beyond it, so what a longer timeout "
        "would do is not in the data; give candidates at or below it.")


def test_the_command_prints_the_withheld_group(tmp_path, capsys):
    log = tmp_path / "log.csv"
    ev = _events()
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": ev["bucket"],
                  "g": ev["g"], "s": [s for _, _, _, s in ROWS]}).to_csv(log, index=False)
    assert main(["latency", str(log), "--duration", "s", "--duration-unit", "s", "--thresholds",
                 "5s", "--by", "g", "--timeouts", "20s"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("g=a: at 20 s: timed out 50.00 %, successes lost 25.00 % of attempts (1), waiting "
            "saved 3.75 s per attempt, availability 50.00 %") in text
    assert "g=b: at 20 s" not in text
    assert WITHHELD_B in text
