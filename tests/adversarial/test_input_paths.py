"""Adversarial suite, inputs that are not a regular file: every reader refuses a missing path, a
folder and a FIFO (named pipe) in one wording, through the command line (exit 2, one line) and
the API: what the path is instead, then what to give, in the reader's words. A FIFO is never
opened: reading one waits for a writer that never comes (``--slo FIFO`` and ``export openslo
--from FIFO`` used to hang).

Oracle: the sentences below, written by hand as a user should read them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import budgetlab as bl
import budgetlab.dask as bdask
from budgetlab.cli.notebooks import find_notebooks
from budgetlab.errors import ConfigError, FileFormatError
from budgetlab.interop.openslo import load_slos, read_openslo, read_recalibration_table
from budgetlab.interop.sli_queries import read_slo_spec
from tests.adversarial.harness import Case, run_case

LOG = b"ts,outcome\n2026-11-29T00:00:00Z,success\n2026-11-29T00:05:00Z,timeout\n"
EMAIL = "ivan.petrov@example.org"

# what the path is instead (after "NAME: ")
IS = {
    "missing": "no such file; ",
    "no-folder": "no such file (its folder does not exist either); ",
    "folder": "is a folder, not a file; ",
    "fifo": "is a FIFO (named pipe), not a regular file; ",
}
# the path each kind is given as (in the case's folder)
PATH = {"missing": "nope.{ext}", "no-folder": "no/nope.{ext}", "folder": "dir.{ext}",
        "fifo": "fifo.{ext}"}


def _fifo(name: str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        os.mkfifo(folder / name)
    return make


def _folder(name: str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        (folder / name).mkdir()
    return make


def _cases(reader: str, ext: str, give: str, *, argv: Callable[[str], list[str]] | None,
           api: Callable[[Path], Any], kinds: tuple[str, ...] = tuple(IS),
           shown: Callable[[str], str] = lambda name: name,
           error: type[Exception] = FileFormatError) -> list[Case]:
    """The cases of one reader: ``argv(path)`` runs it on the command line, ``api(path)`` in
    Python; ``shown`` is how its messages show a file name."""
    out = []
    for kind in kinds:
        rel = PATH[kind].format(ext=ext)
        name = Path(rel).name
        made = {name: _fifo(name)} if kind == "fifo" else {name: _folder(name)} \
            if kind == "folder" else {}
        out.append(Case(f"{reader}-{kind}", argv=argv(f"{{d}}/{rel}") if argv else None,
                        files={"log.csv": LOG, **made},
                        needles=(f"{shown(name)}: {IS[kind]}{give}",),
                        api=lambda d, rel=rel: api(d / rel), api_error=error))
    return out


def _replay(*more: str) -> list[str]:
    return ["replay", "{d}/log.csv", "--window", "1h", *more]


BACKTEST = ["backtest", "--prometheus", "http://127.0.0.1:9", "--since", "1h", "--end",
            "2026-11-29T06:00:00Z"]

CASES = [
    *_cases("events", "csv", "give a log file (CSV, TSV, Parquet, JSON Lines or text), a folder "
            "of them or a glob such as 'logs/*.csv'.",
            argv=lambda p: ["replay", p, "--window", "1h"], api=bl.read_events,
            kinds=("missing", "no-folder", "fifo")),  # a folder is read as its files
    *_cases("incidents", "csv",
            "give the incidents as a CSV file (incident_id,start,end[,scope,kind]).",
            argv=lambda p: _replay("--incidents", p), api=bl.read_incidents, shown=repr),
    *_cases("openslo", "yaml", "give an OpenSLO, Sloth prometheus/v1 or Pyrra YAML file.",
            argv=lambda p: _replay("--slo", p), api=read_openslo),
    *_cases("openslo-from", "yaml", "give an OpenSLO, Sloth prometheus/v1 or Pyrra YAML file.",
            argv=lambda p: ["export", "openslo", "--from", p, "{d}/o.yaml"], api=load_slos,
            kinds=("folder", "fifo")),
    *_cases("slo-spec", "yaml", "give an OpenSLO, Sloth prometheus/v1 or Pyrra YAML file.",
            argv=lambda p: [*BACKTEST, "--slo", p], api=read_slo_spec),
    *_cases("recalibration", "csv", "give the recalibration table (.csv or .parquet).",
            argv=lambda p: ["export", "openslo", "--from-recalibration", p, "{d}/o.yaml"],
            api=read_recalibration_table),
    *_cases("dask", "parquet",
            "give a Parquet file, a folder of them or a glob such as 'logs/*.parquet'.",
            argv=None, api=bdask.read_events,
            kinds=("missing", "no-folder", "fifo")),  # a folder is a Parquet dataset
    *_cases("notebooks", "ipynb", "give --notebooks DIR or a .ipynb file.",
            argv=lambda p: ["notebooks", "--notebooks", p, "--html", "{d}/html"],
            api=find_notebooks, kinds=("missing", "no-folder", "fifo"),  # a folder is read
            error=ConfigError),
    # a personal file name is not shown, whatever the path is
    Case("incidents-personal-fifo", argv=_replay("--incidents", f"{{d}}/{EMAIL}.csv"),
         files={"log.csv": LOG, f"{EMAIL}.csv": _fifo(f"{EMAIL}.csv")},
         needles=("looks like personal data (not shown): is a FIFO (named pipe), not a regular "
                  "file; give the incidents as a CSV file",),
         api=lambda d: bl.read_incidents(d / f"{EMAIL}.csv"), forbidden=(EMAIL, "petrov")),
    Case("events-personal-missing-folder", argv=["replay", f"{{d}}/{EMAIL}/log.csv"],
         needles=("log.csv: no such file (its folder does not exist either); ",),
         api=lambda d: bl.read_events(d / EMAIL / "log.csv"), forbidden=(EMAIL, "petrov")),
]


@pytest.mark.timeout(60)  # a FIFO that is opened waits forever: fail instead
@pytest.mark.parametrize("case", CASES, ids=str)
def test_an_input_that_is_not_a_regular_file(case, tmp_path, capsys, monkeypatch):
    run_case(case, tmp_path, capsys, monkeypatch)
