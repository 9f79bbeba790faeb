"""``budgetlab backtest`` end to end against a real Prometheus server with known counters."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.interop import prometheus_http
from tests.interop.prometheus_server import (
    MINUTES,
    START,
)
from tests.plotting.time_axes import clock_labels_in

END = START + pd.Timedelta(minutes=MINUTES)
SPAN = ["--start", "2026-01-05", "--end", "2026-01-07"]
SLOTH = """version: "prometheus/v1"
service: app
slos:
  - name: availability
    objective: 99.9
    sli:
      events:
        error_query: sum by (region) (rate(app_request_errors_total[{{.window}}]))
        total_query: sum by (region) (rate(app_requests_total[{{.window}}]))
"""
OPENSLO = """apiVersion: openslo/v1
kind: SLO
metadata: {name: availability}
spec:
  service: app
  timeWindow: [{duration: 30d, isRolling: true}]
  budgetingMethod: Occurrences
  objectives: [{target: 0.999}]
  indicator:
    metadata: {name: errors}
    spec:
      ratioMetric:
        counter: true
        bad: {metricSource: {type: Prometheus, spec: {query: app_request_errors_total}}}
        total: {metricSource: {type: Prometheus, spec: {query: app_requests_total}}}
"""
INCIDENTS = """incident_id,start,end,scope,kind
fra-outage,2026-01-06T06:00:00Z,2026-01-06T06:20:00Z,region=fra,outage
"""


def test_sloth_spec_without_by_is_told_the_label_its_queries_keep(prom, tmp_path, capsys):
    # SLOTH's queries sum by (region) already: the fix is --by region (or a sum over region), not
    # "aggregate with sum(...)"; a query that sums nothing is told to (4 series: region x instance)
    (tmp_path / "sloth.yaml").write_text(SLOTH)
    args = ["backtest", "--prometheus", prom, "--slo", str(tmp_path / "sloth.yaml"), *SPAN]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(
        "the query returned 3 series where one series was expected; the query aggregates but "
        "keeps the label region: give --by region, or aggregate over it in the query too.\n")
    (tmp_path / "sloth.yaml").write_text(SLOTH.replace(
        "total_query: sum by (region) (rate(app_requests_total[{{.window}}]))",
        "total_query: rate(app_requests_total[{{.window}}])"))
    assert main(args) == 2
    assert capsys.readouterr().err.endswith(
        "the query returned 4 series where one series was expected; aggregate with sum(...) or "
        "give the labels that tell them apart: --by instance,region.\n")


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_sloth_spec_three_policies_outputs(prom, tmp_path, capsys):
    (tmp_path / "sloth.yaml").write_text(SLOTH)
    (tmp_path / "inc.csv").write_text(INCIDENTS)
    out = tmp_path / "out"
    out.mkdir()
    rc = main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / "sloth.yaml"), "--policy",
               "workbook,pyrra,sloth", *SPAN, "--by", "region", "--incidents",
               str(tmp_path / "inc.csv"),
               "--out", str(out), "--plot", str(tmp_path / "t.png")])
    text = capsys.readouterr()
    assert rc == 0, text.err
    assert "scrape gap" in text.err  # the warning, one line
    assert "region=par 2026-01-06 09:19 .. 09:22 (3 bins)" in text.out
    for name in ("workbook", "pyrra", "sloth"):
        assert f"Policy {name}:" in text.out
    # closed forms of the fra outage (see
    # test_prometheus_source.test_bins_feed_the_sre_model_unchanged)
    rows = [ln.split()[:6] for ln in text.out.splitlines()]  # an end on its start's day: a time
    assert ["fra", "page_1h", "page", "2026-01-06", "06:01", "06:25"] in rows
    assert ["fra", "ticket_1d", "ticket", "2026-01-06", "06:05", "08:20"] in rows
    # durations in the words of the other commands (they were '24m', '2h15m', 'bins of 1m'):
    # 06:25 - 06:01 and 08:20 - 06:05
    assert "UTC, bins of 1 min, 3 groups" in text.out
    # the workbook's ticket_3d never fills over the 2 d span (it said "the span spans 2 d")
    assert ("ticket_3d's long window (3 d) never filled: the span is 2 d long; its "
            in " ".join(text.out.split()))
    rows = {tuple(ln.split()[:2]): ln.split()[6:] for ln in text.out.splitlines()
            if ln.split()[:1] == ["fra"]}
    assert rows[("fra", "page_1h")][:2] == ["24", "min"]
    assert rows[("fra", "ticket_1d")][:4] == ["2", "h", "15", "min"]
    episodes = pd.read_csv(out / "episodes.csv")
    fra = episodes[(episodes["region"] == "fra") & (episodes["policy"] == "workbook")].sort_values(
        "tier"
    )
    assert fra["start"].tolist() == ["2026-01-06 06:01:00+00:00", "2026-01-06 06:03:00+00:00",
                                     "2026-01-06 06:05:00+00:00", "2026-01-06 06:02:00+00:00"]
    det = pd.read_csv(out / "detections.csv")
    row = det[(det["policy"] == "workbook") & (det["tier"] == "page_1h") & (det["region"] == "fra")]
    assert row["detection_time"].tolist() == ["1m"]  # durations as the window column writes them
    assert row["reset_time"].tolist() == ["5m"]
    assert set(pd.read_csv(out / "scores.csv")["policy"]) == {"workbook", "pyrra", "sloth"}
    assert len(pd.read_csv(out / "bins.csv")) == 3 * MINUTES
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_openslo_spec_equals_sloth_spec(prom, tmp_path, capsys):
    (tmp_path / "o.yaml").write_text(OPENSLO)
    (tmp_path / "s.yaml").write_text(SLOTH)
    outs = []
    for spec in ("o.yaml", "s.yaml"):
        target = tmp_path / f"{spec}.csv"
        assert main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / spec), "--policy",
                     "workbook",
                     *SPAN, "--by", "region", "--out", str(target)]) == 0
        outs.append(pd.read_csv(target))
    capsys.readouterr()
    pd.testing.assert_frame_equal(outs[0], outs[1])


@pytest.mark.parametrize("args,message", [
    (["--total", 'sum(increase(app_requests_total{region=~"("}[5m]))', "--errors",
      "app_request_errors_total",
      "--target", "0.999", "--policy", "workbook"], "refused the query (HTTP 400): bad_data:"),
    (["--total", "nothing_total", "--errors", "app_request_errors_total", "--target", "0.999",
      "--policy",
      "workbook"], "returned no series"),
    (["--total", "app_requests_total", "--errors", "app_request_errors_total", "--target", "0.999",
      "--policy",
      "workbook", "--since", "5d"], "holds no data before"),
    (["--total", "app_requests_total", "--errors", "app_request_errors_total", "--policy",
      "workbook"],
     "give --target"),
    (["--total", "app_requests_total", "--errors", "app_request_errors_total", "--target", "0.999",
      "--policy", "nope"], "--policy 'nope' is not a policy"),
])
def test_bad_input_one_line_exit_2(prom, capsys, args, message):
    span = [] if "--since" in args else SPAN
    rc = main(["backtest", "--prometheus", prom.replace("http://", "http://bob:pa55@"), *args,
               *span,
               # (user info and an Authorization header at once are refused: the secret header
               # here is another)
               "--end", "2026-01-07", "--header", "X-Api-Key: TOPSECRET"])
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "pa55" not in err and "TOPSECRET" not in err and "bob" not in err


def test_a_freq_that_does_not_divide_a_window_is_refused_before_the_server(capsys):
    """--freq 7min: the workbook's 1 h window is 8.57 bins; said in the command's words, before
    any request (the URL goes nowhere)."""
    rc = main(["backtest", "--prometheus", "http://127.0.0.1:1", "--total", "a_total",
               "--errors", "b_total", "--target", "0.99", "--policy", "workbook", "--freq",
               "7min"])
    assert rc == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: --freq 7min does not divide the 1 h window of the workbook policy's "
        "page_1h tier (its windows are whole numbers of bins); give a --freq that divides every "
        "window, e.g. 1min.\n")


def test_counters_without_a_policy_are_refused_naming_policy_before_the_server(capsys):
    """--total/--errors name counters and no policy (a spec would hold one): the refusal says
    that, not "the SLO has no alert policies" about an SLO the user never wrote."""
    rc = main(["backtest", "--prometheus", "http://127.0.0.1:1", "--total", "a_total",
               "--errors", "b_total", "--target", "0.99"])
    assert rc == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: --total names counters, not alert policies (only a --slo spec holds "
        "them); give --policy (e.g. --policy workbook, or workbook,pyrra,sloth).\n")


def test_unreachable_and_5xx_exit_2(capsys, monkeypatch):
    from tests.interop.prometheus_server import free_port

    monkeypatch.setattr(prometheus_http, "BACKOFF_SECONDS", 0.01)
    rc = main(["backtest", "--prometheus", f"http://127.0.0.1:{free_port()}", "--total", "a_total",
               "--errors",
               "b_total", "--target", "0.99", "--policy", "workbook", *SPAN, "--timeout", "2"])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot reach Prometheus" in err and err.count("\n") == 1


def test_tz_reads_naive_times_and_labels_the_plot_axis(prom, tmp_path, saved, capsys):
    """``--tz Asia/Tokyo`` (UTC+9, no summer time): naive --start/--end are Tokyo wall-clock
    times (12:00 there is 03:00 UTC), and the episodes' chart is drawn in Tokyo time."""
    rc = main(["backtest", "--prometheus", prom, "--total", "app_requests_total", "--errors",
               "app_request_errors_total", "--target", "0.999", "--policy", "workbook,pyrra",
               "--start", "2026-01-05 12:00", "--end", "2026-01-06 12:00", "--tz", "Asia/Tokyo",
               "--plot", str(tmp_path / "t.png")])
    text = capsys.readouterr()
    out = text.out
    assert rc == 0, text.err
    # the span and the episodes printed on the Tokyo clock too (they printed UTC whatever --tz)
    assert "span 2026-01-05 12:00 +09:00 .. 2026-01-06 12:00 +09:00 (Asia/Tokyo)" in out
    starts = re.findall(r"\b2026-01-0[56] \d\d:\d\d( \+09:00)?", out.split("Policy ")[1])
    assert starts and all(starts), out
    (fig,) = saved
    assert fig["xlabels"] == ["time (Asia/Tokyo)"]  # two charts, one shared time axis
    assert sum(clock_labels_in(ticks, "Asia/Tokyo") for ticks in fig["ticks"]) > 0
    assert main(["backtest", "--prometheus", prom, "--total", "app_requests_total", "--errors",
                 "app_request_errors_total", "--target", "0.999", "--policy", "workbook",
                 "--tz", "Mars/Base"]) == 2
    assert "--tz" in capsys.readouterr().err


