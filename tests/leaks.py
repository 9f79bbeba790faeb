"""What a test module must not leave running: a Dask ``distributed`` cluster or client.

A client or cluster left open keeps its event loop thread, its nannies' watcher threads and its
worker processes alive for the rest of the worker process (every later test of an xdist worker
runs beside them, and Dask sends every later ``.compute()`` to a client left as the default).
``tests/conftest.py`` checks after each test module that none is left.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from types import FrameType


def _running_distributed_code(frame: FrameType | None, root: str) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith(root):
            return True
        frame = frame.f_back
    return False


def distributed_threads() -> list[str]:
    """Names of the other threads whose stack holds code of ``distributed`` (a client's or a
    cluster's event loop, a nanny's process watchers). Idle pool threads (distributed's
    offload executor waiting for work, kept for the whole process by design) run none of it."""
    module = sys.modules.get("distributed")
    if module is None or module.__file__ is None:
        return []
    root = os.path.dirname(module.__file__) + os.sep
    names = {t.ident: t.name for t in threading.enumerate()}
    return sorted(names.get(ident, str(ident)) for ident, frame in sys._current_frames().items()
                  if ident != threading.get_ident() and _running_distributed_code(frame, root))


def child_processes() -> list[str]:
    """``name (pid N)`` of the live child processes started through :mod:`multiprocessing`
    (a ``LocalCluster``'s worker processes; the suite starts no other)."""
    return sorted(f"{p.name} (pid {p.pid})" for p in multiprocessing.active_children())


def cluster_leftovers(*, wait: float = 5.0) -> list[str]:
    """The threads and child processes above, polled for up to ``wait`` seconds (a closed
    cluster's watcher threads end a moment after ``close()`` returns); ``[]`` when none."""
    deadline = time.monotonic() + wait
    while True:
        left = distributed_threads() + child_processes()
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)
