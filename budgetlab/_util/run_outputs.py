"""What a run has written, for the line an interrupted run ends with: the outputs it planned
(:func:`budgetlab._util.plan.plan_outputs` notes them) and those it finished (every atomic
write notes its file once it is in place, :mod:`budgetlab._util.files`).

The record is one :class:`RunOutputs` object that the command line makes for each run
(:func:`recording`) and keeps after Ctrl-C: the writers find it through a context variable
while the run lasts, so an API call outside a run records nothing and two runs never share one.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .inputs import file_identity
from .output_paths import shown_path

__all__ = ["RunOutputs", "recording", "note_planned", "note_written"]

#: how many file names the line lists before "and N more"
_MOST_NAMED = 6


def _key(path: Path) -> str:
    return os.path.normcase(os.path.abspath(path))


@dataclass
class RunOutputs:
    """The outputs of one run: ``planned`` (key -> (path, its identity when planned: an
    existing file's ``(device, inode)``, else None)) and ``written`` (key -> path, in the
    order they were finished)."""

    planned: dict[str, tuple[Path, tuple[int, int] | None]] = field(default_factory=dict)
    written: dict[str, Path] = field(default_factory=dict)

    def finished(self) -> list[Path]:
        """The outputs in place: those noted as written, and planned ones whose file is new
        since they were planned (an interruption right after the rename, before the note)."""
        done = dict(self.written)
        for key, (path, before) in self.planned.items():
            now = file_identity(path)
            if key not in done and now is not None and now != before:
                done[key] = path
        return list(done.values())

    def interrupted_line(self) -> str:
        """The line an interrupted run ends with: the outputs it wrote, those it did not (an
        existing file there left as it was), or that it wrote none.

        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> run = RunOutputs()
        >>> run.interrupted_line()
        'budgetlab: interrupted; no output was written.'
        >>> for name in ("bt.csv", "bt.png"):
        ...     run.planned[_key(d / name)] = (d / name, None)
        >>> _ = (d / "bt.csv").write_text("ts")
        >>> run.interrupted_line()
        "budgetlab: interrupted; wrote 'bt.csv' before the interrupt; 'bt.png' was not written."
        """
        done = self.finished()
        keys = {_key(p) for p in done}
        missing = [(p, before) for key, (p, before) in self.planned.items() if key not in keys]
        if done:
            parts = [f"wrote {_listed(done)} before the interrupt"]
            if missing:
                verb = "was" if len(missing) == 1 else "were"
                parts.append(f"{_listed([p for p, _ in missing])} {verb} not written")
        elif missing:
            parts = [f"none of its outputs was written ({_listed([p for p, _ in missing])})"]
        else:
            parts = ["no output was written"]
        kept = [p for p, before in missing if before is not None]
        if kept:
            parts.append(f"the earlier {_listed(kept)} {'is' if len(kept) == 1 else 'are'} left "
                         f"as {'it was' if len(kept) == 1 else 'they were'}")
        return f"budgetlab: interrupted; {'; '.join(parts)}."


def _listed(paths: Sequence[Path]) -> str:
    """File names as a message may show them, ``'a', 'b' and 'c'`` (the first few, then how
    many more)."""
    names = [shown_path(p, str(p)) for p in paths]
    if len(names) > _MOST_NAMED:
        return f"{', '.join(names[:_MOST_NAMED])} and {len(names) - _MOST_NAMED:,} more"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


_RUN: contextvars.ContextVar[RunOutputs | None] = contextvars.ContextVar("_RUN", default=None)


@contextlib.contextmanager
def recording() -> Iterator[RunOutputs]:
    """While it lasts, outputs planned and written are noted on the yielded record (which the
    caller keeps after the block, an interruption included)."""
    run = RunOutputs()
    token = _RUN.set(run)
    try:
        yield run
    finally:
        _RUN.reset(token)


def note_planned(path: Path) -> None:
    """Note an output planned by the running run (nothing outside one)."""
    run = _RUN.get()
    if run is not None:
        run.planned.setdefault(_key(path), (path, file_identity(path)))


def note_written(path: Path) -> None:
    """Note an output now in place (nothing outside a run)."""
    run = _RUN.get()
    if run is not None:
        run.written.setdefault(_key(path), path)
