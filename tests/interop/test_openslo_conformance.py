"""OpenSLO conformance (issue 18): the ported v1 rules checked against oslo's recorded outputs,
every peer fixture read with hand-read values or refused for a documented reason, every document
budgetlab writes valid under the ported rules, the reference-invalid cases refused, and
decimal-exact percentages."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetlab import SLO, ConfigError
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier
from budgetlab.cli import main
from budgetlab.interop.openslo import (
    AlertPolicyInfo,
    SLODocument,
    openslo_names,
    ratio_indicator,
    read_openslo,
    slos_from_recalibration,
    to_openslo_yaml,
)
from tests.interop.openslo_rules import validate

FIXTURES = Path(__file__).parents[1] / "fixtures"
SPEC, SDK, OSLO, SLOTH = (FIXTURES / d for d in ("openslo_spec", "openslo_go_sdk", "oslo", "sloth"))
OWN = FIXTURES / "openslo"


def _objects(path_or_text):
    text = path_or_text.read_text() if isinstance(path_or_text, Path) else path_or_text
    out = []
    for d in yaml.safe_load_all(text):
        if d is not None:
            out.extend(d if isinstance(d, list) else [d])
    return out


def _violations(text):
    return [v for v in validate(_objects(text))]


# ---------------------------------------------------------------------------------------------
# 1. the port against what oslo's own tests record (test/validate.bats + test/outputs/validate/*)

_RECORD = re.compile(r"Validation for (v1|v1alpha)\.(\w+) '([^']*)'(?: at index (\d+))? has failed")
_PROP = re.compile(r"^    - '([^']+)'")


def _recorded(output: str):
    """(kind, name, index, path) of every failed property in an oslo output file."""
    out, current = set(), None
    for line in output.splitlines():
        m = _RECORD.search(line)
        if m:
            current = (m.group(2), m.group(3), int(m.group(4) or 0))
            continue
        p = _PROP.match(line)
        if p and current:
            out.add((*current, p.group(1)))
    return out


@pytest.mark.parametrize("inp, outp", [
    ("inputs__validate__v1.yaml", "outputs__validate__v1"),
    ("inputs__validate__v1alpha.yaml", "outputs__validate__v1alpha"),
])
def test_ported_rules_reproduce_oslos_recorded_output(inp, outp):
    recorded = _recorded((OSLO / outp).read_text())
    # oslo's recorded run lacked the IANA tz database ("unknown time zone America/New_York",
    # while its own message names that zone as a valid example): an artefact of its test image,
    # not a rule; the port checks zones against the real database.
    recorded = {r for r in recorded if not r[3].endswith("calendar.timeZone")}
    assert recorded  # the files hold real failures
    got = {(v.kind, v.name, v.index, v.path) for v in _violations(OSLO / inp)}
    assert got == recorded


@pytest.mark.parametrize("inp, outp", [("inputs__validate__mix__1.yaml", "outputs__validate__mix"),
                                       ("inputs__validate__mix__2.yaml", "outputs__validate__mix")])
def test_ported_rules_reproduce_oslos_mix_output(inp, outp):
    # the mix output holds one block per file; each of these two files has one Service at index 0
    recorded = {(k, n, i, p) for k, n, i, p in _recorded((OSLO / outp).read_text())}
    got = {(v.kind, v.name, v.index, v.path) for v in _violations(OSLO / inp)}
    assert got and got <= recorded


def test_ported_rules_flag_the_unknown_field_oslo_records():
    # test/validate.bats "validate unknown field": json: unknown field "markdown"
    got = _violations(OSLO / "inputs__validate__unknown-field.yaml")
    assert ("spec.markdown", "unknown_field") in {(v.path, v.rule) for v in got}


def test_ported_rules_on_the_sdk_examples():
    # every v1 example of the SDK is valid except the SLO's 'op: gt' on a ratio SLI (the same
    # violation oslo records for test/inputs/validate/v1.yaml)
    got = {(f.name, v.path, v.rule) for f in sorted(SDK.glob("v1__*.yaml")) for v in _violations(f)}
    assert got == {("v1__slos.yaml", "spec.objectives[0].op", "forbidden")}


# ---------------------------------------------------------------------------------------------
# 2. every peer fixture: accepted with hand-read values, or refused for a documented reason

def _summary(doc):
    return (doc.name, doc.slo.target, doc.slo.period, doc.slo.window, doc.budgeting_method,
            [t.name for p in doc.alert_policies for t in p.tiers])


D = pd.Timedelta
SLOTH_TIERS = ["page_quick", "page_slow", "ticket_quick", "ticket_slow"]
# values read off the files by hand (target, timeWindow, budgeting method, policies)
ACCEPTED = {
    SLOTH / "openslo-getting-started.yml": [("sloth-slo-my-service-0", 0.999, D("30D"), D("30D"),
                                             "Occurrences", [])],
    SLOTH / "openslo-kubernetes-apiserver.yml": [
        ("requests-availability-openslo-0", 0.999, D("30D"), D("30D"), "Occurrences", []),
        ("requests-latency-openslo-0", 0.99, D("30D"), D("30D"), "Occurrences", []),
        ("requests-latency-openslo-1", 0.999, D("30D"), D("30D"), "Occurrences", [])],
    # Sloth's own prometheus/v1 specs (issue 33): objective %, Sloth's 30-day default period,
    # Sloth's page and ticket tiers unless disabled
    SLOTH / "getting-started.yml": [("requests-availability", 0.999, D("30D"), D("30D"),
                                     "Occurrences", SLOTH_TIERS)],
    SLOTH / "kubernetes-apiserver.yml": [
        ("requests-availability", 0.999, D("30D"), D("30D"), "Occurrences", SLOTH_TIERS),
        ("requests-latency", 0.99, D("30D"), D("30D"), "Occurrences", SLOTH_TIERS)],
    SLOTH / "no-alerts.yml": [("http-availability", 0.9999, D("30D"), D("30D"), "Occurrences", [])],
    # read; its subquery SLI is refused where queries are evaluated (export, backtest)
    SLOTH / "home-wifi.yml": [
        ("good-wifi-client-satisfaction", 0.95, D("30D"), D("30D"), "Occurrences", SLOTH_TIERS),
        ("risk-wifi-client-satisfaction", 0.999, D("30D"), D("30D"), "Occurrences", SLOTH_TIERS)],
}
# the documented reasons (docs/interop.md, "Conformance")
REFUSED = {
    # op: gt on a ratio objective: the Go SDK's rules.Forbidden (oslo records it for its v1 input
    # too)
    **{
        path: "spec.objectives[0].op is forbidden with a ratio SLI"
        for path in (
            SPEC / "treat-low-traffic-as-equally-important__timeslices-slo.yaml",
            SDK / "v1__slos.yaml",
            SPEC / "budgeting-method__ratio-timeslices.yaml",
        )
    },
    SPEC / "budgeting-method__occurences-slo.yaml": "spec.indicator.spec.thresholdMetric is not "
    "supported",
    SPEC / "budgeting-method__timeslices-slo.yaml": "spec.timeWindow[0].duration='1m' is not "
    "supported for a calendar",
    SDK / "v1alpha__slos.yaml": "spec.indicator (thresholdMetric) is not supported",
    # Sloth's output: Prometheus rules, named as such (not "apiVersion=None is not supported")
    **{
        SLOTH / f"_gen__{k}.yml": "document 1: a Prometheus rule file (groups: of rules, as "
        "Sloth or 'budgetlab export prometheus' write them), not an SLO spec; give the spec the "
        "rules were made from (OpenSLO, Sloth 'version: prometheus/v1', Pyrra "
        "ServiceLevelObjective)."
        for k in ("openslo-getting-started", "getting-started", "kubernetes-apiserver")
    },
    SLOTH / "raw-home-wifi.yml": "slos[0].sli.raw is not supported",
    **{
        SDK / f"v1__{k}.yaml": "holds no kind: SLO object"
        for k in (
            "alert_conditions",
            "alert_notification_targets",
            "alert_policies",
            "data_sources",
            "slis",
        )
    },
    SDK / "v1__services.yaml": "holds no kind: SLO object",
    SDK / "v1alpha__services.yaml": "holds no kind: SLO object",
    OSLO / "inputs__validate__invalid-apiversion.yaml": "apiVersion='foo' is not supported",
    OSLO / "inputs__validate__unknown-field.yaml": "metadata.name='my-rad service' is not an RFC "
    "1123 label",
    OSLO / "inputs__validate__v1.yaml": "metadata.name='example service' is not an RFC 1123 label",
    OSLO / "inputs__validate__v1alpha.yaml": "metadata.name='my-rad service' is not an RFC 1123 "
    "label",
    OSLO / "inputs__validate__v2alpha.yaml": "apiVersion='openslo.com/v2alpha' is not supported",
    **{
        OSLO / f: "metadata.name='example service' is not an RFC 1123 label"
        for f in (
            "inputs__validate__mix__1.yaml",
            "inputs__validate__mix__2.yaml",
            "inputs__validate__recursive__1.yaml",
        )
    },
    **{
        OSLO / f: "apiVersion='openslo.com/v2alpha' is not supported"
        for f in (
            "inputs__validate__mix__3.yaml",
            "inputs__validate__recursive__nested__2.yaml",
            "inputs__validate__recursive__nested__nested2__nested3__3.yaml",
        )
    },
}


def test_every_vendored_fixture_is_in_one_table():
    vendored = {p for d in (SPEC, SDK, OSLO, SLOTH) for p in d.glob("*.y*ml")}
    assert vendored == set(ACCEPTED) | set(REFUSED)
    for d in (SPEC, SDK, OSLO, SLOTH):
        assert (d / "LICENSE").read_text().lstrip().startswith("Apache License")
        prov = (d / "PROVENANCE").read_text()
        assert re.search(r"^commit: [0-9a-f]{40}$", prov,
                         re.M) and "repository: https://github.com/" in prov
        listed = set(re.findall(r"^  (\S+): \S+$", prov, re.M))
        assert listed == {p.name for p in d.iterdir() if p.name not in ("LICENSE", "PROVENANCE")}


@pytest.mark.parametrize("path", sorted(ACCEPTED), ids=lambda p: p.name)
def test_peer_fixture_accepted_with_hand_read_values(path):
    docs = read_openslo(path)
    assert [_summary(d) for d in docs] == ACCEPTED[path]


@pytest.mark.parametrize("path", sorted(REFUSED), ids=lambda p: p.name)
def test_peer_fixture_refused_for_the_documented_reason(path):
    with pytest.raises(ConfigError) as info:
        read_openslo(path)
    assert REFUSED[path] in str(info.value)
    assert path.name in str(info.value)


def test_the_sdk_examples_read_together_resolve_and_note_the_unused_objects(tmp_path):
    files = []
    for f in sorted(SDK.glob("v1__*.yaml")):  # the SLO's op: gt (forbidden, see REFUSED) taken out
        files.append(tmp_path / f.name)
        text = f.read_text()
        files[-1].write_text(text.replace("        op: gt\n",
                                          "") if f.name == "v1__slos.yaml" else text)
    (doc,) = read_openslo(files)
    assert (doc.calendar, doc.calendar_start, doc.time_zone) == ("week", "2022-01-01 12:00:00",
                                                                 "America/New_York")
    assert (doc.time_slice_target, doc.time_slice_window) == (0.95, D("1min"))
    assert doc.indicator["spec"]["ratioMetric"]["total"]["metricSource"]["spec"]["query"] == (
        'sum(http_requests{k8s_cluster="prod",component="web"})')
    unused = [n for n in doc.notes if n.startswith("not used by any SLO")]
    assert len(unused) == 1 and "AlertPolicy 'medium-priority'" in unused[0]


def test_sloth_v1alpha_queries_are_readable_from_the_indicator():
    (doc,) = read_openslo(SLOTH / "openslo-getting-started.yml")
    good = doc.indicator["spec"]["ratioMetric"]["good"]["metricSource"]
    # the file's good query, verbatim (Sloth's {{.window}} template included)
    assert good == {
        "type": "prometheus",
        "spec": {
            "queryType": "promql",
            "query": (
                'sum(rate(http_request_duration_seconds_count{job="myservice",code!~"(5..|429)"}[{{.window}}]))'
            ),
        },
    }
    assert doc.service == "my-service" and doc.display_name == "Requests Availability"


SLI_AND_SLO = """\
apiVersion: openslo/v1
kind: SLO
metadata: {name: checkout}
spec:
  service: shop
  indicatorRef: checkout-errors
  timeWindow: [{duration: 28d, isRolling: true}]
  budgetingMethod: Occurrences
  objectives: [{targetPercent: 99.9}]
  alertPolicies: [{alertPolicyRef: fast-burn}]
