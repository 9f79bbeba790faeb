"""How the command line repeats a path the user gave: as given, unless it looks like personal
data. No heavy import at module load (``export``, ``backtest`` keep ``--help`` light)."""

from __future__ import annotations

from typing import Any

__all__ = ["path_label"]


def path_label(path: Any) -> str:
    """A path the user gave, as output text may repeat it: as given, unless it looks like personal
    data (then a placeholder; the file is still written).

    >>> path_label("out/transitions.csv"), path_label("ivan@mail.ru.csv")
    ('out/transitions.csv', 'a file whose name looks like personal data (not shown)')
    """
    from ..privacy import looks_personal

    text = str(path)
    return ("a file whose name looks like personal data (not "
            "shown)") if looks_personal(text) else text
