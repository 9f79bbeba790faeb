"""A small parametrized notebook written to a file, for the tests of ``budgetlab notebooks``
(tests/cli/test_notebooks_cli.py, and on the installed wheel: tests/test_installed_wheel.py)."""

from __future__ import annotations

from pathlib import Path

import nbformat


def small_notebook(path: Path, body: str, params: str = "n = 3") -> Path:
    """A notebook at ``path``: a cell tagged ``parameters`` (``params``), then ``body``."""
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(params)
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell, nbformat.v4.new_code_cell(body)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)
    return path
