"""Attempt durations of the generated histories (opt-in: ``generate(..., client_timeout="60s")``).

The model, drawn from its own random stream (``SeedSequence([seed, 0xD0])``), so the traffic, the
sitekeys and the uniform draws behind the outcomes are the same draws with or without durations:

* **Per captcha type**, a heavy-tailed solve time: log-normal with the median of
  :data:`MEDIAN_SECONDS` and log-sd :data:`LOG_SD`, times a Pareto factor (shape
  :data:`PARETO_SHAPE`) for one attempt in :data:`TAIL_SHARE` (a stuck solver). A solve error
  takes half the time of a success drawn the same way (the solver gives up early).
* **Slow periods**: every incident of the history slows the attempts in its scope and time range
  down by ``slow_factor`` (the incident's cause also stretches the solve).
* **The client timeout**: an attempt whose drawn duration exceeds ``client_timeout`` is cut by the
  client: it is recorded as ``timeout`` (``ok`` false) with the timeout as its duration, a
  right-censored value. The network timeouts of the outcome model also last the whole
  ``client_timeout`` (the client waited until it gave up). Only those cut attempts change bucket;
  every other column is the same as without durations.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from .incidents import scope_masks
from .model import CAPTCHA_TYPES, FloatArray, IntArray

__all__ = ["MEDIAN_SECONDS", "LOG_SD", "TAIL_SHARE", "PARETO_SHAPE", "draw_durations"]

#: Median solve time of a success, in seconds, per captcha type.
MEDIAN_SECONDS = {"recaptcha_v2": 14.0, "turnstile": 3.0, "image": 9.0}
#: Log-scale standard deviation of the log-normal body.
LOG_SD = 0.45
#: Share of attempts with a heavy (Pareto) tail factor, and the Pareto shape.
TAIL_SHARE = 0.03
PARETO_SHAPE = 1.5


def draw_durations(seed: int, code: np.ndarray, type_code: IntArray, region_code: IntArray,
                   sitekey: IntArray,
                   ts: IntArray, incidents: pd.DataFrame, keys: Mapping[str, list[str]], *,
                   timeout_ns: int, slow_factor: float) -> tuple[np.ndarray, IntArray]:
    """``(outcome codes, durations in ns)`` of the events (sorted by ``ts``): codes 0 success,
    1 timeout, 2 solve error, as in :mod:`.synth`; cut attempts become code 1 with ``timeout_ns``.
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0xD0]))
    n = len(code)
    median = np.array([MEDIAN_SECONDS[t] for t in CAPTCHA_TYPES])[type_code]
    body = median * np.exp(LOG_SD * rng.standard_normal(n))
    tail = rng.random(n) < TAIL_SHARE
    pareto = 1.0 + rng.pareto(PARETO_SHAPE, size=n)
    seconds: FloatArray = body * np.where(tail, pareto, 1.0)
    seconds = np.where(code == 2, 0.5 * seconds, seconds)
    seconds = seconds * _slowdown(ts, type_code, region_code, sitekey, incidents, keys, slow_factor)
    ns = np.round(seconds * 1e3).astype(np.int64) * 1_000_000  # whole milliseconds
    cut = (ns > timeout_ns) | (code == 1)
    out_code = np.where(cut, 1, code).astype(np.int8)
    out_ns: IntArray = np.where(cut, timeout_ns, ns).astype(np.int64)
    return out_code, out_ns


def _slowdown(ts: IntArray, type_code: IntArray, region_code: IntArray, sitekey: IntArray,
              incidents: pd.DataFrame, keys: Mapping[str, list[str]],
              slow_factor: float) -> FloatArray:
    """Each event's slow-down factor: ``slow_factor`` inside an incident's scope and time range."""
    factor = np.ones(len(ts))
    if incidents.empty:
        return factor
    starts = utc_ns_column(incidents["start"], "start")
    ends = utc_ns_column(incidents["end"], "end")
    for iid, scope, a, b in zip(incidents["incident_id"], incidents["scope"], starts, ends,
                                strict=True):
        types, regions, key_idx = scope_masks(str(scope), keys, str(iid))  # a loop over incidents
        lo, hi = np.searchsorted(ts, [a, b], side="left")
        mask = types[type_code[lo:hi]] & regions[region_code[lo:hi]]
        if key_idx >= 0:
            mask &= sitekey[lo:hi] == key_idx
        factor[lo:hi][mask] = slow_factor
    return factor
