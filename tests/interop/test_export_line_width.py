"""What ``budgetlab export`` prints fits 100 columns, as every command's prose does, and an SLI's
queries stand whole on lines of their own (a query is copied, not read across a break).

Before: the left-out statement below was one line of 290 characters, and the Prometheus SLI
statement with its queries one of 232 (a stranger's pass at stop 54)."""

from __future__ import annotations

from pathlib import Path

from budgetlab.cli import main
from tests.interop.export_said import statements

SLOTH = Path(__file__).resolve().parents[1] / "fixtures" / "sloth"
TABLE = ("captcha_type,events,traffic_days,hours,recommended_target\n"
         "recaptcha_v2,59639,9,200.0,0.93\n"
         "silent,0,0,0.0,\n"
         "oneday,900,1,20.0,\n"
         "shortday,900,3,20.0,\n")


def test_openslo_statements_fit_100_columns(tmp_path, capsys):
    (tmp_path / "rec.csv").write_text(TABLE, encoding="utf-8")
    assert main(["export", "openslo", "--from-recalibration", str(tmp_path / "rec.csv"),
                 "--by", "captcha_type", str(tmp_path / "rec.yaml")]) == 0
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if not ln.startswith("wrote ")]  # a path, whole
    assert max(map(len, lines)) <= 100
    # the statement is whole once its lines are joined: three groups, each with its reason
    (left,) = [s for s in statements(out) if s.startswith("left out")]
    assert left.startswith("left out 3 groups without a recommended_target: silent (no "
                           "evaluated time), oneday (")
    assert len(left) > 100


def test_prometheus_queries_stand_whole_on_their_own_lines(tmp_path, capsys):
    assert main(["export", "prometheus", "--slo",
                 f"{SLOTH / 'kubernetes-apiserver.yml'}#requests-latency",
                 str(tmp_path / "r.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    queries = [ln for ln in lines if ln.startswith(("  errors = ", "  total = "))]
    assert [q.split(" = ")[0].strip() for q in queries] == ["errors", "total"]
    assert queries[1] == ('  total = sum(rate(apiserver_request_duration_seconds_count'
                          '{verb!="WATCH"}[{{.window}}]))')
    assert max(len(ln) for ln in lines if ln not in queries and not ln.startswith("wrote ")) \
        <= 100
