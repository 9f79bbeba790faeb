"""A refusal is one line that names the fix, without the words around it that a reader of a
terminal has to wade through: the longest refusals were shortened (the value and the flag to use
kept), a parenthesis that the command line's words doubled (``--format csv (API: --format csv)``)
is said once, in the caller's words, and ``-p`` beside a close match no longer lists some forty
parameters. Expected texts written by hand."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.cli.notebook_params import per_notebook
from budgetlab.errors import ConfigError, FileFormatError

CSV = b"ts,ok\n2026-01-01T00:00:00Z,true\n2026-01-01T00:01:00Z,false\n"
LOG = ("ts,ok,duration\n2026-01-01T00:00:00Z,true,0.5\n2026-01-01T00:01:00Z,false,3\n"
       "2026-01-01T00:02:00Z,true,0.7\n")
#: Each refusal below names the value that was wrong and the flag to use within this many
#: columns (before: 282, --time-format; 259, --ok-when and the preset's fields; the shorter
#: --pattern and export's --window refusals are held to their words, in tests/events/test_lines.py
#: and below).
WIDTH = 240


def test_a_parquet_name_on_csv_text_names_the_fix_once_in_the_callers_words(tmp_path, capsys):
    (tmp_path / "log.parquet").write_bytes(CSV)
    assert main(["replay", str(tmp_path / "log.parquet"), "--ok", "ok"]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: log.parquet: this .parquet file holds "
                                       "CSV text; rename it to .csv or pass --format csv.\n")
    with pytest.raises(FileFormatError) as info:
        read_events(tmp_path / "log.parquet", ok="ok")
    assert str(info.value) == ("log.parquet: this .parquet file holds CSV text; rename it to "
                               ".csv or pass format='csv'.")


def test_a_close_match_among_many_parameters_is_named_without_the_list():
    many = {"nb.ipynb": ["source", *(f"knob_{i}" for i in range(10))]}  # eleven names
    with pytest.raises(ConfigError) as info:
        per_notebook({"sorce": "a.csv"}, many)
    assert str(info.value) == ("-p sorce: no notebook of this run has a parameter of that name "
                               "(did you mean source?).")
    # nothing close: the list is the fix, whatever its length
    with pytest.raises(ConfigError) as info:
        per_notebook({"zzz": 1}, many)
    assert str(info.value).endswith("; their parameters: knob_0, knob_1, knob_2, knob_3, "
                                    "knob_4, knob_5, knob_6, knob_7, knob_8, knob_9, source.")


@pytest.mark.parametrize(("argv", "words"), [
    (["--time-format", "%Y"], ("--time-format %Y has no day and month", "%d with %m")),
    (["--ok-when", "duration<x"], ("--ok-when got 'duration<x'", "COLUMN OP NUMBER")),
    (["--preset", "sshd"], ("the sshd preset has no field 'ok' (--ok)", "--pattern")),
])
def test_the_longest_refusals_fit_and_keep_the_value_and_the_flag(tmp_path, capsys, argv, words):
    (tmp_path / "log.csv").write_text(LOG)
    assert main(["replay", str(tmp_path / "log.csv"), "--ok", "ok", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("budgetlab: error: ")
    assert all(w in err for w in words), err
    assert len(err.rstrip("\n")) <= WIDTH, len(err)


def test_export_prometheus_window_refusal_fits(tmp_path, capsys):
    assert main(["export", "prometheus", "--target", "0.9", "--window", "1h",
                 str(tmp_path / "p.yaml")]) == 2
    err = capsys.readouterr().err
    assert err == ("budgetlab: error: --window is the tracker window, which Prometheus rules do "
                   "not hold (they alert on the policy's burn-rate windows over --period); leave "
                   "--window out.\n")
