"""An SLO file's own alert policy under another SRE budget period (``--period``): each tier keeps
its share of the budget, as Sloth does.

A tier's burn means a budget fraction: ``burn x long window / period`` (SRE Workbook, ch. 5:
2 % of a 30 d budget in 1 h is burn 14.4). Sloth's windows for a 28 d period
(``internal/alert/windows/google-28d.yaml`` in slok/sloth) hold the same windows and budget
percents as its 30 d ones, and Sloth derives each burn from them (``getBurnRateFactor``:
``percent / 100 x period / long window``): 2 % in 1 h is 13.44 at 28 d. A policy moved to another
period therefore keeps its windows and budget fractions, its burns scaled by ``new / old``
period; keeping the burns would change the fractions (14.4 over 1 h of a 28 d budget is 2.14 %).

A shorter period scales the burns down, and a tier below burn 1 is no alert: it fires while the
service spends its budget slower than the period allows (on track to keep it). Such a re-dating
is refused, as Sloth refuses a 7 d period without a windows file of its own; a tier at burn 1
exactly fires only above that pace (the Workbook's 10 % in 3 d at 30 d). The one table below 1
that is kept is Sloth's own 28 d one (``google-28d.yaml``: 10 % in 3 d is burn 0.933), which is
what Sloth itself does at 28 d.

**Pyrra's objectives follow Pyrra's rule.** Pyrra derives its tiers from the objective's window
(``Windows()`` in ``slo/rules.go`` of pyrra-dev/pyrra): the factors 14, 7, 2, 1 stay and every
window (and ``for``) is ``window / n``, rounded to the minute, so a Pyrra objective of 30 d alerts
over 1h4m/5m, 6h26m/32m, 1d1h43m/2h9m and 4d6h51m/6h26m. A policy that is Pyrra's own table at its
period (:meth:`AlertPolicy.pyrra`, what a Pyrra file reads as) is re-dated by that rule, as Pyrra
would build it for the new window, not by the budget fractions above; :func:`redated_words`
says which rule each re-dated policy followed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pandas as pd

from .._util.burns import three_digits
from .._util.percent import given_percent
from .._util.validation import duration_label, to_timedelta
from .._util.words import prose_duration, say
from ..alerts.policy import AlertPolicy
from ..alerts.preset_tables import clean_burn
from ..alerts.tier import AlertTier
from ..errors import ConfigError

__all__ = ["redate_policy", "redate_policies", "fraction_words", "redated_words"]


def redate_policy(policy: AlertPolicy, period: Any) -> AlertPolicy:
    """``policy`` for the budget ``period``: the same tiers and windows, each burn the one that
    spends the same budget fraction over its long window (``fraction x period / long window``).

    >>> p = redate_policy(AlertPolicy.sloth("30D"), "28D")  # Sloth's own 28 d table
    >>> [t.burn for t in p.tiers] == [t.burn for t in AlertPolicy.sloth("28D").tiers]
    True
    >>> [t.burn for t in p.tiers]
    [13.44, 5.6, 2.8, 0.9333333333]
    >>> redate_policy(AlertPolicy.sloth("30D"), "7D")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: period='7d' would put tier ticket_quick at burn 0.7 and tier
    ticket_slow at burn 0.233 (each tier keeping its share of the budget: burn = share x period /
    long window); a tier below burn 1 fires while the service is on track to keep its budget, so
    it is no alert: give a policy made for 7 d (e.g. AlertPolicy.workbook('7d')) or period='30d'
    or longer.
    """
    new = to_timedelta(period, name="period")
    if new == policy.period:
        return policy
    if _pyrra_table(policy):  # Pyrra's rule: its factors kept, its windows scaled
        return AlertPolicy.pyrra(new)
    tiers = tuple(dataclasses.replace(t, burn=clean_burn(t.budget_fraction(policy.period)
                                                         * (new / t.long_window)))
                  for t in policy.tiers)
    low = [t for t in tiers if t.burn < 1]
    if low and not _sloth_table(tiers, new):
        # burn x period / old period >= 1 for every tier: period >= old period / lowest burn
        longer = duration_label((policy.period / min(t.burn for t in policy.tiers)).ceil("1min"))
        label, made = duration_label(new), prose_duration(new)  # typed; in prose
        raise ConfigError(
            say(f"period='{label}'", f"--period {label}") + " would put "
            + " and ".join(f"tier {t.name} at burn {t.burn:.3g}" for t in low)
            + " (each tier keeping its share of the budget: burn = share x period / long window);"
            " a tier below burn 1 fires while the service is on track to keep its budget, so it "
            "is no alert: give "
            + say(f"a policy made for {made} (e.g. AlertPolicy.workbook('{label}')) or "
                  f"period='{longer}' or longer.",
                  f"--policy with tiers made for {made} (e.g. --policy workbook or --policy "
                  f"pyrra) or --period {longer} or longer."))
    return dataclasses.replace(policy, tiers=tiers, period=new)


def _sloth_table(tiers: tuple[AlertTier, ...], period: pd.Timedelta) -> bool:
    """Whether ``tiers`` are Sloth's own windows and burns for ``period`` (it ships 28 d and 30 d
    tables; its 28 d one has ticket_slow at burn 0.933)."""
    if period not in (pd.Timedelta("28D"), pd.Timedelta("30D")):
        return False
    return [(t.windows, t.burn) for t in tiers] == [(t.windows, t.burn)
                                                    for t in AlertPolicy.sloth(period).tiers]


def _pyrra_table(policy: AlertPolicy) -> bool:
    """Whether ``policy`` is Pyrra's own table at its period (what a Pyrra objective reads as)."""
    try:
        own = AlertPolicy.pyrra(policy.period)
    except ConfigError:  # a period too short for Pyrra's windows: no Pyrra table to match
        return False
    return policy.tiers == own.tiers


