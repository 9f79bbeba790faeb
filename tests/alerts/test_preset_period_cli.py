"""``budgetlab alerts`` / ``incident --policy``: what their help says is what they build. Presets
are built for the SLO's SRE budget period (the --slo file's, else 30 d), never for --window (the
tracker window). Burns by hand: Sloth's 2 % of the budget in 1 h is 0.02 x 30 x 24 = 14.4 at
30 d and 0.02 x 28 x 24 = 13.44 at 28 d; the Workbook keeps 14.4 at any period and scales its
windows (3 d x 7 / 30 = 16.8 h = 16 h 48 min at 7 d, said so, not "1008 min")."""

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
    for period in ("1D", "7D", "28D"):
        write_openslo([SLODocument("api", SLO(0.95, "24h", period=period))],
                      d / f"slo{period}.yaml")

    def alerts(*args: str) -> list[str]:
        return ["alerts", str(d / "log.csv"), "--incidents", str(d / "inc.csv"),
                *[str(d / a) if a.endswith(".yaml") else a for a in args]]
    return alerts


def _tiers(said: str) -> str:
    # the policy line is filled to 100 columns: read it with its line ends as spaces
    return " ".join(said.split()).split("tiers: ")[1].split(")")[0]


def test_window_does_not_set_the_presets_period(run, capsys):
    # --window (the tracker's) would do nothing here: refused, never taken for the period
    assert main(run("--window", "7D", "--policy", "sloth")) == 2
    assert "--window would do nothing" in capsys.readouterr().err
    assert main(run("--policy", "sloth")) == 0
    said = capsys.readouterr().out
    assert "SRE budget period 30 d" in said
    assert _tiers(said) == ("page_quick burn 14.4 over 1h/5m, page_slow burn 6 over 6h/30m, "
                            "ticket_quick burn 3 over 1d/2h, ticket_slow burn 1 over 3d/6h")


def test_the_slo_files_period_does(run, capsys):
    assert main(run("--slo", "slo28D.yaml", "--policy", "sloth")) == 0
    said = capsys.readouterr().out
    assert "SRE budget period 28 d" in said
    # 13.44, 0.05 x 28 x 4 = 5.6, 0.1 x 28 = 2.8, 0.1 x 28 / 3 = 0.9333
    # Sloth's 28 d windows are its 30 d ones (google-28d.yaml)
    assert _tiers(said) == ("page_quick burn 13.4 over 1h/5m, page_slow burn 5.6 over 6h/30m, "
                            "ticket_quick burn 2.8 over 1d/2h, ticket_slow burn 0.933 over "
                            "3d/6h")
    assert main(run("--slo", "slo7D.yaml", "--policy", "workbook")) == 0
    said = capsys.readouterr().out
    # the windows x 7 / 30: 14 min, 70 s -> 1 min; 84 min, 7 min; 336 min, 28 min; 1008 min,
    # 84 min (the names stay the Workbook's roles)
    assert _tiers(said) == ("page_1h burn 14.4 over 14m/1m, page_6h burn 6 over 1h24m/7m, "
                            "ticket_1d burn 3 over 5h36m/28m, ticket_3d burn 1 over 16h48m/1h24m")
    assert "ticket after 16 h 48 min" in said and "1008 min" not in said
    # Sloth has no 7 d windows
    assert main(run("--slo", "slo7D.yaml", "--policy", "sloth")) == 2
    assert "Sloth ships default windows for" in capsys.readouterr().err


@pytest.mark.parametrize(("policy", "slo", "said"), [
    # alerts has no --period: the period is the --slo file's, said in its length, never in the
    # API's period='7d' / period='30D' (issue: the refusal printed "for period='30D' or
    # period='28D' only")
    ("sloth", "slo7D.yaml",
     "the SRE budget period 7 d (the --slo file's) has no Sloth windows: Sloth ships default "
     "windows for a 30 d or 28 d period only; give an --slo file with a period of 30 d or 28 d, "
     "or --policy workbook or --policy pyrra, which keep their burns and scale their windows to "
     "any period."),
    # 1 d: the Workbook's 5 min short window x 1 / 30 = 10 s rounds to 0 min
    ("workbook", "slo1D.yaml",
     "the SRE budget period 24 h (the --slo file's) is too short for the Workbook's tiers: with "
     "their burn factors kept (14.4, 6, 3, 1) and the windows scaled by period / 30 d (Pyrra's "
     "rule) the 5 min window of page_1h rounds to nothing; give an --slo file with a period of "
     "at least 3 days."),
    # Pyrra's 5 min of 28 d at 1 d: 86,400 s / 8,064 = 10.7 s rounds to 0 min
    ("pyrra", "slo1D.yaml",
     "the SRE budget period 24 h (the --slo file's) is too short for Pyrra's windows: scaled by "
     "period / 28 d and rounded to the minute (Pyrra's rule), the 5 min short window of its 28 d "
     "table's 1 h tier rounds to nothing; give an --slo file with a period of at least 3 days."),
])
def test_a_period_refused_is_said_in_the_commands_words(run, capsys, policy, slo, said):
    assert main(run("--slo", slo, "--policy", policy)) == 2
    assert capsys.readouterr().err == f"budgetlab: error: {said}\n"


@pytest.mark.parametrize("command", ["alerts", "incident"])
def test_the_help_says_so(command, capsys):
    assert main([command, "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert " ".join(PRESET_PERIOD.split()) in said and "whatever --window says" not in said
