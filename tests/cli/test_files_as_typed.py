"""A file the user gave is named in the command's messages as typed (``path_label``: the path as
written, a placeholder when it looks like personal data), as every "wrote ... to" line names it.
Before stop 56 the notes and refusals on an ``--slo`` file, latency's among them, named its last
part only (``hist.yaml``, read from another folder: which one?), the ``FILE#NAME`` line quoted
it cut to 40 characters, ``replay``'s incidents heading named the ``--incidents`` file's last
part, and ``incident --id`` showed a file name that looks like personal data.

Each run is from the folder that holds ``slos/``, ``data/``; the oracles are the paths typed."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from tests.group_slos import group_slos

PERSONAL = "a file whose name looks like personal data (not shown)"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """``data/log.csv`` (eight events, groups a and b, durations in ms), ``data/inc.csv`` (one
    incident), ``slos/`` (empty); the current folder is their parent."""
    (tmp_path / "data").mkdir()
    (tmp_path / "slos").mkdir()
    pd.DataFrame({"ts": [f"2026-01-01T00:{m:02d}:00Z" for m in range(8)],
                  "outcome": ["success"] * 7 + ["timeout"], "g": list("aaaaabbb"),
                  "ms": [1000, 4000, 12000, 1500, 2000, 3000, 7000, 30000]}).to_csv(
        tmp_path / "data" / "log.csv", index=False)
    (tmp_path / "data" / "inc.csv").write_text("incident_id,start,end\n"
                                               "A,2026-01-01T00:02:00Z,2026-01-01T00:04:00Z\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


LATENCY = ["latency", "data/log.csv", "--duration", "ms", "--duration-unit", "ms", "--n-boot",
           "0"]


def _said(capsys) -> tuple[str, str]:
    out, err = capsys.readouterr()
    return " ".join(out.split()), " ".join(err.split())


def test_latency_notes_name_the_slo_file_as_typed(here, capsys):
    assert main(["export", "openslo", "slos/hist.yaml", "--target", "0.9", "--service", "app",
                 "--name", "lat", "--histogram", "h", "--slow-above", "1s"]) == 0
    capsys.readouterr()
    assert main([*LATENCY, "--slo", "slos/hist.yaml", "--thresholds", "5s"]) == 0
    assert ("slos/hist.yaml is a latency SLO (events within 1 s), not among --thresholds: add 1s "
            "for the file's own") in _said(capsys)[1]
    # a log command that takes the threshold as --slow-above says where it came from
    assert main(["buckets", "data/log.csv", "--slo", "slos/hist.yaml", "--duration", "ms",
                 "--duration-unit", "ms"]) == 0
    assert "--slow-above 1s: the latency threshold of slos/hist.yaml" in _said(capsys)[1]
    assert main(["alerts", "data/log.csv", "--slo", "slos/hist.yaml", "--incidents",
                 "data/inc.csv"]) == 2
    assert _said(capsys)[1].startswith(
        "budgetlab: error: slos/hist.yaml is a latency SLO (events within 1 s); give --duration")


def test_a_slo_file_that_looks_personal_is_not_shown(here, capsys):
    name = "slos/ivan.petrov@mail.ru.yaml"
    assert main(["export", "openslo", name, "--target", "0.9", "--service", "app", "--name",
                 "lat", "--histogram", "h", "--slow-above", "1s"]) == 0
    capsys.readouterr()
    assert main([*LATENCY, "--slo", name, "--thresholds", "5s"]) == 0
    out, err = _said(capsys)
    assert f"{PERSONAL} is a latency SLO (events within 1 s)" in err
    assert "ivan" not in out + err


def test_the_picked_slo_is_named_as_typed(here, capsys):
    (here / "slos" / "slos.yaml").write_text(group_slos())
    assert main([*LATENCY, "--slo", "slos/slos.yaml#lat-b", "--thresholds", "5s"]) == 0
    assert "slos/slos.yaml#lat-b: the events its labels select, g=b: 3 of 8" in _said(capsys)[0]


def test_incident_files_are_named_as_typed(here, capsys):
    assert main(["replay", "data/log.csv", "--window", "1h", "--incidents", "data/inc.csv"]) == 0
    assert "Incidents (1 in data/inc.csv; times UTC)" in _said(capsys)[0]
    (here / "data" / "ivan.petrov@mail.ru.csv").write_text((here / "data" / "inc.csv").read_text())
    assert main(["incident", "data/log.csv", "--incidents", "data/ivan.petrov@mail.ru.csv",
                 "--id", "B"]) == 2
    assert capsys.readouterr().err == (f"budgetlab: error: --id: no incident with this id in "
                                       f"{PERSONAL}; see its incident_id column.\n")
