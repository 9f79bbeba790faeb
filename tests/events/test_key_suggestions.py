"""A missing group key (``--by``) is only suggested a column that could be meant: a close
spelling among the columns not read as the time or the outcome. ``replay --by nosuchcol``
suggested 'outcome' (difflib's ratio of the two is 0.5). The oracle: the messages written out
by hand for a file whose columns are known."""

from __future__ import annotations

import pytest

from budgetlab.cli import main

CSV = ("ts,outcome,captcha_type,region,sitekey\n"
       "2026-10-05T00:00:00Z,success,image,fra,k1\n"
       "2026-10-05T00:01:00Z,timeout,image,fra,k1\n")
PRESENT = ("Columns present: 'captcha_type', 'region', 'sitekey' (and 'ts', 'outcome': the time "
           "column and the outcome-label column).")


@pytest.fixture()
def log(tmp_path):
    path = tmp_path / "captcha.csv"
    path.write_text(CSV)
    return str(path)


def _error(log, capsys, *flags) -> str:
    assert main(["replay", log, *flags]) != 0
    return " ".join(capsys.readouterr().err.split())


def test_no_close_key_lists_the_key_columns(log, capsys):
    text = _error(log, capsys, "--by", "nosuchcol")
    assert "Did you mean" not in text
    assert text.endswith("has no column 'nosuchcol' (declared in --by: give the name the file "
                         "uses). " + PRESENT)
    # a missing time column still lists every column, a close one suggested
    assert _error(log, capsys, "--time", "tss").endswith(
        "Did you mean 'ts'? Columns present: 'ts', 'outcome', 'captcha_type', 'region', 'sitekey'.")


def test_the_outcome_column_is_never_suggested_for_a_key(log, capsys):
    text = _error(log, capsys, "--by", "outcomes")  # one letter off 'outcome'
    assert "Did you mean" not in text and text.endswith(PRESENT)


def test_a_close_key_is_suggested(log, capsys):
    text = _error(log, capsys, "--by", "captcha_typ")
    assert "Did you mean 'captcha_type'? " + PRESENT in text
