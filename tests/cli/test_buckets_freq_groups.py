"""``buckets --freq`` is checked against the workbook policy built for the periods of the log's
groups (:func:`budgetlab.cli.policy_builds.run_builds`, as ``alerts`` and ``incident`` do), not
against every SLO of the ``--slo`` file: before the fix an SLO bound to a group the log does not
have (``zz`` at 7 d) refused ``--freq 5min`` although no group ran its policy.

The Workbook's windows x period / 30 d, rounded to the minute (worked in
tests/cli/test_alerts_period_tiers_header.py): at 30 d 1h/5m, 6h/30m, 1d/2h, 3d/6h, every one a
multiple of 5 min; at 7 d page_1h is 14m/1m, no multiple of 5 min.

The log: two hours, one event a minute in ams and in fra, every tenth failed (minutes 0, 10, ...,
110): 12 failures of 120 per region, a failure rate of 10.00 %, an SLI of 90.00 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main
from tests.region_slos import region_slos


@pytest.fixture
def run(tmp_path):
    ts = pd.date_range("2026-01-05", periods=120, freq="1min", tz="UTC")
    ok = np.arange(120) % 10 != 0
    log = pd.concat([pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": ok,
                                   "region": r}) for r in ("ams", "fra")], ignore_index=True)
    log.sort_values("ts", kind="stable").to_csv(tmp_path / "log.csv", index=False)

    def args(periods: dict[str, str]) -> list[str]:
        slo = tmp_path / f"slo-{'-'.join(periods.values())}.yaml"
        slo.write_text(region_slos(periods))
        return ["buckets", str(tmp_path / "log.csv"), "--ok", "ok", "--by", "region", "--slo",
                str(slo), "--freq", "5min"]
    return args


def test_an_slo_of_a_group_the_log_lacks_does_not_decide_freq(run, capsys, tmp_path):
    out_csv = tmp_path / "buckets.csv"
    assert main([*run({"ams": "30d", "fra": "30d", "zz": "7d"}), "--out", str(out_csv)]) == 0
    assert "does not divide" not in capsys.readouterr().err
    # 12 failures of 120, all of the group's: 10.00 %, a burn of 0.10 / (1 - 0.99) = 10 (read from
    # --out: the printed table's layout follows the terminal's width)
    table = pd.read_csv(out_csv).set_index("region")
    for region in ("ams", "fra"):
        row = table.loc[region]
        assert (row["bucket"], row["events"], row["failures"]) == ("failure", 120, 12)
        assert row["share_of_failures"] == 1.0 and row["failure_rate"] == pytest.approx(0.1)
        assert row["burn_rate"] == pytest.approx(10) and row["sli"] == pytest.approx(0.9)


def test_a_group_of_the_log_at_that_period_is_refused_after_the_read(run, capsys):
    assert main(run({"ams": "30d", "fra": "7d"})) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.endswith(
        "budgetlab: error: --freq 5min does not divide the 14 min window of the workbook "
        "policy's page_1h tier at the 7 d SLO period (its windows are whole numbers of bins); "
        "give a --freq that divides every window, e.g. 1min.")