@pytest.mark.parametrize("query, span, message", [
    # a metric the server lacks: the spec's query is named, not the --total the user did not give,
    # and the span's end is a time
    ("nothing_total", SPAN,
     "the total query of --slo: the query returned no series between 2026-01-05 00:00 and "
     "2026-01-07 00:00 UTC; check the metric name and labels, and that the server holds data for "
     "the span."),
    # the server's first sample is START (2026-01-05 00:00); the span begins a day before, by
    # --start: the fix names --start as well as --since
    ("app_requests_total", ["--start", "2026-01-04", "--end", "2026-01-07"],
     "the total query of --slo: the server holds no data before 2026-01-05 00:00 UTC (its first "
     "sample; retention, or the counter is newer); start at or after that time (--start, or a "
     "shorter --since)."),
])
def test_a_spec_query_is_named_as_the_spec_s_not_as_a_flag_not_given(prom, tmp_path, capsys,
                                                                      query, span, message):
    spec = tmp_path / "slo.yaml"
    spec.write_text(OPENSLO.replace("query: app_requests_total", f"query: {query}"))
    rc = main(["backtest", "--prometheus", prom, "--slo", str(spec), "--policy", "workbook",
               "--by", "region", *span])
    assert (rc, capsys.readouterr().err) == (2, f"budgetlab: error: {message}\n")


