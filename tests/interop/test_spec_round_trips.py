"""Round trips (issue 33, point 5) and Sloth's own generated rules (point 2), on a real Prometheus.

For each input style, a peer's file (OpenSLO v1: budgetlab's captcha workbook, the only v1 file
with evaluable Prometheus queries at hand; OpenSLO v1alpha: Sloth's ``openslo-getting-started``;
Sloth ``prometheus/v1``: Sloth's ``getting-started``; Pyrra: ``prometheus-http``, grouped by
handler) is exported with ``budgetlab export prometheus --slo FILE`` and backtested with
``budgetlab backtest --slo FILE`` over the same generated counters (``tests/interop/rule_eval.py``:
1 day at 1 minute). The exported recording rules are backfilled by promtool, the alerting
expressions read with ``query_range`` and ``for:`` applied in the test; the minutes at which each
tier fires must equal the backtest's episodes, minute by minute. Sloth's own generated rule files
for its examples are evaluated the same way against budgetlab's ``--style sloth`` output.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pandas as pd
import pytest
import yaml

from budgetlab.cli import main
from tests.interop import rule_eval as ev
from tests.interop.prometheus_server import PrometheusServer, missing_binary, prometheus_binaries

FIX = Path(__file__).parents[1] / "fixtures"
END = ev.START + pd.Timedelta(minutes=ev.MINUTES)
SPAN = ["--start", ev.START.isoformat(), "--end", END.isoformat()]
# (file, export/backtest options, the alert labels that tell groups apart)
STYLES = {
    "openslo-v1": (FIX / "openslo" / "captcha_workbook.yaml", [], []),
    "openslo-v1alpha": (FIX / "sloth" / "openslo-getting-started.yml", ["--policy", "sloth"], []),
    "sloth": (FIX / "sloth" / "getting-started.yml", [], []),
    "pyrra": (FIX / "pyrra" / "prometheus-http.yaml", [], ["handler"]),
}
SLOTH_GEN = {"getting-started.yml": "_gen__getting-started.yml",
             "kubernetes-apiserver.yml": "_gen__kubernetes-apiserver.yml"}

# xdist_group: with -n, one worker runs the module (its Prometheus evaluation is set up once)
pytestmark = [pytest.mark.promtool, pytest.mark.xdist_group("prometheus")]


def _episode_minutes(path: Path, by: list[str]) -> dict[tuple[str, ...], set[int]]:
    """Per (tier, group keys): the evaluations (bin ends, ns) inside backtest's episodes."""
    out: dict[tuple[str, ...], set[int]] = {}
    ep = pd.read_csv(path, dtype={k: str for k in by})
    for row in ep.itertuples(index=False):
        times = pd.date_range(pd.Timestamp(row.start), pd.Timestamp(row.end), freq="1min",
                              inclusive="left")
        key = (row.tier, *(getattr(row, k) for k in by))
        # pandas 3 infers s from text
        out.setdefault(key, set()).update(times.as_unit("ns").asi8.tolist())
    return out


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    """Everything the tests compare: per style the backtest's episode minutes and the exported
    rules' alert minutes; per Sloth example Sloth's and budgetlab's (``--style sloth``)."""
    if prometheus_binaries() is None:
        missing_binary("prometheus or promtool",
                       "needs the prometheus and promtool binaries on PATH "
                       "(Debian package 'prometheus')")
    tmp = tmp_path_factory.mktemp("roundtrip")
    offset = ev.eval_offset_ns(tmp / "backfill")
    text = ev.openmetrics_text(ev.history(), offset_ns=offset)
    exported, backtests = {}, {}
    for style, (spec, opts, _by) in STYLES.items():
        out = tmp / f"{style}.rules.yaml"
        assert main(["export", "prometheus", "--slo", str(spec), *opts, str(out)]) == 0
        exported[style] = yaml.safe_load(out.read_text())
    sloth_ours = {}
    for spec in SLOTH_GEN:
        out = tmp / f"sloth-style-{spec}"
        assert main(["export", "prometheus", "--slo", str(FIX / "sloth" / spec), "--style", "sloth",
                     str(out)]) == 0
        sloth_ours[spec] = yaml.safe_load(out.read_text())
    merged = {"groups": [g for r in [*exported.values(),
                                     *sloth_ours.values()] for g in r["groups"]]}
    with PrometheusServer(text) as url:
        for style, (spec, opts, by) in STYLES.items():
            target = tmp / f"{style}.episodes.csv"
            shown = io.StringIO()
            with contextlib.redirect_stdout(shown):
                assert main(["backtest", "--prometheus", url, "--slo", str(spec), *opts, *SPAN,
                             "--out", str(target)]) == 0
            # no --by: Pyrra's grouping is the default
            assert ("grouped by handler: the spec's grouping" in shown.getvalue()) == bool(by)
            backtests[style] = _episode_minutes(target, by)
        # promtool's --end is exclusive: one minute more, so that END has its recordings too
        blocks = ev.backfill(url, merged, ev.START, END + pd.Timedelta("1min"), tmp / "backfill")
    first = ev.START + pd.Timedelta("1min")  # the first bin end, backtest's first evaluation
    with PrometheusServer(text, blocks=blocks) as url:
        rules = {style: ev.alert_minutes(url, r, first, END, offset) for style,
                 r in exported.items()}
        sloth = {spec: (ev.alert_minutes(url, yaml.safe_load((FIX / "sloth" / gen).read_text()),
                                         first, END, offset),
                        ev.alert_minutes(url, sloth_ours[spec], first, END, offset)) for spec,
                 gen in SLOTH_GEN.items()}
    return {"backtests": backtests, "rules": rules, "exported": exported, "sloth": sloth,
            "sloth_ours": sloth_ours}


