"""Which notebooks ``budgetlab notebooks`` renders: those of its ``--notebooks`` values (each a
folder or one notebook; repeatable, in the order given, each notebook once), else the packaged
ones."""

from __future__ import annotations

import importlib.resources
import os
import tempfile
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from .._util.inputs import check_input_file
from ..errors import ConfigError
from .notebook_failures import FAILED_SUFFIX
from .prose import path_label

__all__ = ["find_notebooks", "chosen_notebooks", "DEFAULT_NOTEBOOKS"]

#: The notebooks that ship with the package (``budgetlab/notebooks/``, package data of the wheel).
DEFAULT_NOTEBOOKS: Traversable = importlib.resources.files("budgetlab").joinpath("notebooks")


def find_notebooks(spec: str | os.PathLike[str] | None = None) -> list[Path]:
    """The notebooks to render: one ``.ipynb`` file, or every ``*.ipynb`` of a folder (sorted by
    name, without hidden or ``_``-prefixed files); default: the packaged ones
    (:data:`DEFAULT_NOTEBOOKS`).
    A bare file name that is not in the working folder names a packaged notebook.

    >>> [p.name for p in find_notebooks()][:1]
    ['01_recalibrate_slo.ipynb']
    >>> [p.name for p in find_notebooks("04_incident_replay.ipynb")]
    ['04_incident_replay.ipynb']
    """
    path = Path(spec).expanduser() if spec is not None else _packaged_folder()
    if (
        spec is not None
        and not path.exists()
        and path.name == os.fspath(spec)
        and path.suffix == ".ipynb"
    ):
        packaged = _packaged_folder() / path.name
        if packaged.is_file():
            return [packaged]
    if path.is_dir():
        # an earlier run's failed copies are not notebooks to run
        found = sorted(p for p in path.glob("*.ipynb")
                       if not p.name.startswith((".", "_")) and not p.name.endswith(FAILED_SUFFIX))
        if not found:
            raise ConfigError(f"{path_label(path)}: holds no .ipynb notebooks; give --notebooks "
                              "DIR or a notebook file.")
        return found
    if spec is None:
        raise ConfigError("this installation of budgetlab has no notebooks (budgetlab/notebooks/ "
                          "is missing); "
                          "reinstall budgetlab, or give --notebooks DIR_OR_FILE.")
    # missing, a pipe or a device: refused; a folder was taken above
    check_input_file(path, name=str(path), give="give --notebooks DIR or a .ipynb file",
                     error=ConfigError)
    if path.suffix != ".ipynb":
        raise ConfigError(f"{path_label(spec)}: is not a notebook; give a .ipynb file or a "
                          "folder of them.")
    return [path]


def _packaged_folder() -> Path:
    """The packaged notebooks as a folder on disk (copied to a temporary folder from a zip
    install)."""
    if isinstance(DEFAULT_NOTEBOOKS, Path):
        return DEFAULT_NOTEBOOKS
    folder = Path(tempfile.mkdtemp(prefix="budgetlab-notebooks-"))
    if DEFAULT_NOTEBOOKS.is_dir():
        for item in DEFAULT_NOTEBOOKS.iterdir():
            if item.name.endswith(".ipynb"):
                (folder / item.name).write_bytes(item.read_bytes())
    return folder


def chosen_notebooks(specs: Sequence[str | os.PathLike[str]] | None) -> list[Path]:
    """The notebooks of every ``--notebooks`` value (:func:`find_notebooks` of each), in the order
    given, a notebook named twice (a folder and one of its files) once; none given: the packaged
    ones. Two different notebooks of one name are refused when their outputs are planned (their
    HTML files would collide).

    >>> [p.name for p in chosen_notebooks(["04_incident_replay.ipynb", "01_recalibrate_slo.ipynb",
    ...                                    "04_incident_replay.ipynb"])]
    ['04_incident_replay.ipynb', '01_recalibrate_slo.ipynb']
    """
    if not specs:
        return find_notebooks()
    chosen: dict[Path, Path] = {}
    for spec in specs:
        for path in find_notebooks(spec):
            chosen.setdefault(path.resolve(), path)
    return list(chosen.values())
