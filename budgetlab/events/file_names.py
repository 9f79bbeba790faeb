"""Files' names for messages and "how it was read": each file by its own name, or, where several
files share it (a hive layout: ``date=2026-01-01/part.parquet``), by the shortest ending of its
path that tells it apart."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from os import PathLike
from pathlib import PurePath

__all__ = ["HIDDEN_NAME", "file_names"]

#: What a message says in place of a file's name that looks like personal data.
HIDDEN_NAME = "a file whose name looks like personal data (not shown)"


def file_names(paths: Sequence[str | PathLike[str]]) -> list[str]:
    """The names of ``paths`` for a message, in their order: each file's own name when no other
    file has it (as :func:`~budgetlab.events.files.file_name` names one file), else the shortest
    ending of its path (folders and name, ``/`` between them) that no other path ends with; a
    name that looks like personal data is not shown (:data:`HIDDEN_NAME`).

    >>> file_names(["logs/date=2026-01-01/part.parquet", "logs/date=2026-01-02/part.parquet",
    ...             "logs/extra.parquet"])
    ['date=2026-01-01/part.parquet', 'date=2026-01-02/part.parquet', 'extra.parquet']
    >>> file_names(["a/x/day.parquet", "b/x/day.parquet"])
    ['a/x/day.parquet', 'b/x/day.parquet']
    """
    from ..privacy import looks_personal

    parts = [PurePath(os.path.abspath(os.fspath(p))).parts for p in paths]
    depth = [1] * len(parts)
    open_ = list(range(len(parts)))  # the paths whose ending is not yet their own
    while open_:
        ends = Counter(parts[i][-depth[i]:] for i in open_)
        # a path whose ending is its own keeps it: no longer ending of another path can match it
        open_ = [i for i in open_ if ends[parts[i][-depth[i]:]] > 1 and depth[i] < len(parts[i])]
        for i in open_:
            depth[i] += 1
    names = [PurePath(*p[-d:]).as_posix() for p, d in zip(parts, depth, strict=True)]
    return [HIDDEN_NAME if looks_personal(n) else n for n in names]
