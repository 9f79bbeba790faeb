"""Start-up (issue 20): ``budgetlab --help``, ``budgetlab COMMAND --help`` and argument errors
answer without importing pandas, numpy, numba, matplotlib or pyarrow; ``import budgetlab`` alone
imports none of them; every lazily exported name and module resolves; each subcommand's handler
is found where its parser says. Nothing here is timed (speed: benchmarks/bench_startup.py).

The oracle for "what was imported" is the interpreter itself: ``sys.modules`` of a fresh process,
or the module names ``python -X importtime`` reports.
"""

from __future__ import annotations

import importlib
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = {"pandas", "numpy", "numba", "matplotlib", "pyarrow", "scipy", "llvmlite"}
COMMANDS = ["demo", "replay", "export", "notebooks", "backtest", "recalibrate", "compare-windows",
            "buckets",
            "incident", "alerts", "latency"]

# Runs the command line once per argv (as the console script does) in a fresh interpreter and
# prints, as JSON, each call's exit status and output, and the heavy top-level packages imported.
_RUN_MANY = """
import contextlib, io, json, sys
sys.path.insert(0, {root!r})
from budgetlab.cli import main
calls = []
for argv in {argvs!r}:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    calls.append([argv, code, out.getvalue(), err.getvalue()])
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {heavy!r})
print(json.dumps({{"calls": calls, "heavy": heavy}}))
"""


def _run_many(argvs: list[list[str]]) -> dict:
    code = _RUN_MANY.format(root=str(ROOT), argvs=argvs, heavy=HEAVY)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT)
    return json.loads(proc.stdout)


def test_help_of_every_command_imports_nothing_heavy():
    argvs = [["--help"], ["--version"], *([c, "--help"] for c in COMMANDS),
             ["export", "openslo", "--help"], ["export", "prometheus", "--help"]]
    got = _run_many(argvs)
    assert got["heavy"] == []
    for argv, code, out, err in got["calls"]:
        assert code == 0 and err == "", argv
        want = "budgetlab 0." if argv == ["--version"] else ("usage: budgetlab "
                                                             f"{' '.join(argv[:-1])}").rstrip()
        assert out.startswith(want), (argv, out[:80])
    top = got["calls"][0][2]
    for command in COMMANDS:  # the top-level help lists every subcommand
        assert command in top


@pytest.mark.parametrize(("argv", "message"), [
    (["nosuch"], "argument COMMAND: invalid choice: 'nosuch'"),
    (["replay"], "the following arguments are required: log (see 'budgetlab replay --help')"),
    (["replay", "x.csv", "--epoch", "bad"], "argument --epoch: invalid choice: 'bad'"),
    (["recalibrate", "x.csv", "--step", "abc"], "argument --step: invalid number value: 'abc'"),
    (["alerts", "x.csv"], "the following arguments are required: --incidents"),
    (["demo", "--gap"], "argument --gap: expected one argument"),
    (["backtest"], "the following arguments are required: --prometheus"),
    (["export"], "the following arguments are required: FORMAT"),
])
def test_an_argument_error_is_one_line_exit_2_and_imports_nothing_heavy(argv, message):
    got = _run_many([argv])
    [(_, code, out, err)] = got["calls"]
    assert code == 2 and out == ""
    assert err.startswith("budgetlab: error: ") and err.count("\n") == 1 and message in err, err
    assert got["heavy"] == []


def test_the_console_entry_imports_nothing_heavy_for_help():
    # python -X importtime lists every module the interpreter imported (third column)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "budgetlab", "replay",
                           "--help"],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    imported = {
        line.split("|")[-1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "budgetlab.cli.commands" in imported  # the listing is complete enough to see the parsers
    assert not {m.split(".")[0] for m in imported} & HEAVY, sorted(
        m for m in imported if m.split(".")[0] in HEAVY
    )
    assert proc.stdout.startswith("usage: budgetlab replay")


def test_import_budgetlab_alone_imports_nothing_heavy():
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import budgetlab; "
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_lazy_names_and_modules_resolve_in_a_fresh_process():
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
            "from budgetlab import replay, plotting, synth, SLO\n"
            "import budgetlab, importlib\n"
            "assert replay is importlib.import_module('budgetlab.budget.tracker_replay').replay\n"
            "assert plotting is importlib.import_module('budgetlab.plotting')\n"
            "assert synth is importlib.import_module('budgetlab.datasets.synth')\n"
            "assert budgetlab.SLO is SLO and budgetlab.windows is "
            "importlib.import_module('budgetlab.windows')\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "ok"


def test_every_module_attribute_resolves_and_is_listed():
    import budgetlab

    for name, module in budgetlab._MODULES.items():
        assert getattr(budgetlab, name) is importlib.import_module(f"budgetlab.{module}"), name
        assert name in dir(budgetlab)
    assert set(budgetlab.__all__) <= set(dir(budgetlab))


def test_every_parser_names_a_handler_that_exists():
    from budgetlab.cli.app import build_parser
    from budgetlab.cli.commands import Command

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices) == COMMANDS  # the order --help lists them in
    lazy = {}
    for name, parser in sub.choices.items():
        func = parser.get_default("func")
        if name == "export":
            # two formats, each with its own handler in budgetlab.cli.export (no pandas at import)
            continue
        assert callable(func), name
        if isinstance(func, Command):
            lazy[name] = func
    assert set(lazy) == {"demo", "replay", "recalibrate", "compare-windows", "buckets", "incident",
                         "alerts", "latency"}
    for name, command in lazy.items():  # the module's table holds the handler the parser names
        module = importlib.import_module(f"budgetlab.cli.{command.module}")
        assert command.name == name and callable(module.COMMANDS[name]), name


def test_ctrl_c_while_a_command_module_is_imported_gives_one_line_and_exit_130(tmp_path):
    # the child waits inside the import of the module that does the work (after parsing), then is
    # interrupted
    script = f"""
import importlib.abc, sys, time
sys.path.insert(0, {str(ROOT)!r})
class Slow(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "budgetlab.cli.replay":
            sys.stdout.write("ready\\n"); sys.stdout.flush()
            time.sleep(120)
        return None
sys.meta_path.insert(0, Slow())
from budgetlab.cli import main
raise SystemExit(main(["replay", "missing.csv"]))
"""
    # Ctrl-C at its default, as a shell starts a command in the foreground (a test run started in
    # the background, `pytest &`, passes SIGINT ignored on to its children)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err == "budgetlab: interrupted; no output was written.\n"
