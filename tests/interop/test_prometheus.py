"""Prometheus rules export, checked by Prometheus's own promtool (the external oracle).

The promtool tests write the exported rules and a ``promtool test rules`` file holding the
counters of the same events and, at EVERY evaluation minute, the exact set of alerts that
``budgetlab.alerts.alert_states`` says are firing (``exp_alerts: []`` where none are). promtool
passes only if Prometheus fires each alert at exactly the same minutes: zero steps of difference.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from budgetlab import SLO, ConfigError, DatasetError
from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier
from budgetlab.cli import main
from budgetlab.events.schema import as_events
from budgetlab.interop.openslo import SLODocument, read_openslo, slos_from_recalibration
from budgetlab.interop.prometheus import (
    POLICY_PRESETS,
    prometheus_rules,
    promtool_test,
    resolve_policy,
    run_promtool,
    to_prometheus_yaml,
    write_prometheus_rules,
)
from budgetlab.windows.binning import bin_events
from tests.interop.export_said import statements

FIX = Path(__file__).parents[1] / "fixtures" / "openslo"
METRICS = {"total_metric": "captcha_solves_total", "errors_metric": "captcha_solve_errors_total"}
START = pd.Timestamp("2026-03-02", tz="UTC")


# ---------------------------------------------------------------------------------------------
# the rule file, read against hand-written expectations


def test_workbook_rules_in_sloth_style():
    rules = prometheus_rules(SLO(0.999, "30D"), "workbook", name="solve", service="captcha",
                             **METRICS)
    (group,) = rules["groups"]
    assert group["name"] == "budgetlab-slo-captcha-solve" and group["interval"] == "1m"
    records = [r for r in group["rules"] if "record" in r]
    assert [r["record"] for r in records] == [
        "slo:sli_error:ratio_rate5m", "slo:sli_error:ratio_rate30m", "slo:sli_error:ratio_rate1h",
        "slo:sli_error:ratio_rate2h", "slo:sli_error:ratio_rate6h", "slo:sli_error:ratio_rate1d",
        "slo:sli_error:ratio_rate3d", "slo:objective:ratio", "slo:error_budget:ratio"]
    assert records[0]["expr"] == ("sum(increase(captcha_solve_errors_total[5m]))\n/\n"
                                  "sum(increase(captcha_solves_total[5m]))\n")
    assert records[0]["labels"] == {"sloth_id": "captcha-solve", "sloth_service": "captcha",
                                    "sloth_slo": "solve",
                                    "sloth_window": "5m"}
    alerts = [r for r in group["rules"] if "alert" in r]
    assert alerts[0]["labels"] == {"sloth_id": "captcha-solve", "sloth_service": "captcha",
                                   "sloth_slo": "solve",
                                   "severity": "page", "tier": "page_1h"}
    assert [(a["labels"]["tier"], a["labels"]["severity"]) for a in alerts] == [
        ("page_1h", "page"), ("page_6h", "page"), ("ticket_1d", "ticket"), ("ticket_3d", "ticket")]
    ids = 'sloth_id="captcha-solve", sloth_service="captcha", sloth_slo="solve"'
    assert alerts[1]["expr"] == (
        "(\n"
        f"  max(slo:sli_error:ratio_rate6h{{{ids}}} > (6.0 * (1 - 0.999))) without (sloth_window)\n"
        "and\n"
        f"  max(slo:sli_error:ratio_rate30m{{{ids}}} > (6.0 * (1 - 0.999))) without "
        "(sloth_window)\n"
        ")\n")
    assert all("for" not in a and "keep_firing_for" not in a for a in alerts)
    # the YAML text parses back to the same document
    assert yaml.safe_load(to_prometheus_yaml(rules)) == rules


def test_for_keep_firing_for_selectors_and_rate():
    pol = AlertPolicy((AlertTier("p", "page", "90min", None, 2.5, for_="3min", cooldown="10min"),),
                      period="30D")
    rules = prometheus_rules(SLO(0.95, "1D"), pol, name="x", total_metric="req_total",
                             errors_metric="req_total",
                             selector={"job": 'so"lver'}, errors_selector='outcome!="success"',
                             function="rate")
    rec, _, _, alert = rules["groups"][0]["rules"]
    assert rec["record"] == "slo:sli_error:ratio_rate1h30m"
    assert rec["expr"] == ('sum(rate(req_total{job="so\\"lver",outcome!="success"}[1h30m]))\n/\n'
                           'sum(rate(req_total{job="so\\"lver"}[1h30m]))\n')
    assert (alert["for"], alert["keep_firing_for"]) == ("3m", "10m")
    assert (
        alert["expr"].startswith("max(slo:sli_error:ratio_rate1h30m{")
        and "(2.5 * (1 - 0.95))" in alert["expr"]
    )


def test_one_group_per_slo_with_selector_labels():
    docs = slos_from_recalibration({"recaptcha_v2": 0.93, "turnstile": 0.97}, by="captcha_type",
                                   window="30D",
                                   service="captcha")
    rules = prometheus_rules(docs, "workbook", selector='job="solver"',
                             selector_labels=["captcha_type"], **METRICS)
    assert [g["name"] for g in rules["groups"]] == ["budgetlab-slo-captcha-recaptcha-v2",
                                                    "budgetlab-slo-captcha-turnstile"]
    expr = rules["groups"][1]["rules"][0]["expr"]
    assert 'captcha_solves_total{job="solver",captcha_type="turnstile"}[5m]' in expr
    assert "(14.4 * (1 - 0.97))" in rules["groups"][1]["rules"][-4]["expr"]


@pytest.mark.parametrize("kwargs, needle", [
    ({"total_metric": "bad-name"}, "not a Prometheus metric name"),
    ({"selector": "job=solver"}, "not a list of label matchers"),
    ({"selector": {"__name__": "x"}}, "not a Prometheus label name"),
    ({"errors_metric": "captcha_solves_total"}, "give errors_selector"),
    ({"function": "irate"}, "function='irate'"),
    ({"selector_labels": ["captcha_type"]}, "no single-valued label 'captcha_type'"),
    ({"alert_name": "my alert"}, "alert_name="),
])
def test_rule_arguments_are_validated(kwargs, needle):
    args = {**METRICS, **kwargs}
    with pytest.raises(ConfigError) as info:
        prometheus_rules(SLO(0.99, "30D"), "workbook", **args)
    assert needle in str(info.value)


def test_policy_presets_and_own_policies():
    assert [t.burn for t in resolve_policy("sloth28").tiers] == [13.44, 5.6, 2.8, 0.9333333333]
    assert resolve_policy("single_window", period="7D").tiers[0].burn == 0.9
    with pytest.raises(ConfigError, match="policy='slothy' is not valid"):
        resolve_policy("slothy")
    (doc,) = read_openslo(FIX / "spec_alert_policies.yaml")
    rules = prometheus_rules(doc, None, **METRICS)  # the file's own policies
    alerts = [r for r in rules["groups"][0]["rules"] if "alert" in r]
    assert [(a["labels"]["tier"], a["for"]) for a in alerts] == [("memory-usage-breach", "5m"),
                                                                 ("cpu-usage-breach", "5m")]
    with pytest.raises(ConfigError, match="no alert policies"):
        prometheus_rules(SLO(0.9, "1D"), None, **METRICS)


@pytest.mark.parametrize("by,said", [
    (["region"], "grouped by region: pass selector_labels with this key and SLOs labelled "
                 "with it."),
    (["region", "kind"], "grouped by region, kind: pass selector_labels with these keys and SLOs "
                         "labelled with them."),
])
def test_promtool_test_refuses_grouped_bins_without_selector_labels(by, said):
    events = as_events(START + pd.to_timedelta([1, 2], unit="s"), [True, False])
    events = events.assign(region="fra", kind="a")
    bins = bin_events(events, "1min", by=by)
    with pytest.raises(ConfigError) as err:
        promtool_test(bins, [SLODocument("a", SLO(0.9, "1D"))], "workbook", **METRICS)
    assert str(err.value) == f"the bins are {said}"


def test_promtool_test_document_by_hand():
    # 4 minutes: 10 events each, failures 0, 5, 10, 0
    ts = np.repeat(START + pd.to_timedelta(np.arange(4), unit="min"), 10) + pd.Timedelta(seconds=1)
    ok = np.ones(40, dtype=bool)
    ok[10:15] = False
    ok[20:30] = False
    bins = bin_events(as_events(ts, ok), "1min")
    pol = AlertPolicy((AlertTier("fast", "page", "2min", "1min", 4.0),), period="1D")
    t = promtool_test(bins, SLO(0.9, "1D"), pol, name="d", selector={"job": "x"}, **METRICS)
    (case,) = t["tests"]
    assert (
        t["rule_files"] == ["rules.yaml"] and t["evaluation_interval"] == case["interval"] == "1m"
    )
    assert case["input_series"] == [
        {"series": 'captcha_solves_total{job="x"}', "values": "0 10 20 30 40"},
        {"series": 'captcha_solve_errors_total{job="x"}', "values": "0 0 5 15 15"}]
    # by hand, threshold 4 x 0.1 = 0.4: 2-minute ratios 0, 5/20, 15/20, 10/20; 1-minute 0, .5, 1, 0
    # -> both above 0.4 only at the end of minute 3
    firing = [(a["eval_time"],
               [e["exp_labels"]["tier"] for e in a["exp_alerts"]]) for a in case["alert_rule_test"]]
    assert firing == [("1m", []), ("2m", []), ("3m", ["fast"]), ("4m", [])]
    exp = case["alert_rule_test"][2]["exp_alerts"][0]["exp_labels"]
    assert exp == {"sloth_id": "budgetlab-d", "sloth_service": "budgetlab", "sloth_slo": "d",
                   "severity": "page",
                   "tier": "fast"}


# ---------------------------------------------------------------------------------------------
# promtool: the external oracle

needs_promtool = pytest.mark.promtool


def _events(minutes, rate, fail_prob, seed, groups=None):
    """Poisson arrivals per minute with a per-minute failure probability (a loop over minutes,
    not events)."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(rate, minutes)
    minute = np.repeat(np.arange(minutes), counts)
    ts = START + pd.to_timedelta(minute * 60 + rng.uniform(0, 60, counts.sum()), unit="s")
    ok = rng.random(counts.sum()) >= np.asarray(fail_prob)[minute]
    g = None if groups is None else {"captcha_type": rng.choice(groups, counts.sum())}
    return as_events(ts, ok, groups=g)


