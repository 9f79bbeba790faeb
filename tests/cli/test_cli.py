"""The budgetlab command line: the main job, replay with outputs, and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, read_events, replay, transitions
from budgetlab.cli import main


@pytest.fixture
def log(tmp_path):
    rng = np.random.default_rng(3)
    n = 3000
    t = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 2 * 86400,
                                                                                   n)), unit="s")
    outcome = np.where(rng.random(n) < 0.94, "success", np.where(rng.random(n) < 0.5, "timeout",
                                                                 "solve_error"))
    frame = pd.DataFrame({"ts": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "outcome": outcome,
                          "captcha_type": rng.choice(["recaptcha_v2", "turnstile"], n)})
    path = tmp_path / "log.csv"
    frame.to_csv(path, index=False)
    return path


def test_replay_writes_the_transitions_the_api_computes(log, tmp_path, capsys):
    out = tmp_path / "tr.csv"
    png = tmp_path / "timeline.png"
    rc = main(["replay", str(log), "--target", "0.95", "--window", "1h", "--by", "captcha_type",
               "--out", str(out), "--plot", str(png)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "recaptcha_v2" in printed and "turnstile" in printed and "Transitions" in printed
    events = read_events(log, by="captcha_type")
    want = transitions(replay(events, SLO(target=0.95, window="1h"), by="captcha_type"))
    got = pd.read_csv(out)
    assert len(got) == len(want) > 0
    assert got["to_status"].tolist() == want["to_status"].astype(str).tolist()
    assert got["burn_rate"].tolist() == want["burn_rate"].tolist()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_existing_output_needs_force(log, tmp_path, capsys):
    out = tmp_path / "tr.csv"
    out.write_text("keep me")
    assert main(["replay", str(log), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err
    assert out.read_text() == "keep me"
    assert main(["replay", str(log), "--out", str(out), "--force"]) == 0
    assert out.read_text() != "keep me"


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["replay", "{log}", "--target", "1.5"], "target"),
        (["replay", "{log}", "--window", "0h"], "window"),
        (["replay", "{log}", "--time", "tss"], "'ts'"),  # suggests the closest name
        (["replay", "{log}", "--critical", "0.6"], "critical"),
        (["replay", "{missing}"], "no such file"),
        (["replay"], "required"),
        (["nosuchcommand"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(argv, needle, log, tmp_path, capsys):
    argv = [a.format(log=log, missing=tmp_path / "nope.csv") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert needle in err
    assert "Traceback" not in err


def test_console_script_runs_as_a_process(log):
    proc = subprocess.run([sys.executable, "-m", "budgetlab.cli", "replay", str(log), "--target",
                           "7"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("budgetlab: error:") and "Traceback" not in proc.stderr


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_demo_prints_the_summary_and_the_transitions_of_the_api(capsys, tmp_path):
    from budgetlab import datasets
    from budgetlab.cli.demo import DEMO_TARGETS

    out = tmp_path / "demo.csv"
    assert main(["demo", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Summary" in printed and "Transitions" in printed and "Injected incidents" in printed
    events = datasets.load("demo")
    want = []
    for ctype, target in DEMO_TARGETS.items():  # oracle: one replay per type, each with its target
        sub = events[events["captcha_type"] == ctype]
        want.append(transitions(replay(sub, SLO(target=target, window="24h"), by="captcha_type")))
    want = pd.concat(want).sort_values("ts", kind="stable")
    got = pd.read_csv(out)
    assert len(got) == len(want) > 0
    assert sorted(got["to_status"]) == sorted(want["to_status"].astype(str))
    for ctype in DEMO_TARGETS:
        assert ctype in printed
        n = int((want["captcha_type"] == ctype).sum())
        assert f" {n} " in next(
            line for line in printed.splitlines() if line.strip().startswith(ctype)
        )


# Ctrl-C (SIGINT) at any point of a run: one line, exit status 130, no traceback, nothing left.
# The child announces on stdout when it reaches the chosen point and then waits there, so the
# signal lands exactly where the test says (no timing).
_SLOW_IMPORT = """
import importlib.abc, sys, time
class Slow(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            sys.stdout.write("ready\\n"); sys.stdout.flush()
            time.sleep(120)
        return None
sys.meta_path.insert(0, Slow())
from budgetlab.cli import main  # what the console script does
raise SystemExit(main({argv!r}))
"""

_SLOW_PUBLISH = """
import sys, time
import budgetlab._util.files as files
def slow(*args, **kwargs):
    sys.stdout.write("ready\\n"); sys.stdout.flush()
    time.sleep(120)
files._publish = slow
from budgetlab.cli import main
raise SystemExit(main({argv!r}))
"""


def _interrupt_when_ready(script: str, cwd) -> subprocess.CompletedProcess:
    import signal

    # Ctrl-C at its default, as a shell starts a command in the foreground (a test run started in
    # the background, `pytest &`, passes SIGINT ignored on to its children)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for line in proc.stdout:  # what the run prints first, then the marker
            if line == "ready\n":
                break
        else:
            raise AssertionError(f"the child never got ready: {proc.stderr.read()!r}")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("module", ["budgetlab.cli.app", "pandas"])
def test_ctrl_c_during_start_up_gives_one_line_and_exit_130(module, tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = f"import sys; sys.path.insert(0, {str(root)!r})\n" + _SLOW_IMPORT.format(
        module=module, argv=["replay", "missing.csv"])
    proc = _interrupt_when_ready(script, tmp_path)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == "budgetlab: interrupted; no output was written.\n"


def test_ctrl_c_while_an_output_is_published_leaves_the_old_output_and_no_temporary_file(log,
                                                                                         tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "tr.csv"
    out.write_text("previous result")
    before = log.read_bytes()
    script = f"import sys; sys.path.insert(0, {str(root)!r})\n" + _SLOW_PUBLISH.format(
        argv=["replay", str(log), "--window", "1h", "--out", str(out), "--force"])
    proc = _interrupt_when_ready(script, tmp_path)
    assert proc.returncode == 130, proc.stderr
    # stderr holds the reading report, then exactly one line about the interruption
    assert proc.stderr.endswith("budgetlab: interrupted; none of its outputs was written ('tr.csv' "
                                "and 'tr.csv.run.json'); the earlier 'tr.csv' is left as it "
                                "was.\n")
    assert proc.stderr.count("budgetlab:") == 1 and "Traceback" not in proc.stderr
    assert out.read_text() == "previous result" and log.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.csv", "tr.csv"]


@pytest.mark.parametrize("entry", [["-m", "budgetlab"], ["-m", "budgetlab.cli"]])
def test_both_module_entries_run_the_command_line(entry):
    proc = subprocess.run([sys.executable, *entry, "--version"], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0 and proc.stdout.startswith("budgetlab ")


def test_the_package_attribute_main_is_the_entry_function():
    import importlib

    import budgetlab.cli

    # the parser and the run: no submodule named main
    app = importlib.import_module("budgetlab.cli.app")
    assert callable(budgetlab.cli.main) and budgetlab.cli.main.__module__ == "budgetlab.cli"
    assert type(budgetlab.cli) is type(importlib)  # a plain module (no class swapped in)
    assert callable(app.build_parser) and not hasattr(budgetlab.cli, "build_parser")  # one home
