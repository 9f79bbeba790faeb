"""What ``budgetlab backtest`` prints fits 100 columns, as every command's prose does (cli/prose.py
``wrap``), and the count queries it sent stand whole on lines of their own (a query is copied, not
read across a break; ``export`` prints its queries so: tests/interop/test_export_line_width.py).

Before cli55, on this case (the Sloth spec of test_backtest, three policies, incidents, --out and
--plot): the server and SLO line was 102 columns, the span line 127, the Sloth tiers note 106, the
per-bin counts note 127, each policy's heading 102 to 105, and the queries 172 and 197 on the line
of their names; stop 56: the scrape-gap warning on stderr, 269. Oracle: the project's 100-column
rule; the query texts are those Prometheus was
sent (the SLOTH spec's sums, as test_backtest's outputs read them)."""

from __future__ import annotations

from budgetlab.cli import main
from tests.interop.test_backtest import INCIDENTS, SLOTH, SPAN


def test_every_line_of_a_realistic_backtest_fits_100_columns(prom, tmp_path, capsys):
    (tmp_path / "sloth.yaml").write_text(SLOTH)
    (tmp_path / "inc.csv").write_text(INCIDENTS)
    (tmp_path / "out").mkdir()
    rc = main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / "sloth.yaml"),
               "--policy", "workbook,pyrra,sloth", *SPAN, "--by", "region", "--incidents",
               str(tmp_path / "inc.csv"), "--out", str(tmp_path / "out"), "--plot",
               str(tmp_path / "t.png")])
    text = capsys.readouterr()
    assert rc == 0, text.err
    lines = text.out.splitlines()
    # each query whole on the line under its name
    named = [i for i, ln in enumerate(lines) if ln in ("  total per bin:", "  errors per bin:")]
    assert len(named) == 2
    queries = [lines[i + 1] for i in named]
    # the spec's sum by (region), sent once (it was summed by region again: "))))")
    assert [q.startswith("    sum by (region) ((") and q.endswith(")))")
            and "sum by" not in q[len("    sum by"):] for q in queries] == [True, True]
    assert "app_requests_total offset 1m" in queries[0]
    assert "app_request_errors_total offset 1m" in queries[1]
    # "wrote ... to PATH": a path the user gave, whole
    prose = [ln for ln in lines if ln not in queries and not ln.startswith("wrote ")]
    assert [ln for ln in prose if len(ln) > 100] == []
    # the prose reads as before once its lines are joined
    said = " ".join(text.out.split())
    assert "target 0.999, period 30 d span 2026-01-05 00:00 .. 2026-01-07 00:00 UTC" in said
    assert ("Policy pyrra: 4 alert episodes; the long window of warning_4d6h51m (4 d 6 h 51 min) "
            "never filled in the 2 d span: its episodes are listed (filling) but not scored "
            "(--incidents scores them apart)") in said
    # the scrape-gap warning on stderr too (stop 56: one line of 269 columns), the lines after
    # the first two spaces deeper, "09:19..09:22" whole; stop 57: it says where the gaps are
    # listed, not attrs['gaps'] (an API word)
    assert text.err.splitlines()[-4:] == [
        "budgetlab: warning: 3 bins in 1 scrape gap (first: region=par 2026-01-06 09:19..09:22 "
        "UTC): their",
        "  counts are not known; across a gap shorter than the server's lookback the increase "
        "lands in the",
        "  bin that ends it, across a longer one it is lost (listed under 'scrape gaps' in 'How "
        "it was",
        "  read')."]
