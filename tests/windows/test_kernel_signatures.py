"""Each compiled kernel of a replay is compiled once whatever the caller's arrays: numba compiles a
kernel once per type of its arguments (several seconds each on a first run), and a read-only
array (pandas' categorical codes) is another numba type than a writable one, and so is an integer
array of another width (group codes come in the smallest width that holds them). The wrappers pass
the same numba types for writable and read-only inputs and for group codes of every width (a spy
stands in for the kernel: nothing is compiled here)."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from budgetlab.windows import clock, groups, trailing  # noqa: E402


def _inputs(writable: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.array([0, 5, 5, 20], dtype=np.int64)
    bad = np.array([False, True, False, False])
    codes = np.array([0, 1, 0, 1], dtype=np.int8)
    for a in (t, bad, codes):
        a.flags.writeable = writable
    return t, bad, codes


class _Spy:
    """Records the numba types of every call's arguments and returns ``result(n)``."""

    def __init__(self, result):
        self.types: list[tuple[object, ...]] = []
        self.result = result

    def __call__(self, *args):
        self.types.append(tuple(numba.typeof(a) for a in args))
        return self.result(len(args[0]))


def _both(call, patch_target, result):
    spy = _Spy(result)
    with mock.patch(patch_target, lambda *a, **k: spy):
        for writable in (True, False):
            call(*_inputs(writable))
    assert len(spy.types) == 2
    return spy.types


def test_window_counts_one_signature_for_writable_and_read_only_arrays():
    types = _both(lambda t, bad, codes: trailing._window_counts(t, bad, codes, 10),
                  "budgetlab.windows.trailing.compiled_or",
                  lambda n: (np.zeros(n, np.int64), np.zeros(n, np.int64)))
    assert types[0] == types[1]


def test_status_runs_one_signature_for_writable_and_read_only_arrays():
    def call(t, bad, codes):
        clock.status_runs(t, bad, codes, 2, 10, target=0.9, warning=0.5, critical=0.1,
                          min_events=0, rule=lambda *a: None)

    types = _both(call, "budgetlab.windows.clock.compiled",
                  lambda n: tuple(np.zeros(n, np.int64) for _ in range(6)))
    assert types[0] == types[1]


def test_previous_in_group_one_signature_for_writable_and_read_only_arrays():
    types = _both(lambda t, bad, codes: groups.previous_in_group(t, codes),
                  "budgetlab.windows.groups.compiled_or", lambda n: np.zeros(n, np.int64))
    assert types[0] == types[1]


_WIDTHS = (np.int8, np.int16, np.int32, np.int64)  # group codes: the smallest width that holds them


def _by_width(call, patch_target, result):
    """The numba types of the kernel's arguments for group codes of every integer width (more
    than 127 groups give int16 codes, ...)."""
    spy = _Spy(result)
    with mock.patch(patch_target, lambda *a, **k: spy):
        for width in _WIDTHS:
            t, bad, codes = _inputs(True)
            call(t, bad, codes.astype(width))
    assert len(spy.types) == len(_WIDTHS)
    return spy.types


def test_window_counts_one_signature_for_every_code_width():
    types = _by_width(lambda t, bad, codes: trailing._window_counts(t, bad, codes, 10),
                      "budgetlab.windows.trailing.compiled_or",
                      lambda n: (np.zeros(n, np.int64), np.zeros(n, np.int64)))
    assert len(set(types)) == 1


def test_status_runs_one_signature_for_every_code_width():
    def call(t, bad, codes):
        clock.status_runs(t, bad, codes, 2, 10, target=0.9, warning=0.5, critical=0.1,
                          min_events=0, rule=lambda *a: None)

    types = _by_width(call, "budgetlab.windows.clock.compiled",
                      lambda n: tuple(np.zeros(n, np.int64) for _ in range(6)))
    assert len(set(types)) == 1


def test_previous_in_group_one_signature_for_every_code_width():
    types = _by_width(lambda t, bad, codes: groups.previous_in_group(t, codes),
                      "budgetlab.windows.groups.compiled_or", lambda n: np.zeros(n, np.int64))
    assert len(set(types)) == 1
