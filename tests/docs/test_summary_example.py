"""README.md's "In Python" and docs/index.md's example print the time in each status per group,
as their comment promises: every status's hours column is shown, none cut by pandas' width."""

import contextlib
import io

import pytest

from tests.docs.doc_blocks import DOCS, PYTHON_LANGUAGES, ROOT, blocks

# the statuses of docs/conventions.md ("no traffic" its own), one hours column each
HOURS = ["hours_healthy", "hours_warning", "hours_critical", "hours_exhausted", "hours_no_traffic"]


@pytest.mark.parametrize("page", [ROOT / "README.md", DOCS / "index.md"], ids=lambda p: p.name)
def test_the_example_shows_the_hours_in_each_status(page):
    [block] = [b for b in blocks(page)
               if b.language in PYTHON_LANGUAGES and "replay_summary" in b.code]
    assert "time in each status per group" in block.code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.code, block.where, "exec"), {})
    lines = out.getvalue().splitlines()
    assert "..." not in out.getvalue()
    assert lines[0].split() == ["captcha_type", *HOURS, "final_status"]
    # the demo: 3 captcha types (data/README.md)
    assert sorted(line.split()[0] for line in lines[1:]) == ["image", "recaptcha_v2", "turnstile"]
