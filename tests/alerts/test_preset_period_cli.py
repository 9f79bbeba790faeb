"""``budgetlab alerts`` / ``incident --policy``: what their help says is what they build. Presets
are built for the SLO's SRE budget period (the --slo file's, else 30 d), never for --window (the
tracker window). Burns by hand: Sloth's 2 % of the budget in 1 h is 0.02 x 30 x 24 = 14.4 at
30 d and 0.02 x 28 x 24 = 13.44 at 28 d; the Workbook keeps 14.4 at any period and scales its
windows (3 d x 7 / 30 = 16.8 h = 1008 min at 7 d)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO
from budgetlab.cli import main
from budgetlab.cli.commands import PRESET_PERIOD
from budgetlab.interop.openslo import SLODocument, write_openslo


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """``budgetlab alerts`` over two days of a 97 % service with SLO files of 7 d and 28 d."""
    d = tmp_path_factory.mktemp("preset_period")
    rng = np.random.default_rng(22)
    t = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta(
        np.sort(rng.uniform(0, 2 * 86400, 3000)), unit="s")
    ok = rng.random(len(t)) < 0.97
    pd.DataFrame({"ts": t.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ok, "success", "timeout")}).to_csv(d / "log.csv",
                                                                         index=False)
    (d / "inc.csv").write_text("incident_id,start,end\n"
                               "i1,2026-11-01T10:00:00Z,2026-11-01T11:00:00Z\n")
    for period in ("7D", "28D"):
        write_openslo([SLODocument("api", SLO(0.95, "24h", period=period))],
                      d / f"slo{period}.yaml")

    def alerts(*args: str) -> list[str]:
        return ["alerts", str(d / "log.csv"), "--incidents", str(d / "inc.csv"),
                *[str(d / a) if a.endswith(".yaml") else a for a in args]]
    return alerts


def _tiers(said: str) -> str:
    return said.split("tiers: ")[1].split(")")[0]


def test_window_does_not_set_the_presets_period(run, capsys):
    assert main(run("--window", "7D", "--policy", "sloth")) == 0
    said = capsys.readouterr().out
    assert "SRE budget period 30 d" in said
    assert _tiers(said) == ("page_quick burn 14.4, page_slow burn 6, ticket_quick burn 3, "
                            "ticket_slow burn 1")


def test_the_slo_files_period_does(run, capsys):
    assert main(run("--slo", "slo28D.yaml", "--window", "7D", "--policy", "sloth")) == 0
    said = capsys.readouterr().out
    assert "SRE budget period 28 d" in said
    # 13.44, 0.05 x 28 x 4 = 5.6, 0.1 x 28 = 2.8, 0.1 x 28 / 3 = 0.9333
    assert _tiers(said) == ("page_quick burn 13.44, page_slow burn 5.6, ticket_quick burn 2.8, "
                            "ticket_slow burn 0.933333")
    assert main(run("--slo", "slo7D.yaml", "--policy", "workbook")) == 0
    said = capsys.readouterr().out
    assert _tiers(said) == "page_1h burn 14.4, page_6h burn 6, ticket_1d burn 3, ticket_3d burn 1"
    assert "ticket after 1008 min" in said
    # Sloth has no 7 d windows
    assert main(run("--slo", "slo7D.yaml", "--policy", "sloth")) == 2
    assert "Sloth ships default windows for" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["alerts", "incident"])
def test_the_help_says_so(command, capsys):
    assert main([command, "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert " ".join(PRESET_PERIOD.split()) in said and "whatever --window says" not in said
