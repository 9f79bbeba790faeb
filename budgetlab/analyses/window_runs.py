"""What :func:`~budgetlab.analyses.window_lengths.compare_windows` and
:func:`~budgetlab.analyses.window_lengths.window_incidents` both run: the events sorted once,
with the SLO (or each group's) and each group's target (:func:`prepare_runs`), and the tracker
under every window x dwell on the window's clock (:func:`window_runs`:
:mod:`~budgetlab.analyses.window_clock`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import progress
from ..errors import ConfigError
from ..slo import SLO, as_per_group
from ..slo_groups import warn_unused
from .per_group import need_group_keys
from .recalibration.clock import ClockCounts
from .sorted_events import Sorted, WindowSpec, group_targets, sort_events
from .window_clock import clock_codes, shown_clock
from .window_options import WindowOptions

__all__ = ["prepare_runs", "window_runs"]


def prepare_runs(events: pd.DataFrame, slo: Any, by: Any,
                 target: Any) -> tuple[Sorted, SLO | list[SLO], np.ndarray]:
    """The sorted events, the SLO (or each group's) and each group's target."""
    per = as_per_group(slo)
    if per is None and not isinstance(slo, SLO):
        raise ConfigError("slo must be an SLO, e.g. SLO(target=0.95), or per-group SLOs (PerGroup "
                          "or a mapping); its window is replaced by windows=.")
    srt = sort_events(events, by)
    if per is None:
        return srt, slo, group_targets(slo if target is None else target, srt.keys, srt.by,
                                       whole=target is not None)
    need_group_keys(srt.by)
    slos = per.resolve(srt.keys[list(srt.by)])
    warn_unused(per, srt.keys[list(srt.by)])
    targets = (np.array([x.target for x in slos], dtype=np.float64) if target is None
               else group_targets(target, srt.keys, srt.by, whole=True))
    return srt, slos, targets


def window_runs(srt: Sorted, slo: SLO | list[SLO], targets: np.ndarray, opts: WindowOptions,
                desc: str) -> Iterator[tuple[WindowSpec, int, ClockCounts, np.ndarray]]:
    """Every window x dwell: ``(window, dwell ns, clock segments, shown status codes)``."""
    for spec in progress(opts.specs, desc=desc, enabled=opts.show_progress):
        c, code = clock_codes(srt, spec, slo, targets, opts.tz, int(srt.t.max()))
        for d in opts.dwells_ns:
            yield (spec, d, *shown_clock(c, code, d))
