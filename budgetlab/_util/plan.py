"""The files of one run: its outputs are planned together before any work, and no two of them
may share a file (:func:`plan_outputs`); :func:`new_run` forgets the previous run's inputs and
outputs (the command line calls it first).
"""

from __future__ import annotations

import os
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .figures import PLOT_SUFFIXES
from .files import TABLE_SUFFIXES, check_output, shown_path
from .inputs import file_identity, forget_inputs
from .run_outputs import note_planned

__all__ = ["new_run", "plan_outputs"]

# the outputs planned in this run: option -> (real path, identity when the file exists)
_PLANNED: dict[str, tuple[str, tuple[int, int] | None]] = {}


def new_run() -> None:
    """Start a new run: forget the inputs and planned outputs of the previous one.

    The command line calls it first thing, so in-process runs (tests, notebooks calling
    :func:`budgetlab.cli.main`) do not see each other's files.

    >>> new_run()
    """
    forget_inputs()
    _PLANNED.clear()


def _output_key(p: Path) -> tuple[str, tuple[int, int] | None]:
    """What makes two output names the same file: the real path (symlinks, ``..`` and relative
    names resolved) or, for an existing file, its identity (hard links)."""
    return os.path.normcase(os.path.realpath(p)), file_identity(p)


def _same_file(a: tuple[str, tuple[int, int] | None], b: tuple[str, tuple[int,
                                                                          int] | None]) -> bool:
    return a[0] == b[0] or (a[1] is not None and a[1] == b[1])


def plan_outputs(outputs: dict[str, Any], *, force: bool = False) -> dict[str, Path]:
    """Check every output of one run before any work: ``{option: path or None}`` (e.g.
    ``{"--out": args.out, "--plot": args.plot}``).

    Refuses empty names, names too long for the file system, inputs of this run, special files,
    existing files without ``force``, folders that do not exist or do not let budgetlab create
    files (each refusal names its option first: ``--summary-out: folder 'x' does not exist``),
    for options whose name contains ``plot`` a suffix other than
    :data:`PLOT_SUFFIXES`, for ``--out`` (every command's table) a suffix other than ``.csv`` or
    ``.parquet``, and two outputs that are the same file (also through symlinks, hard
    links and ``..``, and also against the outputs planned earlier in the same run under another
    option: a command may plan a side file such as ``OUT.run.json`` in a second call). Returns the
    given ones as paths.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> new_run()
    >>> plan_outputs({"--out": d / "t.csv", "--plot": d / "t.png",
    ...               "--summary": None})["--plot"].name
    't.png'
    >>> plan_outputs({"--out": d / "a.csv", "--summary": d / "." / "a.csv"})
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --summary: names the same file as --out ('a.csv'); give each
    output its own name.
    """
    planned: dict[str, Path] = {}
    keys: dict[str, tuple[str, tuple[int, int] | None]] = {}
    for option, path in outputs.items():
        if path is None:
            continue
        if not isinstance(path, (str, PathLike)) or not os.fspath(path).strip():
            raise ConfigError(f"{option}: an empty file name; give a file name or leave the option "
                              "out.")
        p = check_output(path, force=force, option=option)
        if "plot" in option and p.suffix.lower() not in PLOT_SUFFIXES:
            raise ConfigError(f"{option}: a plot is written as {', '.join(PLOT_SUFFIXES)} (the "
                              "format follows the suffix); choose one of these suffixes.")
        if option == "--out" and p.suffix.lower() not in TABLE_SUFFIXES:
            raise ConfigError(f"--out: a table is written as {' or '.join(TABLE_SUFFIXES)} (the "
                              "format follows the suffix); choose one of these suffixes.")
        key = _output_key(p)
        for other, q in [*keys.items(), *((o, k) for o, k in _PLANNED.items() if o not in outputs)]:
            if _same_file(key, q):
                raise ConfigError(f"{option}: names the same file as {other} ({shown_path(p)}); "
                                  "give each output its own name.")
        planned[option] = p
        keys[option] = key
    _PLANNED.update(keys)
    for p in planned.values():  # what an interrupted run says it did not write
        note_planned(p)
    return planned
