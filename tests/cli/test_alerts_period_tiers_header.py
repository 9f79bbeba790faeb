"""``budgetlab alerts`` / ``incident``: the header names the tiers the groups ran, and ``--freq``
is checked against them, for the period of the groups' SLOs (the --slo file's), not the 30 d
default's. Before the fix both were built from the default SLO's 30 d: a 7 d file and
``--policy pyrra`` printed "critical_1h4m burn 14, ..." over groups that ran ``critical_15m``;
``--freq 5min`` on a 28 d file was refused naming the 64 min window of a 30 d tier never run
(28 d's windows are whole multiples of 5 min), and on the Workbook's 28 d windows it passed the
check and failed after the read in the API's words (``bin_events(events, '1m')``).

Oracles worked by hand:

* Pyrra (``slo/rules.go`` ``Windows()``, pyrra-dev/pyrra): each duration is ``period / n``
  rounded to the minute, halves away from zero (Go's ``Duration.Round``). At 7 d = 604,800 s:
  long 604,800 / 672 = 900 s = 15m, short / 8,064 = 75 s -> 1m, for / 20,160 = 30 s -> 1m (x14);
  long / 112 = 1h30m, short / 1,344 = 450 s -> 8m, for / 2,688 = 225 s -> 4m (x7); long / 28 =
  6h, short / 336 = 30m, for / 672 = 15m (x2); long / 7 = 1d, short / 112 = 1h30m, for / 224 =
  45m (x1; Pyrra's own ``slo/rules_test.go`` 1-week SLO: ``long 1d, short 1h30m``, ``for 45m``).
  At 28 d its own table: 1h/5m, 6h/30m, 1d/2h, 4d/6h, every one a multiple of 5 min.
* The Workbook's windows x period / 30 d, rounded to the minute: at 7 d 1h -> 14m, 5m -> 70 s
  -> 1m, 6h -> 1h24m, 30m -> 7m, 1d -> 5h36m, 2h -> 28m, 3d -> 16h48m, 6h -> 1h24m; at 28 d
  1h -> 56m (not a multiple of 5 min), 5m -> 280 s -> 5m, 6h -> 5h36m, 30m -> 28m, 1d ->
  22h24m, 2h -> 1h52m, 3d -> 2d19h12m, 6h -> 5h36m.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main
from tests.region_slos import region_slos

PYRRA_7D = ("tiers: critical_15m burn 14 over 15m/1m for 1m, critical_1h30m burn 7 over 1h30m/8m "
            "for 4m, warning_6h burn 2 over 6h/30m for 15m, warning_1d burn 1 over 1d/1h30m for "
            "45m")
WORKBOOK_7D = ("page_1h burn 14.4 over 14m/1m, page_6h burn 6 over 1h24m/7m, ticket_1d burn 3 "
               "over 5h36m/28m, ticket_3d burn 1 over 16h48m/1h24m")
WORKBOOK_28D = ("page_1h burn 14.4 over 56m/5m, page_6h burn 6 over 5h36m/28m, ticket_1d burn 3 "
                "over 22h24m/1h52m, ticket_3d burn 1 over 2d19h12m/5h36m")


@pytest.fixture
def files(tmp_path):
    """Two hours, one event a minute per region, every tenth one failed; SLO files binding
    ams and fra at 7 d, at 28 d, and ams at 28 d with fra at 7 d."""
    ts = pd.date_range("2026-01-05", periods=120, freq="1min", tz="UTC")
    ok = np.arange(120) % 10 != 0
    log = pd.concat([pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": ok,
                                   "region": r}) for r in ("ams", "fra")], ignore_index=True)
    log.sort_values("ts", kind="stable").to_csv(tmp_path / "log.csv", index=False)
    (tmp_path / "inc.csv").write_text("incident_id,start,end\n"
                                      "i1,2026-01-05T00:30:00Z,2026-01-05T01:30:00Z\n")
    for name, (ams, fra) in {"7": ("7d", "7d"), "28": ("28d", "28d"),
                             "mixed": ("28d", "7d")}.items():
        (tmp_path / f"slo{name}.yaml").write_text(region_slos({"ams": ams, "fra": fra}))

    def args(command: str, slo: str, *more: str) -> list[str]:
        out = [command, str(tmp_path / "log.csv"), "--ok", "ok", "--by", "region", "--slo",
               str(tmp_path / f"slo{slo}.yaml"), "--incidents", str(tmp_path / "inc.csv"), *more]
        return [*out, "--id", "i1", "--context", "10min"] if command == "incident" else out
    return args


def _policy_line(out: str, name: str) -> str:
    """The header of policy ``name``, its wrapped lines joined."""
    said = " ".join(out.split())
    return said[said.index(f"policy {name} ("):].split(")", 1)[0] + ")"


def test_the_header_names_the_7d_tiers_the_groups_ran(files, capsys):
    assert main(files("alerts", "7", "--policy", "pyrra,workbook")) == 0
    out = capsys.readouterr().out
    assert _policy_line(out, "pyrra").endswith(f"; {PYRRA_7D})")
    assert "critical_1h4m" not in out  # 30 d's, never run
    assert _policy_line(out, "workbook").endswith(f"; tiers: {WORKBOOK_7D})")


def test_groups_of_two_periods_get_each_periods_tiers(files, capsys):
    assert main(files("alerts", "mixed", "--policy", "workbook")) == 0
    out = capsys.readouterr().out
    assert _policy_line(out, "workbook").endswith(
        f"; tiers at 28 d: {WORKBOOK_28D}; at 7 d: {WORKBOOK_7D})")


@pytest.mark.parametrize("command", ["alerts", "incident"])
def test_freq_fits_the_windows_of_the_groups_period(files, capsys, command):
    # Pyrra's 28 d windows are multiples of 5 min: it runs (the 30 d default's 1h4m was refused)
    assert main(files(command, "28", "--policy", "pyrra", "--freq", "5min")) == 0
    assert "critical_1h4m" not in capsys.readouterr().out
    # the Workbook's 28 d page_1h is 56 min: refused in the command's words, naming the flag
    assert main(files(command, "28", "--policy", "workbook", "--freq", "5min")) == 2
    assert capsys.readouterr().err.endswith(
        "budgetlab: error: --freq 5min does not divide the 56 min window of the workbook "
        "policy's page_1h tier (its windows are whole numbers of bins); give a --freq that "
        "divides every window, e.g. 1min.\n")


@pytest.mark.parametrize("command", ["alerts", "incident"])
def test_freq_with_groups_of_two_periods_names_the_period(files, capsys, command):
    assert main(files(command, "mixed", "--policy", "workbook", "--freq", "5min")) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.endswith(
        "budgetlab: error: --freq 5min does not divide the 56 min window of the workbook "
        "policy's page_1h tier at the 28 d SLO period (its windows are whole numbers of bins); "
        "give a --freq that divides every window, e.g. 1min.")
