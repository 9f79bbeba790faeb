"""Stop 61: ``budgetlab replay --slo FILE --by a,a`` said "--by must name distinct group keys (e.g.
by=['captcha_type'])": an API keyword in a command-line message. The API names ``by=``, the command
line ``--by``, in the words the event reader uses for the same mistake ("the column 'g' appears
twice in --by; name each column once.", tests/events/test_spec_column_twice.py)."""

from __future__ import annotations

import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError
from budgetlab.interop.openslo import load_slos

SPEC = """apiVersion: openslo/v1
kind: SLO
metadata: {name: s-avail}
spec: {service: captcha, indicatorRef: solves, budgetingMethod: Occurrences,
  timeWindow: [{duration: 30d, isRolling: true}], objectives: [{target: 0.9}]}
"""


def test_the_api_names_by(tmp_path):
    path = tmp_path / "slo.yaml"
    path.write_text(SPEC)
    with pytest.raises(ConfigError) as caught:
        load_slos(path, by=["g", "g"])
    assert str(caught.value) == "the column 'g' appears twice in by=; name each column once."


def test_the_command_line_names_its_flag(tmp_path, capsys):
    path, log = tmp_path / "slo.yaml", tmp_path / "log.csv"
    path.write_text(SPEC)
    log.write_text("ts,outcome,g\n2026-03-02T00:00:00Z,success,a\n")
    assert main(["replay", str(log), "--by", "g,g", "--slo", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == "budgetlab: error: the column 'g' appears twice in --by; name each column once.\n"
