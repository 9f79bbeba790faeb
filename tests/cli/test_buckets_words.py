"""`budgetlab buckets` on logs a stranger brings: one failure bucket, or none at all.

Oracles: the counts by construction of the hand-made logs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab.cli import main


def write_log(path, outcomes):
    ts = pd.date_range("2026-01-01", periods=len(outcomes), freq="5min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcomes}).to_csv(
        path, index=False)


def test_a_log_without_failures_says_so_and_draws_nothing(tmp_path, capsys):
    log, out, plot = tmp_path / "ok.csv", tmp_path / "b.csv", tmp_path / "b.png"
    write_log(log, ["success"] * 300)
    # it printed an empty pandas frame ("Empty DataFrame / Columns: [...]"), then --plot failed
    # with the API's words ("make it with budgetlab.bucket_burn_over_time()"), exit 2
    assert main(["buckets", str(log), "--window", "1h", "--out", str(out), "--plot",
                 str(plot)]) == 0
    printed = capsys.readouterr()
    assert "ok.csv: 300 events, no failures: no failure bucket to break down" in printed.out
    assert "Empty DataFrame" not in printed.out and "budgetlab." not in printed.err
    assert len(pd.read_csv(out)) == 0 and not plot.exists()
    err = " ".join(printed.err.split())  # filled to 100 columns: the path on a line of its own
    assert "no plot written to" in err and "without failures no bucket burns" in err


def test_one_bucket_is_named_in_the_singular(tmp_path, capsys):
    log = tmp_path / "one.csv"
    write_log(log, ["success"] * 8 + ["timeout"] * 2)
    assert main(["buckets", str(log), "--window", "1h"]) == 0
    # the span the figures count, by construction: 10 events 5 min apart from midnight
    assert ("one.csv: 10 events, 2026-01-01 00:00 .. 2026-01-01 00:45 UTC, 2 failures in the "
            "bucket 'timeout'\n" in capsys.readouterr().out)


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_the_header_says_the_span_and_what_the_columns_count(tmp_path, capsys):
    """The figures count the whole log: its span is said (it was not), and what the burn,
    sli_without, pages and the *_caused columns count, above the table. 10 timeouts among 200
    events 5 min apart (enough for a verdict at 95 %): burn 10 / (200 x 0.05) = 1 by hand; the
    legend names the --freq bins."""
    log = tmp_path / "log.csv"
    write_log(log, (["success"] * 19 + ["timeout"]) * 10)
    assert main(["buckets", str(log), "--window", "1h", "--freq", "5min"]) == 0
    out = capsys.readouterr().out
    first, legend = out.split("\n")[0], " ".join(out.split("\n\n")[0].split("\n")[2:])
    assert first == ("log.csv: 200 events, 2026-01-01 00:00 .. 2026-01-01 16:35 UTC, 10 failures "
                     "in the bucket 'timeout'")
    assert legend.startswith("Every figure counts the whole log, first to last event.")
    assert "pages: episodes of the workbook policy's page tiers on 5 min bins (--freq)" in legend
    assert "each bucket alone: one that two buckets cause counts for both" in legend
    row = out.split("\n\n")[1].split("\n")[1].split()
    # bucket, events, failures, share_of_failures "100.00 %", failure_rate "5.00 %", burn_rate
    # (three significant digits, its zeros kept: one precision down the column)
    assert row[:8] == ["timeout", "200", "10", "100.00", "%", "5.00", "%", "1.00"]


def test_out_writes_the_figures_without_float_noise(tmp_path, capsys):
    """300 timeouts among 1,000 events at 90 %: by hand the burn is 300 / (1,000 x 0.1) = 3, the
    failure rate 0.3 and the SLI 0.7; 1 - 0.9 is 0.09999999999999998 in floating point, and the
    burn was written 3.000000000000001. --out writes 12 significant digits (--help says so)."""
    log, out = tmp_path / "log.csv", tmp_path / "b.csv"
    write_log(log, (["success"] * 7 + ["timeout"] * 3) * 100)
    assert main(["buckets", str(log), "--target", "0.9", "--window", "1h", "--out",
                 str(out)]) == 0
    header, row = out.read_text().splitlines()
    cells = dict(zip(header.split(","), row.split(","), strict=True))
    assert (cells["failure_rate"], cells["burn_rate"], cells["group_burn_rate"],
            cells["sli"]) == ("0.3", "3.0", "3.0", "0.7")
    capsys.readouterr()
    main(["buckets", "--help"])
    assert "figures to 12 significant digits" in " ".join(capsys.readouterr().out.split())


def test_the_header_fills_to_100_columns_with_the_bucket_names_quoted(capsys):
    """The Apache log by method (shared/data/README.md: 3 responses with status 500 among 10,000,
    2015-05-17 10:05 .. 2015-05-20 21:05): the header is 112 characters; filled to 100, its
    bucket's name goes to the next line whole and quoted, never read as part of the sentence."""
    apache = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"
    assert main(["buckets", str(apache), "--preset", "access", "--by", "method"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("apache_logs: 10,000 events"))
    assert lines[at: at + 2] == [
        "apache_logs: 10,000 events, 2015-05-17 10:05 .. 2015-05-20 21:05 UTC, 3 failures in the "
        "bucket", "'server_error'"]
