"""backtest sends a query that sums by the --by labels already as it is: a Sloth spec's
``sum by (region) (rate(...))`` was sent (and said under "How it was read") as
``sum by (region) (sum by (region) (...))``: the same values, the query said twice (an SRE's
report). Oracles: the query as written by hand; the bins of the bare counters (the split form,
another path through the server) for the values."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main
from tests.interop.test_backtest import SLOTH, SPAN

# the spec's total query, its rate over the window read as the counter's increase over the bin
TOTAL_SENT = ("sum by (region) (((app_requests_total - app_requests_total offset 1m >= 0) or "
              "((app_requests_total < app_requests_total offset 1m) * 1)))")


def test_a_query_summed_by_the_by_labels_is_sent_once(prom, tmp_path, capsys):
    (tmp_path / "s.yaml").write_text(SLOTH)
    spec_bins, bare_bins = tmp_path / "spec", tmp_path / "bare"
    spec_bins.mkdir()
    bare_bins.mkdir()
    assert main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / "s.yaml"), "--policy",
                 "workbook", *SPAN, "--by", "region", "--out", str(spec_bins)]) == 0
    said = capsys.readouterr().out.splitlines()
    at = said.index("  total per bin:")
    assert said[at + 1] == f"    {TOTAL_SENT}"
    assert main(["backtest", "--prometheus", prom, "--total", "app_requests_total", "--errors",
                 "app_request_errors_total", "--target", "0.999", "--policy", "workbook", *SPAN,
                 "--by", "region", "--out", str(bare_bins)]) == 0
    capsys.readouterr()
    cols = ["region", "bin_start", "total", "bad"]
    spec = pd.read_csv(spec_bins / "bins.csv")[cols]
    bare = pd.read_csv(bare_bins / "bins.csv")[cols]
    pd.testing.assert_frame_equal(spec, bare)
