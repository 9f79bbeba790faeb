"""A page whose Python block uses a name that no line of that block makes (``bl``, ``events``
from a block above) says once, before that block, that its blocks run in one session, in order;
a page that does not say it has self-contained blocks (each imports what it uses)."""

from __future__ import annotations

import ast
import builtins

import pytest

from tests.docs.doc_blocks import PAGES_SAY_SESSION, PYTHON_LANGUAGES, ROOT, blocks, pages


def free_names(code: str) -> set[str]:
    """The names the code reads and never binds (imports, assignments, ``def``, ``except as``,
    arguments, loop and comprehension targets), builtins aside."""
    tree = ast.parse(code)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return {n.id for n in ast.walk(tree)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


def test_free_names_oracle():
    assert free_names("import budgetlab as bl\nx = bl.f(events)\n") == {"events"}
    assert free_names("try:\n    f()\nexcept ValueError as err:\n    print(err)\n") == {"f"}


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_block_using_earlier_names_is_on_a_page_that_says_so(page):
    text = page.read_text(encoding="utf-8")
    flat = " ".join(text.split())
    for block in blocks(page):
        if block.language not in PYTHON_LANGUAGES or block.not_executed is not None:
            continue
        used = free_names(block.code)
        if not used:
            continue
        before = " ".join("\n".join(text.splitlines()[:block.line - 1]).split())
        assert PAGES_SAY_SESSION in before, (
            f"{block.where} uses {sorted(used)} from an earlier block: import them in the block "
            f"or say before it, once on the page: {PAGES_SAY_SESSION!r}")
    assert flat.count(PAGES_SAY_SESSION) <= 1, f"{page.name} says it more than once"
