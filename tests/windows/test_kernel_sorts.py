"""No compiled kernel sorts: numba's sort (``np.argsort(kind="mergesort")``) costs 4-9 s of
compiling on a first run, even when no group needs sorting. ``event_cells`` decides outside the
compiled code whether the events are in time order and sorts with numpy when a group is not; a
log in time order (most logs, and every ``bin_events`` table) compiles the in-order kernels only.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import budgetlab

KERNELS = Path(budgetlab.__file__).resolve().parent / "windows" / "kernels"  # the code under test
ROOT = KERNELS.parents[2]
SORTS = {"sort", "argsort", "lexsort", "sorted"}


def _compiled_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)
            and any(isinstance(d, ast.Name) and d.id in {"jit", "jit_inline"}
                    for d in node.decorator_list)]


def _sorts_in(fn: ast.FunctionDef) -> list[str]:
    found = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in SORTS:
                found.append(f"{fn.name}: {name}")
    return found


def test_no_compiled_kernel_calls_a_sort():
    sorts = []
    for path in sorted(KERNELS.glob("*.py")):
        for fn in _compiled_functions(ast.parse(path.read_text(encoding="utf-8"))):
            sorts += _sorts_in(fn)
    assert sorts == []


_CELLS = """
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from budgetlab.windows import event_cells
from budgetlab.windows.kernels import _cells
n = 50
t = np.arange(n, dtype=np.int64)
group = np.arange(n) % 3
layout = sys.argv[2]
if layout != "time":  # "group": each group's events together, in time order; "reversed": neither
    order = np.argsort(group, kind="stable") if layout == "group" else np.arange(n)[::-1]
    t, group = t[order], group[order]
got = event_cells(group, t, t % 5 == 0, np.zeros(n, np.int64), 3, 1, freq_ns=10)
print(json.dumps({"compiled": sorted(name for name, f in vars(_cells).items()
                                     if getattr(f, "signatures", None)),
                  "cells": [a.tolist() for a in got]}))
"""


# the kernels each layout may compile (no other one: no numba sort)
_MAY_COMPILE = {"time": ({"in_order_cells"}, {"kept_in_time_order", "in_order_cells", "_alloc"}),
                "group": ({"group_order", "ordered_cells"},
                          {"kept_in_time_order", "group_order", "ordered_cells", "_alloc"})}
_MAY_COMPILE["reversed"] = _MAY_COMPILE["group"]


@pytest.mark.parametrize("layout", ["time", "group", "reversed"])
def test_each_layout_compiles_its_kernels_only_and_counts_by_hand(layout):
    """A fresh process (numba's dispatchers hold what this process compiled or loaded from the
    cache): the events in time order, grouped (each group in time order: the recalibration's
    layout) or reversed (sorted by numpy), the same cells."""
    pytest.importorskip("numba")
    env = {**os.environ, "BUDGETLAB_KERNEL": "", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _CELLS, str(ROOT), layout],
                         capture_output=True, text=True, env=env, check=True, timeout=300).stdout
    got = json.loads(out)
    must, may = _MAY_COMPILE[layout]
    assert must <= set(got["compiled"]) <= may
    # hand count: events 0..49 of group i % 3, bins of 10 ns (5 bins), failures at t % 5 == 0:
    # group 0 holds 0, 3, 6, 9 | 12, 15, 18 | 21, 24, 27 | 30, 33, 36, 39 | 42, 45, 48;
    # group 1 holds 1, 4, 7 | 10, 13, 16, 19 | 22, 25, 28 | 31, 34, 37 | 40, 43, 46, 49;
    # group 2 holds 2, 5, 8 | 11, 14, 17 | 20, 23, 26, 29 | 32, 35, 38 | 41, 44, 47
    group, b, total, bad, per_code = got["cells"]
    assert group == [0] * 5 + [1] * 5 + [2] * 5
    assert b == [0, 1, 2, 3, 4] * 3
    assert total == [4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3]
    assert bad == [1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0]
    assert per_code == [[n] for n in total]