def _agree(tmp_path, bins, slos, policy, *, function="increase", **kw):
    """Write rules + promtool test, run ``promtool check rules`` and ``promtool test rules``."""
    args = {**METRICS, **kw}
    rules = prometheus_rules(slos, policy, function=function, **args)
    write_prometheus_rules(rules, tmp_path / "rules.yaml", force=True)
    test = promtool_test(bins, slos, policy, **args)
    write_prometheus_rules(test, tmp_path / "test.yaml", force=True)
    check = run_promtool("check", "rules", str(tmp_path / "rules.yaml"))
    assert check.returncode == 0 and "SUCCESS" in check.stdout and not check.stderr, (
        check.stderr + check.stdout
    )
    proc = run_promtool("test", "rules", str(tmp_path / "test.yaml"))
    entries = test["tests"][0]["alert_rule_test"]
    firing = sum(len(e["exp_alerts"]) for e in entries)
    return proc, len(entries), firing


def _failed_minutes(proc):
    return sorted({int(m) for m in re.findall(r"time: (\d+)m,", proc.stdout + proc.stderr)})


@needs_promtool
def test_installed_promtool_has_prometheus_2_range_semantics(promtool):
    # Prometheus 3 made range selectors left-open (docs/interop.md); these tests are
    # calibrated on 2.x, where [T-w, T] includes both ends.
    version = run_promtool("--version").stdout
    assert re.search(r"version 2\.\d+", version), version


