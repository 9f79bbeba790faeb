"""The functions the notebooks call, on edge data: one group, no incidents, a group that never
fails, a history of a few days (issue 16: a never-failing group once crashed notebook 01, its
Wilson upper bound sitting below the observed 100 %). Then, marked slow, every packaged notebook
run unchanged on such a log, another log than the shipped data, pointed at by plain parameter
values (papermill): without an error or a warning, showing that log's event count, drawing, and
saying what the edge data call for. (Each notebook runs on its shipped data from the installed
wheel in tests/test_installed_wheel.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from budgetlab import (
    SLO,
    AlertPolicy,
    as_events,
    compare_windows,
    incident_report,
    recalibrate,
    replay,
    synth,
    target_verdicts,
)
from budgetlab.analyses.choices import (
    bucket_target_verdicts,
    choose_window,
    suggest_targets,
    window_summary,
)
from budgetlab.analyses.history import (
    daily_spread,
    daily_success,
    hourly_profile,
    incidents_for,
    target_table,
)
from budgetlab.analyses.incident_review import incident_span, tracker_at
from budgetlab.analyses.paging import wake_verdict
from budgetlab.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "budgetlab" / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def short_log():
    """Three days, three captcha types; every reCAPTCHA v2 attempt succeeds."""
    events, _ = synth.generate("2026-03-02", 3, seed=11, rate=0.05, session_ids=False)
    never = (events["captcha_type"] == "recaptcha_v2").to_numpy()
    events = events.copy()
    events.loc[never, "ok"] = True
    events.loc[never, "bucket"] = "success"
    return events, never


def test_a_group_that_never_fails(short_log):
    events, never = short_log
    daily = daily_success(events, by="captcha_type", tz="Europe/Berlin")
    rv = daily[daily["captcha_type"] == "recaptcha_v2"]
    # the interval reaches 100 %
    assert (rv["success_rate"] == 1.0).all() and (rv["ci_high"] == 1.0).all()
    assert (rv["ci_low"] < 1.0).all()
    spread = daily_spread(daily).set_index("captcha_type").loc["recaptcha_v2"]
    assert (
        spread["total"] == int(never.sum())
        and spread["spread"] == 0.0
        and spread["success_rate"] == 1.0
    )
    targets = target_table(events, by="captcha_type", target=0.95)
    v = bucket_target_verdicts(events, targets,
                               bucket="timeout").set_index("captcha_type").loc["recaptcha_v2"]
    assert v["verdict"] == "keep" and v["success_rate"] == 1.0 and v["success_rate_without"] == 1.0
    # nine hours in ten the window spent nothing of its budget: too loose, and provisional (3 days
    # of data, of which the first 24 h window is warm-up: just under 2 days evaluated, the last
    # event falling before midnight; in words, truncated: 1 d 23 h)
    rec = recalibrate(events, by="captcha_type", target=targets, n_boot=0, show_progress=False)
    tv = target_verdicts(rec).set_index("captcha_type").loc["recaptcha_v2"]
    assert 1.99 < rec.summary.set_index("captcha_type").loc["recaptcha_v2", "history_days"] < 2
    assert tv["verdict"] == "too_loose"
    assert tv["caveat"].startswith("provisional: 1 d 23 h of evaluated history")
    s = suggest_targets(rec).set_index("captcha_type")
    n = int(rec.summary.set_index("captcha_type").loc["recaptcha_v2", "events"])
    assert s.loc["recaptcha_v2", "reason"] in (
        "no incident labels: the recommendation stands",
        # a group that never fails: the evidence caps the rule, which the reason says
        f"no incident labels: the recommendation stands (capped: as high as {n:,} events can "
        "judge, not the service's level)",
        "no recommendation: "
        + str(rec.summary.set_index("captcha_type").loc["recaptcha_v2", "recommendation_note"]),
    )


def test_one_group_and_no_incidents(short_log):
    events, _ = short_log
    one = events.drop(columns=["captcha_type", "region", "sitekey"])
    daily = daily_success(one)
    assert list(daily.columns[:1]) == ["day"] and daily["total"].sum() == len(one)
    spread = daily_spread(daily)
    assert len(spread) == 1 and spread["total"].iloc[0] == len(one)
    assert spread["success_rate"].iloc[0] == pytest.approx(one["ok"].mean())
    profile = hourly_profile(one, bucket="timeout")
    assert profile["total"].sum() == len(one)
    assert profile["bucket_failures"].sum() == int((one["bucket"] == "timeout").sum())
    rec = recalibrate(one, target=0.95, n_boot=0, show_progress=False)
    s = suggest_targets(rec)
    assert list(s.columns) == ["recommended_target", "recommended_without_incidents",
                               "suggested_target", "reason"]
    assert np.isnan(s["recommended_without_incidents"].iloc[0])
    assert incidents_for(None) is None
    table = compare_windows(one, SLO(target=0.95), ["1h", "24h"], show_progress=False)
    choice = choose_window(window_summary(table))
    flaps = window_summary(table).set_index("window")["transitions_per_day"]
    spelled = {"1h": "1 h", "1d": "24 h"}[flaps.idxmin()]  # a window as the CLI's text says it
    assert choice.subject == f"the {spelled} window" and "only flapping" in choice.caveat


def test_all_successes_at_the_alert():
    ts = pd.date_range("2026-01-01", periods=3 * 1440, freq="1min", tz="UTC")
    events = as_events(ts, np.ones(len(ts), dtype=bool))
    slo = SLO(target=0.95, window="1h")
    states = replay(events, slo)
    r = tracker_at(states, "2026-01-02 03:47")
    assert (int(r["failures"]), int(r["total"]), str(r["status"])) == (0, 61, "healthy")
    span = incident_span(states, at=r["at"])
    # one window either side: never critical
    assert span["end"] - span["start"] == pd.Timedelta("2h")
    rep = incident_report(events, slo, span["start"], span["end"],
                          policy=AlertPolicy.workbook("30D"))
    assert wake_verdict(events, {"workbook": rep}).verdict == "not_justified"
    with pytest.raises(InputError):
        hourly_profile(events, bucket="timeout")  # the notebooks check for the bucket first


@pytest.fixture(scope="module")
def never_failing_log(tmp_path_factory, short_log):
    events, never = short_log
    # the same history's durations (its own random stream; the rows align) for notebook 05
    timed, _ = synth.generate("2026-03-02", 3, seed=11, rate=0.05, session_ids=False,
                              client_timeout="60s")
    path = tmp_path_factory.mktemp("log") / "outcomes.csv"
    frame = events.assign(ts=events["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                          outcome=events["bucket"].astype(str),
                          duration=timed["duration"].dt.total_seconds().to_numpy())
    frame[["ts", "outcome", "captcha_type", "region", "duration"]].to_csv(path, index=False)
    return path, len(events)


@pytest.mark.slow
@pytest.mark.parametrize("name", [p.name for p in NOTEBOOKS])
def test_every_notebook_runs_unchanged_on_a_short_log_with_a_group_that_never_fails(
        name, never_failing_log, tmp_path, monkeypatch):
    """Plain parameter values (a path, None) point a notebook at another log: it runs without an
    error or a warning, reads that log (its event count is shown), draws, and says what a short
    log with a never-failing group and no incident labels calls for."""
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    path, n_events = never_failing_log
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / name
    papermill.execute_notebook(str(ROOT / "budgetlab" / "notebooks" / name), str(out),
                               kernel_name="python3",
                               progress_bar=False, parameters={"source": str(path),
                                                               "incidents": None},
                               cwd=str(tmp_path))
    nb = nbformat.read(out, as_version=4)
    texts, stderr = [], []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            assert o.output_type != "error", f"{name}: {o.get('ename')}: {o.get('evalue')}"
            if o.output_type == "stream":
                texts.append(o.text)
                if o.name == "stderr":
                    stderr.append(o.text)
            elif "text/markdown" in o.get("data", {}):
                texts.append(o.data["text/markdown"])
    joined = "\n".join(texts)
    assert f"{n_events:,} events" in joined, f"{name}: the log's event count is not shown"
    assert not [w for w in stderr if "Warning" in w], stderr
    images = sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))
    assert images >= 1, f"{name}: no figure"
    if name.startswith("01"):
        # 3 days, the first 24 h window is warm-up
        assert "provisional: 1 d 23 h of evaluated history" in joined
    if name.startswith("03"):
        # a group without failures says so once (g62nb), never "even with the timeout failures"
        assert "recaptcha_v2 meets its target 95 %: keep the target (100.00 %; " in joined
    if name.startswith("04"):
        # the 03:47 of the shipped night is not in this log
        assert "outside the log's span" in joined


@pytest.mark.slow
def test_notebook_02_on_the_demo_sample_where_the_24h_window_never_recovers(tmp_path, monkeypatch):
    """On ``demo`` + ``demo_incidents`` the 24 h window never drops below CRITICAL after D1 within
    the 3 days (its recovery is NaT), so no pair can compare rolling 24 h with the calendar day:
    the notebook says so instead of failing (it raised KeyError "['1d'] not in index")."""
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / "02.ipynb"
    papermill.execute_notebook(str(ROOT / "budgetlab" / "notebooks" / "02_window_length.ipynb"),
                               str(out),
                               kernel_name="python3", progress_bar=False, cwd=str(tmp_path),
                               parameters={"source": "demo", "incidents": "demo_incidents"})
    nb = nbformat.read(out, as_version=4)
    outputs = [o for cell in nb.cells for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = "\n".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    assert "No (incident, group) pair recovered under both" in shown


def _on_the_access_log(notebook, tmp_path, monkeypatch, **parameters):
    """The outputs of a shipped notebook run on the Elastic sample access log (UTC, no
    incidents), none of them an error."""
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / notebook
    log = ROOT / "tests" / "fixtures" / "elastic_apache" / "apache_logs"
    papermill.execute_notebook(
        str(ROOT / "budgetlab" / "notebooks" / notebook), str(out), kernel_name="python3",
        progress_bar=False, cwd=str(tmp_path),
        parameters={"source": str(log), "incidents": None, "log_format": "access", "tz": "UTC",
                    **parameters})
    nb = nbformat.read(out, as_version=4)
    outputs = [o for cell in nb.cells for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    return outputs


@pytest.mark.slow
def test_notebook_04_on_an_access_log_keeps_the_column_it_breaks_down_by(tmp_path, monkeypatch):
    """``log_format="access"`` read the log without its group keys, so ``breakdown_by="method"``
    (a field of the access preset) failed: "events has no column 'method'". The Elastic sample
    log: 10,000 request lines from 2015-05-17 10:05 UTC, 3 of them status 500 (grep: two GET,
    one OPTIONS); the worst moment of the 1 h tracker is the GET failure of 2015-05-18 03:05,
    alone in its hour."""
    outputs = _on_the_access_log("04_incident_replay.ipynb", tmp_path, monkeypatch,
                                 scope_column=None, scope_value=None, target=0.999,
                                 alert_time=None, breakdown_by="method")
    shown = "\n".join(o.get("text", "") + o.get("data", {}).get("text/markdown", "")
                      for o in outputs)
    assert "10,000 events from Sun 2015-05-17 10:05" in shown
    # no scope said in words (it read "attempts in scope *."); 10,000 lines, every one counted
    assert "The tracker counts 10,000 attempts in the whole log (no scope)." in shown
    # the hour's one failure is its GET 500 (grep: GET and HEAD that hour): all of the failures of
    # both methods, all of GET's
    assert ("100 % of the failures of both groups by method were server errors in GET (100 % of "
            "GET's failures)") in " ".join(shown.split())


@pytest.mark.slow
def test_notebook_03_withholds_the_rate_of_a_thin_hour(tmp_path, monkeypatch):
    """The hourly table of notebook 03 follows its plot's rule (``MIN_HOUR_ATTEMPTS``, 20): an
    hour of day with fewer attempts says "too few" (one without any, "no attempts"), where the
    one OPTIONS request of the Elastic
    sample log (a 500 at 14:05 UTC) read 1.0 (100 % server errors) and hours without attempts
    NaN. Hand counts (grep, awk on the log): OPTIONS 1 request, POST 5, HEAD 42 (at most 9 in
    one hour), so every hour of theirs is thin; GET has 343 to 497 requests in each hour, two
    500s: at 03 UTC 1 of 353 (0.28 %), at 15 UTC 1 of 495 (0.20 %): in percent, as the plot."""
    import re

    outputs = _on_the_access_log("03_timeout_vs_solve.ipynb", tmp_path, monkeypatch,
                                 by="status_class", split_by="method",
                                 network_bucket="server_error")
    table = next(o.data["text/html"] for o in outputs  # the styled hourly table
                 if ">hour</th>" in o.get("data", {}).get("text/html", ""))
    rows = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", table, flags=re.S):
        cells = [c.strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, flags=re.S)]
        rows[cells[0]] = cells[1:]
    # stop 58: an hour without any attempt says "no attempts", "too few" is for 1-19 of them;
    # the hours (UTC) of each method's requests, grep on the log: OPTIONS 14; POST 04, 08, 09,
    # 10, 11; HEAD 00, 03-08, 10, 12, 13, 15, 16, 18-23
    hours = {"OPTIONS": {14}, "POST": {4, 8, 9, 10, 11},
             "HEAD": {0, 3, 4, 5, 6, 7, 8, 10, 12, 13, 15, 16, 18, 19, 20, 21, 22, 23}}
    for method, seen in hours.items():
        assert rows[method] == ["too few" if h in seen else "no attempts" for h in range(24)], \
            method
    want = ["0.00 %"] * 24
    want[3], want[15] = "0.28 %", "0.20 %"
    assert rows["GET"] == want
    # the verdicts per status class: 5xx holds the 3 requests, all 500s (success rate 0), none
    # left without them and 3 too few for a verdict: said in words, where it read NaN; the rates
    # in percent, as the target beside them
    verdicts = next(o.data["text/html"] for o in outputs
                    if "success_rate_without" in o.get("data", {}).get("text/html", ""))
    cells = [c.strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", verdicts, flags=re.S)]
    assert cells[cells.index("5xx"):][:5] == ["5xx", "95 %", "0.00 %", "n/a", "withheld"]
    assert "NaN" not in verdicts
    # the breakdown: the 5xx group's 3 requests (GET 2, OPTIONS 1) are under the 200 attempts that
    # hold 10 expected failures at 95 %: both rows too thin, said in words where they read <NA>
    breakdown = next(o.data["text/html"] for o in outputs
                     if "pages_caused" in o.get("data", {}).get("text/html", ""))
    assert "&lt;NA&gt;" not in breakdown and "NaN" not in breakdown
    rows_5xx = [cells for tr in re.findall(r"<tr>(.*?)</tr>", breakdown, flags=re.S)
                for cells in [[c.strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr,
                                                             flags=re.S)]]
                if "5xx" in cells]
    assert sorted(r[2] for r in rows_5xx) == ["GET", "OPTIONS"]
    assert all(r.count("too thin") >= 6 for r in rows_5xx), rows_5xx


def _tables_and_words(outputs):
    """The HTML tables and the Markdown/text the outputs show."""
    tables = [o.data["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    words = " ".join(" ".join((o.get("text", "") + o.get("data", {}).get("text/markdown", ""))
                              .split()) for o in outputs)
    return tables, words


@pytest.mark.slow
def test_notebook_04_shows_local_times_and_words_not_nat(tmp_path, monkeypatch):
    """Notebook 04 said its tables were in ``tz`` but printed UTC (the 03:47 alert as 02:46 UTC)
    and NaT/None/NaN for what did not happen (no page, no status change); an empty transitions
    table had no words. On the Elastic sample log (May 2015: Europe/Berlin is CEST, UTC+02:00)
    with the GET requests in scope at target 95 %: every hour holds over a hundred GET requests
    and at most one of their two 500s (grep), so the 1 h window's burn stays below 0.5: no status
    change, and no policy pages."""
    outputs = _on_the_access_log("04_incident_replay.ipynb", tmp_path, monkeypatch,
                                 scope_column="method", scope_value="GET", alert_time=None,
                                 breakdown_by=None, tz="Europe/Berlin")
    tables, words = _tables_and_words(outputs)
    for bad in ("NaN", "NaT", ">None<", "&lt;NA&gt;"):
        assert not [t for t in tables if bad in t], bad
    assert ("Status changes of the 1h window from 10 h before the alert to 8 h after it: none."
            in words)
    at_alert = next(t for t in tables if "remaining_fraction" in t)
    assert re.search(r">ts</th>\s*<td[^>]*>2015-05-18 \d\d:\d\d CEST</td>", at_alert)
    pages = next(t for t in tables if "caused_by_timeouts" in t)
    assert pages.count("no page") == 4 * 3  # first_page, delay, caused_by_timeouts per policy


@pytest.mark.slow
def test_notebook_04_shows_counts_as_whole_numbers_and_notes_whole(tmp_path, monkeypatch):
    """Notebook 04 showed the period's events (a count) as ``85,386.3076``, the period budget as
    ``4,269.3154``, counts without thousands separators (``9997``) and a bucket's note cut at 50
    characters. On the Elastic sample log: 10,000 requests, 3 of them status 500 (grep); by
    method at 95 %, HEAD's 2 requests of the incident are too few for a verdict, which takes 10
    expected failures, i.e. 200 events. The period budget is 5 % of the period's events (the
    budget's definition), each shown rounded to a whole number."""
    outputs = _on_the_access_log("04_incident_replay.ipynb", tmp_path, monkeypatch,
                                 scope_column=None, scope_value=None, alert_time=None,
                                 breakdown_by="method")
    tables, _ = _tables_and_words(outputs)

    def cells(table):
        rows = re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)
        return [[c.strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, flags=re.S)]
                for r in rows]

    counts = cells(next(t for t in tables if ">server_error<" in t and ">events<" in t))
    assert counts[-1][-2:] == ["9,997", "3"]
    head, row = cells(next(t for t in tables if "period_events" in t))[-2:]
    budget = dict(zip(head[1:], row[1:], strict=True))
    whole = re.compile(r"\d{1,3}(,\d{3})*")
    assert whole.fullmatch(budget["period_events"]) and whole.fullmatch(budget["period_budget"])
    events, allowed = (int(budget[k].replace(",", "")) for k in ("period_events", "period_budget"))
    assert abs(allowed - 0.05 * events) <= 1  # two roundings of half a unit at most
    buckets = next(t for t in tables if "burn_rate_without" in t)
    assert "..." not in buckets and "i.e. 200 events)" in buckets


