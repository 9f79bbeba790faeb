"""Stop 60: ``backtest --out DIR`` wrote the bins of a scrape gap to ``bins.csv`` as zero traffic
with nothing marking them (the gap was said on stdout only). They carry ``scrape_gap=True`` now,
and ``read_bins`` reads the file back with the groups the replay had (the flag is no group key).
Oracle: the test server's gap (tests/interop/prometheus_server.py): no samples of region par at
the ends of minutes 2000..2002 after 2026-01-05 00:00 UTC, so the bins starting at minutes
1999, 2000 and 2001 (09:19, 09:20, 09:21 on 2026-01-06) have no scrape: 3 bins, par only."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main
from budgetlab.windows.bins import read_bins
from tests.interop.prometheus_server import GAP_MINUTES, MINUTES, START

MIN = pd.Timedelta(minutes=1)


def test_gap_bins_are_flagged_in_bins_csv_and_read_back_as_the_replay_did(prom, tmp_path,
                                                                          capsys):
    out = tmp_path / "out"
    out.mkdir()
    rc = main(["backtest", "--prometheus", prom, "--total", "app_requests_total", "--errors",
               "app_request_errors_total", "--target", "0.999", "--policy", "workbook",
               "--by", "region", "--start", "2026-01-05", "--end", "2026-01-07",
               "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    bins = pd.read_csv(out / "bins.csv", parse_dates=["bin_start"])
    gap = bins[bins["scrape_gap"]]
    hand = [START + k * MIN for k in range(GAP_MINUTES[0] - 1, GAP_MINUTES[1] - 1)]
    assert gap["region"].tolist() == ["par"] * 3
    assert gap["bin_start"].tolist() == hand
    assert len(bins) == 3 * MINUTES and bins["scrape_gap"].sum() == 3
    grid = read_bins(bins.drop(columns="scrape_gap"))
    flagged = read_bins(bins)
    assert flagged.by == grid.by == ["region"] and flagged.n_groups == 3
    assert (flagged.total == grid.total).all() and (flagged.bad == grid.bad).all()
