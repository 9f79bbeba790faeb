"""``export prometheus`` says which alerts its rules carry ("the alerts: ...", one line per SLO)
whatever gives the SLO: flags with --policy, a Sloth spec (its note), an OpenSLO file (its alert
policies; before, no line at all), an OpenSLO file with --total-metric/--errors-metric. Oracle:
the tiers written in the OpenSLO fixture (tests/fixtures/openslo/captcha_workbook.yaml: burn
thresholds 14.4, 6, 3, 1 over lookback windows 1h, 6h, 1d, 3d, short windows 5m, 30m, 2h, 6h in
its annotations)."""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetlab.cli import main

FIXTURES = Path(__file__).parents[1] / "fixtures"
OPENSLO = FIXTURES / "openslo" / "captcha_workbook.yaml"
SLOTH = FIXTURES / "sloth" / "getting-started.yml"
FILE_TIERS = ("the alerts: the file's alert policies: page_1h 14.4 over 1h/5m, page_6h 6 over "
              "6h/30m, ticket_1d 3 over 1d/2h, ticket_3d 1 over 3d/6h")
COUNTERS = ["--total-metric", "captcha_solves_total", "--errors-metric",
            "captcha_solve_errors_total"]


def exported(tmp_path, capsys, *flags):
    assert main(["export", "prometheus", str(tmp_path / "rules.yml"), *flags]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("counters", [False, True])
def test_an_openslo_file_says_its_alert_tiers(tmp_path, capsys, counters):
    text = exported(tmp_path, capsys, "--slo", str(OPENSLO), *(COUNTERS if counters else []))
    assert text.count("the alerts: ") == 1
    assert FILE_TIERS in text


def test_every_form_says_the_alerts_once(tmp_path, capsys):
    forms = {"flags": ["--target", "0.999", *COUNTERS, "--policy", "workbook"],
             "sloth": ["--slo", str(SLOTH)],
             "sloth with counters": ["--slo", str(SLOTH), *COUNTERS],
             "openslo": ["--slo", str(OPENSLO)],
             "openslo with --policy": ["--slo", str(OPENSLO), "--policy", "workbook"]}
    said = {form: exported(tmp_path, capsys, *flags, "--force").count("the alerts: ")
            for form, flags in forms.items()}
    assert said == dict.fromkeys(forms, 1)
