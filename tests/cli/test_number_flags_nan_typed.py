"""Number flags refused in the command line's words, as typed (r60 item 4): ``--max-share nan``
said "max_share=nan must lie in (0, 1]" (the keyword: a nan was no number to the flag
translation) and ``--critical 1.50`` "if 1.5 is a percentage" (the float, not the text). Expected
messages written by hand; each refusal exits 2 before the log is read."""

from __future__ import annotations

import pytest

from budgetlab.cli import main


@pytest.mark.parametrize(("args", "said"), [
    (["recalibrate", "--max-share", "nan"], "--max-share nan must lie in (0, 1]."),
    (["replay", "--warning", "nan"], "--warning nan must lie in [0, 1]."),
    (["replay", "--warning", "NaN"], "--warning NaN must lie in [0, 1]."),
    (["replay", "--critical", "1.50"], "--critical 1.50 must lie in [0, 1]; if 1.50 is a "
                                       "percentage, use a fraction: --critical 0.015."),
    (["recalibrate", "--max-share", "1.50"], "--max-share 1.50 must lie in (0, 1]; if 1.50 is a "
                                             "percentage, use a fraction: --max-share 0.015."),
])
def test_a_number_flag_is_refused_as_typed(args, said, tmp_path, capsys):
    log = tmp_path / "log.csv"
    log.write_text("ts,ok\n2026-01-01T00:00:00Z,true\n")
    assert main([args[0], str(log), "--ok", "ok", *args[1:]]) == 2
    assert capsys.readouterr().err == f"budgetlab: error: {said}\n"
