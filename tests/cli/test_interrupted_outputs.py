"""Ctrl-C during a run: the one line names the outputs written before it and those not written
(or says none were), and the files on disk are exactly those; at exit the console script ignores
a late Ctrl-C. The interruption is a writer raising KeyboardInterrupt, in process: no timing."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import budgetlab
from budgetlab.cli import main

#: the budgetlab this test imported, for the child process too
ROOT = Path(budgetlab.__file__).resolve().parents[1]
ARGS = ["replay", "log.csv", "--ok", "ok", "--target", "0.95", "--window", "1h", "--by", "g",
        "--out", "bt.csv", "--plot", "bt.png", "--summary-out", "bs.csv"]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder holding a small log, the working folder of the run."""
    rng = np.random.default_rng(61)
    n = 400
    ts = pd.Timestamp("2026-03-01", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 6 * 3600,
                                                                                    n)), unit="s")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                  "ok": rng.random(n) < 0.93, "g": rng.choice(["a", "b"], n)}).to_csv(
        tmp_path / "log.csv", index=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _interrupt(monkeypatch, module: str, name: str) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module + "." + name, interrupted)


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "log.csv")


def test_ctrl_c_while_the_plot_is_drawn_names_the_outputs_written_and_the_one_not(
        here, monkeypatch, capsys):
    _interrupt(monkeypatch, "budgetlab._util.figures", "save_figure")
    assert main(ARGS) == 130
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == ("budgetlab: interrupted; wrote 'bs.csv', 'bt.csv' and "
                                    "'bt.csv.run.json' before the interrupt; 'bt.png' was not "
                                    "written.")
    assert _files(here) == ["bs.csv", "bt.csv", "bt.csv.run.json"]


def test_ctrl_c_before_any_output_says_none_was_written_and_the_old_one_is_kept(
        here, monkeypatch, capsys):
    (here / "bt.png").write_bytes(b"old picture")
    _interrupt(monkeypatch, "budgetlab._util.files", "write_table")
    assert main([*ARGS, "--force"]) == 130
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == ("budgetlab: interrupted; none of its outputs was written "
                                    "('bt.csv', 'bt.png', 'bs.csv' and 'bt.csv.run.json'); the "
                                    "earlier 'bt.png' is left as it was.")
    assert _files(here) == ["bt.png"] and (here / "bt.png").read_bytes() == b"old picture"


def test_ctrl_c_after_every_output_names_them_all(here, monkeypatch, capsys):
    from budgetlab._util import figures

    real = figures.save_figure

    def save_then_interrupt(*args, **kwargs):  # the timeline is replay's last output
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(figures, "save_figure", save_then_interrupt)
    assert main(ARGS) == 130
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == ("budgetlab: interrupted; wrote 'bs.csv', 'bt.csv', "
                                    "'bt.csv.run.json' and 'bt.png' before the interrupt.")
    assert _files(here) == ["bs.csv", "bt.csv", "bt.csv.run.json", "bt.png"]


def test_the_console_script_ignores_ctrl_c_once_the_run_has_ended(tmp_path):
    # at exit the interpreter restores SIGINT's default action (death by signal, no line) for a
    # handler of its own, but leaves an ignored signal ignored
    script = (f"import signal, sys; sys.path.insert(0, {str(ROOT)!r})\n"
              "sys.argv = ['budgetlab', '--version']\n"
              "from budgetlab.cli import console\n"
              "code = console()\n"
              "print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN, code)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.splitlines()[-1] == "True 0", proc.stderr
