"""The numba-or-numpy choice is made once, in ``budgetlab.windows.kernels.choice``: only it reads
``BUDGETLAB_KERNEL``, only the kernels package imports numba, and the switch acts at once."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from budgetlab.windows.kernels import KERNELS, compiled

PKG = Path(__file__).resolve().parents[2] / "budgetlab"


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _uses() -> tuple[set[str], set[str]]:
    """(modules reading the switch in code, modules importing numba), as paths in the package."""
    switch, numba = set(), set()
    for path in PKG.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        name = path.relative_to(PKG).as_posix()
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value == "BUDGETLAB_KERNEL"
                and id(node) not in docs
            ):
                switch.add(name)
            if isinstance(node,
                          ast.Import) and any(a.name.split(".")[0] == "numba" for a in node.names):
                numba.add(name)
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
                numba.add(name)
    return switch, numba


def test_one_module_reads_the_switch_and_one_imports_numba():
    switch, numba = _uses()
    assert switch == {"windows/kernels/choice.py"}
    assert numba == {"windows/kernels/_jit.py"}


def test_every_kernel_module_is_in_the_package():
    for module in set(KERNELS.values()):
        assert (PKG / "windows" / "kernels" / f"{module}.py").is_file()


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_the_switch_acts_at_once(name, monkeypatch):
    monkeypatch.setenv("BUDGETLAB_KERNEL", "numpy")
    assert compiled(name) is None
    monkeypatch.setenv("BUDGETLAB_KERNEL", "")
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba (a dependency) is not importable")
    kernel = compiled(name)
    assert kernel is not None and kernel.__name__ == name