@pytest.mark.slow
def test_notebook_02_says_no_summed_value_where_it_printed_nan(tmp_path, monkeypatch):
    """The Elastic sample log spans 83 h (2015-05-17 10:05 to 05-20 21:05 UTC), less than a 7 d
    window's warm-up: no group has evaluated time under it, so its summary rows have no summed
    value; they said NaN, and their notes were cut at 50 characters."""
    outputs = _on_the_access_log("02_window_length.ipynb", tmp_path, monkeypatch, by="method",
                                 targets=None)
    tables, _ = _tables_and_words(outputs)
    summary = next(t for t in tables if "groups_left_out" in t)
    assert "NaN" not in summary and "..." not in summary
    rows = re.findall(r"<tr>(.*?)</tr>", summary, flags=re.S)
    week = [r for r in rows if re.search(r">7d<", r)]
    assert len(week) == 2 and all(r.count("no summed value") >= 6 for r in week)


@pytest.mark.slow
def test_notebook_01_says_withheld_where_it_printed_nan(tmp_path, monkeypatch):
    """The Elastic sample log's one OPTIONS request (grep) falls in its group's first 24 h window,
    the warm-up: no evaluated events, so no rate, verdict or recommendation; its summary row read
    NaN, and the targets 0.95 as a float. They say withheld, and the targets read as written."""
    outputs = _on_the_access_log("01_recalibrate_slo.ipynb", tmp_path, monkeypatch, by="method",
                                 proposed=None)
    tables, _ = _tables_and_words(outputs)
    assert not [t for t in tables if "NaN" in t]
    summary = next(t for t in tables if "suggested_target" in t)
    rows = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", summary, flags=re.S):
        cells = [c.strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, flags=re.S)]
        rows[cells[1]] = cells[2:]
    assert rows["OPTIONS"] == ["withheld"] * 3 + ["95 %"] + ["withheld"] * 5


