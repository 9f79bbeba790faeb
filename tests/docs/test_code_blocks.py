"""Every code block of README.md and docs/**/*.md runs (or says why it cannot).

* ``python`` blocks run page by page in one namespace, in a temporary working folder that holds the
  sample files (tests/docs/conftest.py); the page's blocks share that folder with its command
  blocks.
* ``bash``/``console`` blocks whose commands all start with ``budgetlab `` or ``python -m
budgetlab``
  run each command as a subprocess (the checkout's budgetlab) and must exit 0.
* Any other block of code carries ``<!-- not executed: REASON -->`` on the line above it.
* ``yaml``/``json`` blocks are parsed; ``text``/``output`` blocks are shown output, not code.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.docs.doc_blocks import (
    PYTHON_LANGUAGES,
    ROOT,
    SAMPLE_FILES_CODE,
    SHELL_LANGUAGES,
    SHOWN_LANGUAGES,
    Block,
    blocks,
    pages,
)

PAGES = pages()


def strip_comment(line: str) -> str:
    """The line without its comment: as in bash, ``#`` starts one at the start of a word, outside
    quotes (``slos.yaml#NAME`` is no comment)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def commands(block: Block) -> list[list[str]]:
    """The block's commands as argument lists (continuation lines joined, comments dropped)."""
    text = block.code.replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("$ "):
            line = line[2:]
        argv = shlex.split(strip_comment(line))
        if argv:
            out.append(argv)
    return out


def is_cli(argv: list[str]) -> bool:
    """``budgetlab ...``, ``python -m budgetlab ...`` or ``python -m budgetlab.SUBMODULE ...``."""
    if argv[0] == "budgetlab":
        return True
    return len(argv) > 2 and argv[:2] == ["python", "-m"] and argv[2].split(".")[0] == "budgetlab"


def runnable(block: Block) -> bool:
    if block.language in PYTHON_LANGUAGES:
        return True
    if block.language in SHELL_LANGUAGES:
        cmds = commands(block)
        return bool(cmds) and all(is_cli(c) for c in cmds)
    return False


def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_command_parsing() -> None:
    """Comments and continuation lines are read as bash reads them (hand-written cases)."""
    assert strip_comment("budgetlab replay x --slo a.yaml#b   # it's a "
                         "comment") == "budgetlab replay x --slo a.yaml#b   "
    assert strip_comment("--selector 'job=\"a #b\"' # c") == "--selector 'job=\"a #b\"' "
    b = Block(ROOT / "README.md", 1, "bash",
              "# a comment\nbudgetlab replay a.csv \\\n    --by 'x y'  # why\n", None)
    assert commands(b) == [["budgetlab", "replay", "a.csv", "--by", "x y"]]
    assert runnable(b)
    assert not runnable(Block(ROOT / "README.md", 1, "bash", "pip install .\n", None))


def test_example_files_are_shown_as_made() -> None:
    """docs/cli.md shows the code that makes the example files, exactly as the tests make them."""
    shown = [b.code for b in blocks(ROOT / "docs" / "cli.md") if b.language == "python"]
    assert SAMPLE_FILES_CODE in shown


def test_pages_found() -> None:
    names = {_page_id(p) for p in PAGES}
    assert {"README.md", "docs/index.md", "docs/own-log.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_block_runs_or_says_why(page: Path) -> None:
    problems = []
    for b in blocks(page):
        if not b.language:
            problems.append(f"{b.where}: a fenced block needs a language (python, bash, text, ...)")
        elif b.language in SHOWN_LANGUAGES:
            continue
        elif b.not_executed is None and not runnable(b):
            problems.append(f"{b.where}: {b.language} block cannot be executed by the docs test; "
                            "put <!-- not executed: REASON --> on the line above it")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_data_blocks_parse(page: Path) -> None:
    for b in blocks(page):
        if b.not_executed is not None:
            continue
        if b.language == "yaml":
            assert [doc for doc in yaml.safe_load_all(b.code) if doc is not None], (
                f"{b.where}: empty YAML"
            )
        elif b.language == "json":
            assert json.loads(b.code) is not None, f"{b.where}: empty JSON"


def _run_python(b: Block, namespace: dict) -> None:
    import matplotlib.pyplot as plt

    with contextlib.redirect_stdout(io.StringIO()):
        try:
            exec(compile(b.code, b.where, "exec"), namespace)
        finally:
            plt.close("all")


def _run_cli(b: Block, cwd: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg", TQDM_DISABLE="1", COLUMNS="100")
    for argv in commands(b):
        if argv[0] == "budgetlab":
            argv = ["-m", "budgetlab", *argv[1:]]
        else:
            argv = argv[1:]
        proc = subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True,
                              text=True,
                              timeout=300, check=False)
        assert proc.returncode == 0, (f"{b.where}: `{shlex.join(argv)}` exited {proc.returncode}:\n"
                                      f"{proc.stderr[-2000:]}")


@pytest.mark.parametrize("page", [p for p in PAGES if any(
    runnable(b) and b.not_executed is None for b in blocks(p))], ids=_page_id)
def test_page_blocks_execute(page: Path, page_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(page_dir)
    monkeypatch.setenv("TQDM_DISABLE", "1")
    namespace: dict = {"__name__": f"docs_page_{page.stem}"}
    for b in blocks(page):
        if b.not_executed is not None or not runnable(b):
            continue
        if b.language in PYTHON_LANGUAGES:
            _run_python(b, namespace)
        else:
            _run_cli(b, page_dir)


def block_counts() -> dict[str, int]:
    """How many blocks run, are shown output/data, or are marked not executed (for the report)."""
    counts = {"python": 0, "cli": 0, "shown": 0, "not_executed": 0}
    for page in PAGES:
        for b in blocks(page):
            if b.not_executed is not None:
                counts["not_executed"] += 1
            elif b.language in PYTHON_LANGUAGES:
                counts["python"] += 1
            elif runnable(b):
                counts["cli"] += 1
            else:
                counts["shown"] += 1
    return counts


if __name__ == "__main__":  # python tests/docs/test_code_blocks.py: the counts and the reasons
    print(block_counts())
    for page in PAGES:
        for b in blocks(page):
            if b.not_executed is not None:
                print(f"{b.where}: {b.not_executed}")