@pytest.mark.parametrize("style", list(STYLES))
def test_exported_alerts_fire_at_the_backtests_minutes(evaluated, style):
    by = STYLES[style][2]
    fired: dict[tuple[str, ...], set[int]] = {}
    for (_, labels), times in evaluated["rules"][style].items():
        lab = dict(labels)
        fired.setdefault((lab["tier"], *(lab[k] for k in by)), set()).update(times)
    fired = {k: v for k, v in fired.items() if v}
    expected = evaluated["backtests"][style]
    assert fired.keys() == expected.keys()
    for key in expected:
        assert fired[key] == expected[key], (key, len(fired[key] ^ expected[key]))
    # the history makes every style page and ticket (a comparison of empty sets proves nothing)
    severities = {dict(labels)["severity"] for (_, labels),
                  t in evaluated["rules"][style].items() if t}
    assert len(severities) == 2, severities
    assert sum(len(v) for v in expected.values()) < 0.8 * ev.MINUTES * len(expected)


def test_pyrra_alerts_carry_the_grouping_and_pyrras_for(evaluated):
    rules = [r for g in evaluated["exported"]["pyrra"]["groups"] for r in g["rules"]]
    # Pyrra's Windows(7d) (slo/rules.go, pyrra 1ba95afb): For = 7d/(28*24*30), /(28*24*4), /(28*24),
    # /(28*8),
    # each rounded to the minute: 30s -> 1m, 3m45s -> 4m, 15m, 45m
    assert {r["for"] for r in rules if "alert" in r} == {"1m", "4m", "15m", "45m"}
    handlers = {dict(labels)["handler"] for (_, labels),
                t in evaluated["rules"]["pyrra"].items() if t}
    assert handlers == {"/api/v1/query", "/api/v1/query_range"}
    record = next(r for r in rules if r.get("record") == "slo:sli_error:ratio_rate15m")
    assert record["expr"].startswith("(sum by (handler) "
                                     "(increase(prometheus_http_requests_total{handler=~")


@pytest.mark.parametrize("spec", list(SLOTH_GEN))
def test_sloth_style_alerts_fire_with_sloths_own_rules(evaluated, spec):
    # Sloth's generated alerting rules (tests/fixtures/sloth/_gen__*.yml) and budgetlab's, read on
    # the same backfilled recordings: same alert names and labels, same minutes. Sloth's
    # thresholds are burn x 0.0009999999999999432 (100 - 99.9 in floating point, / 100), budgetlab's
    # burn x (1 - 0.999): a ratio between the two would tell them apart; the history has none.
    theirs, ours = evaluated["sloth"][spec]
    theirs = {k: v for k, v in theirs.items() if v}
    ours = {k: v for k, v in ours.items() if v}
    assert len(theirs) >= 2
    assert ours == theirs
