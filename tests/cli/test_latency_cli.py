"""``budgetlab latency``: the printed figures are the library's, errors are one line and exit 2."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

ROWS = [  # (minute, outcome, group, seconds)
    (0, "success", "a", 1.0), (1, "success", "a", 4.0), (2, "success", "a", 12.0), (3, "timeout",
                                                                                    "a", 30.0),
    (4, "solve_error", "a", 2.0), (5, "success", "b", 3.0), (6, "success", "b", 7.0), (7, "timeout",
                                                                                       "b", 30.0),
]


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    pd.DataFrame({
        "ts": [f"2026-01-01T00:{m:02d}:00Z" for m, _, _, _ in ROWS], "outcome": [o for _, o, _,
                                                                                 _ in ROWS],
        "g": [g for _, _, g, _ in ROWS], "ms": [s * 1000 for _, _, _, s in ROWS],
    }).to_csv(path, index=False)
    return path


def test_profile_and_tradeoff_printed(log, tmp_path, capsys):
    out = tmp_path / "shares.csv"
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s,30s",
                 "--by", "g", "--quantiles", "0.5,0.9", "--timeouts", "3s,30s", "--out",
                 str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())  # lines filled to 100 columns
    # group a (5 attempts): within 5 s 2 good (1 s, 4 s) = 40.00 %; KM median 12 s (hand-computed in
    # tests/analyses/test_latency_profile.py); p90 above the 30 s timeout
    assert "g=a: 5 attempts; timeout 30 s" in text
    assert "within 5 s: 40.00 % (2 good;" in text
    assert "within 30 s: 60.00 % (3 good;" in text and "equals availability" in text
    assert "p50 time to success: 12 s" in text
    assert "p90 time to success: > 30 s" in text
    # trade-off, a at 3 s: 4, 12 s successes lost (2 of the 5 attempts, a share of the attempts,
    # not of the 3 successes), waiting saved (1 + 9 + 27) / 5 = 7.4 s per attempt
    assert ("g=a: at 3 s: timed out 60.00 %, successes lost 40.00 % of attempts (2), waiting saved "
            "7.4 s per attempt") in text
    assert "nan" not in text.lower() and "nat" not in text.replace("natural", "")
    table = pd.read_csv(out)
    assert len(table) == 4 and set(table.columns) >= {"g", "period", "threshold", "good", "share"}


def test_measured_durations_are_said_to_three_digits_in_one_unit(log, capsys):
    """Waiting saved is a measured figure: three significant digits, every row in the unit of the
    largest (the figure's right axis is in it too). By hand, b at 3 s: (0 + 4 + 27) / 3 = 10.333
    s per attempt; at 29.5 s only the 30 s timeout is cut: a 0.5 / 5 = 0.1 s, b 0.5 / 3 = 0.1667
    s, said in seconds beside 10.3 s; with 29.5 s alone, all are under a second: in ms."""
    args = ["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
            "5s", "--by", "g"]
    assert main([*args, "--timeouts", "3s,29.5s"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # lines filled to 100 columns
    assert "g=b: at 3 s: timed out 66.67 %" in text and "waiting saved 10.3 s per attempt" in text
    assert "g=a: at 29.5 s: timed out 20.00 %" in text
    assert "waiting saved 0.1 s per attempt" in text
    assert "waiting saved 0.167 s per attempt" in text
    assert "0.1667 s" not in text and " ms per attempt" not in text
    assert main([*args, "--timeouts", "29.5s"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "waiting saved 100 ms per attempt" in text and "waiting saved 167 ms" in text


def test_the_quantiles_are_said_in_one_unit_that_of_the_largest(tmp_path, capsys):
    """40 successes, none censored: 0.1 .. 0.9 s four times each, 2 s three times, 3 s once.
    Kaplan-Meier is the empirical curve, Greenwood's variance F (1 - F) / 40: p50 0.5 s, its
    interval from 0.4 s (.4 + 1.96 sqrt(.24 / 40) = .552 >= .5; .3 + .142 = .442 < .5) to 0.7 s
    (.7 - .142 = .558 >= .5; .6 - .152 = .448 < .5); p90 0.9 s, from 0.8 s (.8 + .124 = .924) to
    2 s (F(2 s) = .975: .975 - 1.96 sqrt(.024375 / 40) = .927 >= .9; .9 - .093 = .807 < .9).
    Every quantile and bound is said in seconds, the unit of the largest, and the legend names it
    (the p50 line said "500 ms (95 % interval 300 ms .. 800 ms)" beside "0.9 s")."""
    path = tmp_path / "mixed.csv"
    durations = [k / 10 for k in range(1, 10)] * 4 + [2.0] * 3 + [3.0]
    pd.DataFrame({"ts": [f"2026-01-01T00:{m:02d}:00Z" for m in range(40)], "outcome": "success",
                  "s": durations}).to_csv(path, index=False)
    assert main(["latency", str(path), "--duration", "s", "--duration-unit", "s", "--thresholds",
                 "1s", "--quantiles", "0.5,0.9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [line.split(": ")[1] for line in lines if "time to success" in line]
    # p90's upper end 2 s beside 0.9 s: one number of decimals for the three, 2.0 s
    assert said == ["0.5 s (95 % interval 0.4 s .. 0.7 s)", "0.9 s (95 % interval 0.8 s .. 2.0 s)"]
    assert not any(" ms" in line for line in said)
    legend = "quantiles in s (one unit, that of the largest): "
    assert any(line.startswith(legend) for line in lines)


def test_thresholds_in_milliseconds_are_said_in_milliseconds(log, capsys):
    """A threshold written in ms is said in ms (never ``0.04 s``): within 4000 ms group a has 2
    good of 5 (1 s, and the 2 s solve error is no success) = 40.00 %; within 1500 ms 1 of 5 =
    20.00 %; group b within 1500 ms: none of 3 = 0.00 %."""
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "1500ms,4000ms", "--by", "g"]) == 0
    text = capsys.readouterr().out
    assert "within 1.5 s: 20.00 % (1 good;" in text  # 1500 ms is 1.5 s: the largest unit
    assert "within 4 s: 40.00 % (2 good;" in text


def test_a_threshold_below_a_second_is_said_in_milliseconds(log, capsys):
    """40 ms: no attempt of the log (1 s and longer) is within it: 0 good of 5 and of 3."""
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "40ms", "--by", "g"]) == 0
    text = capsys.readouterr().out
    assert text.count("within 40 ms: 0.00 % (0 good;") == 2
    assert "0.04 s" not in text


def test_header_states_the_span_and_a_given_timeout_by_its_flag(log, capsys):
    """The figures count the log from its first to its last attempt, and the header says which
    span that is (ROWS: minutes 0 to 7 of 2026-01-01); a timeout given on the command line is
    named by its flag, not by the API's keyword."""
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s", "--client-timeout", "60s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("log.csv: 8 attempts with durations, 2026-01-01 00:00 .. 2026-01-01 "
                        "00:07 UTC")
    assert "all events: 8 attempts; timeout 60 s (--client-timeout)" in lines
    assert not any("client_timeout" in line for line in lines)


def test_help_names_no_api_function(capsys):
    assert main(["latency", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--window DURATION" in text and "budgetlab." not in text


@pytest.mark.parametrize(("extra", "message"), [
    (["--timeouts", "45s"], "longer than the one in force"),
    (["--slow-above", "2s"], "give --thresholds instead"),
    (["--quantiles", "half"], "--quantiles"),
    # ROWS' successes: 1, 4, 12 s (a), 3, 7 s (b): 12 and 7 s are slower than a 5 s timeout
    (["--client-timeout", "5s"], "--client-timeout 5s is shorter than 2 successes of the log (the "
                                 "longest 12 s)"),
])
def test_errors_are_one_line(log, capsys, extra, message):
    args = ["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds", "5s",
            *extra]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "\n".join(err)


def test_a_quantile_outside_0_1_is_refused_before_the_log_is_read(log, capsys):
    # a fraction of the successes: 1.5 is 1.5 %, said as latency_profile says it; refused
    # before the "how it was read" block (a large log is not read for nothing)
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s", "--quantiles", "0.5,1.5"]) == 2
    err = capsys.readouterr().err
    assert err == ("budgetlab: error: --quantiles 1.5 must lie in (0, 1); if 1.5 is a percentage, "
                   "use a fraction: --quantiles 0.015.\n")


def test_a_shares_plot_of_more_thresholds_than_line_styles_is_refused_before_reading(
        log, tmp_path, capsys):
    """The shares figure tells a group's thresholds apart by four line styles: --plot with five
    thresholds is refused before the log is read (no "how it was read" block), and nothing is
    drawn; with --timeouts the figure is the trade-off, which draws no threshold."""
    png = tmp_path / "shares.png"
    args = ["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
            "1s,2s,3s,4s,5s", "--plot", str(png)]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and not png.exists()
    assert err == ("budgetlab: error: --plot draws the shares of at most 4 thresholds, a line "
                   "style each (solid, dashed, dotted, dash-dot); --thresholds gives 5: give at "
                   "most 4 with --plot, or leave --plot out (the lines and --out give the shares "
                   "of all 5).\n")
    assert main([*args, "--timeouts", "3s,30s"]) == 0 and png.exists()


def test_duration_is_required(log, capsys):
    assert main(["latency", str(log), "--thresholds", "5s"]) == 2
    assert "--duration COLUMN" in capsys.readouterr().err


def test_the_current_target_is_reported_beside_the_supported_one(every_fifth_slow, capsys):
    # three days, one attempt every 10 min, every 5th slower than 20 s: the 24 h window's share
    # within 20 s stays at 80 % (+- 1 of ~144), so under 0.75 the burn is ~0.8 (warning at most)
    # and under 0.8 ~1.0 (exhausted): the supported target is 0.75, every day alike (interval
    # 0.75 .. 0.75). --target 0.9 lies above it, and the text says so
    path = every_fifth_slow
    assert main(["latency", str(path), "--duration", "s", "--duration-unit", "s", "--thresholds",
                 "20s", "--window", "24h",
                 "--target", "0.9", "--n-boot", "50"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # lines filled to 100 columns
    assert "current SLO: target 0.9, warning < 0.5, critical < 0.1, min_events 0" in text
    assert ("within 20 s: supported target 0.75 (interval 0.75 .. 0.75); the current 0.9 is "
            "above it") in text
    # recalibrate's caveat, in its words: evaluated from 2 Jan 00:00 (after the 24 h warm-up) to
    # the last event, 3 Jan 23:50 (47 h 50 min, 1.99 days)
    assert ("above it; provisional: 1 d 23 h of evaluated history, less than the 14 d a "
            "recommendation needs; re-run with more history") in text


def test_thresholds_with_the_same_answer_are_said_once():
    # a hand-built summary: group a's two thresholds are withheld for the same reason (one line),
    # group b's two have different supported targets (a line each), group c's withheld reason
    # returns after a supported threshold (not neighbours: two lines)
    from budgetlab.cli.latency import supported_lines

    nan = float("nan")
    summary = pd.DataFrame({
        "g": ["a", "a", "b", "b", "c", "c", "c"],
        "threshold": pd.to_timedelta(["250ms", "1s", "250ms", "1s", "250ms", "1s", "2s"]),
        "supported_target": [nan, nan, 0.9, 0.99, nan, 0.95, nan],
        "supported_low": [nan, nan, 0.85, nan, nan, nan, nan],
        "supported_high": [nan, nan, 0.95, nan, nan, nan, nan],
        "note": ["withheld: 12 events", "withheld: 12 events", "", "", "withheld: x", "",
                 "withheld: x"],
    })
    assert supported_lines(summary, ["g"], False) == [
        "  g=a: within 250 ms, 1 s: withheld: 12 events",
        "  g=b: within 250 ms: supported target 0.9 (interval 0.85 .. 0.95)",
        "  g=b: within 1 s: supported target 0.99",
        "  g=c: within 250 ms: withheld: x",
        "  g=c: within 1 s: supported target 0.95",
        "  g=c: within 2 s: withheld: x",
    ]


def test_a_real_log_says_a_group_withheld_at_every_threshold_once(capsys):
    # loghub's OpenStack sample (docs/latency.md's command): api=metadata has 12 events after the
    # 1 min warm-up, too few at every threshold: one line names the three thresholds
    from pathlib import Path

    log = Path(__file__).parents[1] / "fixtures" / "loghub" / "openstack_400.log"
    assert main(["latency", str(log), "--pattern",
                 r'^\S+ (?P<ts>\S+ \S+) \d+ INFO nova\.(?P<api>osapi_compute|metadata)\.wsgi'
                 r'\.server .*" status: (?P<outcome>\d+) len: \d+ time: (?P<duration>[0-9.]+)',
                 "--time-format", "%Y-%m-%d %H:%M:%S.%f", "--outcomes",
                 "2xx=success,4xx=skip,5xx=server_error", "--by", "api", "--duration", "duration",
                 "--duration-unit", "s", "--thresholds", "0.25s,0.5s,1s", "--window", "1min",
                 "--n-boot", "20"]) == 0
    out = capsys.readouterr().out
    # one line (filled to 100 columns, its continuation indented deeper) for the three thresholds
    assert [ln for ln in out.splitlines() if "api=metadata: within" in ln] == [
        "  api=metadata: within 250 ms, 500 ms, 1 s: withheld: 12 events in the evaluated span: "
        "too few for a"]
    assert ("  api=metadata: within 250 ms, 500 ms, 1 s: withheld: 12 events in the evaluated "
            "span: too few for a\n    verdict (under 50 % they hold 6 expected failures; one "
            "needs at least 10, i.e. 20 events)\n") in out


def test_the_frontier_says_each_run_of_equal_answers_once():
    # a hand-built frontier of two groups: a's 0.5 and 0.75 allow 20 s, 0.8 30 s, 0.85 and 0.9
    # none for one reason; b's 0.5 none for one reason, 0.75 none for another
    from budgetlab.cli.latency import frontier_lines

    none = "no threshold in the grid supports this target"
    frontier = pd.DataFrame({
        "g": ["a"] * 5 + ["b"] * 2,
        "target": [0.5, 0.75, 0.8, 0.85, 0.9, 0.5, 0.75],
        "smallest_threshold": pd.to_timedelta(["20s", "20s", "30s", None, None, None, None]),
        "note": ["", "", "", none, none, "thin at 50 %", "thin at 75 %"]})
    assert frontier_lines(frontier, ["g"]) == [
        "  g=a: targets 0.5 .. 0.75: 20 s",
        "  g=a: target 0.8: 30 s",
        f"  g=a: targets 0.85 .. 0.9: none ({none})",
        "  g=b: target 0.5: none (thin at 50 %)",
        "  g=b: target 0.75: none (thin at 75 %)"]



def test_a_run_of_targets_too_few_events_can_judge_is_said_once_with_its_figures():
    # a hand-built frontier: group a's 12 events judge none of 0.5 .. 0.999 (each its own
    # figures: 10 expected failures need 10 / 0.5 = 20 events at 0.5, 10 / 0.001 = 10,000 at
    # 0.999); group b: 107 events on one day (0.5, 0.9: the day-block bootstrap), then too few
    # events for 0.95 (200) and 0.99 (1,000); a lone target keeps its own words
    from budgetlab.cli.latency import frontier_lines

    days = ("1 day with traffic in the evaluated span: too few for the day-block bootstrap (at "
            "least 2)")
    frontier = pd.DataFrame({
        "g": ["a"] * 3 + ["b"] * 4 + ["c"],
        "target": [0.5, 0.9, 0.999, 0.5, 0.9, 0.95, 0.99, 0.99],
        "smallest_threshold": pd.to_timedelta([None] * 8),
        "note": ["thin a 0.5", "thin a 0.9", "thin a 0.999", days, days, "thin b 0.95",
                 "thin b 0.99", "thin c 0.99"],
        "withheld": ["too_few_events"] * 3 + ["too_few_days"] * 2 + ["too_few_events"] * 3,
        "events": [12] * 3 + [107] * 4 + [50]})
    assert frontier_lines(frontier, ["g"]) == [
        "  g=a: targets 0.5 .. 0.999: none (12 events in the evaluated span: too few for a "
        "verdict at any of them; one needs at least 10 expected failures: 20 events at 0.5, "
        "10,000 at 0.999)",
        f"  g=b: targets 0.5 .. 0.9: none ({days})",
        "  g=b: targets 0.95 .. 0.99: none (107 events in the evaluated span: too few for a "
        "verdict at any of them; one needs at least 10 expected failures: 200 events at 0.95, "
        "1,000 at 0.99)",
        "  g=c: target 0.99: none (thin c 0.99)"]


NGINX = [  # combined format with $request_time appended: (second, status, seconds)
    (1, 200, "0.100"), (2, 200, "0.700"), (3, 200, "0.300"), (4, 503, "0.200")]


def test_an_access_log_without_durations_names_the_flag_given_and_a_fix_that_works(tmp_path,
                                                                                    capsys):
    log = tmp_path / "access.log"
    log.write_text("".join(
        f'10.0.0.1 - - [17/May/2015:10:05:0{s} +0000] "GET / HTTP/1.1" {code} 12 "-" "curl" {t}\n'
        for s, code, t in NGINX))
    assert main(["latency", str(log), "--duration", "d", "--thresholds", "0.5s"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("budgetlab: error: --duration needs a duration column, and access logs")
    assert main(["replay", str(log), "--slow-above", "1s"]) == 2
    assert capsys.readouterr().err.startswith("budgetlab: error: --slow-above needs a duration")
    # the fix it gives: a --pattern whose group (?P<duration>...) holds the request time
    pattern = (r'^\S+ \S+ \S+ \[(?P<ts>[^\]]+)\] "[^"]*" (?P<outcome>\d{3}) \S+ "[^"]*" "[^"]*" '
               r"(?P<duration>[0-9.]+)$")
    assert main(["latency", str(log), "--pattern", pattern, "--time-format",
                 "%d/%b/%Y:%H:%M:%S %z", "--outcomes", "2xx=success,5xx=server_error",
                 "--duration", "duration", "--duration-unit", "s", "--thresholds", "0.5s"]) == 0
    # by hand: 4 attempts, successes within 500 ms (0.5 s, said in ms below a second) at 0.1 s
    # and 0.3 s: 2 of 4
    assert "\n  within 500 ms: 50.00 % (2 good;" in capsys.readouterr().out


def test_a_plot_of_one_period_says_so_and_proposes_a_period_that_draws_a_curve(log, tmp_path,
                                                                                 capsys):
    """ROWS span minutes 0 to 7 of one day: under the default --freq 1D the shares plot has one
    period, one point per line. The command says so with the log's span (7 min) and proposes the
    longest round period that gives the log ten periods: 30 s (1 min x 10 > 7 min)."""
    png = tmp_path / "shares.png"
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s", "--plot", str(png)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("note: the plot has one 1D period (the log spans 7 min), one point per line; give "
            "--freq 30s (or another period shorter than the log) for the shares over time.") in text
    assert png.stat().st_size > 0
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s", "--plot", str(png), "--force", "--freq", "1min"]) == 0
    assert "one point per line" not in capsys.readouterr().out


def _two_groups(path, tmp_path):
    """every_fifth_slow's log twice, as groups a and b: each supports 0.75 within 20 s."""
    one = pd.read_csv(path)
    both = tmp_path / "two.csv"
    pd.concat([one.assign(g="a"), one.assign(g="b")]).to_csv(both, index=False)
    return both


def test_per_group_targets_are_each_compared_with_their_groups_supported_one(every_fifth_slow,
                                                                           tmp_path, capsys):
    # recalibrate's --target syntax: a's 0.9 lies above the 0.75 each group supports, b's 0.7 at
    # or below it
    args = ["latency", str(_two_groups(every_fifth_slow, tmp_path)), "--duration", "s",
            "--duration-unit", "s", "--thresholds", "20s", "--window", "24h", "--by", "g",
            "--n-boot", "20"]
    assert main([*args, "--target", "a=0.9,b=0.7"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # lines filled to 100 columns
    assert "current SLO: target a 0.9, b 0.7;" in text
    assert ("g=a: within 20 s: supported target 0.75 (interval 0.75 .. 0.75); the current 0.9 is "
            "above it") in text
    assert ("g=b: within 20 s: supported target 0.75 (interval 0.75 .. 0.75); the current 0.7 is "
            "at or below it") in text
    # a group left without its target is refused before anything is printed
    assert main([*args, "--target", "a=0.9,A=0.7"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "no SLO for the group b" in err


def test_n_boot_0_is_taken_as_recalibrate_takes_it(every_fifth_slow, capsys):
    # no bootstrap: the supported target alone (0.75, as with one), its missing interval said
    # once above the targets, in recalibrate's line; the --help says 0 is none, as
    # recalibrate's does
    assert main(["latency", str(every_fifth_slow), "--duration", "s", "--duration-unit", "s",
                 "--thresholds", "20s", "--window", "24h", "--n-boot", "0"]) == 0
    text = capsys.readouterr().out
    assert ("after warm-up):\nno bootstrap, --n-boot 0: no target below comes with a confidence "
            "interval\n  all events: within 20 s: supported target 0.75; provisional") in text
    assert text.count("no bootstrap") == 1
    assert main(["latency", "--help"]) == 0
    assert "200; 0: none)" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(("extra", "message"), [
    (["--window", "1h", "--target", "1.2"], "--target 1.2 must lie in (0, 1)"),
    (["--window", "1h", "--n-boot", "-3"], "--n-boot -3 must be a whole number >= 0"),
    (["--window", "1h", "--target", "a=0.9"], "per-group --target needs exactly one --by key"),
])
def test_a_bad_value_of_the_supported_targets_is_refused_before_the_profile(log, capsys, extra,
                                                                             message):
    # refused before the log is read: no profile printed first, then an error under it
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "5s", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err


def test_a_timeout_candidate_the_data_refuse_stops_the_run_before_the_profile(log, capsys):
    """ROWS' timeouts both end at 30 s, the timeout in force; a 45 s candidate is refused before
    anything is printed, not under a printed profile."""
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "5s", "--timeouts", "20s,45s"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].startswith("budgetlab: error: a client timeout of 45 s is longer "
                                           "than the one in force (30 s)")


def test_one_attempt_is_said_in_the_singular(tmp_path, capsys):
    """A log of one attempt (a 2 s success) in one group: "1 attempt", never "1 attempts", in the
    title line and the group's line."""
    path = tmp_path / "one.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["success"], "g": ["a"],
                  "ms": [2000.0]}).to_csv(path, index=False)
    assert main(["latency", str(path), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "5s", "--by", "g"]) == 0
    text = capsys.readouterr().out
    assert "one.csv: 1 attempt with durations, 2026-01-01 00:00 .. 2026-01-01 00:00 UTC" in text
    assert "g=a: 1 attempt; timeout " in text
    assert "1 attempts" not in text


def test_the_tradeoff_plot_spans_the_log_on_the_tz_clock(log, tmp_path, monkeypatch):
    """``latency --timeouts ... --tz Europe/Berlin --plot``: the trade-off's x label gives the
    log's span (00:00 .. 00:07 UTC, ROWS) on Berlin's clock, 01:00 .. 01:07 +01:00 in January,
    as the shares plot does; it said UTC whatever --tz was."""
    import budgetlab.plotting as plotting

    drawn = []
    real = plotting.plot_timeout_tradeoff

    def recorded(*args, **kwargs):
        ax = real(*args, **kwargs)
        drawn.append(ax.get_xlabel())
        return ax

    monkeypatch.setattr(plotting, "plot_timeout_tradeoff", recorded)
    png = tmp_path / "tradeoff.png"
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s", "--by", "g", "--timeouts", "3s,30s", "--tz", "Europe/Berlin", "--plot",
                 str(png)]) == 0
    assert png.is_file()
    assert drawn == ["client timeout (the candidates measured); attempts 2026-01-01 01:00 +01:00 "
                     ".. 2026-01-01 01:07 +01:00 Europe/Berlin"]


def test_every_line_fits_100_columns(log, capsys):
    """The command's prose is filled to 100 columns, as every command's is, a line's continuation
    indented two spaces deeper than the line: the trade-off's lines (about 125 characters here)
    and the quantiles' legend line (176) ran past it."""
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--thresholds",
                 "5s,30s", "--by", "g", "--timeouts", "3s,30s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if len(line) > 100] == []
    trade = [i for i, line in enumerate(lines) if line.startswith("  g=a: at 3 s: timed out")]
    assert len(trade) == 1 and lines[trade[0] + 1].startswith("    ")  # hangs under its line


def test_every_supported_target_line_fits_100_columns(every_fifth_slow, capsys):
    """The supported targets' lines with the current target and the provisional note (about 170
    characters) are filled to 100 columns too."""
    assert main(["latency", str(every_fifth_slow), "--duration", "s", "--duration-unit", "s",
                 "--thresholds", "20s", "--window", "24h", "--target", "0.9", "--n-boot", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if len(line) > 100] == []
    said = [i for i, line in enumerate(lines)
            if line.startswith("  all events: within 20 s: supported target 0.75")]
    assert len(said) == 1 and lines[said[0] + 1].startswith("    of evaluated history")


def test_the_unit_hint_names_the_units_of_the_servers_variables(tmp_path, capsys):
    # nginx's $upstream_response_time is in seconds (0.125); the hint read "ms for nginx
    # $upstream_response_time * 1000", which could be taken for its unit
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["success"],
                  "t": [0.125]}).to_csv(path, index=False)
    assert main(["latency", str(path), "--duration", "t", "--thresholds", "1s"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(
        "e.g. s for nginx's $request_time or $upstream_response_time (seconds, such as 0.125), "
        "us for Apache's %D (microseconds).")
    assert "* 1000" not in err[0]


def test_a_group_without_timeout_rows_is_withheld_from_the_tradeoff_in_words(tmp_path, capsys):
    """ROWS plus a group c of one 7 s solve error (no success, no timeout row): the trade-off of
    a and b is printed (it was refused for the whole log), c's is withheld by name; c's timeout
    is unknown in its own rows (the log has timeouts), and its median is not above a timeout
    (it printed "timeout unknown (none: no timeout in the log ...)")."""
    path = tmp_path / "log.csv"
    rows = [*ROWS, (8, "solve_error", "c", 7.0)]
    pd.DataFrame({"ts": [f"2026-01-01T00:{m:02d}:00Z" for m, _, _, _ in rows],
                  "outcome": [o for _, o, _, _ in rows], "g": [g for _, _, g, _ in rows],
                  "ms": [s * 1000 for _, _, _, s in rows]}).to_csv(path, index=False)
    assert main(["latency", str(path), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "5s", "--by", "g", "--quantiles", "0.5",
                 "--timeouts", "3s,30s"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    # a at 3 s: 4 and 12 s successes lost, 2 of 5 attempts (the by-hand case of the first test)
    assert "g=a: at 3 s: timed out 60.00 %, successes lost 40.00 % of attempts (2)" in text
    assert ("g=c: no 'timeout' row that no success outlasts in its 1 attempt, so the timeout "
            "in force is not in the log; "
            "its trade-off is withheld (give --client-timeout if you know the one in force)"
            in text)
    assert ("g=c: 1 attempt; timeout unknown (none: no timeout in this group's rows, durations "
            "read as uncensored)") in text
    assert ("p50 time to success: withheld (no 95 % interval) p50 withheld: 1 attempt cannot "
            "bound it from above (the lower 95 % limit of the curve never reaches 50 % before it "
            "ends at the longest duration, 7 s: no timeout in force in this group (no "
            "'timeout' row that no success outlasts); "
            "Brookmeyer-Crowley); even successes alone need at least 6 attempts") in text


def test_a_log_without_timeouts_asks_for_the_flag_once(tmp_path, capsys):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"],
                  "outcome": ["success", "solve_error"], "ms": [1000, 2000]}).to_csv(path,
                                                                                      index=False)
    assert main(["latency", str(path), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "5s", "--timeouts", "1s"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "budgetlab: error: the log shows no client timeout (no 'timeout' row that no success "
        "outlasts); say the one in "
        "force with --client-timeout (e.g. 60s).")
