"""The options of :func:`~budgetlab.analyses.recalibration.recalibrate`, as one frozen, validated
object (:class:`RecalibrationOptions`), and the plan one run follows (:class:`Plan`: the options
read against the run's SLO: its window, its alert policy for the SLO's period)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pandas as pd

from ..._util.units import DAY_NS
from ..._util.validation import (
    check_argument,
    check_fraction,
    check_number,
    check_whole,
    to_timedelta,
)
from ...alerts.policy import AlertPolicy, as_policy
from ...budget.figures import STATUSES
from ...errors import ConfigError
from ...slo import SLO

__all__ = ["RecalibrationOptions", "Plan"]


@dataclass(frozen=True)
class RecalibrationOptions:
    """Every option of :func:`~budgetlab.analyses.recalibration.recalibrate` but the data and the
    current SLO (``events``, ``by``, ``target``, ``slo``, ``exclude_incidents``), checked on
    construction; each field as the keyword of the same name (see :func:`recalibrate`).

    Durations are kept as :class:`pandas.Timedelta`, ``candidates`` as a sorted tuple.

    >>> opts = RecalibrationOptions(window="6h", max_share=0.05, n_boot=0)
    >>> opts.window, opts.history, opts.max_share
    (Timedelta('0 days 06:00:00'), Timedelta('28 days 00:00:00'), 0.05)
    >>> RecalibrationOptions(block="36h")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: block='36h' must be a whole number of days (e.g. '1D', '2D').
    """

    window: Any = None
    history: Any = "28D"
    step: float = 0.005
    max_share: float = 0.01
    limit_status: str = "exhausted"
    loose_burn: float = 0.25
    candidates: Sequence[float] | None = None
    policy: AlertPolicy | str | None = None
    confidence: float = 0.95
    n_boot: int = 200
    block: Any = "1D"
    seed: int = 0
    show_progress: bool | None = None

    def __post_init__(self) -> None:
        put = object.__setattr__
        if self.window is not None:
            put(self, "window", to_timedelta(self.window, name="window"))
        put(self, "history", to_timedelta(self.history, name="history"))
        step = check_fraction("step", self.step)
        if step > 0.1:
            raise ConfigError(f"step={step!r} is too coarse; use e.g. 0.005 or 0.001.")
        put(self, "step", step)
        put(self, "max_share", check_fraction("max_share", self.max_share, high_open=False))
        check_argument("limit_status", self.limit_status, STATUSES[1:])
        check_number("loose_burn", self.loose_burn, low=0.0, low_open=False)
        put(self, "loose_burn", float(self.loose_burn))
        put(self, "confidence", check_fraction("confidence", self.confidence))
        put(self, "n_boot", check_whole("n_boot", self.n_boot))
        block = to_timedelta(self.block, name="block")
        if int(block.value) % DAY_NS:
            raise ConfigError(f"block={self.block!r} must be a whole number of days (e.g. '1D', "
                              "'2D').")
        put(self, "block", block)
        put(self, "seed", check_whole("seed", self.seed))
        # checked here, built for the SLO's period by plan()
        as_policy(self.policy, default=AlertPolicy.workbook())
        requested = _check_candidates(self.candidates)
        put(self, "candidates", None if requested is None else tuple(requested.tolist()))

    def plan(self, slo: Any) -> Plan:
        """The options read against the current ``slo`` (its window unless ``window`` is set; the
        two must agree when both are)."""
        if slo is not None and not isinstance(slo, SLO):
            raise ConfigError("slo must be an SLO, e.g. SLO(target=0.95, window='24h').")
        if self.window is None:
            window_td = slo.window if slo is not None else to_timedelta("24h")
        else:
            window_td = self.window
            if slo is not None and window_td != slo.window:
                raise ConfigError("window= differs from slo.window; give one of them.")
        base = (slo if slo is not None else SLO()).with_(window=window_td)
        policy = as_policy(self.policy, default=AlertPolicy.workbook(base.period),
                           period=base.period)
        requested = None if self.candidates is None else np.asarray(self.candidates,
                                                                    dtype=np.float64)
        return Plan(options=self, slo=base, policy=policy, requested=requested)


@dataclass(frozen=True)
class Plan:
    """One run's checked settings: the options, the SLO replayed (with the window), the alert
    policy for ``pages_per_day`` and the requested candidates as an array."""

    options: RecalibrationOptions
    slo: SLO
    policy: AlertPolicy
    requested: np.ndarray | None
    #: ``(first, last)`` event time (ns) of the whole log when the run covers part of its groups
    #: (those sharing one SLO); ``None``: the run's own events are the log.
    log_span: tuple[int, int] | None = None

    @property
    def history_ns(self) -> int:
        return int(self.options.history.value)

    @property
    def block_ns(self) -> int:
        return int(self.options.block.value)

    @property
    def limit(self) -> int:
        """The status level the rule limits (1 warning, 2 critical, 3 exhausted)."""
        return STATUSES.index(self.options.limit_status)

    def log_times(self, t: np.ndarray) -> tuple[int, int]:
        """The log's first and last event time (ns): :attr:`log_span`, else those of ``t`` (the
        run's event times). The evaluated span, the warm-up words and the pages' bin grid count
        from them, so a run over some groups gives them the rows of a run over the whole log."""
        return self.log_span if self.log_span is not None else (int(t.min()), int(t.max()))

    def __getattr__(self, name: str) -> Any:
        """The options' checked fields: ``plan.step`` is ``plan.options.step``."""
        if name == "options":  # not set yet (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self.options, name)

    def settings(self, *, span_start: int, span_end: int, by: Sequence[str]) -> dict[str, Any]:
        """:attr:`Recalibration.settings`: the checked options, the SLO's window, the policy built
        for it, the evaluated span and the group keys."""
        kept = {f.name: getattr(self.options, f.name) for f in fields(self.options)
                if f.name not in ("window", "candidates", "policy", "show_progress")}
        return {**kept, "window": pd.Timedelta(self.slo.window),
                "span_start": pd.Timestamp(span_start, tz="UTC"),
                "span_end": pd.Timestamp(span_end, tz="UTC"), "policy": self.policy,
                "by": list(by), "slo": self.slo}


def _check_candidates(candidates: Any) -> np.ndarray | None:
    if candidates is None:
        return None
    vals = np.atleast_1d(np.asarray(candidates, dtype=np.float64))
    if vals.size == 0 or not np.all(np.isfinite(vals)) or np.any((vals <= 0) | (vals >= 1)):
        raise ConfigError("candidates must be targets strictly between 0 and 1, e.g. [0.9, 0.93, "
                          "0.95].")
    return np.unique(vals)
