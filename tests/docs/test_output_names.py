"""The doc pages' examples share one folder (docs/cli.md, "Example files"), so each page's
outputs have their own names: following the pages in order never meets a file an earlier page
wrote (budgetlab refuses to overwrite one without --force; a Python example's ``to_csv`` would
replace another page's output silently). Stop 58: timeline.png was written by README and
replay.md, rec.csv by recalibrate.md and interop.md, latency.csv by own-log.md and latency.md.

Only the examples that run are read (``bash``/``console`` and ``python`` blocks, not the
``text`` synopses of docs/cli.md with their [--plot timeline.png]); folders (``reports/``) are
written into, not replaced, and are not counted."""

from __future__ import annotations

import re
from collections import defaultdict

from tests.docs.doc_blocks import PYTHON_LANGUAGES, SHELL_LANGUAGES, blocks, pages

_FLAG = re.compile(r"--(?:[a-z-]*out|plot)[ =]+([^\s\\]+)")
_WRITE = re.compile(r"\.(?:to_csv|to_parquet|savefig)\(\s*[\"']([^\"']+)[\"']")


def test_each_page_writes_outputs_of_its_own_names() -> None:
    writers: dict[str, set[str]] = defaultdict(set)
    for page in pages():
        for block in blocks(page):
            if block.not_executed is not None:
                continue
            if block.language in SHELL_LANGUAGES:
                names = _FLAG.findall(block.code)
            elif block.language in PYTHON_LANGUAGES:
                names = _WRITE.findall(block.code)
            else:
                continue
            for name in names:
                if not name.endswith("/") and "." in name:
                    writers[name].add(page.name)
    shared = {name: sorted(p) for name, p in writers.items() if len(p) > 1}
    assert shared == {}
