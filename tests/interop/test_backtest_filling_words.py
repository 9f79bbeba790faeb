"""``budgetlab backtest`` without ``--incidents`` says which tiers never filled their long window
and which episodes were over while it filled, by the one rule of ``alerts/filling.py`` that the
scores and the plot's shading follow; ``episodes.csv`` marks them in its ``filling`` column.

Before o61intr, on a 1 d span the header named only the tiers whose window was *longer* than the
span ("tiers ticket_3d have windows longer than the span (partial windows)"), so ticket_1d (24 h,
as long as the span: never filled) was said nowhere, and episodes.csv had no filling mark.

Oracle, by hand: span 2026-01-05 12:00 .. 2026-01-06 12:00 (24 h); the workbook's long windows
1 h, 6 h, 24 h, 3 d. A window fills at span start + window, strictly before the span's end
(filling.py: ``grid start + long < grid end``): 1 h and 6 h fill (13:00, 18:00), 24 h and 3 d
never do. The fra outage (2026-01-06 06:00-06:20, tests/interop/prometheus_server.py) fires
after 18:00 of the day before, so no page_1h/page_6h episode can be over before its window
filled: every episode of ticket_1d and ticket_3d is filling, none of the others.
"""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main
from tests.interop.test_backtest import SLOTH


def test_a_tier_as_long_as_the_span_is_said_never_filled_and_its_episodes_marked(prom, tmp_path,
                                                                                  capsys):
    (tmp_path / "sloth.yaml").write_text(SLOTH)
    (tmp_path / "out").mkdir()
    rc = main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / "sloth.yaml"),
               "--policy", "workbook", "--start", "2026-01-05T12:00:00Z", "--end",
               "2026-01-06T12:00:00Z", "--by", "region", "--out", str(tmp_path / "out")])
    text = capsys.readouterr()
    assert rc == 0, text.err
    said = " ".join(text.out.split())
    episodes = pd.read_csv(tmp_path / "out" / "episodes.csv")
    n, apart = len(episodes), int(episodes["tier"].isin(["ticket_1d", "ticket_3d"]).sum())
    assert apart >= 1 and n > apart  # the fra outage fired tickets and pages
    assert (f"Policy workbook: {n} alert episodes; the long windows of ticket_1d (24 h) and "
            "ticket_3d (3 d) never filled in the 1 d span: their episodes are listed (filling) but "
            "not scored (--incidents scores them apart)") in said
    assert (f"filling: {apart} of the {n} episodes ended while their tier's long window filled, "
            "or it never filled: with --incidents they are scored apart; --plot shades that "
            "time, --out marks them in its filling column.") in said
    assert "partial windows" not in said
    assert episodes["filling"].tolist() == episodes["tier"].isin(["ticket_1d",
                                                                  "ticket_3d"]).tolist()
