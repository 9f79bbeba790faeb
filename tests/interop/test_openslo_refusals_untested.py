"""OpenSLO refusals that no test read before (a coverage pass listed them): reading a document
(:func:`budgetlab.interop.openslo.read_openslo`) and building one
(:class:`budgetlab.interop.openslo.SLODocument`), each a ConfigError that names the field or the
keyword argument and what to give.

Oracle: the words are written here by hand from OpenSLO v1 (one of total/raw, good or bad with
total, rawType success or failure, one time window, one condition per AlertPolicy, op one of lt,
lte, gt, gte) and the keyword arguments of SLODocument. Three messages changed with these tests:
a calendar SLO's period was shown as pandas' ``7 days 00:00:00`` (now ``7 d``, and the period
given), the tier named twice across alert_policies was not named, and time_slice_* given to an
Occurrences SLO did not say how to fix it."""

from __future__ import annotations

import pytest

from budgetlab import SLO, AlertPolicy
from budgetlab.errors import ConfigError
from budgetlab.interop.openslo import SLODocument, read_openslo

BASE = """\
apiVersion: openslo/v1
kind: SLO
metadata:
  name: s
spec:
  service: svc
  indicator:
    metadata: {name: i}
    spec:
      ratioMetric:
        counter: true
        good: {metricSource: {type: Prometheus, spec: {query: good}}}
        total: {metricSource: {type: Prometheus, spec: {query: total}}}
  timeWindow:
    - duration: 28d
      isRolling: true
  budgetingMethod: Occurrences
  objectives:
    - target: 0.99
"""
GOOD = "        good: {metricSource: {type: Prometheus, spec: {query: good}}}\n"
TOTAL = "        total: {metricSource: {type: Prometheus, spec: {query: total}}}\n"
BAD = "        bad: {metricSource: {type: Prometheus, spec: {query: bad}}}\n"
RAW = "        raw: {metricSource: {type: Prometheus, spec: {query: raw}}}\n"
PREFIX = "<text>, SLO 's': "
RULE = "(OpenSLO v1)"
CONDITIONS = """\
  alertPolicies:
    - kind: AlertPolicy
      metadata: {name: p}
      spec:
        conditions:
          - kind: AlertCondition
            metadata: {name: c}
            spec:
              severity: page
              condition: {kind: burnrate, op: gt, threshold: 14.4, lookbackWindow: 1h}
"""


def test_the_base_document_reads():
    assert read_openslo(BASE)[0].name == "s"


@pytest.mark.parametrize(("text", "words"), [
    (BASE.replace(GOOD, GOOD + BAD), "spec.indicator.spec.ratioMetric: good and bad are mutually "
     f"exclusive; give one of good, bad (with total) or raw {RULE}."),
    (BASE.replace(TOTAL, ""),
     f"spec.indicator.spec.ratioMetric: give exactly one of total and raw {RULE}."),
    (BASE.replace(GOOD, RAW),
     f"spec.indicator.spec.ratioMetric: give exactly one of total and raw {RULE}."),
    (BASE.replace(GOOD, ""),
     f"spec.indicator.spec.ratioMetric: with total, give good or bad {RULE}."),
    (BASE.replace(GOOD + TOTAL, RAW + "        rawType: other\n"),
     f"spec.indicator.spec.ratioMetric.rawType='other' must be success or failure {RULE}."),
    (BASE.replace("      ratioMetric:", "      thresholdMetric: {metricSource: {type: Prometheus,"
                  " spec: {query: x}}}\n      ratioMetric:"),
     f"spec.indicator.spec: give exactly one of thresholdMetric and ratioMetric {RULE}."),
    (BASE.replace("  indicator:\n", "  indicatorRef: sli\n  indicator:\n"),
     f"spec: indicator and indicatorRef are mutually exclusive {RULE}."),
    (BASE.replace("      isRolling: true\n", "      isRolling: true\n    - duration: 7d\n"
                  "      isRolling: true\n"),
     f"spec.timeWindow must list exactly one time window {RULE}."),
    (BASE.replace("Occurrences", "Timeslices").replace(
        "    - target: 0.99\n",
        "    - target: 0.99\n      timeSliceTarget: 0.9\n      timeSliceWindow: 5\n"),
     "spec.objectives[0].timeSliceWindow=5 needs a unit, e.g. '5m' (a duration shorthand "
     f"[0-9]+[mhdwMQY]) {RULE}."),
    (BASE + "  alertPolicies: p\n", f"spec.alertPolicies must be a list {RULE}."),
    (BASE.replace("  name: s\n", "  name: s\n  annotations: {team: 5}\n"),
     f"metadata.annotations.team must be a string (quote it in YAML) {RULE}."),
    (BASE + CONDITIONS.replace("op: gt", "op: eq"),
     "spec.alertPolicies[0].spec.conditions[0].spec.condition.op='eq' must be one of lt, lte, "
     f"gt, gte {RULE}."),
])
def test_read_openslo_refuses_naming_the_field(text, words):
    with pytest.raises(ConfigError) as info:
        read_openslo(text)
    assert str(info.value) == PREFIX + words