def redated_words(policy: AlertPolicy) -> str:
    """What a re-dated ``policy`` is at its period, and by which rule it got there: Pyrra's
    tiers by Pyrra's rule (factors kept, windows scaled), any other's tiers keeping their budget
    fractions (burns scaled, windows kept).

    >>> print(redated_words(redate_policy(AlertPolicy.pyrra("28D"), "30D")))
    ... # doctest: +NORMALIZE_WHITESPACE
    the alerts at 30 d: Pyrra's tiers as Pyrra builds them for this window (factors 14, 7, 2, 1
    kept, each window the 28 d one x period / 28 d, rounded to the minute): critical_1h4m 14 over
    1h4m/5m (2.074 % of the budget), critical_6h26m 7 over 6h26m/32m (6.255 %), warning_1d1h43m 2
    over 1d1h43m/2h9m (7.144 %), warning_4d6h51m 1 over 4d6h51m/6h26m (14.28 %)
    """
    if _pyrra_table(policy):
        how = ("Pyrra's tiers as Pyrra builds them for this window (factors 14, 7, 2, 1 kept, "
               "each window the 28 d one x period / 28 d, rounded to the minute)")
    else:
        how = ("the file's tiers, each keeping its share of the budget (burn = share x period / "
               "long window, as Sloth's own 28 d and 30 d windows do)")
    return f"the alerts at {prose_duration(policy.period)}: {how}: {fraction_words(policy)}"


def redate_policies(policies: Sequence[AlertPolicy], old: Any,
                    new: Any) -> tuple[AlertPolicy, ...]:
    """An SLO's alert ``policies`` when its period moves from ``old`` to ``new``: those whose
    period is ``old`` (the SLO's) re-dated by :func:`redate_policy`; one with a period of its own
    (OpenSLO annotation ``budgetlab/period``) kept as it is, as the user wrote it.

    >>> pols = [AlertPolicy.sloth("30D"), AlertPolicy.pyrra("28D")]  # an SLO of 30 d
    >>> [(p.tiers[0].burn, p.period.days) for p in redate_policies(pols, "30D", "60D")]
    [(28.8, 60), (14.0, 28)]
    """
    was = to_timedelta(old, name="period")
    return tuple(redate_policy(p, new) if p.period == was else p for p in policies)


def fraction_words(policy: AlertPolicy) -> str:
    """Each tier's burn (to three significant digits, as every burn is said:
    :func:`~budgetlab._util.burns.three_digits`), windows and the budget fraction they mean at
    the policy's period (to four significant digits).

    >>> print(fraction_words(AlertPolicy.sloth("28D")))  # doctest: +NORMALIZE_WHITESPACE
    page_quick 13.4 over 1h/5m (2 % of the budget), page_slow 5.6 over 6h/30m (5 %),
    ticket_quick 2.8 over 1d/2h (10 %), ticket_slow 0.933 over 3d/6h (10 %)
    """
    from .promql import prom_duration

    words = []
    for i, t in enumerate(policy.tiers):
        # four significant digits: Sloth's 2 % reads 2 %, Pyrra's 14 over 1 h of 30 d 1.944 %
        share = given_percent(float(f"{t.budget_fraction(policy.period):.4g}"))
        windows = "/".join(prom_duration(w, "window") for w in t.windows)
        words.append(f"{t.name} {three_digits(t.burn)} over {windows} ({share}"
                     + (" of the budget)" if i == 0 else ")"))
    return ", ".join(words)
