"""One tier name, one tier: a preset built for several budget periods in one table.

With per-group SLOs whose periods differ, a preset name is built for each group's period
(:func:`~budgetlab.alerts.episodes.policy_parts`), and the groups' rows meet in one table under
their tier names: the ``"*"`` rows of :func:`~budgetlab.score_alerts` merge a name over the
groups, and every group gets a row for every name. That is sound when the builds share their tier
names (the Workbook's ``page_1h`` ... and Sloth's ``page_quick`` ... are role names, the same at
every period; ``single_window`` is one 1 h tier). Pyrra's names are its alerts' labels, severity
and long window (``slo/rules.go``: ``long``, ``short``, ``severity`` per ``slo``), and its windows
scale with the period: at 28 d ``warning_1d`` is 1d/2h x2, at 7 d it is 1d/1h30m x1, and
``critical_15m`` (7 d) was never run on a 28 d group. Such builds are refused, with the fix.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .._util.burns import three_digits
from .._util.validation import duration_label
from .._util.words import prose_duration, say
from ..errors import ConfigError
from .policy import AlertPolicy
from .tier import AlertTier

__all__ = ["check_tier_names", "tier_spec"]


def tier_spec(t: AlertTier) -> str:
    """``burn 2 over 1d/2h`` (``for 1h`` when it has one): what a tier is, its name apart.

    >>> tier_spec(AlertPolicy.pyrra("7D").tiers[3])
    'burn 1 over 1d/1h30m for 45m'
    """
    windows = "/".join(duration_label(w) for w in t.windows)
    wait = f" for {duration_label(t.for_)}" if t.for_ > pd.Timedelta(0) else ""
    return f"burn {three_digits(t.burn)} over {windows}{wait}"


def _same(a: AlertTier, b: AlertTier) -> bool:
    return (a.severity, a.windows, a.burn, a.for_, a.cooldown) == (
        b.severity, b.windows, b.burn, b.for_, b.cooldown)


def _difference(builds: Sequence[tuple[pd.Timedelta, AlertPolicy]]) -> str:
    """How the builds' tiers differ, in words, or ``""`` when they have the same names."""
    (p0, first), *rest = builds
    names = [t.name for t in first.tiers]
    for p, pol in rest:
        for t in pol.tiers:  # one name, two tiers
            if t.name in names:
                own = first.tier(t.name)
                if not _same(own, t):
                    return (f"one name would mean two tiers: {t.name} is {tier_spec(own)} at "
                            f"{prose_duration(p0)} and {tier_spec(t)} at {prose_duration(p)}")
        if [t.name for t in pol.tiers] != names:  # other names: rows of tiers a group never ran
            a, b = next((x, y) for x, y in zip(first.tiers, pol.tiers, strict=False)
                        if x.name != y.name)
            return (f"the groups would get rows of tiers never run on them: {a.name} "
                    f"({tier_spec(a)}) at {prose_duration(p0)} is {b.name} ({tier_spec(b)}) at "
                    f"{prose_duration(p)}")
    return ""


def check_tier_names(preset: str, builds: Sequence[tuple[pd.Timedelta, AlertPolicy]]) -> None:
    """Refuse the preset ``preset`` built for several periods (``(period, policy)`` per distinct
    period of the groups) unless every build has the same tier names in the same order, each
    name one tier or the same role (the Workbook's names at any period).

    >>> check_tier_names("workbook", [(pd.Timedelta(p), AlertPolicy.workbook(p))
    ...                               for p in ("28D", "7D")])
    >>> check_tier_names("pyrra", [(pd.Timedelta(p), AlertPolicy.pyrra(p))
    ...                            for p in ("28D", "7D")])
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: policy='pyrra' is built for each group's SLO period (28 d, 7 d)
    and its tiers are named by their windows, which scale with the period, so one name would mean
    two tiers: warning_1d is burn 2 over 1d/2h for 1h at 28 d and burn 1 over 1d/1h30m for 45m at
    7 d; give the groups' SLOs one period, pass policy='workbook' (its tier names are the same at
    every period), or run the groups of each period apart (e.g. policy=AlertPolicy.pyrra('7D')
    on those groups alone).
    """
    if len(builds) < 2 or all(_same_roles(builds[0][1], pol) for _, pol in builds[1:]):
        return
    why = _difference(builds)
    periods = ", ".join(prose_duration(p) for p, _ in builds)
    last = builds[-1][0]
    label = f"{last.days}D" if last % pd.Timedelta(days=1) == pd.Timedelta(0) else (
        duration_label(last))
    raise ConfigError(
        say(f"policy={preset!r}", f"--policy {preset}")
        + f" is built for each group's SLO period ({periods}"
        + say(")", "; the --slo file's)")
        + " and its tiers are named by their windows, which scale with the period, so " + why
        + "; give " + say("the groups' SLOs one period", "an --slo file whose SLOs share one "
                                                          "period")
        + ", " + say("pass policy='workbook'", "or --policy workbook")
        + " (its tier names are the same at every period)"
        + say(f", or run the groups of each period apart (e.g. policy=AlertPolicy.{preset}"
              f"('{label}') on those groups alone)", "") + ".")


def _same_roles(a: AlertPolicy, b: AlertPolicy) -> bool:
    """The two builds' tiers have the same names in the same order, and a name shared across
    periods keeps its severity (a role: the Workbook's ``page_1h`` is the fast page tier at any
    period, its windows scaled)."""
    return ([(t.name, t.severity) for t in a.tiers] == [(t.name, t.severity) for t in b.tiers])