def test_a_document_without_a_name_is_refused_by_its_place():
    with pytest.raises(ConfigError) as info:
        read_openslo(BASE.replace("  name: s\n", "  displayName: s\n"))
    assert str(info.value) == f"<text>, document 1: metadata.name is required {RULE}."


WB = AlertPolicy.workbook()


@pytest.mark.parametrize(("kw", "words"), [
    ({"annotations": {"budgetlab/window": "1h"}}, "annotations: 'budgetlab/window' is reserved; "
     "budgetlab writes the budgetlab/ annotations from the SLO and policy fields."),
    ({"companions": [{"kind": "x"}]}, "companions must be a tuple of OpenSLO objects (mappings "
     "with kind and metadata)."),
    ({"calendar_start": "2026-01-01"}, "calendar_start and time_zone apply to calendar windows "
     "only (give calendar=)."),
    ({"time_zone": "UTC"}, "calendar_start and time_zone apply to calendar windows only (give "
     "calendar=)."),
    ({"calendar": "year"}, "calendar='year' is not supported; use 'day', 'week' or 'month'."),
    ({"calendar": "week"}, "a calendar week SLO has period 7 d (its nominal length), not 30 d; "
     "build the SLO with period='7D'."),
    ({"alert_policies": WB}, "alert_policies must be a tuple of AlertPolicy."),
    ({"alert_policies": (1,)}, "alert_policies must hold budgetlab AlertPolicy objects."),
    ({"alert_policies": (WB, WB)}, "alert_policies: two tiers are named 'page_1h'; tier names "
     "must be unique across the alert policies of one SLO."),
    ({"policy_info": {"x": 1}}, "policy_info must map tier names to AlertPolicyInfo."),
    ({"budgeting_method": "Other"}, "budgeting_method='Other' is not supported; use one of "
     "'Occurrences', 'Timeslices', 'RatioTimeslices'."),
    ({"time_slice_target": 0.9}, "time_slice_target and time_slice_window apply to time-slice "
     "budgeting methods only; give budgeting_method='Timeslices' or 'RatioTimeslices', or leave "
     "them out."),
    ({"budgeting_method": "Timeslices"}, "budgeting_method='Timeslices' needs time_slice_target "
     "and time_slice_window."),
    ({"budgeting_method": "RatioTimeslices"},
     "budgeting_method='RatioTimeslices' needs time_slice_window."),
    ({"budgeting_method": "RatioTimeslices", "time_slice_window": "1m",
      "time_slice_target": 0.9},
     "RatioTimeslices has no time_slice_target (the target applies to the mean per-slice ratio)."),
    ({"indicator": 5}, "indicator must be a mapping (an OpenSLO SLI: metadata and spec) or None."),
    ({"objective_op": "eq"}, "objective_op must be one of 'lt', 'lte', 'gt', 'gte' or None."),
])
def test_slo_document_refuses_naming_the_keyword(kw, words):
    with pytest.raises(ConfigError) as info:
        SLODocument("x", SLO(0.99, "30D"), **kw)
    assert str(info.value) == words
