"""What :func:`~budgetlab.analyses.window_lengths.compare_windows` and
:func:`~budgetlab.analyses.window_lengths.window_incidents` keep in ``attrs``: the SLO they
judged by, the group keys, the zone, the span every row counts in, and the incidents no row
counts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import time_text
from .._util.validation import utc_from_ns
from ..slo import SLO, as_per_group, as_slo
from .recalibration.run import slo_used
from .sorted_events import Sorted
from .window_detection import Incidents, left_out_note
from .window_options import WindowOptions

__all__ = ["left_out_attrs", "run_attrs"]


def left_out_attrs(inc: Incidents | None, srt: Sorted, opts: WindowOptions) -> dict[str, Any]:
    """``attrs`` of both functions on the incidents no row counts: ``incidents_left_out`` (count
    by reason) and ``incidents_note`` (in words; empty when none is)."""
    if inc is None:
        return {}
    first_ns = int(srt.t.min())
    counts = inc.left_out(first_ns, first_ns + opts.warmup_ns)
    return {"incidents_left_out": counts,
            "incidents_note": left_out_note(counts, len(inc.start),
                                            pd.Timestamp(first_ns, unit="ns", tz="UTC"),
                                            pd.Timedelta(opts.warmup_ns, unit="ns"), opts.tz)}


def run_attrs(slo: Any, run: tuple[Sorted, SLO | list[SLO], np.ndarray], target: Any,
              opts: WindowOptions, lo_ns: int) -> dict[str, Any]:
    """``attrs`` of both functions on what they were run with: ``slo`` (with ``target=``, each
    group's SLO under the target it was judged against: :func:`slo_used`), ``by``, ``tz`` and
    the span every row counts in (its own warm-up and silences cut from it: a figure says it),
    ``start`` (after the warm-up) .. ``end`` (the last event). ``run``: the sorted events, the
    SLO (or each group's) and each group's target."""
    srt, slos, targets = run
    start, end = utc_from_ns(np.array([lo_ns, int(srt.t.max())]))
    per = as_per_group(slo)
    used = ((as_slo(slo) if per is None else per) if target is None else slo_used(
        slos if isinstance(slos, list) else [slos] * len(targets), srt.keys[list(srt.by)],
        targets))
    return {"slo": used.as_dict(), "by": srt.by, "tz": opts.tz, "start": time_text(start),
            "end": time_text(end)}