---
apiVersion: openslo/v1
kind: SLI
metadata: {name: checkout-errors, displayName: Checkout errors}
spec:
  ratioMetric:
    counter: true
    bad: {metricSource: {metricSourceRef: prom, type: Prometheus, spec: {query: errors_total}}}
    total: {metricSource: {metricSourceRef: prom, type: Prometheus, spec: {query: requests_total}}}
---
apiVersion: openslo/v1
kind: Service
metadata: {name: shop}
spec: {description: The shop}
---
apiVersion: openslo/v1
kind: DataSource
metadata: {name: prom}
spec: {type: Prometheus, connectionDetails: [{url: 'http://prometheus:9090'}]}
---
apiVersion: openslo/v1
kind: AlertPolicy
metadata: {name: fast-burn, displayName: Fast burn}
spec:
  description: pages the on-call
  alertWhenBreaching: true
  conditions: [{conditionRef: burn-14}]
  notificationTargets: [{targetRef: oncall}]
---
apiVersion: openslo/v1
kind: AlertCondition
metadata: {name: burn-14, displayName: Burn 14.4}
spec:
  description: 2 % of the budget in an hour
  severity: page
  condition: {kind: burnrate, op: gt, threshold: 14.4, lookbackWindow: 1h, alertAfter: 2m}
