"""A notebook that failed: the one line that reports it, and its executed copy (with the error
cell) kept as ``OUT_DIR/<name>.failed.ipynb`` until the notebook succeeds into that folder.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["FAILED_SUFFIX", "error_line", "kept_text", "keep_failed", "drop_stale_failure"]

#: Suffix of the executed copy of a notebook that failed, kept next to the HTML files.
FAILED_SUFFIX = ".failed.ipynb"


def error_line(src: Path, exc: BaseException, kept: Path | None) -> str:
    """One line about a failed notebook. The value of an exception is shown only for budgetlab's
    own errors, whose messages never hold data values (other messages might)."""
    from .. import errors

    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = " ".join(str(getattr(exc, "evalue", "")).split())
    count = getattr(exc, "exec_count", None)
    where = f"cell [{count}]" if count is not None else "a cell"
    if ename in errors.__all__ and evalue:
        detail = f"{ename}: {evalue[:400].removesuffix('.')}"  # the line goes on after a ';'
    else:
        detail = f"{ename} (open the notebook, e.g. with jupyter lab, to see the traceback)"
    return f"{src.name}: {where} raised {detail}{kept_text(kept)}"


def kept_text(kept: Path | None) -> str:
    from .prose import path_label

    if kept is None:
        return "; no executed copy could be kept"
    return f"; the executed notebook with the error is {path_label(kept)}"


def keep_failed(executed: Path, target: Path) -> Path | None:
    """Copy the executed notebook (with its error cell) to ``OUT_DIR/<name>.failed.ipynb``; None
    when there is none or it cannot be written there (the notebook's own error is what to
    report)."""
    from .._util.files import atomic_path
    from ..errors import BudgetlabError

    if not executed.is_file():
        return None
    kept = target.with_name(target.stem + FAILED_SUFFIX)
    try:
        with atomic_path(kept, force=True) as tmp:
            tmp.write_bytes(executed.read_bytes())
    except (BudgetlabError, OSError):
        return None
    return kept


def drop_stale_failure(target: Path) -> None:
    """Remove the failed copy an earlier run left for a notebook that now succeeded."""
    from .._util.files import check_output

    stale = target.with_name(target.stem + FAILED_SUFFIX)
    if stale.is_file() and not stale.is_symlink():
        check_output(stale, force=True)  # never an input of this run
        stale.unlink()
