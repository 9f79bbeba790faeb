"""Output a page shows is what its command prints (test_code_blocks.py checks that the commands
run; this checks the words of the shown blocks that stand for a command's output)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.docs.doc_blocks import DOCS, ROOT, blocks
from tests.docs.test_code_blocks import commands


def test_own_log_shows_the_how_it_was_read_block_the_latency_command_prints(page_dir: Path):
    """docs/own-log.md shows the "how it was read" block of ``jobs.csv`` read with
    ``--slow-above 2s``: it named the file ``job_status.csv`` (the fixture's name, not the one
    the command reads) and the mapping ``outcomes=`` (the API's words; the command says
    ``--outcomes``), and left out the note on the duration column."""
    page = blocks(DOCS / "own-log.md")
    shown = next(b.code for b in page if b.language == "text"
                 and b.code.startswith("how it was read: jobs.csv"))
    command = next(argv for b in page if b.language == "bash" for argv in commands(b)
                   if "--slow-above" in argv)
    assert command[:2] == ["budgetlab", "replay"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg", TQDM_DISABLE="1",
               COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "budgetlab", *command[1:]], cwd=page_dir, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    printed = proc.stderr.splitlines()
    want = shown.splitlines()
    assert printed[:len(want)] == want
    rest = printed[len(want):]
    assert not rest or not rest[0].startswith("  "), "the page's block stops inside the block"


def test_latency_quotes_the_x_label_its_shares_command_draws(page_dir, monkeypatch, capsys):
    """docs/latency.md quoted the shares figure's x label of NAB's ec2 series (attempts
    2014-03-07 03:41 .. 2014-03-21 03:41), a metric series ``latency`` refuses. It quotes the
    label its own shares command draws on its sample log: the span from the log's first attempt
    to its last, read from the file (the oracle)."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from budgetlab.cli import latency as cli_latency
    from budgetlab.cli import main

    page = blocks(DOCS / "latency.md")
    monkeypatch.chdir(page_dir)
    maker = next(b.code for b in page if b.language == "python" and "to_csv(\"latency_log.csv\""
                 in b.code)
    exec(compile(maker, "docs/latency.md", "exec"), {})  # the page's own sample log
    command = next(argv for b in page if b.language == "bash" for argv in commands(b)
                   if argv[:2] == ["budgetlab", "latency"] and "--timeouts" not in argv)
    drawn = []

    def keep(draw, path, *, force):
        fig, ax = plt.subplots()
        draw(ax)
        drawn.append(ax.get_xlabel())
        plt.close(fig)

    monkeypatch.setattr(cli_latency, "save_plot", keep)
    assert main(command[1:]) == 0
    capsys.readouterr()
    ts = pd.to_datetime(pd.read_csv("latency_log.csv", usecols=["ts"])["ts"], utc=True)
    label = f"period start (UTC); attempts {ts.min():%Y-%m-%d %H:%M} .. {ts.max():%Y-%m-%d %H:%M}"
    assert drawn == [label]
    assert f"`{label}`" in (DOCS / "latency.md").read_text(encoding="utf-8")


def test_compare_windows_options_example_runs_without_a_warning():
    """docs/compare-windows.md's WindowOptions example scored the demo incident (scope
    captcha_type=recaptcha_v2) without by=, and each call warned that its scope restricted
    nothing (stop 59): it runs clean, as an example that means what it says."""
    import warnings

    from budgetlab import BudgetlabWarning

    code = next(b.code for b in blocks(DOCS / "compare-windows.md")
                if b.language == "python" and "WindowOptions(" in b.code)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BudgetlabWarning)
        exec(compile(code, "docs/compare-windows.md", "exec"), {})


def test_sre_model_quotes_the_filling_sentence_alerts_prints(page_dir: Path):
    """docs/sre-model.md quoted "began and ended in the log's first 1 d" where its own alerts
    command prints "first 24 h" (stop 59): the quoted sentence is one the command prints."""
    import re

    page = blocks(DOCS / "sre-model.md")
    command = next(argv for b in page if b.language == "bash" for argv in commands(b)
                   if argv[:2] == ["budgetlab", "alerts"])
    text = " ".join((DOCS / "sre-model.md").read_text().split())
    quoted = re.search(r"\"(3 episodes of ticket_1d began and ended in .+?\.)\"", text)
    assert quoted is not None
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg", TQDM_DISABLE="1",
               COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "budgetlab", *command[1:]], cwd=page_dir, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert quoted.group(1) in " ".join(proc.stdout.split())
