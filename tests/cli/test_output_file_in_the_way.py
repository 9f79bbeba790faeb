"""An output path through a file (``--out x6file/out.csv`` where ``x6file`` is a file): every
command's every output flag refuses it before the work, naming the flag, the path as the user
typed it (relative paths whole; absolute ones by their file name, as every message shows them)
and the true reason, the part that is a file, not a folder. ``backtest --out`` (a folder, or one
table file) says the same of a file given as its folder. The oracle is the path given and the
file the test put in the way."""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetlab.cli import main
from tests.cli.test_output_folders import CASES, COMMANDS, _argv, inputs  # noqa: F401

WHY = "is a file, not a folder"


def _name(flag: str | None) -> str:
    return "t.png" if flag == "--plot" else "t.yaml" if flag is None else "t.csv"


@pytest.mark.parametrize(("command", "flag"), CASES)
def test_a_file_in_the_path_is_named_as_the_reason(command, flag, tmp_path, inputs,  # noqa: F811
                                                   capsys, monkeypatch):
    (tmp_path / "x6file").write_text("not a folder")
    named = flag if flag is not None else "OUT.yaml"
    assert main(_argv(command, flag, tmp_path / "x6file", inputs)) == 2
    captured = capsys.readouterr()
    assert captured.err == (f"budgetlab: error: {named}: '{_name(flag)}' cannot be written: "
                            f"'x6file' {WHY}; give an output path inside a folder.\n")
    assert captured.out == ""  # before the work
    monkeypatch.chdir(tmp_path)  # a relative path is named whole, as typed
    assert main(_argv(command, flag, Path("x6file") / "sub", inputs)) == 2
    assert capsys.readouterr().err == (
        f"budgetlab: error: {named}: 'x6file/sub/{_name(flag)}' cannot be written: 'x6file' "
        f"{WHY}; give an output path inside a folder.\n")
    assert (tmp_path / "x6file").read_text() == "not a folder"


def test_backtest_out_folder_that_is_a_file_or_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x6file").write_text("not a folder")
    argv = [*COMMANDS["backtest"][0], "--out"]
    alt = "or give a .csv/.parquet file for the episodes."
    for given, said in [
        ("x6file", f"'x6file' {WHY}; give a folder, {alt}"),
        (str(tmp_path / "x6file"), f"'x6file' {WHY}; give a folder, {alt}"),
        ("x6file/sub", f"'x6file/sub' cannot be a folder: 'x6file' {WHY}; give a folder, {alt}"),
        ("nowhere", f"folder 'nowhere' does not exist; create it, {alt}"),
    ]:
        assert main([*argv, given]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"budgetlab: error: --out: {said}\n", given
        assert captured.out == ""
    assert not Path("nowhere").exists()
