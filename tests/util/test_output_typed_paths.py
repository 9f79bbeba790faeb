"""An output refused is named as the user typed it: ``--out ro/x.csv`` said ``'x.csv' exists
already``, and an unwritable ``ro2/x.png`` ``'x.png' cannot be written, its folder 'ro2'``
(stop 56). A relative path is shown whole; an absolute one by its name, as before."""

from __future__ import annotations

import errno
import os

import pytest

from budgetlab._util.files import check_output
from budgetlab._util.plan import new_run
from budgetlab.cli import main
from budgetlab.errors import ConfigError, OutputExistsError

BACKTEST = ["backtest", "--prometheus", "http://127.0.0.1:9", "--total", "a_total", "--errors",
            "b_total", "--target", "0.99", "--policy", "workbook", "--since", "1h"]


@pytest.fixture()
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "x.csv").write_text("old")
    (tmp_path / "a" / "ro2").mkdir(parents=True)
    return tmp_path


def _refuse_probes(monkeypatch):
    real_open = os.open

    def refuse(path, *args, **kw):
        if ".bl-" in os.fspath(path):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, *args, **kw)

    monkeypatch.setattr(os, "open", refuse)


def test_an_existing_output_is_named_as_typed(here, capsys):
    with pytest.raises(OutputExistsError) as info:
        check_output("ro/x.csv", option="--out")
    assert str(info.value) == "--out: 'ro/x.csv' exists already; pass force=True to overwrite it."
    new_run()
    assert main([*BACKTEST, "--out", "ro/x.csv"]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --out: 'ro/x.csv' exists already; pass "
                                       "--force to overwrite it.\n")
    assert (here / "ro" / "x.csv").read_text() == "old"


def test_an_unwritable_folder_is_named_as_typed(here, capsys, monkeypatch):
    _refuse_probes(monkeypatch)
    assert main([*BACKTEST, "--plot", "a/ro2/x.png"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: --plot: 'a/ro2/x.png' cannot be written, its folder 'a/ro2' does not "
        "let budgetlab create files (Permission denied); give an output in a folder you can "
        "write to.\n")
    with pytest.raises(ConfigError) as info:  # an absolute path: its name, as before
        check_output(str(here / "a" / "ro2" / "x.png"), option="--plot")
    assert str(info.value).startswith("--plot: 'x.png' cannot be written, its folder 'ro2' ")
