"""A window too thin for a recommendation (analyses/recalibration/window_events.py): where one
failure in a typical window puts it at EXHAUSTED under a target at the group's own level (its
Wilson ci_low) or under the recommendation, the recommendation is withheld in words; a group
whose window holds enough events keeps its recommendation.

Hand logs, 15 days, 24 h window (the first day is warm-up):

* ``a``: an event every 6 h, one failure (the 31st event): a 24 h window holds 4 events (5 only
  at the instants an event enters as another leaves), so one failure moves the rate 100 / 4 =
  25 points and a window holding it is at 3/4 = 75 %, EXHAUSTED under every target from 75 %
  up. 55 of 56 evaluated events succeed: Wilson's lower bound (z = 1.959964) is 0.9055, above
  75 %: withheld. (The old code recommended 0.745: the highest grid step below the 75 % of the
  window holding the failure, which held it 24 h of 13 d 23 h, 7.2 % > 1 %.)
* ``b``: an event every 90 s (960 in a 24 h window), every 56th a failure: a window holds 17
  or 18 failures (960 / 56 = 17.14 on average: 18 a share 0.14 of the time), rates
  1 - 17/960 = 0.98229 and 1 - 18/960 = 0.98125. So every target at or above 0.98125 is EXHAUSTED
  14 % of the time and the rule (the highest grid target EXHAUSTED at most 1 % of the time;
  grid 0.976, 0.978, 0.98, 0.982 ... between 97.5 and 99 %) gives 0.98. One failure moves the
  rate 100 / 960 = 0.104 points: a window holding one failure is EXHAUSTED only from 99.896 %,
  above both 0.98 and ci_low (~0.98): kept.
* ``c``: as ``a`` without a failure: 56 of 56, Wilson low 56 / (56 + z^2) = 0.9358 > 75 %:
  withheld, never "use 0.82 (capped: as high as 56 events can judge)".
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import budgetlab

T0 = pd.Timestamp("2026-11-01", tz="UTC")
Z95 = 1.959963984540054


def _group(name: str, every_s: float, fail: list[int] | None = None,
           fail_every: int = 0) -> pd.DataFrame:
    n = int(15 * 86_400 // every_s)
    ok = np.ones(n, dtype=bool)
    if fail_every:
        ok[fail_every - 1::fail_every] = False
    for i in fail or []:
        ok[i] = False
    ts = T0 + pd.to_timedelta(np.arange(n) * every_s, unit="s")
    return pd.DataFrame({"ts": ts, "g": name, "ok": ok})


def _events() -> pd.DataFrame:
    ev = pd.concat([_group("a", 6 * 3600, fail=[30]), _group("b", 90, fail_every=56),
                    _group("c", 6 * 3600)], ignore_index=True)
    return ev.sort_values("ts", kind="stable").reset_index(drop=True)


def _wilson_low(k: int, n: int, z: float = Z95) -> float:
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n)


@pytest.fixture(scope="module")
def summary() -> pd.DataFrame:
    return budgetlab.recalibrate(_events(), by="g", window="24h", n_boot=0).summary.set_index("g")


def test_thin_window_with_one_failure_is_withheld(summary: pd.DataFrame) -> None:
    row = summary.loc["a"]
    assert (int(row["events"]), int(row["failures"])) == (56, 1)
    assert row["ci_low"] == pytest.approx(_wilson_low(55, 56), abs=1e-9)
    assert _wilson_low(55, 56) > 0.75  # above the 75 % of a window holding one failure
    assert np.isnan(row["recommended_target"])
    assert row["action"] == ""
    note = row["recommendation_note"]
    assert "a 24 h window holds ~4 events, so one failure moves the rate 25 points" in note
    assert "EXHAUSTED or worse under every target from 75.00 % up" in note
    assert "too few events in a window for a recommendation" in note
    assert row["verdict_reason"] == (
        "no current target given (target= or slo=); the recommendation is withheld: too few "
        "events in a window (see the recommendation note)")
    assert row["p1"] == 0.75  # the figures stay: 3 of 4 while the failure is in the window


def test_busy_window_keeps_its_recommendation(summary: pd.DataFrame) -> None:
    row = summary.loc["b"]
    assert int(row["window_events"]) == 960
    assert row["recommended_target"] == 0.98
    assert row["action"] == "use 0.98"
    assert "window" not in row["recommendation_note"]


def test_thin_window_without_failures_is_withheld_not_capped(summary: pd.DataFrame) -> None:
    row = summary.loc["c"]
    assert (int(row["events"]), int(row["failures"])) == (56, 0)
    assert row["ci_low"] == pytest.approx(56 / (56 + Z95**2), abs=1e-9)
    assert np.isnan(row["recommended_target"])
    assert "capped" not in row["action"] and row["action"] == ""
    assert "a 24 h window holds ~4 events, so one failure moves the rate 25 points" in \
        row["recommendation_note"]


def test_current_target_given_withholds_action_too() -> None:
    s = budgetlab.recalibrate(_events(), by="g", window="24h", n_boot=0,
                              target=0.99).summary.set_index("g")
    for g in ("a", "c"):
        assert s.loc[g, "action"] == ""
        assert np.isnan(s.loc[g, "recommended_target"])
        assert "one failure moves the rate 25 points" in s.loc[g, "recommendation_note"]
    assert s.loc["b", "recommended_target"] == 0.98


def test_cli_prints_the_sentence(tmp_path, capsys) -> None:
    from budgetlab.cli.app import main

    path = tmp_path / "log.csv"
    _events().to_csv(path, index=False)
    code = main(["recalibrate", str(path), "--by", "g", "--window", "24h", "--n-boot", "0",
                 "--ok", "ok", "--out", str(tmp_path / "rec.csv")])
    out = capsys.readouterr().out
    assert code in (0, None)
    assert " ".join(out.split()).count("one failure moves the rate 25 points") >= 2
    rec = pd.read_csv(tmp_path / "rec.csv").set_index("g")
    assert rec.loc[["a", "c"], "action"].isna().all()
    assert rec.loc["b", "recommended_target"] == 0.98