def test_the_flags_keep_their_names_in_the_same_messages(prom, capsys):
    rc = main(["backtest", "--prometheus", prom, "--total", "nothing_total", "--errors",
               "app_request_errors_total", "--target", "0.999", "--policy", "workbook", *SPAN])
    assert (rc, capsys.readouterr().err) == (
        2, "budgetlab: error: --total: the query returned no series between 2026-01-05 00:00 and "
           "2026-01-07 00:00 UTC; check the metric name and labels, and that the server holds data "
           "for the span.\n")


def test_a_spec_with_budgetlab_s_events_sli_is_refused_with_a_fix_that_works(tmp_path, capsys):
    """'export openslo' without counters writes budgetlab's events SLI (an inline indicator of
    metricSource type budgetlab): it has no Prometheus queries, and the fix offered must be one
    backtest takes (in place of --slo, with --target; beside it, the file's targets kept:
    tests/interop/test_prometheus_edges63.py)."""
    spec = tmp_path / "slo.yaml"
    assert main(["export", "openslo", str(spec), "--target", "0.95", "--name", "solve"]) == 0
    capsys.readouterr()
    rc = main(["backtest", "--prometheus", "http://127.0.0.1:1", "--slo", str(spec), "--policy",
               "workbook"])
    assert (rc, capsys.readouterr().err) == (
        2, "budgetlab: error: SLO 'solve' carries no Prometheus queries (its indicator is "
           "budgetlab's events SLI, metricSource type budgetlab, or none); inline a ratioMetric "
           "SLI with Prometheus queries in spec.indicator, or name the counters: --total with "
           "--errors or --good (beside --slo the file's targets are kept, per group with --by; "
           "in place of it, give --target).\n")
    # that fix is taken: the counters in place of --slo get past the spec (to the server, absent)
    rc = main(["backtest", "--prometheus", "http://127.0.0.1:1", "--total", "a_total", "--errors",
               "e_total", "--target", "0.95", "--policy", "workbook", "--timeout", "2"])
    err = capsys.readouterr().err
    assert rc == 2 and "SLO 'solve'" not in err and "not both" not in err, err


