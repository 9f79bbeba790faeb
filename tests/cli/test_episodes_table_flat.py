"""``backtest``'s episodes table with ``--by`` keys or ``--tz``: flat as the single-group table,
an episode a line, the group keys ordinary columns, however wide the terminal (before, pandas cut
it into blocks keyed by (group, tier, start), a ``\\`` ending each block's header, and printed
every episode once per block). Oracle: the rows written out by hand from the hand-made episodes
(Berlin is UTC+01:00 in March; an end on its start's date printed as its time)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from budgetlab.cli.backtest_report import print_episodes

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def episodes() -> pd.DataFrame:
    start = [T0 + pd.Timedelta("2h"), T0 + pd.Timedelta("5h"), T0 + pd.Timedelta("23h50min")]
    ep = pd.DataFrame({"method": ["GET", "POST", "GET"], "region": ["fra", "ams", "ams"],
                       "tier": ["page_1h", "page_1h", "ticket_6h"],
                       "severity": ["page", "page", "ticket"], "start": start,
                       "end": [s + pd.Timedelta("25min") for s in start], "ongoing": False,
                       "duration": pd.Timedelta("25min"), "budget_spent_pct": [1.0, 2.5, 12.0]})
    # every tier's long window filled before the first episode: no filling column
    ep.attrs.update(grid_start=T0, grid_end=T0 + pd.Timedelta("2D"), by=["method", "region"],
                    tier_windows={"page_1h": 3_600 * 10**9, "ticket_6h": 6 * 3_600 * 10**9})
    return ep


POLICY = SimpleNamespace(tiers=[SimpleNamespace(name="page_1h", long_window=pd.Timedelta("1h")),
                                SimpleNamespace(name="ticket_6h",
                                                long_window=pd.Timedelta("6h"))],
                         period=pd.Timedelta("30D"))

HEADER = ["method", "region", "tier", "severity", "start", "end", "duration", "budget_spent_pct"]
ROWS = {"UTC": [["GET", "fra", "page_1h", "page", "2026-03-02", "02:00", "02:25", "25", "min",
                 "1.0", "%"],
                ["POST", "ams", "page_1h", "page", "2026-03-02", "05:00", "05:25", "25", "min",
                 "2.5", "%"],
                # ends past midnight: its date said
                ["GET", "ams", "ticket_6h", "ticket", "2026-03-02", "23:50", "2026-03-03",
                 "00:15", "25", "min", "12.0", "%"]],
        "Europe/Berlin": [["GET", "fra", "page_1h", "page", "2026-03-02", "03:00", "+01:00",
                           "03:25", "+01:00", "25", "min", "1.0", "%"],
                          ["POST", "ams", "page_1h", "page", "2026-03-02", "06:00", "+01:00",
                           "06:25", "+01:00", "25", "min", "2.5", "%"],
                          ["GET", "ams", "ticket_6h", "ticket", "2026-03-03", "00:50", "+01:00",
                           "01:15", "+01:00", "25", "min", "12.0", "%"]]}


@pytest.mark.parametrize("tz", ["UTC", "Europe/Berlin"])
@pytest.mark.parametrize("columns", [None, "80"])
def test_grouped_episodes_print_flat_one_line_each(monkeypatch, capsys, wide_terminal, tz,
                                                   columns):
    if columns:  # a narrow terminal: still one line an episode
        monkeypatch.setenv("COLUMNS", columns)
    print_episodes("workbook", episodes(), POLICY, pd.Timedelta("2D"), tz)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "Policy workbook: 3 alert episodes"
    assert not any(line.rstrip().endswith("\\") for line in lines)
    assert [ln.split() for ln in lines[2:]] == [HEADER, *ROWS[tz]]
