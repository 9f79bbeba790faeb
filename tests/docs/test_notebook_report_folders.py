"""The ``budgetlab notebooks --html DIR`` commands of the docs and of the notebooks' own text
write their HTML files (``DIR/<notebook>.html``) where no other command of them does (stop 59):
docs/notebooks.md ran all five into ``reports/`` and then 04 on a log of one's own into
``reports/`` again, docs/latency.md 05 on OpenStack's log into ``reports/`` too; following two of
them, the second run was refused (``--html 05_latency_slo.html: ... exists already; pass --force
to overwrite it``). Every command, run or not by the docs tests: a reader follows them all.
The same command written twice (a notebook's own text and its page) is one report."""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from pathlib import Path

import nbformat

from tests.docs.doc_blocks import ROOT, pages

NOTEBOOKS = ROOT / "budgetlab" / "notebooks"
ALL = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def _commands(text: str) -> list[str]:
    """Each ``budgetlab notebooks`` command of ``text``, its continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line.split("#")[0].strip() for line in joined.splitlines()
            if line.strip().startswith("budgetlab notebooks --html")]


def _writes(command: str) -> list[tuple[str, str]]:
    """The (folder, HTML file) pairs ``command`` writes."""
    words = shlex.split(command)
    folder = words[words.index("--html") + 1].rstrip("/")
    named = [words[i + 1] for i, w in enumerate(words) if w == "--notebooks"]
    return [(folder, Path(n).stem + ".html") for n in (named or ALL)]


def test_no_two_commands_write_the_same_report():
    sources = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in pages()}
    for nb in sorted(NOTEBOOKS.glob("*.ipynb")):
        sources[nb.name] = "\n".join(c.source for c in nbformat.read(nb, as_version=4).cells
                                     if c.cell_type == "markdown")
    writers: dict[tuple[str, str], set[str]] = defaultdict(set)
    commands = [c for text in sources.values() for c in _commands(text)]
    # found: docs/cli.md's, docs/notebooks.md's six, docs/latency.md's, the notebooks' nine
    assert len(commands) >= 17
    for command in commands:
            for pair in _writes(command):
                writers[pair].add(" ".join(shlex.split(command)))
    shared = {f"{d}/{f}": sorted(c) for (d, f), c in writers.items() if len(c) > 1}
    assert shared == {}
