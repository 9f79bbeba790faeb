"""CLI lines count their nouns in the number the count takes and their pronouns agree (they
wrote "wrote 1 group rows", "1 group(s)", "... 1 more (write them all with --out)", "read at least
30 d more history before them" for one episode). Expected texts written by hand."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.cli.backtest_report import budget_withheld_note, print_episodes, print_reading
from budgetlab.cli.replay_tables import format_incidents, format_transitions
from budgetlab.cli.shared import write_output

T0 = pd.Timestamp("2026-01-05 10:00", tz="UTC")


@pytest.mark.parametrize(("rows", "noun", "detail", "said"), [
    (1, "group row", "(the recommendations)", "wrote 1 group row (the recommendations)"),
    (3, "group row", "(the recommendations)", "wrote 3 group rows (the recommendations)"),
    (1, "status change", "in the reported windows", "wrote 1 status change in the reported "
                                                    "windows"),
    (2, "status change", "in the reported windows", "wrote 2 status changes in the reported "
                                                    "windows"),
    (1, "score row", "", "wrote 1 score row"),
    (1200, "score row", "", "wrote 1,200 score rows"),
])
def test_write_output_counts_its_noun(tmp_path, capsys, rows, noun, detail, said):
    out = tmp_path / "table.csv"
    write_output(pd.DataFrame({"x": range(rows)}), argparse.Namespace(out=str(out), force=False),
                 noun, detail)
    assert capsys.readouterr().out == f"{said} to {out}\n"
    assert len(pd.read_csv(out)) == rows


def test_budget_withheld_note_for_one_episode_says_it():
    text = budget_withheld_note(1, 3, pd.Timedelta("30D"), pd.Timedelta("2h"))
    assert text == ("budget_spent_pct withheld for 1 of the 3 episodes: it began less than the "
                    "30 d period after the span's start, and a share of the 30 d budget needs the "
                    "whole period before it (2 h read); read at least 30 d more history before it "
                    "(--since/--start).")
    text = budget_withheld_note(2, 3, pd.Timedelta("30D"), pd.Timedelta("2h"))
    assert text.endswith("read at least 30 d more history before them (--since/--start).")
    # every episode: "the one episode", "all 2 episodes" (it said "1 of the 1 episode")
    assert budget_withheld_note(1, 1, pd.Timedelta("30D"), pd.Timedelta("2h")).startswith(
        "budget_spent_pct withheld for the one episode: it began less than the 30 d period")
    assert budget_withheld_note(2, 2, pd.Timedelta("30D"), pd.Timedelta("2h")).startswith(
        "budget_spent_pct withheld for all 2 episodes: each began less than the 30 d period")


@pytest.mark.parametrize(("regions", "said"), [(["fra"], "1 group by region"),
                                                (["fra", "ams", "par"], "3 groups by region")])
def test_print_reading_counts_groups(capsys, regions, said):
    bins = pd.DataFrame({"region": regions, "total": [10] * len(regions),
                         "bad": [1] * len(regions)})
    bins.attrs.update(by=["region"], freq="1min", source={"url": "http://prom", "requests": 2})
    spec = SimpleNamespace(name="avail", source="slos.yaml", slo=SimpleNamespace(target=0.95,
                                                                                  period="30D"))
    print_reading(bins, spec, T0, T0 + pd.Timedelta("1h"))
    said_out = " ".join(capsys.readouterr().out.split())  # the prose is filled to 100 columns
    n = len(regions)
    assert (f" span 2026-01-05 10:00 .. 2026-01-05 11:00 UTC, bins of 1 min, {said}, "
            f"{10 * n} events, {n} failed; 2 HTTP requests") in said_out


@pytest.mark.parametrize(("late", "said"), [
    (1, "1 of the 3 incidents lies"), (2, "2 of the 3 incidents lie"), (3, "all 3 incidents lie")])
def test_incidents_outside_the_span_are_counted_of_all(late, said):
    # three incidents, the last `late` of them a day after the log's hour
    times = [T0 + pd.Timedelta(minutes=10 * i) + pd.Timedelta("1D") * int(i >= 3 - late)
             for i in range(3)]
    incidents = pd.DataFrame({"incident_id": ["a", "b", "c"], "kind": "outage", "start": times,
                              "end": times, "scope": "*"})
    events = pd.DataFrame({"ts": [T0, T0 + pd.Timedelta("1h")]})
    assert format_incidents(incidents, events).splitlines()[-1].startswith(
        f"note: {said} outside the log's span (")


@pytest.mark.parametrize(("n", "more"), [(2, 1), (4, 3)])
def test_the_more_lines_name_the_flag_that_shows_the_rest(n, more):
    times = [T0 + pd.Timedelta(minutes=i) for i in range(n)]
    incidents = pd.DataFrame({"incident_id": [f"i{i}" for i in range(n)], "kind": "outage",
                              "start": times, "end": times, "scope": "*"})
    events = pd.DataFrame({"ts": [T0, T0 + pd.Timedelta("1h")]})
    assert format_incidents(incidents, events, limit=1).splitlines()[-1] == (
        f"... {more} more (--plot draws every incident)")
    transitions = pd.DataFrame({"ts": times, "from_status": "HEALTHY", "to_status": "WARNING"})
    assert format_transitions(transitions, limit=1).splitlines()[-1] == (
        f"... {more} more (--out writes every status change)")


@pytest.mark.parametrize(("n", "more"), [(61, 1), (62, 2)])
def test_the_episodes_more_line(capsys, n, more):
    # after the tier's first hour (its long window filled), as alert_episodes' attrs say it
    start = [T0 + pd.Timedelta("2h") + pd.Timedelta(minutes=i) for i in range(n)]
    ep = pd.DataFrame({"tier": "page_1h", "severity": "page", "start": start,
                       "end": [s + pd.Timedelta("5min") for s in start], "ongoing": False,
                       "duration": pd.Timedelta("5min"), "budget_spent_pct": 1.0})
    ep.attrs.update(grid_start=T0, grid_end=T0 + pd.Timedelta("2D"),
                    tier_windows={"page_1h": 3_600 * 10**9})
    policy = SimpleNamespace(tiers=[SimpleNamespace(name="page_1h",
                                                    long_window=pd.Timedelta("1h"))],
                             period=pd.Timedelta("30D"))
    print_episodes("workbook", ep, policy, pd.Timedelta("2D"))
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"Policy workbook: {n} alert episodes"
    assert lines[-1] == f"... {more} more (--out writes every episode)"


def _help(command: str, capsys) -> str:
    assert main([command, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_help_texts_read_right_for_one_and_for_several(capsys):
    text = _help("incident", capsys)
    assert "one or more outcome logs: .csv, .tsv" in text
    assert ("write the status changes in each reported window (.csv or .parquet; its figures to "
            "12 significant digits, a duration in a CSV as the window column writes one: 24m "
            "(minutes), 1h30m, 10s; current_rate, burn_rate and the budget columns computed from "
            "each change's counts, not rounded as the seed's report and replay --out round "
            "them)") in text
    assert "(s)" not in text
    assert "one or more outcome logs: .csv, .tsv" in _help("replay", capsys)


@pytest.mark.parametrize(("successes_after", "said"), [
    # s, f: the failure exhausts the budget (1 of 2 failed at target 0.95): one change
    (0, "(1; 1 in the log's first 24 h, while the windows fill: none after it, so that one is "
        "listed; times UTC)"),
    # then 20 successes: 1 of 22 failed, remaining 1 - 1 / (22 x 0.05) = 0.09 < 0.1: CRITICAL
    (20, "(2; 2 in the log's first 24 h, while the windows fill: none after it, so those are "
         "listed; times UTC)"),
])
def test_transitions_all_in_the_first_window(tmp_path, capsys, successes_after, said):
    log = tmp_path / "log.csv"
    outcomes = ["success", "timeout"] + ["success"] * successes_after
    log.write_text("ts,outcome\n" + "".join(
        f"{T0 + pd.Timedelta(minutes=i):%Y-%m-%dT%H:%M:%SZ},{o}\n" for i, o in enumerate(outcomes)),
        encoding="utf-8")
    assert main(["replay", str(log), "--target", "0.95", "--window", "24h"]) == 0
    assert f"Transitions at events {said}" in " ".join(capsys.readouterr().out.split())


def test_outside_line_says_its_or_their_times():
    from budgetlab.cli.score_text import outside_line

    ep = pd.DataFrame(columns=["tier"])
    ep.attrs.update(grid_start=T0, grid_end=T0 + pd.Timedelta("3D"))
    scores = pd.DataFrame()
    span = "(2026-01-05 10:00 .. 2026-01-08 10:00 UTC)"
    scores.attrs["incidents_outside"] = 1
    # the only incident is "the one incident" (it said "1 of the 1 incident"); all of several
    # are "all 3 incidents"
    assert outside_line(scores, ep, 1) == (
        f"the one incident of --incidents lies wholly outside the log {span}: not scored, "
        "neither detected nor missed; check its times and zone.")
    assert outside_line(scores, ep, 2) == (
        f"1 of the 2 incidents of --incidents lies wholly outside the log {span}: not scored, "
        "neither detected nor missed; check its times and zone.")
    scores.attrs["incidents_outside"] = 2
    assert outside_line(scores, ep, 3) == (
        f"2 of the 3 incidents of --incidents lie wholly outside the log {span}: not scored, "
        "neither detected nor missed; check their times and zone.")
    scores.attrs["incidents_outside"] = 3
    assert outside_line(scores, ep, 3) == (
        f"all 3 incidents of --incidents lie wholly outside the log {span}: not scored, "
        "neither detected nor missed; check their times and zone.")


TIE_REST = ("the per-event replay and its transitions record them in file order, and another "
            "order can give other transitions; the time in each status reads the window after "
            "all rows of an instant (order-free).")


def test_tie_line_for_one_instant_and_for_several():
    from budgetlab.budget.ties import Ties
    from budgetlab.cli import clock_text

    at = pd.Timestamp("2026-01-01 00:20", tz="UTC")

    def tie_line(ties):  # the line as said, filled to 100 columns: compared as one line
        return " ".join(clock_text.tie_line(ties).split())

    assert tie_line(Ties(2, 1, 1, at)) == (
        "Ties: 2 rows share a timestamp with another row of their group (1 instant). At that "
        f"instant the outcomes differ (2026-01-01 00:20:00 UTC): {TIE_REST}")
    assert tie_line(Ties(7, 3, 1, at)) == (
        "Ties: 7 rows share a timestamp with another row of their group (3 instants). At 1 of "
        f"them the outcomes differ (2026-01-01 00:20:00 UTC): {TIE_REST}")
    assert tie_line(Ties(7, 3, 2, at)) == (
        "Ties: 7 rows share a timestamp with another row of their group (3 instants). At 2 of "
        f"them the outcomes differ (first 2026-01-01 00:20:00 UTC): {TIE_REST}")
    assert tie_line(Ties(2, 1, 0, None)) == ("Ties: 2 rows share a timestamp with another row of "
                                             "their group (1 instant).")
