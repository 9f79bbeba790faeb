"""The packaged notebooks are their own source, thin and editable (issue 17, Required 3).

Each ``budgetlab/notebooks/*.ipynb`` (found by glob) is valid nbformat, committed without outputs,
at most 120 code lines, defines no function or class, imports only budgetlab's public API, starts
with one ``parameters`` cell of plain literal values (papermill), and passes ruff. Executing them
is the job of ``tests/test_installed_wheel.py`` (every notebook, from the built wheel) and of
``tests/analyses/test_notebooks_edge_data.py`` (on edge-case logs).
"""

from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "budgetlab" / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
MAX_CODE_LINES = 120
MAGIC = re.compile(r"^\s*[%!]")  # IPython magics and shell escapes are not Python


def _code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def _python(source: str) -> str:
    """A cell's source without IPython magic lines (what ast can parse)."""
    return "\n".join("" if MAGIC.match(line) else line for line in source.splitlines())


def _code_lines(nb) -> int:
    return sum(1 for c in _code_cells(nb) for line in c.source.splitlines() if line.strip())


def test_the_four_notebooks_are_packaged():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_recalibrate_slo.ipynb", "02_window_length.ipynb", "03_timeout_vs_solve.ipynb",
            "04_incident_replay.ipynb"} <= names
    assert not (ROOT / "notebooks" / "_build.py").exists(), ("the notebooks are the source; no "
                                                             "generator")


#: Where the pages count the notebooks in words: "four analyst stories", "runs four notebooks",
#: "# all four", "the four notebooks".
COUNTED = re.compile(r"# all (one|two|three|four|five|six|seven|eight|nine)\b"
                     r"|\b(one|two|three|four|five|six|seven|eight|nine) (?:analyst stories|"
                     r"notebooks)\b", re.IGNORECASE)
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def test_the_pages_count_the_notebooks_shipped():
    """The README and the docs say as many notebooks as ship (five since 05_latency_slo; they
    said four)."""
    want = WORDS[len(NOTEBOOKS)]
    said = {}
    for page in (ROOT / "README.md", ROOT / "docs" / "notebooks.md",
                 ROOT / "docs" / "architecture.md"):
        for m in COUNTED.finditer(page.read_text(encoding="utf-8")):
            said[f"{page.name}: {m.group(0)}"] = (m.group(1) or m.group(2)).lower()
    assert said, "the pages no longer count the notebooks: drop this test"
    assert {k: v for k, v in said.items() if v != want} == {}


def test_code_line_counter_counts_non_blank_lines():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("a = 1\n\n# note\nb = 2"),
                nbformat.v4.new_markdown_cell("x\ny")]
    assert _code_lines(nb) == 3  # a comment line counts, blank lines and markdown do not


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_valid_without_outputs_and_thin(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = _code_cells(nb)
    assert code, f"{path.name}: no code"
    for cell in code:
        assert cell.outputs == [], f"{path.name}: committed with outputs"
        assert cell.execution_count is None, f"{path.name}: committed with execution counts"
    assert _code_lines(nb) <= MAX_CODE_LINES, f"{path.name}: {_code_lines(nb)} code lines"
    assert sum(c.cell_type == "markdown" for c in nb.cells) >= len(code) // 2, (
        "explain what the analyst sees"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_definitions_and_public_imports_only(path):
    nb = nbformat.read(path, as_version=4)
    for cell in _code_cells(nb):
        tree = ast.parse(_python(cell.source))
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                         ast.Lambda)), \
                f"{path.name}: a definition ({type(node).__name__}) belongs in the package"
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
                names: list[str] = []
            elif isinstance(node, ast.ImportFrom):
                modules, names = [node.module or ""], [a.name for a in node.names]
            else:
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "bl"
                ):
                    assert not node.attr.startswith("_"), (f"{path.name}: private name "
                                                           f"bl.{node.attr}")
                continue
            for module in modules:
                if module.split(".")[0] != "budgetlab":
                    continue
                assert not any(part.startswith("_") for part in module.split(".")), (
                    f"{path.name}: {module}"
                )
                imported = importlib.import_module(module)
                for name in names:
                    assert not name.startswith("_"), f"{path.name}: private name {name}"
                    public = getattr(imported, "__all__", None)
                    assert public is None or name in public, (f"{path.name}: {module}.{name} is "
                                                              "not in __all__")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_one_parameters_cell_of_plain_values(path):
    nb = nbformat.read(path, as_version=4)
    code = _code_cells(nb)
    tagged = [c for c in code if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0] is code[0], ("the first code cell, and only it, is "
                                                       "tagged 'parameters'")
    tree = ast.parse(tagged[0].source)
    assert tree.body, "an empty parameters cell"
    names = []
    for stmt in tree.body:
        assert isinstance(stmt,
                          ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0],
                                                                                ast.Name), \
            f"{path.name}: the parameters cell holds only NAME = VALUE lines"
        value = ast.literal_eval(stmt.value)  # raises on anything but a literal
        assert value is None or isinstance(value, (str, int, float, bool)), \
            (f"{path.name}: {stmt.targets[0].id} must be a plain value (text, number, None), not "
             f"{type(value).__name__}")
        names.append(stmt.targets[0].id)
    # read: the reading flags as the command line writes them (budgetlab.cli.read_flags)
    assert {"source", "incidents", "read", "tz"} <= set(names)
    assert len(names) == len(set(names))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_papermill_reads_every_parameter(path):
    """``papermill --help-notebook`` lists every parameter (its parser cannot read a line with an
    ``=`` inside the value or the comment: per-group values are written ``group:value``)."""
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (the notebooks extra) reads the parameters")
    nb = nbformat.read(path, as_version=4)
    n_assignments = len(ast.parse(_code_cells(nb)[0].source).body)
    assert len(papermill.inspect_notebook(str(path))) == n_assignments


def test_ruff_passes_on_the_notebooks():
    ruff = shutil.which("ruff")
    if ruff is None:
        try:
            importlib.import_module("ruff")
        except ImportError:
            pytest.skip("ruff (the dev extra) is not installed")
        command = [sys.executable, "-m", "ruff"]
    else:
        command = [ruff]
    done = subprocess.run([*command, "check", "--no-cache", str(FOLDER)], cwd=ROOT,
                          capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_target_is_printed_through_a_float_format(path):
    """A target in a title is said as written (``given_percent``: 0.9125 is 91.25%), never
    through a float format of its percentage (``f"{x * 100:.6g}%"`` said 0.1 + 0.2 as 30% but
    0.99999999 as 100%)."""
    nb = nbformat.read(path, as_version=4)
    for cell in _code_cells(nb):
        assert not re.search(r"\*\s*100\s*:\s*\.\d*[fgeFGE%]", cell.source), (path.name,
                                                                              cell.source)
