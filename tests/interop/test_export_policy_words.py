"""``export prometheus --slo FILE --policy P`` says whether P replaces the file's alerts: "not the
file's" only when the file has alert policies (or alerting a note speaks of); a file without any
reads "(the file has none)" (it read "not the file's" for an OpenSLO file with no
alertPolicies, as ``export openslo`` writes one without --policy)."""

from __future__ import annotations

from pathlib import Path

from budgetlab.cli import main

OPENSLO = Path(__file__).parents[1] / "fixtures" / "openslo"


def _alerts_line(tmp_path, slo: Path, capsys) -> str:
    capsys.readouterr()
    assert main(["export", "prometheus", "--slo", str(slo), "--policy", "workbook",
                 str(tmp_path / "rules.yaml")]) == 0
    return [ln for ln in capsys.readouterr().out.splitlines() if "the alerts:" in ln][0]


def test_a_file_without_alert_policies_has_none_replaced(tmp_path, capsys):
    # export openslo without --policy writes an SLO without alertPolicies
    assert main(["export", "openslo", "--target", "0.99", "--total-metric", "all_total",
                 "--errors-metric", "bad_total", str(tmp_path / "slo.yaml")]) == 0
    assert "alertPolicies" not in (tmp_path / "slo.yaml").read_text()
    line = _alerts_line(tmp_path, tmp_path / "slo.yaml", capsys)
    assert line.startswith("  the alerts: --policy workbook (the file has none): page_1h 14.4 ")
    assert "not the file's" not in line


def test_a_file_with_alert_policies_has_them_replaced(tmp_path, capsys):
    line = _alerts_line(tmp_path, OPENSLO / "captcha_workbook.yaml", capsys)
    assert line.startswith("  the alerts: --policy workbook, not the file's: ")
