"""Timing and memory measurement shared by the benchmark cases.

Each case runs a warm-up, then ``repeat`` timed runs; the median is reported. Peak memory is
measured with :mod:`tracemalloc` (numpy reports its buffers to it), as the peak of traced bytes
above what was allocated before the call: exact and independent of the OS's page accounting.
:func:`peak_rss` gives the OS's view (peak resident set above the resident set before the call,
Linux only), for the targets stated in RSS.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Result:
    case: str
    size: int
    seconds: float
    baseline: str = ""
    baseline_seconds: float | None = None
    peak_bytes: int | None = None
    target: str = ""
    passed: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        return None if not self.baseline_seconds else self.seconds / self.baseline_seconds

    @property
    def events_per_s(self) -> float:
        return self.size / self.seconds if self.seconds > 0 else float("inf")


def time_it(fn: Callable[[], Any], *, repeat: int = 5, warmup: int = 1) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def time_pair(fn: Callable[[], Any], base: Callable[[], Any], *, repeat: int = 5,
              warmup: int = 1) -> tuple[float, float]:
    """Median times of ``fn`` and ``base``, interleaved run by run so that machine noise hits
    both."""
    for _ in range(warmup):
        base()
        fn()
    a, b = [], []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        base()
        t1 = time.perf_counter()
        gc.collect()
        t2 = time.perf_counter()
        fn()
        t3 = time.perf_counter()
        b.append(t1 - t0)
        a.append(t3 - t2)
    return statistics.median(a), statistics.median(b)


def peak_memory(fn: Callable[[], Any]) -> int:
    """Peak traced bytes allocated by ``fn()`` above the level before the call (result kept)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        out = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del out
    return peak - before


def status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise OSError(f"/proc/self/status has no {field}")


def trim_heap() -> None:
    """Return the C heap's free memory to the OS (glibc ``malloc_trim``; nothing elsewhere), so
    that RSS measured next counts what is in use, not what an earlier call freed and kept."""
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def peak_rss(fn: Callable[[], Any]) -> tuple[int | None, float, float]:
    """``(peak RSS bytes above the RSS before the call or None off Linux, wall s, CPU s)`` of one
    ``fn()`` (result dropped): the heap trimmed and the peak reset first
    (``/proc/self/clear_refs``)."""
    trim_heap()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM to the current RSS
        before: int | None = status_kib("VmRSS")
    except OSError:
        before = None
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    del out
    return (None if before is None else (status_kib("VmHWM") - before) * 1024), wall, cpu
