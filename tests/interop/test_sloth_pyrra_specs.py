"""Sloth ``prometheus/v1`` specs and Pyrra ``ServiceLevelObjective`` resources in (issue 33,
points 2 and 3), on the peers' own example files (``tests/fixtures/sloth``,
``tests/fixtures/pyrra``;
repository, commit and paths in each folder's PROVENANCE). The evaluation of the rules on a real
Prometheus is in ``test_spec_round_trips.py``."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from budgetlab import SLO, BudgetlabWarning, ConfigError
from budgetlab.budget.status_changes import transitions
from budgetlab.budget.tracker_replay import replay
from budgetlab.cli import main
from budgetlab.events.read import read_events
from budgetlab.interop.openslo import load_slo, read_openslo
from budgetlab.interop.prometheus import prometheus_rules
from budgetlab.interop.sli_queries import read_slo_spec
from tests.interop.export_said import statements

SLOTH = Path(__file__).parents[1] / "fixtures" / "sloth"
PYRRA = Path(__file__).parents[1] / "fixtures" / "pyrra"
IDS = ("sloth_id", "sloth_service", "sloth_slo")
D = pd.Timedelta


# ---------------------------------------------------------------------------------------------
# Sloth: reading


def test_sloth_getting_started_read_field_by_field():
    # values read off tests/fixtures/sloth/getting-started.yml by hand
    (doc,) = read_openslo(SLOTH / "getting-started.yml")
    assert (doc.name, doc.service, doc.slo) == (
        "requests-availability",
        "myservice",
        SLO(0.999, "30D", period="30D"),
    )
    assert doc.labels == {"owner": "myteam", "repo": "myorg/myservice", "tier": "2"}
    ratio = doc.indicator["spec"]["ratioMetric"]
    assert ratio["bad"]["metricSource"]["spec"]["query"] == (
        'sum(rate(http_request_duration_seconds_count{job="myservice",code=~"(5..|429)"}[{{.window}}]))'
    )
    assert ratio["total"]["metricSource"]["spec"]["query"] == (
        'sum(rate(http_request_duration_seconds_count{job="myservice"}[{{.window}}]))')
    page, ticket = doc.policy_info["page_quick"], doc.policy_info["ticket_slow"]
    assert page.display_name == ticket.display_name == "MyServiceHighErrorRate"
    assert page.labels == {"category": "availability", "severity": "pageteam",
                           "routing_key": "myteam"}
    assert ticket.labels == {"category": "availability", "severity": "slack",
                             "slack_channel": "#alerts-myteam"}
    assert page.annotations == ticket.annotations == {"summary": "High error rate on 'myservice' "
                                                                 "requests responses"}
    (spec,) = read_slo_spec(SLOTH / "getting-started.yml")
    assert (spec.source, spec.errors, spec.total) == (
        "Sloth prometheus/v1",
        ratio["bad"]["metricSource"]["spec"]["query"],
        ratio["total"]["metricSource"]["spec"]["query"],
    )


def test_sloth_disabled_alerts_raw_sli_and_unknown_fields():
    (doc,) = read_openslo(SLOTH / "no-alerts.yml")  # page_alert and ticket_alert disabled
    assert doc.alert_policies == () and doc.policy is None and doc.slo.target == 0.9999
    with pytest.raises(ConfigError, match=r"raw-home-wifi.yml: slos\[0\].sli.raw is not supported"):
        read_openslo(SLOTH / "raw-home-wifi.yml")
    text = (SLOTH / "getting-started.yml").read_text()
    with pytest.raises(ConfigError, match=r"slos\[0\]: objetive is not a field here"):
        read_openslo(text.replace("objective: 99.9", "objetive: 99.9"))
    with pytest.raises(ConfigError, match=r'quote numbers: tier: "2"'):
        read_openslo(text.replace('tier: "2"', "tier: 2"))
    ticket_off = text.replace("      ticket_alert:\n",
                              "      ticket_alert:\n        disable: true\n")
    (doc,) = read_openslo(ticket_off)
    assert [t.name for t in doc.policy.tiers] == ["page_quick", "page_slow"]


def test_export_refuses_a_sloth_query_backtest_cannot_read(tmp_path, capsys):
    # home-wifi's SLI is a subquery over a gauge (sum_over_time(count(...)[{{.window}}:])), no
    # counter
    assert main(["export", "prometheus", "--slo", str(SLOTH / "home-wifi.yml"),
                 str(tmp_path / "r.yaml")]) == 2
    err = capsys.readouterr().err
    assert "holds no counter budgetlab can read per bin" in err and err.count("\n") == 1
    assert not (tmp_path / "r.yaml").exists()
    # named as the file holds it: the SLO and its query, not a keyword (it said total='...', and
    # backtest's --total is a flag this run never had); backtest refuses it in the same words,
    # before any server is asked (none listens on port 1)
    said = ("budgetlab: error: SLO 'good-wifi-client-satisfaction': the total query "
            "'sum_over_time((count(unifipoller_client_satisfaction_ratio))[{{.window}}:])' holds "
            "no counter budgetlab can read per bin;")
    assert err.startswith(said)
    assert main(["backtest", "--slo", str(SLOTH / "home-wifi.yml"), "--prometheus",
                 "http://127.0.0.1:1", "--start", "2026-01-01", "--end", "2026-01-02"]) == 2
    assert capsys.readouterr().err.startswith(said)
    assert main(["export", "prometheus", "--slo", str(SLOTH / "no-alerts.yml"),
                 str(tmp_path / "r.yaml")]) == 2
    assert "has no alert policies; give --policy" in capsys.readouterr().err


def _alert_tiers(path):
    """(tier, burn, long window, short window) of each alert of a rules file, read off its text."""
    out = []
    for r in yaml.safe_load(path.read_text())["groups"][0]["rules"]:
        if "alert" in r:
            burns = set(re.findall(r"> \(([\d.]+) \*", r["expr"]))
            windows = re.findall(r"ratio_rate(\w+)\{", r["expr"])
            assert len(burns) == 1
            out.append((r["labels"]["tier"], float(burns.pop()), *windows))
    return out


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
def test_export_says_the_alerts_of_the_policy_given_not_the_specs_disabled_ones(tmp_path, capsys):
    # no-alerts.yml disables page and ticket; --policy workbook writes the Workbook's four tiers
    # (SRE Workbook ch. 5, table 5-8 at 30 d: 14.4 over 1h/5m, 6 over 6h/30m, 3 over 1d/2h, 1 over
    # 3d/6h), and the command says those, not "disabled: page, ticket"
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--slo", str(SLOTH / "no-alerts.yml"), "--policy",
                 "workbook", "--check", str(out)]) == 0
    said = capsys.readouterr().out
    expected = [("page_1h", 14.4, "1h", "5m"), ("page_6h", 6.0, "6h", "30m"),
                ("ticket_1d", 3.0, "1d", "2h"), ("ticket_3d", 1.0, "3d", "6h")]
    assert _alert_tiers(out) == expected
    assert ("  the alerts: --policy workbook, not the file's: page_1h 14.4 over 1h/5m, page_6h 6 "
            "over 6h/30m, ticket_1d 3 over 1d/2h, ticket_3d 1 over 3d/6h") in statements(said)
    assert "disabled" not in said and "Sloth's tiers" not in said
    assert "promtool check rules: ok" in said
    # without --policy the spec's own alerting is written, and the note on it still holds: ticket
    # disabled, the page tiers only (Sloth's 14.4 over 1h/5m and 6 over 6h/30m)
    text = (SLOTH / "getting-started.yml").read_text()
    ticket_off = tmp_path / "ticket-off.yml"
    ticket_off.write_text(text.replace("      ticket_alert:\n",
                                       "      ticket_alert:\n        disable: true\n"))
    assert main(["export", "prometheus", "--slo", str(ticket_off), "--check", str(out),
                 "--force"]) == 0
    said = capsys.readouterr().out
    assert _alert_tiers(out) == [("page_quick", 14.4, "1h", "5m"), ("page_slow", 6.0, "6h", "30m")]
    assert "; disabled: ticket\n" in said and "--policy" not in said


def test_export_says_the_period_given_not_the_specs(tmp_path, capsys):
    # Sloth's period is 30 days; --period 28d makes the rules' slo:time_period:days 28, and the
    # command says so beside the note on Sloth's 30 days
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--slo", str(SLOTH / "getting-started.yml"), "--period",
                 "28d", "--style", "sloth", str(out)]) == 0
    said = capsys.readouterr().out
    days = [r["expr"] for r in yaml.safe_load(out.read_text())["groups"][0]["rules"]
            if r.get("record") == "slo:time_period:days"]
    assert days == ["vector(28)"]
    assert "\n  the period: 28 d (--period), not the file's\n" in said


# the SRE Workbook's (and Sloth's google-28d.yaml) budget fractions over a 28 d period, by hand:
# burn = fraction x period / long window
SLOTH_28D = [("page_quick", 0.02 * 28 * 24, "1h", "5m"),  # 13.44
             ("page_slow", 0.05 * 28 * 24 / 6, "6h", "30m"),  # 5.6
             ("ticket_quick", 0.10 * 28, "1d", "2h"),  # 2.8
             ("ticket_slow", 0.10 * 28 / 3, "3d", "6h")]  # 0.933


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
def test_export_at_another_period_keeps_the_specs_budget_fractions(tmp_path, capsys):
    # Sloth at 28 d (sloth generate --default-slo-period 28d) pages on 2 % of the budget in 1 h:
    # 13.44, not the 30 d table's 14.4 (which would be 2.14 % of a 28 d budget)
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--slo", str(SLOTH / "getting-started.yml"), "--period",
                 "28d", "--check", str(out)]) == 0
    said = capsys.readouterr().out
    got = _alert_tiers(out)
    assert [(n, lw, sw) for n, _, lw, sw in got] == [(n, lw, sw) for n, _, lw, sw in SLOTH_28D]
    assert [b for _, b, _, _ in got] == pytest.approx([b for _, b, _, _ in SLOTH_28D], abs=1e-9)
    assert "promtool check rules: ok" in said
    assert ("  the alerts at 28 d: the file's tiers, each keeping its share of the budget (burn = "
            "share x period / long window, as Sloth's own 28 d and 30 d windows do): page_quick "
            "13.4 over 1h/5m (2 % of the budget), page_slow 5.6 over 6h/30m (5 %), ticket_quick "
            "2.8 over 1d/2h (10 %), ticket_slow 0.933 over 3d/6h (10 %)") in statements(said)
    # the same burns as --policy sloth28, Sloth's own 28 d windows
    assert main(["export", "prometheus", "--slo", str(SLOTH / "getting-started.yml"), "--period",
                 "28d", "--policy", "sloth28", str(tmp_path / "s.yaml")]) == 0
    assert _alert_tiers(tmp_path / "s.yaml") == got
    # export openslo --from writes the same thresholds and says so
    assert main(["export", "openslo", "--from", str(SLOTH / "getting-started.yml"), "--period",
                 "28d", str(tmp_path / "o.yaml")]) == 0
    assert "SLO 'requests-availability': the alerts at 28 d: the file's tiers" in \
        capsys.readouterr().out
    (doc,) = read_openslo(tmp_path / "o.yaml")
    assert [t.burn for t in doc.policy.tiers] == pytest.approx([b for _, b, _, _ in SLOTH_28D],
                                                               abs=1e-9)


def test_pyrra_tiers_at_another_period_follow_pyrras_rule(tmp_path, capsys):
    # nginx-api-errors: Pyrra's 28 d tiers 14 over 1h/5m, 7 over 6h/30m, 2 over 1d/2h, 1 over
    # 4d/6h. At 30 d Pyrra itself (Windows() in pyrra-dev/pyrra slo/rules.go) keeps the factors
    # and scales the windows, window / n rounded to the minute: 2,592,000 s / 672 = 3857 s ->
    # 1h4m, / 8064 = 321 s -> 5m, / 112 -> 6h26m, / 1344 -> 32m, / 28 -> 1d1h43m, / 336 -> 2h9m,
    # / 7 -> 4d6h51m, / 112 -> 6h26m. (It kept the 28 d windows and read burns x 30 / 28 before.)
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--slo", f"{PYRRA / 'nginx.yaml'}#nginx-api-errors",
                 "--period", "30d", str(out)]) == 0
    got = _alert_tiers(out)
    assert [b for _, b, _, _ in got] == [14.0, 7.0, 2.0, 1.0]
    assert [w for _, _, *w in got] == [["1h4m", "5m"], ["6h26m", "32m"], ["1d1h43m", "2h9m"],
                                       ["4d6h51m", "6h26m"]]
    # 14 x 64 min / 43,200 min = 2.074 %, 7 x 386 / 43,200 = 6.255 %, 2 x 1543 / 43,200 =
    # 7.144 %, 6171 / 43,200 = 14.28 %
    assert ("Pyrra's tiers as Pyrra builds them for this window (factors 14, 7, 2, 1 kept, each "
            "window the 28 d one x period / 28 d, rounded to the minute): critical_1h4m 14 over "
            "1h4m/5m (2.074 % of the budget), critical_6h26m 7 over 6h26m/32m (6.255 %), "
            "warning_1d1h43m 2 over 1d1h43m/2h9m (7.144 %), warning_4d6h51m 1 over "
            "4d6h51m/6h26m (14.28 %)") in " ".join(statements(capsys.readouterr().out))


def test_export_prints_a_multi_line_query_on_one_line(tmp_path, capsys):
    # kubernetes-apiserver.yml's requests-latency error_query spans five lines (a YAML block);
    # the report line shows it with its whitespace collapsed, written out here by hand
    assert main(["export", "prometheus", "--slo",
                 f"{SLOTH / 'kubernetes-apiserver.yml'}#requests-latency",
                 str(tmp_path / "r.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the prose filled to 100 columns; each query whole on a line of its own
    assert any(ln.startswith("SLO 'requests-latency': SLI from the file's queries") for ln in lines)
    assert (
        '  errors = ( sum(rate(apiserver_request_duration_seconds_count{verb!="WATCH"}'
        '[{{.window}}])) - sum(rate(apiserver_request_duration_seconds_bucket{le="0.4",'
        'verb!="WATCH"}[{{.window}}])) )') in lines
    assert ('  total = sum(rate(apiserver_request_duration_seconds_count{verb!="WATCH"}'
            '[{{.window}}]))') in lines


# ---------------------------------------------------------------------------------------------
# Sloth: budgetlab's --style sloth against Sloth's own generated files, rule by rule


def _by_slo(rules):
    """{sloth_id: {rule key: rule}}, the key being the record name or (alert, sloth_severity)."""
    out: dict[str, dict] = {}
    for g in rules["groups"]:
        for r in g["rules"]:
            key = r.get("record") or (r["alert"], r["labels"]["sloth_severity"])
            sid = r["labels"].get("sloth_id") or re.search(r'sloth_id="([^"]+)"',
                                                           r["expr"]).group(1)
            assert key not in out.setdefault(sid, {})
            out[sid][key] = r
    return out


@pytest.mark.parametrize("spec", ["getting-started.yml", "kubernetes-apiserver.yml"])
def test_sloth_style_output_equals_sloths_generated_rules(spec, tmp_path, capsys):
    out = tmp_path / "rules.yaml"
    assert main(["export", "prometheus", "--slo", str(SLOTH / spec), "--style", "sloth",
                 str(out)]) == 0
    assert "SLI from the file's queries, errors over total" in capsys.readouterr().out
    ours = _by_slo(yaml.safe_load(out.read_text()))
    theirs = _by_slo(yaml.safe_load((SLOTH / f"_gen__{spec}").read_text()))
    assert ours.keys() == theirs.keys()
    for sid, t_rules in theirs.items():
        o_rules = ours[sid]
        assert list(o_rules) == list(t_rules)  # same names, same order (alerts: page, then ticket)
        for key, t in t_rules.items():
            o = o_rules[key]
            # cmd: Sloth's example generator's
            t_labels = {k: v for k, v in t["labels"].items() if k != "cmd"}
            if key == "sloth_slo_info":  # who wrote it: Sloth names itself, budgetlab itself
                # (sloth_spec, the spec read, is Sloth's: prometheus/v1)
                for k in ("sloth_mode", "sloth_version"):
                    t_labels.pop(k)
                    o["labels"].pop(k)
            if isinstance(key, tuple):
                # budgetlab's alert also names the SLO (labels its expression yields anyway)
                assert {k: o["labels"].pop(k) for k in IDS} == {
                    k: t_rules["slo:objective:ratio"]["labels"][k] for k in IDS
                }
                assert o["annotations"] == t["annotations"]
            assert o["labels"] == t_labels, key
            if key == "slo:sli_error:ratio_rate30d":
                # on purpose: the exact errors / total over the period, where Sloth averages the 5m
                # ratios
                assert (
                    "sum_over_time(slo:sli_error:ratio_rate5m" in t["expr"]
                    and "slo:" not in o["expr"]
                )
            elif key in ("slo:objective:ratio", "slo:error_budget:ratio"):
                # on purpose: the target's own double, where Sloth writes 99.9 / 100 =
                # 0.9990000000000001
                target = float(t_rules["sloth_slo_info"]["labels"]["sloth_objective"]) / 100
                assert o["expr"] == t["expr"].replace(repr(target), repr(round(target,
                                                                               12))).replace("1-",
                                                                                             "1 - ")
            elif isinstance(key, str):
                assert o["expr"] == t["expr"], key  # the recordings: Sloth's text, byte for byte
            # the alert expressions differ in text (window order, threshold's double); they are
            # evaluated on one Prometheus in test_spec_round_trips.py


def test_another_policy_keeps_each_severitys_routing_labels():
    (doc,) = read_openslo(SLOTH / "getting-started.yml")
    alerts = [r for r in prometheus_rules(doc, "workbook",
                                          style="sloth")["groups"][0]["rules"] if "alert" in r]
    # the workbook's page and ticket tiers, with the spec's page and ticket alerts (read off the
    # file)
    assert [(a["alert"], a["labels"]["severity"],
             a["labels"]["sloth_severity"]) for a in alerts] == [
        ("MyServiceHighErrorRate", "pageteam", "page"), ("MyServiceHighErrorRate", "slack",
                                                         "ticket")]
    assert "> (14.4 * (1 - 0.999))" in alerts[0]["expr"]


# ---------------------------------------------------------------------------------------------
# Pyrra

# values read off the files by hand: (name, target, window, service, tiers, SLI part, total query)
PYRRA_ACCEPTED = {
    "prometheus-http.yaml": [
        (
            "prometheus-api-query",
            0.99,
            D("7D"),
            "budgetlab",
            "bad",
            "sum by (handler) "
            '(increase(prometheus_http_requests_total{handler=~"/api.*"}[{{.window}}]))',
        )
    ],
    "caddy-response-latency.yaml": [
        (
            "caddy-response-latency",
            0.9,
            D("28D"),
            "budgetlab",
            "good",
            'caddy_http_response_duration_seconds_count{job="caddy",handler="subroute",code!~"5.."}',
        )
    ],
    "nginx.yaml": [
        (
            "nginx-api-errors",
            0.999,
            D("28D"),
            "monitoring",
            "bad",
            'nginx_ingress_controller_requests{namespace="lastfm",ingress="lastfm",service="lastfm"}',
        ),
        (
            "nginx-api-latency",
            0.9,
            D("28D"),
            "monitoring",
            "good",
            'nginx_ingress_controller_request_duration_seconds_count{namespace="lastfm",ingress="lastfm",service="lastfm"}',
        ),
    ],
    "pyrra-filesystem-errors.yaml": [
        (
            "pyrra-filesystem-errors",
            0.99,
            D("7D"),
            "monitoring",
            "bad",
            "pyrra_filesystem_reconciles_total",
        )
    ],
    "kubernetes__slo-apiserver-read-response-errors.yaml": [
        (
            "apiserver-read-response-errors",
            0.99,
            D("14D"),
            "monitoring",
            "bad",
            'apiserver_request_total{component="apiserver",verb=~"LIST|GET"}',
        )
    ],
}
PYRRA_REFUSED = {
    "pyrra-connect-latency.yaml": "spec.indicator.latencyNative is not supported",
    "prometheus-probe-success.yaml": "spec.indicator.bool_gauge is not supported",
}


def test_every_pyrra_fixture_is_in_one_table_with_its_provenance():
    vendored = {p.name for p in PYRRA.glob("*.yaml")}
    assert vendored == set(PYRRA_ACCEPTED) | set(PYRRA_REFUSED)
    assert (PYRRA / "LICENSE").read_text().lstrip().startswith("Apache License")
    prov = (PYRRA / "PROVENANCE").read_text()
    assert re.search(r"^commit: [0-9a-f]{40}$", prov,
                     re.M) and "repository: https://github.com/pyrra-dev/pyrra" in prov
    assert set(re.findall(r"^  (\S+): \S+$", prov, re.M)) == vendored


@pytest.mark.parametrize("name", sorted(PYRRA_ACCEPTED))
def test_pyrra_fixture_read_with_hand_read_values(name):
    docs = read_openslo(PYRRA / name)
    got = [
        (
            d.name,
            d.slo.target,
            d.slo.period,
            d.service,
            "bad" if "bad" in d.indicator["spec"]["ratioMetric"] else "good",
            d.indicator["spec"]["ratioMetric"]["total"]["metricSource"]["spec"]["query"],
        )
        for d in docs
    ]
    assert got == PYRRA_ACCEPTED[name]
    for d in docs:
        assert d.slo.window == d.slo.period  # the tracker window is Pyrra's window
        # Pyrra's Windows(): long windows window/28, /112, /672 (the 1d, 6h, 1h of 28 days) and
        # window/7
        assert sorted(t.long_window for t in d.policy.tiers) == [d.slo.period / k for k in (672,
                                                                                            112, 28,
                                                                                            7)]


@pytest.mark.parametrize("name", sorted(PYRRA_REFUSED))
def test_pyrra_fixture_refused_for_the_documented_reason(name):
    with pytest.raises(ConfigError) as info:
        read_openslo(PYRRA / name)
    assert PYRRA_REFUSED[name] in str(info.value) and name in str(info.value)


def test_pyrra_grouping_is_backtests_default_by():
    (spec,) = read_slo_spec(PYRRA / "prometheus-http.yaml")
    assert (spec.source, spec.by) == ("Pyrra", ("handler",))
    assert read_slo_spec(PYRRA / "caddy-response-latency.yaml")[0].by == ()


def test_pyrra_latency_is_the_success_bucket_over_total():
    (doc,) = read_openslo(PYRRA / "caddy-response-latency.yaml")
    ratio = doc.indicator["spec"]["ratioMetric"]
    assert ratio["good"]["metricSource"]["spec"]["query"] == (
        'caddy_http_response_duration_seconds_bucket{job="caddy",handler="subroute",code!~"5..",le="0.05"}'
    )
    # Pyrra's 14 page at caddy's 90 %: 14 x 0.1 = 1.4, above any error ratio (written, said)
    with pytest.warns(BudgetlabWarning, match=r"critical_1h can never fire at target 0.9: it "
                                              r"needs an error ratio above 14 x \(1 - 0.9\) = 1.4"):
        expr = prometheus_rules(doc, None)["groups"][0]["rules"][0]["expr"]
    # (total - good) / total
    assert expr.startswith("((sum(increase(caddy_http_response_duration_seconds_count{")
    text = (PYRRA / "pyrra-filesystem-errors.yaml").read_text()
    (off,) = read_openslo(text.replace("  indicator:",
                                       "  alerting:\n    disabled: true\n  indicator:"))
    assert off.alert_policies == ()
    (named,) = read_openslo(text.replace("  indicator:",
                                         "  alerting:\n    name: FsBurn\n  indicator:"))
    assert {
        r["alert"] for r in prometheus_rules(named, None)["groups"][0]["rules"] if "alert" in r
    } == {"FsBurn"}


# ---------------------------------------------------------------------------------------------
# every command that takes --slo: replay with a Sloth or Pyrra file


@pytest.fixture
def log(tmp_path):
    rng = np.random.default_rng(33)
    n = 3000
    t = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 3 * 86400,
                                                                                   n)), unit="s")
    outcome = np.where(rng.random(n) < 0.93, "success", "timeout")
    path = tmp_path / "log.csv"
    # every request takes 1 ms, under any latency SLO's threshold here: a latency SLO gives the
    # availability replay
    pd.DataFrame({"ts": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "outcome": outcome,
                  "ms": 1}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("spec, slo, latency", [
    (SLOTH / "getting-started.yml", SLO(0.999, "30D"), False),
    (PYRRA / "caddy-response-latency.yaml", SLO(0.9, "28D"), True),
    (f"{PYRRA / 'nginx.yaml'}#nginx-api-latency", SLO(0.9, "28D"), True),
], ids=["sloth-getting-started", "pyrra-caddy-latency", "pyrra-nginx-api-latency"])
def test_replay_reads_sloth_and_pyrra_slos(log, tmp_path, capsys, spec, slo, latency):
    assert load_slo(spec) == slo.with_(period=slo.window)
    out = tmp_path / "tr.csv"
    durations = ["--duration", "ms", "--duration-unit", "ms"] if latency else []
    # a latency SLO needs the log's durations (its threshold becomes --slow-above), never read as
    # availability
    if latency:
        assert main(["replay", str(log), "--slo", str(spec), "--out", str(out)]) == 2
        assert "latency SLO" in capsys.readouterr().err and not out.exists()
    assert main(["replay", str(log), "--slo", str(spec), *durations, "--out", str(out)]) == 0
    want = transitions(replay(read_events(log), slo))
    got = pd.read_csv(out)
    assert len(got) == len(want) > 0
    assert got["to_status"].tolist() == want["to_status"].astype(str).tolist()


TWO_SLOS = """version: "prometheus/v1"
service: "myapp"
slos:
  - name: "http-availability"
    objective: 99.9
    sli:
      events:
        error_query: sum(rate(http_requests_total{code=~"5.."}[{{.window}}]))
        total_query: sum(rate(http_requests_total[{{.window}}]))
    alerting:
      name: MyappHighErrorRate
      page_alert: {}
      ticket_alert: {}
  - name: "http-throttled"
    objective: 99.0
    sli:
      events:
        error_query: sum(rate(http_requests_total{code="429"}[{{.window}}]))
        total_query: sum(rate(http_requests_total[{{.window}}]))
    alerting:
      page_alert:
        disable: true
      ticket_alert:
        disable: true
"""


def test_export_without_policy_names_the_slos_that_have_none(tmp_path, capsys):
    """Two SLOs, the second without alert policies: the refusal names it (as prometheus_rules
    does), not "the SLO"; one SLO alone (no-alerts.yml) is named the same way, by export and
    backtest (refused before the server is asked)."""
    spec = tmp_path / "two.yml"
    spec.write_text(TWO_SLOS)
    assert main(["export", "prometheus", "--slo", str(spec), str(tmp_path / "r.yaml")]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: SLO 'http-throttled' (1 of the 2) has no alert policies; give --policy "
        "(e.g. --policy workbook; it sets the policy of every SLO).\n")
    assert not (tmp_path / "r.yaml").exists()
    one = "budgetlab: error: SLO 'http-availability' has no alert policies; give --policy (e.g. " \
          "--policy workbook).\n"
    assert main(["export", "prometheus", "--slo", str(SLOTH / "no-alerts.yml"),
                 str(tmp_path / "r.yaml")]) == 2
    assert capsys.readouterr().err == one
    assert main(["backtest", "--prometheus", "http://127.0.0.1:1", "--slo",
                 str(SLOTH / "no-alerts.yml")]) == 2
    assert capsys.readouterr().err == one