@pytest.mark.slow
def test_notebook_04_says_already_firing_for_a_page_that_began_before_the_incident(
        tmp_path, monkeypatch):
    """On ``demo`` (UTC) the seed-style 1 h policy pages from 2026-10-06 14:31, before D1 begins
    at 23:30 on 2026-10-07 (demo_incidents.csv): the page detected the incident at once, which
    the CLI's tiers table says "already firing"; the notebook showed the delay as "0 days
    00:00:00". The page's start is :func:`budgetlab.alert_episodes`' over the whole scoped log
    (its last episode runs from 2026-10-06 14:31 to the log's end; the report read 2026-10-07
    16:32 before it evaluated the tiers from the log's start: the first evaluation after its
    replayed history began, on a cut window)."""
    tables = _run_04(tmp_path, monkeypatch, source="demo", incidents="demo_incidents",
                     alert_time=None, tz="UTC")
    pages, cells = _seed_page(tables)
    assert cells[:4] == ["True", "2026-10-06 14:31 UTC", "page_1h", "already firing"]
    assert "0 days" not in pages


@pytest.mark.slow
def test_notebook_04_says_the_page_delay_in_words_and_its_times_to_the_minute(
        tmp_path, monkeypatch):
    """On its own data (night_incident, Europe/Berlin: CET in November) the notebook showed the
    seed-style policy's page delay as ``0 days 01:40:00`` and its times with microseconds
    (``2026-11-05 03:46:59.593000+01:00``). The delay is said as the CLI says one: the page at
    03:20 CET less N1's start (night_incident_incidents.csv: 00:40 UTC, 01:40 CET) is
    ``1 h 40 min``; the times read to the minute with their zone, the incidents' as their file
    gives them (UTC)."""
    tables = _run_04(tmp_path, monkeypatch)
    pages, cells = _seed_page(tables)
    assert cells[:4] == ["True", "2026-11-05 03:20 CET", "page_1h", "1 h 40 min"]
    assert ">2026-11-05 00:40 UTC<" in next(t for t in tables if ">gradual_degradation<" in t)
    assert not [t for t in tables if re.search(r"\d\d:\d\d:\d\d(\.\d|[+-]\d\d:)", t)]


def _run_04(tmp_path, monkeypatch, **parameters):
    """Notebook 04 run by papermill with ``parameters`` (none: its own): its HTML tables."""
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / "04.ipynb"
    papermill.execute_notebook(str(ROOT / "budgetlab" / "notebooks" / "04_incident_replay.ipynb"),
                               str(out), kernel_name="python3", progress_bar=False,
                               cwd=str(tmp_path), parameters=parameters)
    outputs = [o for cell in nbformat.read(out, as_version=4).cells
               for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    return _tables_and_words(outputs)[0]


def _seed_page(tables):
    """The page table and the cells of its ``seed 1h`` row."""
    pages = next(t for t in tables if "caused_by_timeouts" in t)
    seed = next(r for r in re.findall(r"<tr>(.*?)</tr>", pages, flags=re.S) if ">seed 1h<" in r)
    return pages, [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", seed, flags=re.S)]
