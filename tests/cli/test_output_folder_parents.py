"""A folder output (``notebooks --html``, ``python -m budgetlab.datasets --out``) is made when
missing, but the folder it goes in must exist, as for every other output: a missing parent is
refused with the fix, never made silently, and a refusal names the flag, the path as given and
the folder at fault. A path under a regular file cannot be made, without root too.

Before o61intr: ``datasets --out o/ds/sub`` made o/ds silently, and a folder that could not be
made was said by its last name only (``--html nb: cannot create the folder (...)``). Oracle: the
paths the tests give."""

from __future__ import annotations

import pytest

from budgetlab.cli import main
from budgetlab.datasets.__main__ import main as datasets_main


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_text("a file, not a folder")
    return tmp_path


def test_html_under_a_file_names_the_path_given_and_the_file(here, capsys):
    assert main(["notebooks", "--html", "f/deep/nb", "--notebooks",
                 "04_incident_replay.ipynb"]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --html 'f/deep/nb': 'f' is a file, not "
                                       "a folder; --html takes a folder.\n")


def test_html_in_a_missing_folder_is_refused_naming_it(here, capsys):
    (here / "o").mkdir()
    assert main(["notebooks", "--html", "o/deep/nb", "--notebooks",
                 "04_incident_replay.ipynb"]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --html 'o/deep/nb': folder 'o/deep' "
                                       "does not exist; create it first.\n")
    assert sorted(p.name for p in (here / "o").iterdir()) == []


def test_datasets_refuses_a_missing_parent_instead_of_making_it(here, capsys):
    assert datasets_main(["--preset", "demo", "--out", "o/ds/sub"]) == 2
    assert capsys.readouterr().err == ("python -m budgetlab.datasets: error: --out 'o/ds/sub': "
                                       "folder 'o/ds' does not exist; create it first.\n")
    assert not (here / "o").exists()


def test_datasets_under_a_file_names_the_path_given_and_the_file(here, capsys):
    assert datasets_main(["--preset", "demo", "--out", "f/ds"]) == 2
    assert capsys.readouterr().err == ("python -m budgetlab.datasets: error: --out 'f/ds': 'f' is "
                                       "a file, not a folder; --out takes a folder.\n")