def test_period_keeps_the_spec_tiers_budget_fractions(prom, tmp_path, capsys):
    # Sloth's tiers at --period 28d: 2 % of the budget in 1 h is 0.02 x 28 x 24 = 13.44 (Sloth's
    # google-28d.yaml), 5 % in 6 h 0.05 x 28 x 4 = 5.6, 10 % in 1 d 2.8, 10 % in 3 d 0.933
    (tmp_path / "sloth.yaml").write_text(SLOTH)
    assert main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / "sloth.yaml"), *SPAN,
                 "--by", "region", "--period", "28d"]) == 0
    out = capsys.readouterr().out
    assert "\n  the period: 28 d (--period), not the spec's\n" in out
    said = " ".join(out.split())  # the prose is filled to 100 columns (test_backtest_line_width)
    assert "(Sloth prometheus/v1), target 0.999, period 28 d span " in said
    assert (" the alerts at 28 d: the file's tiers, each keeping its share of the budget "
            "(burn = share x period / long window, as Sloth's own 28 d and 30 d windows do): "
            "page_quick 13.4 over 1h/5m (2 % of the budget), page_slow 5.6 over 6h/30m (5 %), "
            "ticket_quick 2.8 over 1d/2h (10 %), ticket_slow 0.933 over 3d/6h (10 %) ") in said
    # budget_spent_pct needs the whole 28 d period before each episode: withheld over 2 d
    assert "the 28 d period after the span's start" in said


@pytest.mark.parametrize("args,message", [
    (["--window", "28d"], "backtest replays alert policies over the SRE budget period, which is "
                          "--period (e.g. --period 28d), not --window (a tracker window, which "
                          "backtest does not use); give --period.\n"),
    (["--policy", "sloth", "--period", "7d"],
     "the SRE budget period 7 d (--period, else the SLO file's) has no Sloth windows: Sloth "
     "ships default windows for a 30 d or 28 d period only; give --period 30d or --period 28d, "
     "or --policy workbook or --policy pyrra, which keep their burns and scale their windows to "
     "any period.\n"),
])
def test_period_words_refused_before_the_server(tmp_path, capsys, args, message):
    (tmp_path / "sloth.yaml").write_text(SLOTH)
    # nothing listens on port 9 of the loopback: the refusal comes before any request
    assert main(["backtest", "--prometheus", "http://127.0.0.1:9", "--slo",
                 str(tmp_path / "sloth.yaml"), *SPAN, *args]) == 2
    err = capsys.readouterr().err
    assert err.endswith(message) and err.count("\n") == 1
