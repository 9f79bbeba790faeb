"""A target is a given number: every text prints it as written (``0.99995``), never rounded to
four or six significant digits (``.4g`` printed 0.99995 as ``1``: "keep 1", "SLO: target 1").

The expected strings are written by hand from the targets given; the figures beside them are
worked out in the comments.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.cli import main


def _log(days: int, every_s: int, fail_every: int) -> pd.DataFrame:
    """One attempt every ``every_s`` seconds from 1 Jan 2026 for ``days`` days, every
    ``fail_every``-th a timeout (the first one included)."""
    n = days * 86400 // every_s
    ts = pd.date_range("2026-01-01", periods=n, freq=f"{every_s}s", tz="UTC")
    return pd.DataFrame({"ts": ts, "ok": np.arange(n) % fail_every != 0})


def _csv(events: pd.DataFrame, path) -> str:
    pd.DataFrame({"ts": events["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(events["ok"], "success", "timeout")}).to_csv(path,
                                                                                    index=False)
    return str(path)


@pytest.fixture(scope="module")
def five_nines() -> pd.DataFrame:
    # 4 days at one attempt a second, one failure in 50,000: after the 24 h warm-up the evaluated
    # span holds 3 x 86,400 = 259,200 events, 12.96 expected failures under 0.99995 (>= 10: a
    # verdict). A 24 h window holds 1 or 2 failures against a budget of 86,400 x 0.00005 = 4.32:
    # never exhausted (0.00 % of the time, limit 1 %). The rule's target is capped by the evidence
    # at 1 - 10 / 259,200 = 0.99996 -> 0.9999 (the highest usual target, met: budget 8.64), below
    # 0.99995 but the current target is within its limit: ok, keep 0.99995
    return _log(4, 1, 50_000)


def test_recalibrate_says_five_nines_as_written(five_nines):
    row = bl.recalibrate(five_nines, target=0.99995, window="24h", n_boot=0).summary.iloc[0]
    assert row["verdict"] == "ok"
    assert row["action"] == "keep 0.99995"  # .4g said "keep 1"
    assert row["verdict_reason"].startswith(
        "EXHAUSTED or worse 0.00 % of the evaluated time under 0.99995 (limit 1 %)")
    assert row["verdict_reason"].endswith(
        "the rule's target 0.9999 (no bootstrap, n_boot=0: the verdict rests on this point) lies "
        "below 0.99995, but the current target stays within the limit: keep 0.99995")


def test_the_repr_says_five_nines_and_no_bootstrap_in_words(five_nines):
    text = repr(bl.recalibrate(five_nines, target=0.99995, window="24h", n_boot=0))
    # n_boot=0 has no interval: said so, where it printed "bootstrap interval nan .. nan"
    assert "  all events: keep 0.99995 (the rule's target 0.9999, no bootstrap, n_boot=0); " in text
    assert "nan" not in text


@pytest.mark.parametrize(("target", "burn", "verdict", "action", "tail"), [
    # one failure in 25: the window holds 346 failures in 8,640 events 60 % of the time, 345
    # the rest, so the success rate's 10 % quantile is 1 - 346 / 8,640. p10 burn
    # (346 / 8,640) / (1 - target), three significant digits: 0.040046 / 0.05 = 0.80093 -> 0.801,
    # / 0.0875 = 0.45767 -> 0.458, / 0.87655 = 0.045686 -> 0.0457. The rule's target is the
    # highest grid step the window never exhausts: 0.955 (budget 388.8 > 346); 0.96 (budget
    # 345.6 < 346) is exhausted
    (0.95, "0.801", "ok", "keep 0.95",
     "lies above 0.95, but 9 hours in 10 the 24 h window burns at most 0.801 of its budget "
     "(limit: loose_burn 0.25): keep 0.95"),
    (0.9125, "0.458", "ok", "keep 0.9125",
     "lies above 0.9125, but 9 hours in 10 the 24 h window burns at most 0.458 of its budget "
     "(limit: loose_burn 0.25): keep 0.9125"),
    # .4g said 0.1235
    (0.12345, "0.0457", "too_loose", "tighten to 0.955", "lies above 0.12345: tighten to 0.955"),
])
def test_recalibrate_words_name_the_target_given(target, burn, verdict, action, tail):
    events = _log(3, 10, 25)
    row = bl.recalibrate(events, target=target, window="24h", n_boot=0).summary.iloc[0]
    assert (row["verdict"], row["action"]) == (verdict, action)
    assert f"under {target}{',' if verdict == 'too_loose' else ' '}" in row["verdict_reason"]
    assert f"burns at most {burn} of its budget" in row["verdict_reason"]
    assert "the rule's target 0.955 (no bootstrap" in row["verdict_reason"]
    assert row["verdict_reason"].endswith(tail)


@pytest.mark.parametrize(("target", "tail"), [
    # as above: one failure in 25, p10 burn 0.040046 / 0.05 = 0.801 (ok) and / 0.87655 = 0.0457
    # (too loose, under the limit 0.25); recalibrate has no --loose-burn: the limit is said by its
    # value, never as loose_burn (a keyword the command line cannot set)
    ("0.95", "burns at most 0.801 of its budget (limit: 0.25): keep 0.95"),
    ("0.12345", "under 0.12345, 9 hours in 10 the 24 h window burns at most 0.0457 of its "
                "budget (limit: 0.25);"),
])
def test_recalibrate_cli_says_the_loose_limit_without_a_keyword(target, tail, tmp_path, capsys):
    log = _csv(_log(3, 10, 25), tmp_path / "log.csv")
    assert main(["recalibrate", log, "--target", target, "--window", "24h", "--n-boot", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the reason is wrapped
    assert tail in out and "loose_burn" not in out and "loose-burn" not in out


def test_replay_cli_slo_line_says_the_target_as_written(tmp_path, capsys):
    log = _csv(_log(1, 60, 1000), tmp_path / "log.csv")
    assert main(["replay", log, "--window", "1h", "--target", "0.99995"]) == 0
    assert "SLO: target 0.99995, window 1 h, warning < 0.5, critical < 0.1, --min-events 0" in \
        capsys.readouterr().out  # .4g said "SLO: target 1"


def test_replay_cli_per_group_targets_as_written(tmp_path, capsys):
    events = _log(1, 60, 1000)
    events["g"] = np.where(np.arange(len(events)) % 2 == 0, "a", "b")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": events["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"), "g": events["g"],
                  "outcome": np.where(events["ok"], "success", "timeout")}).to_csv(log,
                                                                                   index=False)
    assert main(["replay", str(log), "--window", "1h", "--by", "g",
                 "--target", "a=0.99995,b=0.12345"]) == 0
    assert "SLO: target a 0.99995, b 0.12345; window 1 h" in capsys.readouterr().out


def test_recalibrate_cli_says_five_nines_as_written(five_nines, tmp_path, capsys):
    log = _csv(five_nines, tmp_path / "log.csv")
    assert main(["recalibrate", log, "--target", "0.99995", "--window", "24h",
                 "--n-boot", "0"]) == 0
    out = capsys.readouterr().out
    assert "SLO: target 0.99995, window 24 h" in out
    assert ("current target 0.99995; the rule's target 0.9999; verdict: ok, keep 0.99995"
            in out)


def test_latency_cli_says_a_seven_digit_target_as_written(every_fifth_slow, capsys):
    # the log of test_latency_cli's supported-target test: 0.75 is supported within 20 s; a
    # current target of 0.9999995 lies above it (:g printed it as 1)
    path = every_fifth_slow
    assert main(["latency", str(path), "--duration", "s", "--duration-unit", "s", "--thresholds",
                 "20s", "--window", "24h", "--target", "0.9999995", "--n-boot", "50"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # lines filled to 100 columns
    assert "current SLO: target 0.9999995, warning < 0.5" in text
    assert ("within 20 s: supported target 0.75 (interval 0.75 .. 0.75); the current 0.9999995 "
            "is above it") in text


# --- given durations: a threshold or a timeout is said as written too ----------------------------


def _latency_log(tmp_path) -> str:
    # ROWS of test_latency_cli: a's durations 1, 4, 12 s (successes), 30 s (timeout), 2 s (solve
    # error); b's 3, 7 s (successes), 30 s (timeout)
    rows = [(0, "success", "a", 1.0), (1, "success", "a", 4.0), (2, "success", "a", 12.0),
            (3, "timeout", "a", 30.0), (4, "solve_error", "a", 2.0), (5, "success", "b", 3.0),
            (6, "success", "b", 7.0), (7, "timeout", "b", 30.0)]
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": [f"2026-01-01T00:{m:02d}:00Z" for m, _, _, _ in rows],
                  "outcome": [o for _, o, _, _ in rows], "g": [g for _, _, g, _ in rows],
                  "ms": [s * 1000 for _, _, _, s in rows]}).to_csv(path, index=False)
    return str(path)


def test_latency_cli_says_a_threshold_and_a_timeout_as_written(tmp_path, capsys):
    # threshold 12,345 ms: a's 1, 4 s successes are within it, 12 s too (12 < 12.345): 3 of 5 =
    # 60.00 %; four significant digits said "within 12.35 s". Candidate timeout 12,345 ms: a's
    # successes lost 0 (none above it; 30 s timeout and the 2 s solve error are no successes)
    assert main(["latency", _latency_log(tmp_path), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "12345ms", "--by", "g", "--timeouts", "12345ms"]) == 0
    text = capsys.readouterr().out
    assert "g=a: 5 attempts; timeout 30 s" in text
    assert "within 12.345 s: 60.00 % (3 good;" in text
    assert "g=a: at 12.345 s: timed out " in text


def test_a_timeout_longer_than_the_one_in_force_is_said_as_written(tmp_path):
    # the timeout in force is 30 s (the log's timeout rows); 30.0004 s is 0.4 ms longer, which
    # four significant digits said as "30 s is longer than the one in force (30 s)"
    events = bl.read_events(_latency_log(tmp_path), duration="ms", duration_unit="ms")
    with pytest.raises(bl.errors.ConfigError, match=r"a client timeout of 30\.0004 s is longer "
                                                    r"than the one in force \(30 s\)"):
        bl.timeout_tradeoff(events, timeouts=["30000.4ms"])


def test_a_given_limit_is_said_as_written():
    # one failure in 25, target 0.95: p10 burn (346 / 8,640) / 0.05 = 0.801, above a loose_burn of
    # 0.1234567 (which :g said as 0.123457): ok
    row = bl.recalibrate(_log(3, 10, 25), target=0.95, window="24h", n_boot=0,
                         loose_burn=0.1234567).summary.iloc[0]
    assert row["verdict_reason"].endswith(
        "burns at most 0.801 of its budget (limit: loose_burn 0.1234567): keep 0.95")


def test_the_suggested_max_share_is_twice_the_given_one_as_written():
    from budgetlab.analyses.recalibration.no_target import explain_no_recommendation

    # twice 0.0312345678 is 0.0624691356 (:g said 0.0624691)
    text = explain_no_recommendation(
        has_time=True, p1=0.75, floor=0.75, lo=0.75, share_lo=0.3, events_per_day=100_000,
        window_events=100_000, window_ns=86_400 * 10**9, history_days=28,
        max_share=0.0312345678, limit_status="exhausted")
    assert "(max_share=0.0624691356)" in text


def test_latency_cli_names_a_quantile_level_as_written(tmp_path, capsys):
    # 0.9999995 of 5 attempts lies above a's 30 s timeout; :g named it "p100"
    assert main(["latency", _latency_log(tmp_path), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "5s", "--by", "g", "--quantiles", "0.5,0.9999995"]) == 0
    text = capsys.readouterr().out
    assert "p50 time to success: 12 s" in text  # a's KM median (test_latency_cli)
    assert "p99.99995 time to success: > 30 s" in text


def test_recalibrate_cli_spells_the_limit_status_as_its_header_does(tmp_path, capsys):
    # The header said "EXHAUSTED or worse", each reason "exhausted or worse": the status's name,
    # EXHAUSTED, in both. One failure in 25 under 0.95: the window never exhausts (above), so the
    # ok reason says 0.00 % of the evaluated time
    log = _csv(_log(3, 10, 25), tmp_path / "log.csv")
    assert main(["recalibrate", log, "--target", "0.95", "--window", "24h", "--n-boot", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "rule: the highest target that would have been EXHAUSTED or worse at most 1 %" in out
    assert "EXHAUSTED or worse 0.00 % of the evaluated time under 0.95 (limit 1 %)" in out
    assert "exhausted" not in out
