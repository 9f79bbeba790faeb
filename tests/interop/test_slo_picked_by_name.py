"""``FILE#NAME`` names one SLO of a file; a NAME the file does not hold is refused the same way
by every reader of it (``replay --slo``'s ``load_slo``, ``export --from``/``--slo``, ``backtest
--slo``), with the names the file holds."""

from __future__ import annotations

import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError
from budgetlab.interop.openslo import load_slo

SLO_TEXT = """\
apiVersion: openslo/v1
kind: SLO
metadata: {name: NAME}
spec:
  service: captcha
  indicator:
    metadata: {name: NAME-sli}
    spec:
      ratioMetric:
        counter: true
        bad: {metricSource: {type: Prometheus, spec: {query: e_total}}}
        total: {metricSource: {type: Prometheus, spec: {query: r_total}}}
  timeWindow: [{duration: 30d, isRolling: true}]
  budgetingMethod: Occurrences
  objectives: [{target: 0.99}]
"""
#: by hand: the file holds 'a' and 'b', in this order
REFUSAL = "slos.yaml: has no SLO named 'c'; it holds 'a', 'b'."


@pytest.fixture
def slos(tmp_path):
    path = tmp_path / "slos.yaml"
    path.write_text("---\n".join(SLO_TEXT.replace("NAME", n) for n in ("a", "b")))
    return path


def test_load_slo_names_what_the_file_holds(slos):
    assert load_slo(f"{slos}#b").target == 0.99
    with pytest.raises(ConfigError) as err:
        load_slo(f"{slos}#c")
    assert str(err.value) == REFUSAL


@pytest.mark.parametrize("argv", [
    ["export", "openslo", "--from", "{slos}#c", "{out}"],
    ["export", "prometheus", "--slo", "{slos}#c", "--policy", "workbook", "{out}"],
    ["backtest", "--prometheus", "http://127.0.0.1:9", "--slo", "{slos}#c"],
])
def test_every_command_refuses_a_name_the_file_does_not_hold(slos, tmp_path, capsys, argv):
    given = [a.format(slos=slos, out=tmp_path / "out.yaml") for a in argv]
    assert main(given) == 2
    assert REFUSAL in capsys.readouterr().err
    assert not (tmp_path / "out.yaml").exists()
