"""Too few events for a verdict withhold a "met", never a miss the failures decide: the one rule
(:func:`~budgetlab.analyses.recalibration.rules.decided_miss`, a one-sided exact binomial tail
at most 0.1 %) in buckets, recalibrate, target_verdicts, latency and bucket_target_verdicts.

Oracle: the binomial tails written out by hand below, and exact rational sums
(:class:`fractions.Fraction` over ``math.comb``), never the package's own figure."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, recalibrate, target_verdicts
from budgetlab.analyses.choices.targets import bucket_target_verdicts
from budgetlab.analyses.failure_buckets import bucket_counts
from budgetlab.analyses.latency_recalibration import latency_recalibrate
from budgetlab.analyses.recalibration.rules import MISS_LEVEL, decided_miss, failure_tail
from budgetlab.cli import main

SSH = Path(__file__).parents[1] / "fixtures" / "loghub" / "openssh_300.log"


def exact_tail(failures: int, events: int, rate: Fraction) -> float:
    """P(X >= failures), X ~ Binomial(events, rate), in exact rationals."""
    return float(sum(math.comb(events, k) * rate**k * (1 - rate) ** (events - k)
                     for k in range(failures, events + 1)))


def test_the_tail_by_hand():
    # n = 10, 3 failures at target 0.99 (rate 0.01):
    #   k=3: C(10,3) 0.01^3 0.99^7 = 120 x 1e-6 x 0.9320653 = 1.118478e-4
    #   k=4: C(10,4) 0.01^4 0.99^6 = 210 x 1e-8 x 0.9414801 = 1.977108e-6
    #   k=5: C(10,5) 0.01^5 0.99^5 = 252 x 1e-10 x 0.9509900 = 2.396495e-8
    #   k=6: C(10,6) 0.01^6 0.99^4 = 210 x 1e-12 x 0.9605960 = 2.017252e-10
    #   k>=7: about 1.2e-12 together;  sum = 1.1384912e-4
    assert failure_tail(3, 10, 0.01) == pytest.approx(1.1384912e-4, rel=1e-6)
    # n = 4, 2 failures at rate 1/2: (C(4,2) + C(4,3) + C(4,4)) / 16 = (6 + 4 + 1) / 16
    assert failure_tail(2, 4, 0.5) == pytest.approx(11 / 16, rel=1e-12)
    assert failure_tail(5, 5, 0.5) == pytest.approx(1 / 32, rel=1e-12)  # all five fail
    assert failure_tail(0, 7, 0.3) == 1.0 and failure_tail(8, 7, 0.3) == 0.0


@pytest.mark.parametrize(("failures", "events", "rate"), [
    (10, 66, Fraction(1, 20)), (11, 66, Fraction(1, 20)), (30, 2000, Fraction(1, 200)),
    (7, 142, Fraction(1, 100)), (65, 66, Fraction(1, 20))])
def test_the_tail_against_exact_rationals(failures, events, rate):
    assert failure_tail(failures, events, float(rate)) == pytest.approx(
        exact_tail(failures, events, rate), rel=1e-9)


def test_the_sshd_counts_decide_a_miss_and_a_borderline_stays_withheld():
    # 65 of 66 failed under 95 %: P(X >= 65 | 66, 0.05) = 66 x 0.05^65 x 0.95 + 0.05^66, about
    # 1.7e-83; 10 of 66: P = 0.00157 (exact_tail) >= 0.001, withheld; 11 of 66: P = 0.000408
    assert exact_tail(10, 66, Fraction(1, 20)) == pytest.approx(0.0015734, rel=1e-4)
    assert exact_tail(11, 66, Fraction(1, 20)) == pytest.approx(0.00040804, rel=1e-4)
    assert MISS_LEVEL == 0.001
    assert decided_miss(66, 65, 0.95) == (
        "missed: 65 of 66 events failed (98.48 %); even with 66 events, a service at 95 % would "
        "fail this often with probability < 0.1 %")
    assert decided_miss(66, 10, 0.95) == ""
    assert decided_miss(66, 11, 0.95).startswith("missed: 11 of 66 events failed (16.67 %)")
    # enough events for a verdict (200 x 0.05 = 10 expected failures): the usual rules judge
    assert decided_miss(200, 190, 0.95) == ""


def test_a_tail_at_the_level_reads_as_the_level():
    # the level is a probability at most 0.1 %, said "0.1 %" at it and "< 0.1 %" only below it,
    # whatever the float noise of 1 - target: all n of n fail with probability rate ** n
    said = "would fail this often with probability "
    # 3 of 3 at 90 %: 0.1 ** 3 = 0.001 exactly (1 - 0.9 is 0.09999999999999998: 0.000999...)
    assert decided_miss(3, 3, 0.9) == (
        "missed: 3 of 3 events failed (100.00 %); even with 3 events, a service at 90 % "
        f"{said}0.1 %")
    # 1 of 1 at 99.9 %: 0.001 exactly (1 - 0.999 is 0.0010000000000000009: 0.1 % and a hair)
    assert decided_miss(1, 1, 0.999).endswith(f"a service at 99.9 % {said}0.1 %")
    # 2 of 2 at 97 %: 0.03 ** 2 = 0.0009, truly below; 10 of 10 at 50 %: 1 / 1024 = 0.00097656
    assert decided_miss(2, 2, 0.97).endswith(f"a service at 97 % {said}< 0.1 %")
    assert decided_miss(10, 10, 0.5).endswith(f"a service at 50 % {said}< 0.1 %")
    # 1 of 1 at 99.89 %: 0.0011, above the level: withheld
    assert decided_miss(1, 1, 0.9989) == ""


@pytest.mark.usefixtures("wide_terminal")
def test_the_buckets_command_says_the_level_at_the_level(tmp_path, capsys):
    # a group whose 3 events all failed, under 90 %: P = 0.1 ** 3 = 0.1 % exactly (beside one of
    # 200 successes every 10 min, so that the log has successes)
    log, start = tmp_path / "b.csv", pd.Timestamp("2026-10-05T00:00Z")
    big = pd.DataFrame({"ts": start + pd.to_timedelta(range(0, 2000, 10), unit="min"),
                        "outcome": "success", "sitekey": "big"})
    tiny = pd.DataFrame({"ts": start + pd.to_timedelta([30, 32, 34], unit="h"),
                         "outcome": "solve_error", "sitekey": "tiny"})
    pd.concat([big, tiny]).sort_values("ts").to_csv(log, index=False)
    assert main(["buckets", str(log), "--by", "sitekey", "--target", "0.9", "--window", "1h"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("sitekey=tiny: missed: 3 of 3 events failed (100.00 %); even with 3 events, a service "
            "at 90 % would fail this often with probability 0.1 %") in out
    assert "probability < 0.1 %" not in out


def _counts(fails: int, n: int = 66, target: float = 0.95) -> pd.DataFrame:
    ts = pd.date_range("2026-01-05", periods=n, freq="1min", tz="UTC")
    return bucket_counts(as_events(ts, np.arange(n) >= fails), SLO(target=target, window="1h"),
                         [])


def test_buckets_keep_the_figures_of_a_decided_miss():
    # 11 of 66 failed: P = 0.000408 < 0.001; 10 of 66: P = 0.00157, withheld as before
    missed, withheld = _counts(11).iloc[0], _counts(10).iloc[0]
    assert missed["note"].startswith("missed: 11 of 66 events failed (16.67 %)")
    assert missed["burn_rate"] == pytest.approx(11 / (66 * 0.05))
    assert withheld["note"] == (
        "withheld: 66 events in the table: too few for a verdict (under 95 % they hold 3.3 "
        "expected failures; one needs at least 10, i.e. 200 events)")


@pytest.mark.usefixtures("wide_terminal")
def test_the_sshd_log_gets_its_miss_in_the_buckets_command(capsys):
    # 65 failures in 66 events (the log's 'failed' lines); burn 65 / (66 x 0.05) = 19.7
    assert main(["buckets", str(SSH), "--preset", "sshd", "--year", "2026"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "too few for a verdict" not in out
    assert ("few events, but a miss all the same (the figures without the bucket left blank): "
            "all events: missed: 65 of 66 events failed (98.48 %); even with 66 events, a service "
            "at 95 % would fail this often with probability < 0.1 %") in out
    # failures, shares, burn and sli kept; sli_without blank, then 1 transition
    assert "failure 66 65 100.00 % 98.48 % 19.7 1.52 % 1" in out


def _recalibrated(fails: int) -> pd.Series:
    # an event every 30 min from 00:07 for 3 days (144), the first hour's two (00:07, 00:37)
    # warm-up: 142 evaluated; ``fails`` failures spread over them (none in the warm-up)
    ts = pd.date_range("2026-01-05 00:07", periods=144, freq="30min", tz="UTC")
    ok = np.ones(144, dtype=bool)
    ok[np.linspace(10, 140, fails).astype(int)] = False
    return target_verdicts(recalibrate(as_events(ts, ok), target=0.99, window="1h",
                                       n_boot=0)).iloc[0]


def test_recalibrate_decides_a_miss_on_few_events_and_withholds_the_borderline():
    # 142 events under 99 % hold 1.42 expected failures (1,000 events needed). By hand, with
    # P(k) = C(142,k) 0.01^k 0.99^(142-k): P(0) = 0.99^142 = 0.23999, each next one the last
    # times (142-k)/(k+1) x 0.01/0.99: P(1) = 0.34423, P(2) = 0.24513, P(3) = 0.11555,
    # P(4) = 0.04056, P(5) = 0.011308, P(6) = 0.002608: P(X >= 6) = 1 - 0.996768 = 0.00323
    # (withheld), P(X >= 7) = 0.00323 - 0.00261 = 0.00062 (< 0.001: missed)
    assert exact_tail(7, 142, Fraction(1, 100)) == pytest.approx(0.000614, rel=1e-2)
    six, seven = _recalibrated(6), _recalibrated(7)
    assert six["verdict"] == "withheld"
    assert six["withheld"].startswith("142 events in the evaluated span: too few for a verdict")
    assert seven["verdict"] == "too_strict" and seven["withheld"] == ""
    summary = recalibrate(as_events(pd.date_range("2026-01-05 00:07", periods=144, freq="30min",
                                                  tz="UTC"), np.arange(144) % 3 != 2),
                          target=0.99, window="1h", n_boot=0).summary.iloc[0]
    # every third fails: 48 of the 142 evaluated (k = 2, 5, ..., 143)
    assert summary["verdict"] == "too_strict"
    assert summary["verdict_reason"] == (
        "missed: 48 of 142 events failed (33.80 %); even with 142 events, a service at 99 % "
        "would fail this often with probability < 0.1 %: loosen (no target to use: see the "
        "recommendation note)")


def test_latency_says_a_target_missed_at_every_threshold():
    # 45 attempts 40 min apart, durations 2 s for i % 10 < 8 else 0.1 s; the 1 h window's first
    # hour (the first two) is warm-up: 43 evaluated, 37 - 2 = 35 of them slower than 1 s. At 0.8
    # they hold 8.6 expected failures (50 events needed): P(X >= 35 | 43, 0.2) < 1e-15
    n = 45
    ts = pd.date_range("2026-01-05", periods=n, freq="40min", tz="UTC")
    ev = as_events(ts, np.ones(n, dtype=bool))
    ev["duration"] = pd.to_timedelta(np.where(np.arange(n) % 10 < 8, 2.0, 0.1), unit="s")
    rec = latency_recalibrate(ev, slo=SLO(target=0.99, window="1h"), thresholds=["250ms", "1s"],
                              n_boot=0)
    f = rec.frontier.set_index("target")
    assert exact_tail(35, 43, Fraction(1, 5)) < 1e-15
    assert f.loc[0.8, "note"].startswith(
        "missed at every threshold: 35 of 43 events slower than 1 s or failed (81.40 %); even "
        "with 43 events, a service at 80 % would fail")
    assert f.loc[0.8, "withheld"] == "" and pd.isna(f.loc[0.8, "smallest_threshold"])
    # 0.75: 43 x 0.25 = 10.75 expected failures, enough: judged by the rule, not by the tail
    assert f.loc[0.75, "note"] == "no threshold in the grid supports this target"


def test_bucket_target_verdicts_decide_a_miss_with_and_without_the_bucket():
    # 30 attempts under 95 % hold 1.5 expected failures (200 needed): 20 failed, 5 of them
    # timeouts; without them 15 of 25 fail: P(X >= 15 | 25, 0.05) < 1e-12, a miss either way
    ok = np.arange(30) >= 20
    bucket = np.where(ok, "success", np.where(np.arange(30) < 5, "timeout", "solve_error"))
    ev = pd.DataFrame({"g": "a", "ok": ok, "bucket": bucket})
    v = bucket_target_verdicts(ev, pd.DataFrame({"g": ["a"], "target": [0.95]}),
                               bucket="timeout").iloc[0]
    assert exact_tail(15, 25, Fraction(1, 20)) < 1e-12
    assert v["verdict"] == "misses_without" and v["withheld"] == ""
    assert "missed: 15 of 25 events failed (60.00 %)" in v["sentence"]
