"""Every output flag of every command refuses a folder that does not exist or that does not let
budgetlab create files, before the work, in one line that names the flag first
(``--summary-out: folder 'no-such-folder' does not exist; create it first.``). The oracle is the
flag given on the command line and the folder's own name."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main

N_ROWS = 200


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    """A small event log (with durations) and an incidents table."""
    ts = pd.date_range("2026-11-03T08:00Z", periods=N_ROWS, freq="min")
    i = np.arange(N_ROWS)
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(i % 7, "success", "timeout"),
                  "region": np.where(i % 2, "fra", "ams"), "ms": i}).to_csv(log, index=False)
    incidents = tmp_path / "incidents.csv"
    incidents.write_text("incident_id,kind,start,end,scope,severity\n"
                         "i1,timeout,2026-11-03T09:00Z,2026-11-03T09:30Z,*,0.5\n")
    return {"log": log, "incidents": incidents}


# command -> (its arguments before the output flags, with {log} and {incidents}; its output flags:
# None is a positional output)
COMMANDS: dict[str, tuple[list[str], list[str | None]]] = {
    "demo": (["demo"], ["--out", "--plot"]),
    "replay": (["replay", "{log}"], ["--out", "--plot", "--summary-out"]),
    "recalibrate": (["recalibrate", "{log}"], ["--out", "--plot"]),
    "compare-windows": (["compare-windows", "{log}", "--windows", "1h,2h"], ["--out", "--plot"]),
    "buckets": (["buckets", "{log}"], ["--out", "--plot"]),
    "incident": (["incident", "{log}", "--start", "2026-11-03T09:00", "--end",
                  "2026-11-03T09:30"], ["--out", "--plot", "--tiers-out"]),
    "alerts": (["alerts", "{log}", "--incidents", "{incidents}"], ["--out", "--plot"]),
    "latency": (["latency", "{log}", "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "50ms"], ["--out", "--plot"]),
    # a closed port: the outputs are refused before any request
    "backtest": (["backtest", "--prometheus", "http://127.0.0.1:9/", "--total", "t",
                  "--errors", "e", "--target", "0.99", "--policy", "workbook"],
                 ["--out", "--plot"]),
    "export openslo": (["export", "openslo"], [None]),
    "export prometheus": (["export", "prometheus"], [None]),
}
CASES = [(command, flag) for command, (_, flags) in COMMANDS.items() for flag in flags]


def _argv(command: str, flag: str | None, folder: Path, inputs: dict[str, Path]) -> list[str]:
    name = "t.png" if flag == "--plot" else "t.yaml" if flag is None else "t.csv"
    given = [a.format(**{k: str(v) for k, v in inputs.items()}) for a in COMMANDS[command][0]]
    return [*given, *([] if flag is None else [flag]), str(folder / name)]


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A folder without write permission (restored afterwards, for the clean-up)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as root: permissions do not stop this user from creating files "
                        "in a read-only folder")
        yield folder
    finally:
        folder.chmod(stat.S_IRWXU)


@pytest.mark.parametrize(("command", "flag"), CASES)
def test_a_missing_folder_is_refused_naming_the_flag(command, flag, tmp_path, inputs, capsys):
    missing = tmp_path / "no-such-folder"
    assert main(_argv(command, flag, missing, inputs)) == 2
    captured = capsys.readouterr()
    named = flag if flag is not None else "OUT.yaml"  # the positional's name in the usage line
    assert captured.err == (f"budgetlab: error: {named}: folder 'no-such-folder' does not exist; "
                            "create it first.\n")
    assert captured.out == ""  # before the work
    assert not missing.exists()


@pytest.mark.parametrize(("command", "flag"), CASES)
def test_a_read_only_folder_is_refused_naming_the_flag(command, flag, read_only, inputs, capsys):
    before = sorted(os.listdir(read_only))
    assert main(_argv(command, flag, read_only, inputs)) == 2
    captured = capsys.readouterr()
    named = flag if flag is not None else "OUT.yaml"
    name = "t.png" if flag == "--plot" else "t.yaml" if flag is None else "t.csv"
    assert captured.err == (f"budgetlab: error: {named}: '{name}' cannot be written, its folder "
                            "'read-only' does not let budgetlab create files (Permission denied); "
                            "give an output in a folder you can write to.\n")
    assert captured.out == ""
    assert sorted(os.listdir(read_only)) == before  # no probe file left behind


def test_notebooks_refuse_a_read_only_html_folder_naming_the_flag(read_only, capsys):
    """``--html`` names a folder that it creates when missing: refused when it cannot be made
    there, and each HTML file in an existing folder that does not let budgetlab create files
    (named by the flag and the file, the plan's name for it)."""
    assert main(["notebooks", "--html", str(read_only / "new")]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --html 'new': cannot create the folder "
                                       "in 'read-only' (Permission denied); give a folder you can "
                                       "write to.\n")
    assert main(["notebooks", "--html", str(read_only)]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("budgetlab: error: --html 01_recalibrate_slo.html: cannot be written, "
                            "its folder 'read-only' does not let budgetlab create files "
                            "(Permission denied); give an output in a folder you can write to.\n")
    assert captured.out == "" and os.listdir(read_only) == []


def test_every_command_with_outputs_is_covered():
    """A command added with an output flag joins the table above (``notebooks --html`` names a
    folder that it creates when missing: tested on its own above)."""
    import argparse

    from budgetlab.cli.app import build_parser

    def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        return next(a.choices for a in parser._actions
                    if isinstance(a, argparse._SubParsersAction))

    with_outputs = set()
    for name, p in commands(build_parser()).items():
        parsers = {f"{name} {k}": v for k, v in commands(p).items()} if name == "export" \
            else {name: p}
        for full, q in parsers.items():
            flags = {s for a in q._actions for s in a.option_strings}
            if flags & {"--out", "--plot", "--summary-out", "--tiers-out"} or \
                    any(a.dest == "out" and not a.option_strings for a in q._actions):
                with_outputs.add(full)
    assert with_outputs == set(COMMANDS)