@needs_promtool
@pytest.mark.parametrize("policy", [
    AlertPolicy.workbook("30D"),
    AlertPolicy.pyrra("30D"),
    AlertPolicy((AlertTier("flappy", "page", "10min", "2min", 3.0, for_="3min", cooldown="4min"),
                 AlertTier("single", "ticket", "30min", None, 1.5, cooldown="1min"),
                 AlertTier("instant", "page", "5min", "1min", 10.0)), period="30D", name="custom"),
], ids=["workbook", "pyrra", "for_and_keep_firing_for"])
def test_promtool_fires_at_the_same_minutes_as_budgetlab(policy, tmp_path, promtool):
    # 8 hours; an outage in the first minutes (windows longer than the history), a burst, a slow
    # burn and a flapping stretch that toggles the conditions every few minutes
    p = np.full(8 * 60, 0.004)
    p[0:4] = 0.6
    p[100:130] = 0.5
    p[200:290] = 0.05
    p[330:380:7] = 0.9
    p[331:380:7] = 0.4
    bins = bin_events(_events(8 * 60, 25, p, seed=11), "1min", start=START,
                      end=START + pd.Timedelta("8h"))
    slo = SLO(0.99, "30D")
    proc, evaluations, firing = _agree(tmp_path, bins, slo, policy, name="captcha")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert evaluations == 480
    # the case is not trivial: alerts fire, and not all the time
    assert 0 < firing < evaluations * len(policy.tiers)
    assert firing == int(sum((e["end"] - e["start"]) / pd.Timedelta("1min")
                             for _, e in alert_episodes(bins, slo, policy).iterrows()))