---
apiVersion: openslo/v1
kind: AlertNotificationTarget
metadata: {name: oncall}
spec: {target: pagerduty}
"""


def test_companion_kinds_are_resolved_and_survive_a_round_trip():
    assert _violations(SLI_AND_SLO) == []
    (doc,) = read_openslo(SLI_AND_SLO)
    assert doc.slo == SLO(0.999, "28D", period="28D")
    assert doc.indicator_ref == "checkout-errors"
    assert doc.indicator["spec"]["ratioMetric"]["bad"]["metricSource"]["spec"] == {
        "query": "errors_total"
    }
    assert doc.policy.tiers == (AlertTier("burn-14", "page", "1h", None, 14.4, for_="2min"),)
    info = doc.policy_info["burn-14"]
    assert (info.display_name, info.description, info.notification_targets) == (
        "Fast burn", "pages the on-call", ({"targetRef": "oncall"},))
    assert (info.condition_display_name, info.condition_description) == (
        "Burn 14.4",
        "2 % of the budget in an hour",
    )
    assert sorted(c["kind"] for c in doc.companions) == ["AlertNotificationTarget", "DataSource",
                                                         "Service"]
    text = to_openslo_yaml([doc])
    assert _violations(text) == []
    assert read_openslo(text) == [doc] and to_openslo_yaml(read_openslo(text)) == text


def test_an_ambiguous_companion_is_refused_only_when_referenced():
    other_service = ("---\napiVersion: openslo/v1\nkind: Service\nmetadata: {name: shop}\nspec: "
                     "{description: other}\n")
    with pytest.raises(ConfigError, match="several Service objects named 'shop'"):
        read_openslo(SLI_AND_SLO + other_service)
    # unreferenced: fine
    read_openslo(SLI_AND_SLO + other_service.replace("name: shop", "name: shop2") * 2)


# ---------------------------------------------------------------------------------------------
# 3. what the reference rejects is refused, naming the field and the rule

GOOD = _objects(SLI_AND_SLO)


def _edit(path, value, *, index=0, drop=False):
    objs = yaml.safe_load(yaml.safe_dump(GOOD))
    node = objs[index]
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    if drop:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return yaml.safe_dump_all(objs)


CONDITION_2 = {"kind": "AlertCondition", "metadata": {"name": "c2"},
               "spec": {"severity": "page", "condition": {"kind": "burnrate", "op": "gt",
                                                          "threshold": 6,
                                                          "lookbackWindow": "6h"}}}
INVALID = [  # (text, needle); each one field away from GOOD
    (_edit("spec.conditions", [{"conditionRef": "burn-14"}, CONDITION_2], index=4),
     "exactly one condition"),
    (_edit("spec.condition.op", None, index=5, drop=True), "spec.condition.op is required"),
    (_edit("metadata.name", "checkout_slo"),
     "metadata.name='checkout_slo' is not an RFC 1123 label"),
    (_edit("metadata.name", "a" * 64, index=6), "is not an RFC 1123 label"),
    (_edit("metadata.displayName", "x" * 64, index=1), "metadata.displayName has 64 characters"),
    (_edit("spec.description", "x" * 1051, index=4), "spec.description has 1051 characters"),
    (_edit("metadata.labels", {"-team": "a"}), "key '-team' is not a label key"),
    (_edit("metadata.annotations", {"Bad_Prefix/key": "v"}, index=4),
     "key 'Bad_Prefix/key' is not an annotation key"),
    (_edit("spec.ratioMetric.good", {"metricSource": {"type": "Prometheus",
                                                      "spec": {"query": "ok_total"}}},
           index=1), "good and bad are mutually exclusive"),
    (_edit("spec.ratioMetric.bad.metricSource.spce", {"query": "x"}, index=1),
     "spec.ratioMetric.bad.metricSource.spce is not a field of OpenSLO v1"),
    (_edit("spec.notificationTargets", [], index=4),
     "notificationTargets must list at least one target"),
    (_edit("spec.indicatorRef", "Checkout"),
     "spec.indicatorRef='Checkout' is not an RFC 1123 label"),
    (_edit("spec.objectives.0.targetPercent", 100), "targetPercent=100 must lie in [0, 100)"),
    (_edit("spec.timeWindow.0.calendar", {"startTime": "2026-01-01", "timeZone": "UTC"}),
     "'calendar' cannot be set when 'isRolling' is true"),
]


@pytest.mark.parametrize("text, needle", INVALID, ids=[n[:40] for _, n in INVALID])
def test_what_the_reference_rejects_is_refused_naming_field_and_rule(text, needle):
    assert _violations(text), "the ported SDK rules must reject this case too"
    with pytest.raises(ConfigError) as info:
        read_openslo(text)
    assert needle in str(info.value)
    assert "(OpenSLO v1)" in str(info.value) or "OpenSLO v1 allows" in str(info.value)


# ---------------------------------------------------------------------------------------------
# 4. every document budgetlab writes passes the ported v1 rules


def _rich_docs():
    tiers = (AlertTier("Page Fast!", "page", "1h", "5min", 14.4, for_="2min", cooldown="10min"),
             AlertTier("ticket_slow", "ticket", "3D", "6h", 1.0))
    return [
        SLODocument("monthly_sla", SLO(0.995, "1D", warning=0.6, critical=0.2, min_events=25,
                                       period="30D"),
                    display_name="Monthly SLA", description="contract",
                    budgeting_method="Timeslices",
                    time_slice_target=0.99, time_slice_window="5min", calendar="month",
                    calendar_start="2026-01-01 00:00:00", time_zone="Europe/Berlin",
                    labels={"tier": "1"}),
        SLODocument("checkout", SLO(0.999, "28D"), indicator=ratio_indicator("req_total",
                                                                             "err_total"),
                    alert_policies=(AlertPolicy(tiers, period="30D", name="custom policy"),
                                    AlertPolicy.pyrra("28D")),
                    policy_info={"ticket_slow": AlertPolicyInfo(display_name="Slow",
                                                                notification_targets=(
                        {"kind": "AlertNotificationTarget", "metadata": {"name": "mail"},
                         "spec": {"target": "email"}},))}),
        SLODocument("ratio-slices", SLO(0.99, "2h", period="14D"),
                    budgeting_method="RatioTimeslices",
                    time_slice_window="1min"),
        SLODocument("ref-only", SLO(0.9, "1D"), indicator_ref="my-sli", objective_op="gte"),
    ]


def test_written_documents_validate_and_round_trip():
    docs = _rich_docs()
    text = to_openslo_yaml(docs)
    assert _violations(text) == []
    assert read_openslo(text) == docs
    assert openslo_names(docs) == {"monthly_sla": "monthly-sla"}


@pytest.mark.parametrize("fixture", ["spec_alert_policies.yaml", "captcha_workbook.yaml"])
def test_read_then_written_fixtures_validate(fixture):
    text = to_openslo_yaml(read_openslo(OWN / fixture))
    assert _violations(text) == []


@pytest.mark.parametrize("path", sorted(ACCEPTED), ids=lambda p: p.name)
def test_read_then_written_peer_fixtures_validate(path):
    assert _violations(to_openslo_yaml(read_openslo(path))) == []


@settings(max_examples=60, deadline=None)
@given(
    name=st.text(st.sampled_from("abcXYZ_-. 09"), min_size=1, max_size=20).filter(
        lambda s: any(c.isalnum() for c in s)
    ),
    target=st.floats(0.5, 0.99999),
    window_min=st.integers(1, 60 * 24 * 30),
    burn=st.floats(0.01, 1000),
    long_min=st.integers(2, 60 * 24 * 7),
    severity=st.sampled_from(["page", "ticket", "Critical Page"]),
)
def test_random_documents_are_written_valid(name, target, window_min, burn, long_min, severity):
    tier = AlertTier(name, severity, pd.Timedelta(minutes=long_min), None, burn)
    doc = SLODocument(name, SLO(target, pd.Timedelta(minutes=window_min)),
                      alert_policies=(AlertPolicy((tier,), period="30D", name=name),))
    text = to_openslo_yaml(doc)
    assert _violations(text) == []
    assert read_openslo(text) == [doc]


def _recalibration_csv(tmp_path):
    path = tmp_path / "rec.csv"
    pd.DataFrame(
        {"captcha_type": ["recaptcha_v2", "turnstile"], "recommended_target": [0.93, 0.97]}
    ).to_csv(path)
    return path


@pytest.mark.parametrize("argv", [
    ["--target", "0.95", "--window", "24h", "--name", "solve_rate"],
    ["--target", "0.95", "--policy", "workbook", "--total-metric", "req_total", "--errors-metric",
     "err_total"],
    ["--from-recalibration", "{rec}", "--by", "captcha_type", "--policy", "sloth"],
    ["--from", str(OWN / "captcha_workbook.yaml"), "--window", "2h"],
], ids=["flags", "policy_and_metrics", "recalibration", "from_spec"])
def test_every_cli_output_validates(argv, tmp_path, capsys):
    out = tmp_path / "o.yaml"
    argv = [a.format(rec=_recalibration_csv(tmp_path)) for a in argv]
    assert main(["export", "openslo", *argv, str(out)]) == 0
    assert _violations(out) == []
    said = capsys.readouterr().out
    if "solve_rate" in argv:
        assert "name 'solve_rate' written as 'solve-rate'" in said
        assert "no --service: wrote spec.service 'budgetlab'" in said
        assert "wrote budgetlab's events SLI" in said
        (doc,) = read_openslo(out)
        assert doc.name == "solve_rate" and doc.slo == SLO(0.95, "24h") and doc.indicator is None


def test_timewindow_is_the_period_and_the_window_an_annotation():
    text = to_openslo_yaml(SLODocument("s", SLO(0.95, "24h")))
    obj = yaml.safe_load(text)
    assert obj["spec"]["timeWindow"] == [{"duration": "30d", "isRolling": True}]
    assert obj["metadata"]["annotations"] == {"budgetlab/window": "1d"}


def test_policy_info_must_name_a_tier():
    with pytest.raises(ConfigError, match="policy_info names 'nope'"):
        SLODocument("x", SLO(0.9), policy_info={"nope": AlertPolicyInfo()})
    with pytest.raises(ConfigError, match="objective_op is forbidden on a ratio SLI"):
        SLODocument("x", SLO(0.9), objective_op="gt", indicator=ratio_indicator("a_total",
                                                                                "b_total"))


def test_slos_from_recalibration_take_the_period():
    (doc,) = slos_from_recalibration({"a": 0.9}, by="k", window="1D", period="28D")
    assert (doc.slo.window, doc.slo.period) == (D("1D"), D("28D"))


# ---------------------------------------------------------------------------------------------
# 5. decimal-exact percentages


def _all_percentages():
    for decimals in (1, 2, 3):
        for k in range(1, 100 * 10**decimals):
            yield format(Decimal(k) / Decimal(10**decimals), "f")


def test_target_percent_is_decimal_exact_for_every_1_to_3_decimal_percentage():
    from budgetlab._util.percent import fraction_to_percent
    from budgetlab._util.validation import percent_to_fraction

    wrong_before = 0
    for text in _all_percentages():
        exact = float(Decimal(text) / 100)  # the double nearest the decimal fraction: the oracle
        assert percent_to_fraction("p", float(text)) == exact, text
        assert Decimal(fraction_to_percent(exact)) == Decimal(text), text
        wrong_before += float(text) / 100 != exact
    assert wrong_before > 20_000  # binary division was wrong for about a quarter of them


@pytest.mark.parametrize("pct, fraction", [("99.9", 0.999), ("99.95", 0.9995), ("97.1", 0.971),
                                           ("0.3", 0.003)])
def test_target_percent_reads_and_writes_exactly(pct, fraction):
    text = SLI_AND_SLO.replace("targetPercent: 99.9", f"targetPercent: {pct}")
    (doc,) = read_openslo(text)
    assert doc.slo.target == fraction
    assert yaml.safe_load(to_openslo_yaml(doc).split("---")[0])["spec"]["objectives"] == [
        {"target": fraction}
    ]


def test_target_percent_99_9_and_target_0_999_give_the_same_verdict():
    # the case: 1,000 events with one failure; window budget = 1000 * (1 - target)
    from budgetlab import replay
    from budgetlab.events.schema import as_events

    ts = pd.date_range("2026-01-01", periods=1000, freq="1s", tz="UTC")
    ev = as_events(ts, [i != 500 for i in range(1000)])
    (pct_doc,) = read_openslo(SLI_AND_SLO)
    a = replay(ev, pct_doc.slo.with_(window="1h"))
    b = replay(ev, SLO(0.999, "1h"))
    assert a["status"].astype(str).tolist() == b["status"].astype(str).tolist()
