"""The per-group lines of ``budgetlab recalibrate`` as the tests read them: each printed filled
to 100 columns (its continuation lines at column 0, its notes indented), joined back into one."""

from __future__ import annotations


def group_lines(text: str, prefix: str) -> dict[str, str]:
    """Each line that starts with ``prefix`` (``"method="``), with the column-0 lines that
    continue it, as one line, by its label (the text before the first colon)."""
    out: dict[str, str] = {}
    label = None
    for ln in text.splitlines():
        if ln.startswith(prefix):
            label = ln.split(":")[0]
            out[label] = ln
        elif label is not None and ln and not ln.startswith(" "):
            out[label] += " " + ln
        else:
            label = None
    return out
