"""The standing adversarial suite's harness (issue 15): one hostile case, checked the same way
through the CLI and through the API.

A :class:`Case` names the files to create (name -> bytes), the CLI arguments (``{d}`` stands for
the case's folder), the exit code and the words the one-line message must contain, optionally an
API call that must raise, and personal values that must appear nowhere: not in stdout, stderr,
an exception message, nor in any file the run leaves behind. :func:`run_case` checks all of it,
plus that every input file is byte-identical afterwards and that no hidden temporary file is
left in the folder.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from budgetlab.cli import main
from budgetlab.errors import BudgetlabError

__all__ = ["Case", "run_case", "snapshot"]


@dataclass
class Case:
    """One hostile input. ``argv`` may use ``{d}`` for the case's folder; ``files`` values are
    bytes (or a callable ``(folder) -> None`` that builds something special, e.g. a FIFO)."""

    id: str
    argv: list[str] | None = None
    files: dict[str, Any] = field(default_factory=dict)
    exit: int = 2
    needles: tuple[str, ...] = ()
    api: Callable[[Path], Any] | None = None
    api_error: type[BaseException] = BudgetlabError
    api_needles: tuple[str, ...] | None = None  # default: ``needles``
    forbidden: tuple[str, ...] = ()
    # output files the case may create (names relative to the folder)
    allowed_new: tuple[str, ...] = ()
    stdin: bytes | None = None

    def __post_init__(self) -> None:
        if self.argv is None and self.api is None:
            raise ValueError(f"case {self.id}: give argv, api or both")

    def __str__(self) -> str:  # the pytest id
        return self.id


def snapshot(folder: Path) -> dict[str, str]:
    """Every regular file under ``folder`` -> sha256 of its bytes (special files -> their type)."""
    out: dict[str, str] = {}
    for p in sorted(folder.rglob("*")):
        st = os.lstat(p)
        rel = str(p.relative_to(folder))
        if stat.S_ISREG(st.st_mode):
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        elif not stat.S_ISDIR(st.st_mode):
            out[rel] = f"special:{stat.S_IFMT(st.st_mode)}"
    return out


def _build(case: Case, folder: Path) -> None:
    for name, content in case.files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(folder)
        else:
            target.write_bytes(content)


def _check_forbidden(case: Case, where: str, text: str) -> None:
    for value in case.forbidden:
        assert value not in text, (f"{case.id}: personal value {value!r} appears in {where}: "
                                   f"{text[:300]!r}")


def run_case(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``case`` through the CLI (in process) and the API; assert everything the suite
    promises."""
    folder = tmp_path / "case"
    folder.mkdir()
    _build(case, folder)
    before = snapshot(folder)
    monkeypatch.chdir(folder)
    if case.argv is not None:
        argv = [a.replace("{d}", str(folder)) for a in case.argv]
        if case.stdin is not None:
            import io
            import sys

            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(case.stdin)))
        capsys.readouterr()
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == case.exit, f"{case.id}: exit {code}, expected {case.exit}; stderr: {err!r}"
        if case.exit == 2:
            lines = [ln for ln in err.splitlines() if ln.startswith("budgetlab: error:")]
            assert len(lines) == 1, f"{case.id}: expected one error line, got {err!r}"
            assert "Traceback" not in err and "internal error" not in err, f"{case.id}: {err!r}"
            for needle in case.needles:
                assert needle.lower() in lines[0].lower(), (f"{case.id}: {needle!r} not in "
                                                            f"{lines[0]!r}")
        _check_forbidden(case, "stdout", out)
        _check_forbidden(case, "stderr", err)
    if case.api is not None:
        with pytest.raises(case.api_error) as info:
            case.api(folder)
        message = str(info.value)
        for needle in case.needles if case.api_needles is None else case.api_needles:
            assert needle.lower() in message.lower(), (f"{case.id}: {needle!r} not in API message "
                                                       f"{message!r}")
        _check_forbidden(case, "the API message", message)
    after = snapshot(folder)
    for name, digest in before.items():
        assert after.get(name) == digest, f"{case.id}: input {name} was modified or removed"
    new = set(after) - set(before) - set(case.allowed_new)
    assert not new, f"{case.id}: files left behind: {sorted(new)}"
    for name in set(after) - set(before):
        p = folder / name
        if p.is_file():
            _check_forbidden(case, f"output {name}", p.read_bytes().decode("utf-8", "replace"))
