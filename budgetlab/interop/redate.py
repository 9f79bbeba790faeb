"""An SLO file's own alert policy under another SRE budget period (``--period``): each tier keeps
its share of the budget, as Sloth does.

A tier's burn means a budget fraction: ``burn x long window / period`` (SRE Workbook, ch. 5:
2 % of a 30 d budget in 1 h is burn 14.4). Sloth's windows for a 28 d period
(``internal/alert/windows/google-28d.yaml`` in slok/sloth) hold the same windows and budget
percents as its 30 d ones, and Sloth derives each burn from them (``getBurnRateFactor``:
``percent / 100 x period / long window``): 2 % in 1 h is 13.44 at 28 d. A policy moved to another
period therefore keeps its windows and budget fractions, its burns scaled by ``new / old``
period; keeping the burns would change the fractions (14.4 over 1 h of a 28 d budget is 2.14 %).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .._util.percent import given_percent
from .._util.validation import to_timedelta
from ..alerts.policy import AlertPolicy
from ..alerts.preset_tables import clean_burn

__all__ = ["redate_policy", "fraction_words"]


def redate_policy(policy: AlertPolicy, period: Any) -> AlertPolicy:
    """``policy`` for the budget ``period``: the same tiers and windows, each burn the one that
    spends the same budget fraction over its long window (``fraction x period / long window``).

    >>> p = redate_policy(AlertPolicy.sloth("30D"), "28D")  # Sloth's own 28 d table
    >>> [t.burn for t in p.tiers] == [t.burn for t in AlertPolicy.sloth("28D").tiers]
    True
    >>> [t.burn for t in p.tiers]
    [13.44, 5.6, 2.8, 0.9333333333]
    """
    new = to_timedelta(period, name="period")
    if new == policy.period:
        return policy
    tiers = tuple(dataclasses.replace(t, burn=clean_burn(t.budget_fraction(policy.period)
                                                         * (new / t.long_window)))
                  for t in policy.tiers)
    return dataclasses.replace(policy, tiers=tiers, period=new)


def fraction_words(policy: AlertPolicy) -> str:
    """Each tier's burn, windows and the budget fraction they mean at the policy's period (to
    four significant digits).

    >>> print(fraction_words(AlertPolicy.sloth("28D")))  # doctest: +NORMALIZE_WHITESPACE
    page_quick 13.44 over 1h/5m (2 % of the budget), page_slow 5.6 over 6h/30m (5 %),
    ticket_quick 2.8 over 1d/2h (10 %), ticket_slow 0.933333 over 3d/6h (10 %)
    """
    from .promql import prom_duration

    words = []
    for i, t in enumerate(policy.tiers):
        # four significant digits: Sloth's 2 % reads 2 %, Pyrra's 14 over 1 h of 30 d 1.944 %
        share = given_percent(float(f"{t.budget_fraction(policy.period):.4g}"))
        windows = "/".join(prom_duration(w, "window") for w in t.windows)
        words.append(f"{t.name} {t.burn:g} over {windows} ({share}"
                     + (" of the budget)" if i == 0 else ")"))
    return ", ".join(words)
