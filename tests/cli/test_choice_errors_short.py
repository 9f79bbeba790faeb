"""argparse's "invalid choice" error in one short line (stop 59): it listed every choice in
quotes, 186 columns for an unknown command. Now the choices unquoted when the line holds them in
100 columns, else the pointer to the command's help."""

from __future__ import annotations

import pytest

from budgetlab.cli import main


@pytest.mark.parametrize(("argv", "said"), [
    (["nosuchcommand"],
     "argument COMMAND: invalid choice: 'nosuchcommand' (see 'budgetlab --help')"),
    (["replay", "log.csv", "--format", "xyz"],
     "argument --format: invalid choice: 'xyz' (see 'budgetlab replay --help')"),
    (["export", "nosuch", "o.yaml"],
     "argument FORMAT: invalid choice: 'nosuch'; choose from openslo, prometheus"),
    (["replay", "log.csv", "--epoch", "bad"],
     "argument --epoch: invalid choice: 'bad'; choose from s, ms, us, ns"),
])
def test_an_invalid_choice_is_one_short_line(argv, said, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"budgetlab: error: {said}\n"
    assert len(err.rstrip("\n")) <= 100
