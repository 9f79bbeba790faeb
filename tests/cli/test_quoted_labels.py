"""Labels holding ``,`` or ``=`` (a CSV cell ``"err,conn"``, a --pattern capturing Proxifier's
``close,``) mapped on the command line: the quoting the refusal suggests is the quoting the one
parser of ``--outcomes`` (and of the notebooks' mappings and ``--target``) reads, and a quoted
label is never split."""

from __future__ import annotations

import shlex

import pytest

from budgetlab.analyses.history import outcome_labels
from budgetlab.cli import main
from budgetlab.cli.reading import parse_outcomes

LOG = ("ts,outcome\n2026-01-01T00:00:00Z,ok\n2026-01-01T00:01:00Z,\"err,conn\"\n"
       "2026-01-01T00:02:00Z,a=b\n2026-01-01T00:03:00Z,ok\n")


@pytest.mark.parametrize("text", ["ok=success,'err,conn'=failure,'a=b'=timeout",
                                  'ok=success,"err,conn"=failure,"a=b"=timeout',
                                  " ok = success , 'err,conn' = failure , \"a=b\"=timeout "])
def test_a_quoted_label_keeps_its_comma_and_equals_sign(text):
    want = {"ok": "success", "err,conn": "failure", "a=b": "timeout"}
    assert parse_outcomes(text) == want
    assert outcome_labels(text) == want  # the notebooks' parameter, one parser
    assert outcome_labels(text.replace("=failure", ":failure")) == want


def test_a_quote_inside_a_quoted_label_is_written_twice():
    assert parse_outcomes("'it''s'=skip,\"say \"\"hi\"\"\"=failure") == {
        "it's": "skip", 'say "hi"': "failure"}


@pytest.mark.parametrize("text", ["'a=b=failure", "'a=b'x=failure", "ok=success,'a=b'"])
def test_a_quoted_label_is_never_split_silently(text):
    # the old parser read "'a=b'x=failure" as the label "'a" with the bucket "b'x=failure"
    with pytest.raises(Exception, match="an item is not LABEL=MEANING"):
        parse_outcomes(text)


def test_an_unquoted_label_ends_at_the_last_equals_sign():
    # as the notebooks' mappings and --target read it: a meaning never holds "="
    from budgetlab._util.pairs import split_items

    assert split_items("a=b=failure") == [("a=b", "=", "failure")]
    assert parse_outcomes("a=b=failure") == {"a=b": "failure"}


def test_the_suggested_mapping_pasted_into_a_shell_reads_the_log(tmp_path, capsys):
    log = tmp_path / "lab.csv"
    log.write_text(LOG)
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "\n" not in err.strip() and "Traceback" not in err
    fix = err.split("Say what each means: ")[1].split("; replace each ?")[0]
    words = shlex.split(fix)  # what the shell hands budgetlab
    assert words[0] == "--outcomes"
    assert parse_outcomes(words[1]) == {"ok": "success", "err,conn": "?", "a=b": "?"}
    mapping = words[1].replace("=?", "=failure")
    out = tmp_path / "out.csv"
    assert main(["replay", str(log), "--outcomes", mapping, "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "lab.csv: 4 events" in said.out
    how = " ".join(said.err.split())  # the "how it was read" block: one row each, a failure
    assert "'err,conn' -> failure 1" in how and "'a=b' -> failure 1" in how
    assert "'ok' -> success 2" in how


def test_a_quoted_group_in_target(tmp_path, capsys):
    log = tmp_path / "g.csv"
    log.write_text("ts,outcome,svc\n2026-01-01T00:00:00Z,ok,\"a,b\"\n"
                   "2026-01-01T00:01:00Z,ok,c\n")
    assert main(["replay", str(log), "--by", "svc", "--target", "'a,b'=0.93,c=0.97",
                 "--out", str(tmp_path / "o.csv")]) == 0
    assert "Traceback" not in capsys.readouterr().err
