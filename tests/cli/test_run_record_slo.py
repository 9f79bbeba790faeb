"""The run record's SLO (``replay --out OUT`` writes ``OUT.run.json``) is the SLO's own
serialisation (``SLO.as_dict`` / ``PerGroup.as_dict``): ``slo_from_dict`` gives back the SLO of
the run, per group and period included, and still reads the records written before, which kept a
shorter dict of their own. The SLOs compared against are built by hand from the flags given."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from budgetlab import SLO
from budgetlab.cli import main
from budgetlab.errors import ConfigError
from budgetlab.slo import slo_from_dict

LOG = ("ts,ok,svc\n2026-11-01T00:00:00Z,true,a\n2026-11-01T00:01:00Z,false,b\n"
       "2026-11-01T00:02:00Z,true,a\n2026-11-01T00:05:00Z,true,b\n")


def _record(tmp_path, *flags: str) -> dict:
    (tmp_path / "log.csv").write_text(LOG)
    out = tmp_path / "tr.csv"
    assert main(["replay", str(tmp_path / "log.csv"), "--ok", "ok", *flags,
                 "--out", str(out)]) == 0
    return json.loads((tmp_path / "tr.csv.run.json").read_text())


def test_a_per_group_record_reads_back_as_the_slos_of_the_run(tmp_path, capsys):
    record = _record(tmp_path, "--by", "svc", "--target", "a=0.93,b=0.97", "--window", "90s")
    capsys.readouterr()
    # the window as typed, each group's whole SLO
    assert [(g["group"], g["target"], g["window"]) for g in record["slo"]["per_group"]] == [
        (["a"], 0.93, "90s"), (["b"], 0.97, "90s")]
    back = slo_from_dict(record["slo"])
    assert back.slo_for("a") == SLO(target=0.93, window="90s")
    assert back.slo_for("b") == SLO(target=0.97, window="90s")


def test_the_record_keeps_the_period_of_an_slo_file(tmp_path, capsys):
    slo_file = tmp_path / "o.yaml"
    assert main(["export", "openslo", "--target", "0.9", "--window", "1h", "--period", "7d",
                 str(slo_file)]) == 0
    record = _record(tmp_path, "--slo", str(slo_file))
    capsys.readouterr()
    assert record["slo"]["period"] == "7d"
    assert slo_from_dict(record["slo"]) == SLO(target=0.9, window="1h", period="7D")


def test_records_written_before_still_read():
    # the shorter dict the record kept before: no period; per group, no base and no default
    one = {"target": 0.95, "window": "90s", "warning": 0.5, "critical": 0.1, "min_events": 0}
    assert slo_from_dict(one) == SLO(target=0.95, window="90s")
    per = {"per_group": [{"group": ["a"], "target": 0.93, "window": "1h", "warning": 0.5,
                          "critical": 0.1, "min_events": 3}], "binding": None}
    back = slo_from_dict(per)
    assert back.slo_for("a") == SLO(target=0.93, window="1h", min_events=3)
    assert back.slo_for(("a",)).period == pd.Timedelta(days=30)
    with pytest.raises(ConfigError, match="no SLO for the group b"):
        back.slo_for("b")  # a group the record does not name: refused, not guessed
