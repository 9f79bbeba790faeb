"""``export openslo``, ``export prometheus`` and ``backtest`` take one ``--target``: out of (0, 1)
it is refused echoing the value as typed, as ``replay``'s is (stop 59: they said "--target
95.0", the float argparse made of it). Hand-written expected messages; each refusal comes before
any file is written or any server asked."""

from __future__ import annotations

import pytest

from budgetlab.cli import main


@pytest.mark.parametrize(("typed", "said"), [
    ("95", "--target 95 must lie in (0, 1); if 95 is a percentage, use a fraction: --target "
           "0.95."),
    ("99.50", "--target 99.50 must lie in (0, 1); if 99.50 is a percentage, use a fraction: "
              "--target 0.995."),
    ("1", "--target 1 must lie in (0, 1)."),
])
@pytest.mark.parametrize("command", [
    ["export", "openslo", "--window", "28d", "{out}"],
    ["export", "prometheus", "--total-metric", "t_total", "--errors-metric", "e_total", "{out}"],
    ["backtest", "--prometheus", "http://127.0.0.1:9", "--histogram", "h", "--slow-above", "1s"],
])
def test_one_target_out_of_range_is_echoed_as_typed(command, typed, said, tmp_path, capsys):
    out = tmp_path / "o.yaml"
    assert main([a.format(out=out) for a in command] + ["--target", typed]) == 2
    assert capsys.readouterr().err == f"budgetlab: error: {said}\n"
    assert not out.exists()


def test_a_target_that_is_no_number_names_the_flag(tmp_path, capsys):
    assert main(["export", "openslo", "--target", "high", str(tmp_path / "o.yaml")]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --target 'high': give one target as a "
                                       "fraction, e.g. --target 0.95.\n")