@needs_promtool
def test_promtool_agrees_per_group_with_one_slo_each(tmp_path, promtool):
    p = np.full(6 * 60, 0.01)
    p[120:150] = 0.3
    ev = _events(6 * 60, 40, p, seed=5, groups=["recaptcha_v2", "turnstile"])
    bins = bin_events(ev, "1min", by="captcha_type")
    docs = slos_from_recalibration({"recaptcha_v2": 0.95, "turnstile": 0.99}, by="captcha_type",
                                   window="30D",
                                   service="captcha", policy=AlertPolicy.workbook("30D"))
    proc, evaluations, firing = _agree(tmp_path, bins, docs, None, selector={"job": "solver"},
                                       selector_labels=["captcha_type"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert firing > 0


@needs_promtool
def test_ties_at_the_threshold_agree_with_increase_and_not_with_rate(tmp_path, promtool):
    # One bin with 3 events, 1 failure; nothing else in the 5 minutes around it. Threshold
    # (2/3) x (1 - 0.5) = 0.3333333333333333 == float(1/3): a tie, so budgetlab's strict '>' never
    # fires. rate() computes (1/300)/(3/300) = 0.33333333333333337 > threshold (docs/interop.md).
    ts = [START + pd.Timedelta(seconds=5), START + pd.Timedelta(minutes=29)]
    ts += [START + pd.Timedelta(minutes=10, seconds=s) for s in (10, 20, 30)]
    bins = bin_events(as_events(ts, [True, True, False, True, True]), "1min")
    slo, pol = SLO(0.5, "1D"), AlertPolicy.single_window("5min", burn=2 / 3, period="1D")
    assert (1 / 300) / (3 / 300) > (2 / 3) * (1 - 0.5) == 1 / 3
    assert len(alert_episodes(bins, slo, pol)) == 0
    proc, _, firing = _agree(tmp_path, bins, slo, pol, name="tie")
    assert proc.returncode == 0 and firing == 0, proc.stderr
    proc, _, _ = _agree(tmp_path, bins, slo, pol, name="tie", function="rate")
    assert proc.returncode != 0
    # the 5-minute windows holding only minute 10 end at 11m .. 15m
    assert _failed_minutes(proc) == [11, 12, 13, 14, 15]


def _sample():
    from budgetlab import datasets

    try:
        return datasets.load("outcomes_4w"), datasets.load("incidents_4w")
    except DatasetError:  # data/ not checked out: the same preset, generated (about 2 s)
        from budgetlab.datasets.synth import generate_preset

        return generate_preset("outcomes_4w")


@needs_promtool
@pytest.mark.parametrize("incident, group, target, policy, span", [
    # I01: 15-minute outage of everything; turnstile at 99 %, the workbook's page tiers with
    # enough history for their 6-hour windows (the ticket tiers use the history that exists)
    ("I01", "turnstile", 0.99, AlertPolicy.workbook("30D"), ("2026-10-06T06:30Z",
                                                             "2026-10-06T16:30Z")),
    # I03: 3.5-hour solver degradation of image captchas (success 0.90 normally) at 95 %, Pyrra
    ("I03", "image", 0.95, AlertPolicy.pyrra("30D"), ("2026-10-12T05:00Z", "2026-10-12T15:00Z")),
])
def test_promtool_agrees_on_an_incident_from_the_4_week_sample(incident, group, target, policy,
                                                               span, tmp_path,
                                                                 promtool):
    events, incidents = _sample()
    inc = incidents.set_index("incident_id").loc[incident]
    assert pd.Timestamp(span[0]) < inc["start"] < inc["end"] < pd.Timestamp(span[1])
    one = events[events["captcha_type"] == group]
    bins = bin_events(one, "1min", start=span[0], end=span[1])
    proc, evaluations, firing = _agree(tmp_path, bins, SLO(target, "30D"), policy, name=group)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert evaluations == 600 and firing > 0
    # the alerts are about the incident: an episode overlaps it
    ep = alert_episodes(bins, target, policy)
    assert ((ep["start"] < inc["end"]) & (ep["end"] > inc["start"])).any()


@needs_promtool
@pytest.mark.parametrize("preset", POLICY_PRESETS)
@pytest.mark.parametrize("function", ["increase", "rate"])
def test_promtool_accepts_every_preset(preset, function, tmp_path, promtool):
    docs = slos_from_recalibration({"image": 0.9, "turnstile": 0.98}, by="captcha_type",
                                   window="30D")
    rules = prometheus_rules(docs, preset, selector_labels=["captcha_type"], function=function,
                             **METRICS)
    path = write_prometheus_rules(rules, tmp_path / "r.yaml")
    proc = run_promtool("check", "rules", str(path))
    assert proc.returncode == 0 and not proc.stderr, proc.stderr  # promtool's lint errors exit 0
    n = sum(len(g["rules"]) for g in rules["groups"])
    assert f"SUCCESS: {n} rules found" in proc.stdout


@needs_promtool
def test_cli_export_prometheus_from_openslo_with_check(tmp_path, capsys, promtool):
    # issue 33: the rules read the SLO's own queries (the fixture's bad/total selectors), not the
    # captcha defaults; the counters given on the command line replace them, with a note
    out = tmp_path / "rules.yaml"
    assert main(["export", "prometheus", "--slo", str(FIX / "captcha_workbook.yaml"), "--check",
                 str(out)]) == 0
    text = capsys.readouterr().out
    assert ("promtool check rules: "
            "ok") in text and ("SLI from the file's queries, errors over "
                                                   "total") in text
    (doc,) = read_openslo(FIX / "captcha_workbook.yaml")
    rules = yaml.safe_load(out.read_text())
    assert rules == prometheus_rules(doc, None)
    # read off the fixture: bad and total, windowed
    assert rules["groups"][0]["rules"][0]["expr"] == (
        '(sum(increase(captcha_solve_errors_total{captcha_type="recaptcha_v2"}[5m])))\n/\n'
        '(sum(increase(captcha_solves_total{captcha_type="recaptcha_v2"}[5m])))\n')
    # and the command says that form: the file's bare counters hold no Sloth {{.window}}
    said = statements(text)
    assert any(s.endswith("errors over total, over each window (a bare counter as "
                          "sum(increase(counter[window])), a range set to the window):")
               for s in said)
    # each query whole on a line of its own
    assert '  errors = captcha_solve_errors_total{captcha_type="recaptcha_v2"}' in said
    assert "Sloth" not in text
    assert main(["export", "prometheus", "--slo", str(FIX / "captcha_workbook.yaml"), "--selector",
                 'job="solver"',
                 "--total-metric", "req_total", "--errors-metric", "err_total", "--force",
                 str(out)]) == 0
    assert "(the SLO file's queries not used)" in " ".join(statements(capsys.readouterr().out))
    assert yaml.safe_load(out.read_text()) == prometheus_rules(doc, None, selector='job="solver"',
                                                                total_metric="req_total",
                                                               errors_metric="err_total")


@pytest.mark.parametrize("argv, needle", [
    (["export", "prometheus", "{out}"], "--slo FILE"),
    (["export", "prometheus", "--target", "0.99", "{out}"],
     "give the SLI's counters: --total-metric and"),
    (["export", "prometheus", "--target", "0.99", "--total-metric", "a_total", "--errors-metric",
      "b_total", "{out}"],
     "--policy"),
    (["export", "prometheus", "--target", "0.99", "--total-metric", "a_total", "{out}"],
     "give both"),
    # the tracker window no longer sets the policy's period (issue 18: --period does)
    (["export", "prometheus", "--target", "0.99", "--policy", "sloth", "--period", "7d",
      "--total-metric", "a_total",
      "--errors-metric", "b_total", "{out}"],
     "the SRE budget period 7 d (--period, else the SLO file's) has no Sloth windows: Sloth "
     "ships default windows for a 30 d or 28 d period only; give --period 30d or --period 28d, "
     "or --policy workbook or --policy pyrra, which keep their burns and scale their windows to "
     "any period."),
    # in flags, without the API's way out (it said "period=2d is too short ... or build the
    # tiers explicitly with AlertPolicy.from_budget_fractions(..., period=...)")
    (["export", "prometheus", "--target", "0.99", "--policy", "workbook", "--period", "2d",
      "--total-metric", "a_total", "--errors-metric", "b_total", "{out}"],
     "the SRE budget period 2 d (--period, else the SLO file's) is too short for the Workbook's "
     "tiers: with their burn factors kept (14.4, 6, 3, 1) and the windows scaled by period / 30 "
     "d (Pyrra's rule) the 5 min window of page_1h rounds to nothing; give --period 30d (at "
     "least 3 days)."),
    # in the command's flags (it said "selector, errors_selector and selector_labels apply to
    # total_metric/errors_metric only")
    (["export", "prometheus", "--slo", "{fix}", "--selector", 'job="x"', "{out}"],
     "carries its own queries: --selector, --errors-selector and --selector-labels apply to "
     "--total-metric/--errors-metric only; put the matchers in the queries."),
    (["export", "prometheus", "--slo", "{fix}", "--selector", "job=x", "--total-metric", "a_total",
      "--errors-metric",
      "b_total", "{out}"], "label matchers"),
    (["export", "prometheus", "--slo", "{fix}#nope", "{out}"], "no SLO named 'nope'"),
])
def test_cli_export_prometheus_errors_one_line_exit_2(argv, needle, tmp_path, capsys):
    argv = [a.format(out=tmp_path / "r.yaml", fix=FIX / "captcha_workbook.yaml") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err, err
    assert not (tmp_path / "r.yaml").exists()


def test_cli_export_prometheus_writes_what_the_api_returns(tmp_path, capsys):
    out = tmp_path / "rules.yaml"
    assert main(["export", "prometheus", "--target", "0.999", "--name", "solve",
                 "--policy",
                 "sloth28", "--total-metric", "a_total", "--errors-metric", "b_total",
                 str(out)]) == 0
    want = prometheus_rules(SLO(0.999, "28D"), "sloth28", name="solve", total_metric="a_total",
                            errors_metric="b_total")
    assert yaml.safe_load(out.read_text()) == want
    # no file was read, so the policy replaced no file's alerts; Sloth's 28 d tiers, by hand from
    # its google-28d.yaml: 2 % in 1 h -> 13.44, 5 % in 6 h -> 5.6, 10 % in 1 d -> 2.8, in 3 d 0.93
    said = capsys.readouterr().out
    assert ("  the alerts: --policy sloth28: page_quick 13.4 over 1h/5m, page_slow 5.6 over "
            "6h/30m, ticket_quick 2.8 over 1d/2h, ticket_slow 0.933 over 3d/6h"
            ) in statements(said)
    assert "file" not in said


@needs_promtool
def test_counters_that_do_not_start_at_zero_are_extrapolated_per_counter(tmp_path, promtool):
    # Documented difference (docs/interop.md, "windows longer than the history"): at 3m a
    # [1h] range holds samples 0m..3m. errors starts at 0: Prometheus caps the extrapolation at the
    # counter's zero point, increase = 3. total starts at 1000: the range start is 57 min before the
    # first sample (> 1.1 sample intervals), so it extrapolates half an interval: 30 x (180 + 30) /
    # 180
    # = 35. The ratio is 3/35, not the bin ratio 3/30 budgetlab (and a zero-start counter) gives.
    rules = {"groups": [{"name": "t", "interval": "1m", "rules": [
        {"record": "r", "expr": "sum(increase(err_total[1h])) / sum(increase(req_total[1h]))"},
        {"record": "t", "expr": "sum(increase(req_total[1h]))"}]}]}
    write_prometheus_rules(rules, tmp_path / "rules.yaml")
    test = {"rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": [{"series": "req_total", "values": "1000+10x10"}, {"series": "err_total",
                                                                           "values": "0+1x10"}],
        "promql_expr_test": [
            {"expr": "t", "eval_time": "3m", "exp_samples": [{"labels": "t", "value": 35}]},
            {"expr": "r", "eval_time": "3m", "exp_samples": [{"labels": "r", "value": 3 / 35}]}]}]}
    write_prometheus_rules(test, tmp_path / "test.yaml")
    proc = run_promtool("test", "rules", str(tmp_path / "test.yaml"))
    assert proc.returncode == 0, proc.stderr


def test_rules_without_counters_read_the_slos_queries_or_refuse_with_the_fix():
    # issue 33: no silent captcha defaults; a bare SLO has no queries
    with pytest.raises(ConfigError,
                       match=r"carries no Prometheus queries .*give the counters, total_metric= "
                             r"and "
                                          r"errors_metric= \(CLI --total-metric/--errors-metric\)"):
        prometheus_rules(SLO(0.99, "30D"), "workbook")
    with pytest.raises(ConfigError, match="give both total_metric and errors_metric, or neither"):
        prometheus_rules(SLO(0.99, "30D"), "workbook", total_metric="a_total")
    # v1alpha (Sloth's OpenSLO): good over total, each query over the window as written
    (doc,) = read_openslo(
        Path(__file__).parents[1] / "fixtures" / "sloth" / "openslo-getting-started.yml"
    )
    rule = prometheus_rules(doc, "sloth")["groups"][0]["rules"][0]
    assert rule["expr"] == (
        '((sum(rate(http_request_duration_seconds_count{job="myservice"}[5m]))) - '
        '(sum(rate(http_request_duration_seconds_count{job="myservice",code!~"(5..|429)"}[5m]))))\n/\n'
        '(sum(rate(http_request_duration_seconds_count{job="myservice"}[5m])))\n'
    )
    # a fixed range in a counter function takes the window, as budgetlab's per-bin reading ignores
    # it
    ind = {"metadata": {"name": "x"}, "spec": {"ratioMetric": {"counter": True,
           "bad": {"metricSource": {"type": "Prometheus",
                                    "spec": {"query": "sum(rate(e_total[5m]))"}}},
           "total": {"metricSource": {"type": "Prometheus",
                                      "spec": {"query": "sum(rate(r_total[5m]))"}}}}}}
    rules = prometheus_rules(SLODocument("x", SLO(0.99, "30D"), indicator=ind),
                             "workbook")["groups"][0]["rules"]
    assert rules[2]["expr"] == "(sum(rate(e_total[1h])))\n/\n(sum(rate(r_total[1h])))\n"
    with pytest.raises(ConfigError, match="holds no counter budgetlab can read per bin"):
        gauge = {**ind, "spec": {"ratioMetric": {**ind["spec"]["ratioMetric"], "bad": {
            "metricSource": {"type": "Prometheus", "spec": {"query": "sum(e_gauge)"}}}}}}
        prometheus_rules(SLODocument("x", SLO(0.99, "30D"), indicator=gauge), "workbook")


def test_cli_export_prometheus_writes_no_tracker_window_and_refuses_window(tmp_path, capsys):
    """The rules read the SLO's target and period, never its tracker window (unlike export
    openslo's budgetlab/window annotation): the same rules under a 1 h and a 28 d window, and
    without --window nothing is said of one; --window is refused in one line, not dropped."""
    kw = {"name": "solve", "total_metric": "a_total", "errors_metric": "b_total"}
    short = prometheus_rules(SLO(0.999, "1h", period="30D"), "workbook", **kw)
    assert short == prometheus_rules(SLO(0.999, "28D", period="30D"), "workbook", **kw)
    out = tmp_path / "rules.yaml"
    argv = ["export", "prometheus", "--target", "0.999", "--name", "solve", "--policy",
            "workbook", "--total-metric", "a_total", "--errors-metric", "b_total", str(out)]
    assert main(argv) == 0
    assert yaml.safe_load(out.read_text()) == short
    assert "window" not in capsys.readouterr().out
    assert main([*argv, "--window", "24h", "--force"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: --window is the tracker window, which Prometheus rules do not hold "
        "(they alert on the policy's burn-rate windows over --period); leave --window out.\n")


def test_export_help_lists_only_the_flags_its_target_takes(capsys):
    """``export prometheus --help`` listed --window ("export openslo only"), a flag it takes only
    to refuse; each target's help lists its own flags (openslo's --window without the remark)."""
    helps = {}
    for target in ("prometheus", "openslo"):
        assert main(["export", target, "--help"]) == 0
        helps[target] = " ".join(capsys.readouterr().out.split())
    assert "openslo only" not in helps["openslo"]
    assert "--window WINDOW tracker window, e.g. 24h, 28d" in helps["openslo"]
    flags = {k: set(re.findall(r"--[\w-]+", text)) for k, text in helps.items()}
    common = {"--help", "--force", "--target", "--name", "--service", "--policy", "--period",
              "--total-metric", "--errors-metric", "--selector", "--histogram", "--slow-above"}
    assert flags["prometheus"] - common == {"--slo", "--errors-selector", "--selector-labels",
                                            "--alert-name", "--interval", "--function",
                                            "--style", "--check"}
    assert flags["openslo"] - common == {"--window", "--description", "--warning", "--critical",
                                         "--min-events", "--from", "--from-recalibration",
                                         "--by", "--target-column", "--name-prefix"}
