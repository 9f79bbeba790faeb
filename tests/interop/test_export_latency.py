"""Issue 32, point 7: a latency SLO (``--histogram NAME --slow-above T``) exported as OpenSLO (a
ratio of good, the bucket at the threshold, to total, the histogram's ``_count``) and as Prometheus
rules checked by promtool and evaluated by a real Prometheus holding a histogram with known counts
(``tests/interop/prometheus_server.histogram_counts``).

Hand-computed error ratios of the rules' 5-minute SLI (both regions summed, 40 events a minute):
fra's minutes [60, 80) have 20 of 30 events in (0.5, 1] s, ams's minutes [100, 110) 4 of 10 in
(0.1, 0.5] s. With the bound 0.5 s: 100 bad of 200 over minutes 70..74, none over 25..29 or
100..104. With 0.1 s: 20 bad of 200 over 100..104. With 1 s (a whole number, written ``1.0`` by
the histogram): none, and the rule reads the bucket at all."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request

import pytest
import yaml

from budgetlab.cli import main
from budgetlab.interop.openslo import read_openslo
from budgetlab.interop.sli_queries import sli_queries
from tests.interop.openslo_rules import validate
from tests.interop.prometheus_server import HISTOGRAM, START

HIST = f'{HISTOGRAM}{{region=~"fra|ams"}}'


def test_openslo_latency_sli(tmp_path, capsys):
    out = tmp_path / "slo.yaml"
    assert main(["export", "openslo", str(out), "--target", "0.99", "--service", "app", "--name",
                 "latency",
                 "--histogram", HIST, "--slow-above", "500ms", "--policy", "workbook"]) == 0
    capsys.readouterr()
    indicator = next(yaml.safe_load_all(out.read_text()))["spec"]["indicator"]
    # the threshold, in words
    assert indicator["metadata"]["displayName"] == "share of events within 500 ms"
    ratio = indicator["spec"]["ratioMetric"]
    assert ratio["counter"] is True and "bad" not in ratio
    assert (
        ratio["good"]["metricSource"]["spec"]["query"]
        == f'{HISTOGRAM}_bucket{{region=~"fra|ams", le="0.5"}}'
    )
    assert (
        ratio["total"]["metricSource"]["spec"]["query"] == f'{HISTOGRAM}_count{{region=~"fra|ams"}}'
    )
    objects = [
        o
        for d in yaml.safe_load_all(out.read_text())
        if d
        for o in (d if isinstance(d, list) else [d])
    ]
    assert list(validate(objects)) == []  # the OpenSLO v1 rules ported from the Go SDK
    doc = read_openslo(out)[0]  # read back by budgetlab's own OpenSLO reader: the same SLI
    assert doc.slo.target == 0.99
    q = sli_queries(doc)
    assert "le=\"0.5\"" in q["good"] and q["total"].startswith(f"{HISTOGRAM}_count")


def _ratio(url: str, expr: str, minute: int) -> float:
    t = START.value / 1e9 + 60 * minute
    query = urllib.parse.urlencode({"query": expr, "time": f"{t:.3f}"})
    with urllib.request.urlopen(f"{url}/api/v1/query?{query}", timeout=30) as resp:
        result = json.load(resp)["data"]["result"]
    assert len(result) == 1, result
    return float(result[0]["value"][1])


def _rules(tmp_path, capsys, threshold: str) -> dict[str, str]:
    out = tmp_path / f"rules-{threshold}.yaml"
    assert main(["export", "prometheus", str(out), "--target", "0.99", "--service", "app",
                 "--policy", "workbook",
                 "--histogram", HIST, "--slow-above", threshold, "--check"]) == 0
    assert "promtool check rules: ok" in capsys.readouterr().out
    rules = yaml.safe_load(out.read_text())["groups"][0]["rules"]
    return {r["record"]: r["expr"] for r in rules if "record" in r}


@pytest.mark.parametrize("threshold, expected", [
    ("500ms", {75: 0.5, 30: 0.0, 105: 0.0}),
    ("100ms", {75: 0.5, 30: 0.0, 105: 0.1}),
    ("1s", {75: 0.0, 30: 0.0, 105: 0.0}),
])
def test_prometheus_rules_read_the_bucket(hist_prom, promtool, tmp_path, capsys, threshold,
                                          expected):
    expr = _rules(tmp_path, capsys, threshold)["slo:sli_error:ratio_rate5m"]
    for minute, ratio in expected.items():
        assert _ratio(hist_prom, expr, minute) == pytest.approx(ratio, abs=1e-12), (minute, expr)
    # the good part alone: 40 events a minute within 1 s, so a bucket that matched no series would
    # show here
    good = re.search(r"sum\(increase\([^\[]*_bucket[^\[]*\[5m\]\)\)", expr)
    assert good is not None and _ratio(hist_prom, good.group(0), 30) == pytest.approx(200.0)


@pytest.mark.parametrize("fmt", ["openslo", "prometheus"])
@pytest.mark.parametrize("extra, needle", [
    (["--histogram", HISTOGRAM], "--slow-above"),
    (["--slow-above", "1s"], "--histogram"),
    (["--histogram", HISTOGRAM + "_count", "--slow-above", "1s"], "without the suffix _count"),
    (["--histogram", HISTOGRAM, "--slow-above", "1s", "--total-metric", "a_total",
      "--errors-metric", "b_total"],
     "not both"),
])
def test_half_given_latency_sli_is_refused(tmp_path, capsys, fmt, extra, needle):
    rc = main(["export", fmt, str(tmp_path / "x.yaml"), "--target", "0.99", "--policy", "workbook",
               *extra])
    err = capsys.readouterr().err
    assert rc == 2 and needle in err and err.count("\n") == 1
    assert not (tmp_path / "x.yaml").exists()


def test_prometheus_rules_from_flags_say_the_sli_came_from_the_flags(tmp_path, capsys):
    # no file was read: the SLI is the histogram's bucket at 0.5 s over its _count, from the flags
    out = tmp_path / "rules.yaml"
    assert main(["export", "prometheus", str(out), "--target", "0.99", "--histogram", HIST,
                 "--slow-above", "500ms", "--policy", "workbook"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("SLO 'slo': SLI from --histogram and --slow-above, good over total, ")
    # each query whole on a line of its own
    assert f'  good = {HISTOGRAM}_bucket{{region=~"fra|ams", le="0.5"}}' in said.splitlines()
    assert "file" not in said
