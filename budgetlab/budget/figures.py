"""The seed tracker's budget arithmetic, in one place.

Every status budgetlab reports comes from these functions: the vectorized replay, the streaming
:class:`~budgetlab.Tracker` (through :func:`scalar_figures`, its documented scalar twin), the
window comparison, the failure-bucket variants and the recalibration candidates. They repeat the
seed's float operations in the seed's order, so that every caller is bit-identical to the seed
(``tests/test_replay_oracle.py`` compares against a literal port of it).

Seed definitions (``budget_total = total * (1 - target)``):

- ``budget_remaining = max(0, budget_total - failures)``
- ``remaining_fraction = max(0, budget_remaining / budget_total)``; with a zero budget it is 1.0
  without failures and 0.0 with any
- ``burn_rate = failures / budget_total`` (0.0 with a zero budget)
- status: ``exhausted`` at ``remaining_fraction <= 0``, ``critical`` below ``slo.critical``,
  ``warning`` below ``slo.warning``, else ``healthy``
- ``min_events``: while the window holds fewer events, the status keeps its previous value
  (healthy at a group's start).

Because ``remaining_fraction == max(0, 1 - burn_rate)`` (up to the last bit), the seed's status
is a function of the window burn rate alone.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
import pandas as pd

from .._util.ratios import ratio
from .._util.words import noun_for
from ..errors import ConfigError
from ..slo import SLO

__all__ = [
    "STATUSES",
    "BURN_BANDS",
    "STATUS_DTYPE",
    "FIGURE_COLUMNS",
    "remaining_fraction",
    "seed_figures",
    "scalar_figures",
    "status_codes",
    "status_code",
    "hold_low_traffic",
    "seed_status_codes",
    "round_like_python",
]

STATUSES = ("healthy", "warning", "critical", "exhausted")
#: Ordered categorical of tracker statuses: ``healthy < warning < critical < exhausted``.
STATUS_DTYPE = pd.CategoricalDtype(list(STATUSES), ordered=True)

#: The seed tracker's figures of a window, in the order :func:`seed_figures` returns them.
FIGURE_COLUMNS = ("total", "successes", "failures", "success_rate", "budget_total",
                  "budget_remaining",
                  "remaining_fraction", "burn_rate")

#: The limits of the seed's burn-rate bands: below 1 on plan, 1 just makes it, 2 gone in half the
#: window, 5 and above melting (a band holds its lower limit).
BURN_BANDS = (1.0, 2.0, 5.0)


def remaining_fraction(total: np.ndarray, failures: np.ndarray, target: Any) -> np.ndarray:
    """The seed's ``remaining_fraction`` of windows that hold at least one event.

    ``target`` is a float, or an array with one target per element (recalibration candidates,
    per-group targets). Same float operations in the same order as :func:`seed_figures`.

    >>> remaining_fraction(np.array([20, 40]), np.array([1, 1]), 0.95)
    array([8.8817842e-16, 5.0000000e-01])
    """
    budget_total = total.astype(np.float64)
    budget_total *= 1 - np.asarray(target, dtype=np.float64)
    rf = budget_total - failures
    np.maximum(rf, 0.0, out=rf)
    rf /= budget_total
    np.maximum(rf, 0.0, out=rf)
    return np.asarray(rf)


def seed_figures(total: np.ndarray, failures: np.ndarray, target: float,
                 columns: Collection[str] | None = None) -> dict[str, np.ndarray]:
    """The seed tracker's properties for every window, vectorized with the same float operations.

    Returns ``total``, ``successes``, ``failures``, ``success_rate``, ``budget_total``,
    ``budget_remaining``, ``remaining_fraction`` and ``burn_rate`` (only those named in
    ``columns`` when given: the others are not computed, or not kept when a requested one needs
    them). Empty windows follow the seed's zero-traffic rules (rate 1.0, burn 0.0, fraction 1.0
    without failures). Written to allocate only the output columns (fresh 10 M-element
    temporaries cost more in page faults than the arithmetic itself).

    >>> f = seed_figures(np.array([20, 0]), np.array([1, 0]), 0.95)
    >>> f["budget_total"].tolist(), f["remaining_fraction"].tolist(), f["burn_rate"].tolist()
    ([1.0000000000000009, 0.0], [0.0, 1.0], [0.9999999999999991, 0.0])
    >>> list(seed_figures(np.array([20]), np.array([1]), 0.95, columns=["burn_rate"]))
    ['burn_rate']
    """
    want = set(FIGURE_COLUMNS if columns is None else columns)
    unknown = want - set(FIGURE_COLUMNS)
    if unknown:
        raise ValueError(f"unknown figure {noun_for(len(unknown), 'column')}: {sorted(unknown)}")
    eb = 1 - target  # the seed: total * (1 - target_success_rate)
    out: dict[str, np.ndarray] = {"total": total, "failures": failures}
    all_positive = len(total) == 0 or int(total.min()) > 0
    if "successes" in want or "success_rate" in want:
        out["successes"] = successes = total - failures
        if "success_rate" in want:
            if all_positive:  # always so in a replay: the window holds the event itself
                out["success_rate"] = successes / total.astype(np.float64)
            else:
                out["success_rate"] = ratio(successes, total, 1.0)
    if want & {"budget_total", "budget_remaining", "remaining_fraction", "burn_rate"}:
        budget_total = total.astype(np.float64)
        budget_total *= eb
        out["budget_total"] = budget_total
        positive = None if all_positive else budget_total > 0
        if "burn_rate" in want:
            if positive is None:
                out["burn_rate"] = failures / budget_total
            else:
                out["burn_rate"] = ratio(failures, budget_total, 0.0)
        if "budget_remaining" in want or "remaining_fraction" in want:
            budget_remaining = budget_total - failures
            np.maximum(budget_remaining, 0.0, out=budget_remaining)
            out["budget_remaining"] = budget_remaining
            if "remaining_fraction" in want:
                if positive is None:  # in place when budget_remaining is not asked for
                    rf = (
                        budget_remaining
                        if "budget_remaining" not in want
                        else np.empty_like(budget_remaining)
                    )
                    np.divide(budget_remaining, budget_total, out=rf)
                else:
                    # the seed: a zero budget leaves 1.0 without failures, else 0.0
                    rf = ratio(budget_remaining, budget_total, np.where(failures == 0, 1.0, 0.0))
                np.maximum(rf, 0.0, out=rf)
                out["remaining_fraction"] = rf
    return {name: out[name] for name in FIGURE_COLUMNS if name in want}


def scalar_figures(total: int, failures: int, target: float) -> dict[str, Any]:
    """:func:`seed_figures` for one window, in Python floats (the streaming tracker's twin).

    The same operations in the same order as the seed's properties (Python floats are IEEE
    doubles), so the two agree bit for bit (tested).

    >>> scalar_figures(20, 1, 0.95)["budget_total"]
    1.0000000000000009
    """
    eb = 1 - target
    budget_total = total * eb if total else 0.0
    budget_remaining = max(0.0, budget_total - failures)
    if budget_total <= 0:
        rf = 1.0 if failures == 0 else 0.0
    else:
        rf = max(0.0, budget_remaining / budget_total)
    successes = total - failures
    return {
        "total": total,
        "successes": successes,
        "failures": failures,
        "success_rate": successes / total if total > 0 else 1.0,
        "budget_total": budget_total,
        "budget_remaining": budget_remaining,
        "remaining_fraction": rf,
        "burn_rate": failures / budget_total if budget_total > 0 else 0.0,
    }


def status_codes(remaining: np.ndarray, slo: SLO) -> np.ndarray:
    """Status codes (0 healthy .. 3 exhausted) from the remaining budget fraction, as the seed's
    ``_compute_status``: ``<= 0`` exhausted, ``< critical`` critical, ``< warning`` warning.

    >>> status_codes(np.array([1.0, 0.4, 0.05, 0.0]), SLO()).tolist()
    [0, 1, 2, 3]
    """
    if slo.critical > 0:  # then <= 0 implies < critical implies < warning: the flags add up
        code = (remaining < slo.warning).view(np.int8)
        code += remaining < slo.critical
        code += remaining <= 0
        return code
    code = np.zeros(len(remaining), dtype=np.int8)
    code[remaining < slo.warning] = 1
    code[remaining < slo.critical] = 2
    code[remaining <= 0] = 3
    return code


def status_code(remaining: float, slo: SLO) -> int:
    """:func:`status_codes` of one value, in plain Python (the streaming tracker's twin: it runs
    once per :meth:`~budgetlab.Tracker.record`).

    >>> status_code(0.05, SLO())
    2
    """
    if remaining <= 0:
        return 3
    if remaining < slo.critical:
        return 2
    if remaining < slo.warning:
        return 1
    return 0


def hold_low_traffic(code: np.ndarray, low: np.ndarray, first_in_group: np.ndarray,
                     initial: int = 0) -> np.ndarray:
    """The ``min_events`` hold: low-traffic rows keep the previous status of their group
    (``initial`` at a group's start: healthy, or the status a streaming tracker already shows).
    Rows are in group order; ``first_in_group`` marks each group's first row.

    >>> hold_low_traffic(np.array([2, 0, 3, 1]), np.array([False, True, False, True]),
    ...                  np.array([True, False, True, False])).tolist()
    [2, 2, 3, 3]
    """
    valid = ~low
    code = code.copy()
    start_low = first_in_group & low
    code[start_low] = initial
    valid |= start_low
    idx = np.where(valid, np.arange(len(code)), 0)
    np.maximum.accumulate(idx, out=idx)
    return code[idx]


def seed_status_codes(total: np.ndarray, failures: np.ndarray, target: Any, slo: SLO,
                      first_in_group: np.ndarray | None = None, initial: int = 0) -> np.ndarray:
    """Seed status codes of windows holding at least one event, ``min_events`` hold included.

    ``target`` is a float or one target per row; ``first_in_group`` marks each group's first row
    (rows in group order; ``None``: one group starting at row 0); ``initial`` is the status
    before a group's first row (healthy; a streaming tracker continues from its own).

    >>> seed_status_codes(np.array([20, 40, 5]), np.array([1, 3, 1]), 0.95, SLO()).tolist()
    [2, 3, 3]
    >>> seed_status_codes(np.array([5, 40]), np.array([1, 3]), 0.95, SLO(min_events=10)).tolist()
    [0, 3]
    """
    code = status_codes(remaining_fraction(total, failures, target), slo)
    if slo.min_events > 0:
        low = total < slo.min_events
        if bool(low.any()):
            if first_in_group is None:
                first_in_group = np.zeros(len(total), dtype=bool)
                first_in_group[:1] = True
            code = hold_low_traffic(code, low, first_in_group, initial)
    return code


def round_like_python(values: np.ndarray, digits: int) -> np.ndarray:
    """Python's ``round(x, digits)`` of every element, vectorized, bit for bit.

    Python rounds the exact binary value to ``digits`` decimals (half to even on exact ties) and
    returns the double nearest that decimal, as the seed's ``get_report()`` does. Vectorized:
    ``y = x * 10**digits`` (one rounding), ``rint(y) / 10**digits`` (an exact integer over an
    exact power of ten, divided with one correct rounding: the double nearest the decimal). The
    product's rounding can only change the result when the exact ``x * 10**digits`` lies within
    one ulp of a half (or ``y`` is not finite, or too large for its fraction); those elements,
    and only those, are rounded by Python's ``round``.

    Parameters
    ----------
    values : float array
    digits : int
        Decimals, ``0 <= digits <= 15``.

    Returns
    -------
    float64 array
        ``[round(float(x), digits) for x in values]`` as an array.

    Examples
    --------
    >>> round_like_python(np.array([2.675, 0.125, 1.0049999999999999, -0.004, 12.3456]), 2).tolist()
    [2.67, 0.12, 1.0, -0.0, 12.35]
    """
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) \
            or not 0 <= digits <= 15:
        raise ConfigError(f"digits={digits!r} must be a whole number in 0..15.")
    x = np.asarray(values, dtype=np.float64)
    scale = 10.0**digits  # exact for digits <= 22
    with np.errstate(over="ignore", invalid="ignore"):
        y = x * scale
        out = np.rint(y)
        # |y - rint(y)| (exact below 2**52) is within |y| * 2**-50 (> 4 ulps of y) of a half?
        dist = np.subtract(y, out)
        np.abs(dist, out=dist)
        np.subtract(0.5, dist, out=dist)
        np.abs(y, out=y)
        unsure = dist <= y * 2.0**-50
        unsure |= ~(y < 2.0**50)  # large, inf or nan
        out /= scale
    if unsure.any():
        idx = np.flatnonzero(unsure)
        out[idx] = [round(v, digits) for v in x[idx].tolist()]
    return out
