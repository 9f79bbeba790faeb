"""What ``budgetlab export`` says, as statements: the command fills each statement to 100
columns, a statement at the left edge continuing on lines at the left edge, so the tests read a
statement from its first words up to the next statement's (each statement the command prints
begins with one of :data:`STARTS`; an item under a statement is indented, and continues two
spaces deeper)."""

from __future__ import annotations

#: The words each statement of ``export openslo|prometheus`` begins with.
STARTS = ("no --window", "--window", "wrote ", "left out", "written from", "kept the", "SLO ",
          "name ", "no --service", "no --total-metric", "alert names")


def statements(out: str) -> list[str]:
    """The statements of an export's output, each as one line (its filled lines joined, white
    space folded): a line at the left edge continues the statement before it unless it begins
    with one of :data:`STARTS`; an indented line (an item) continues on lines indented deeper."""
    said: list[str] = []
    depth = 0
    for line in out.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if said and ((indent > depth > 0)
                     or (indent == depth == 0 and not line.startswith(STARTS))):
            said[-1] += " " + line.strip()
        else:
            said.append(line)
            depth = indent
    return said
