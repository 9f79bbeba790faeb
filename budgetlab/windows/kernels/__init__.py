"""The compiled kernels (numba) and the one place that decides whether they run.

Every hot loop of budgetlab has a compiled single pass here and a numpy twin with the same
arguments and the same integers: trailing-window counts and the previous row of a group
(``_events``; twins in :mod:`budgetlab.windows.trailing` and :mod:`budgetlab.windows.groups`), the
window's clock (``_events.status_runs``; twin in :mod:`budgetlab.windows.clock`), the non-empty
bin cells (``_cells``; twin in :mod:`.cells`) and every alert tier's firing runs over those cells
(``_tiers``; twin in :mod:`budgetlab.alerts.episodes`). The oracle tests run both paths.

:func:`compiled` decides, at each call: the compiled kernel when numba is importable, ``None``
(the caller takes its numpy twin) when it is not or when the environment variable
``BUDGETLAB_KERNEL`` is ``numpy``. A kernel module is imported on first use only (numba's import
and the cache lookups cost start-up time). numba compiles a kernel once per type of its arguments
(seconds each on a first run): the callers pass read-only views (:func:`read_only`) and group codes
in one width (:func:`kernel_codes`), and no compiled kernel sorts (numba's sort alone compiles for
4-9 s; numpy sorts instead).
"""

from __future__ import annotations

from .cells import event_cells
from .choice import KERNELS, compiled, compiled_or, kernel_codes, read_only

__all__ = ["KERNELS", "compiled", "compiled_or", "event_cells", "kernel_codes", "read_only"]
