"""The alert policies a command's groups run with, said and checked: a preset name is built for
the SRE budget period of each group's SLO (:func:`budgetlab.alerts.episodes.policy_parts`), so
``alerts`` and ``incident`` print the tiers the groups ran and check ``--freq`` against their
windows, not against the 30 d default's (Pyrra's and the Workbook's windows scale with the
period: ``critical_1h4m`` at 30 d is ``critical_15m`` at 7 d).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._util.words import prose_duration
from ..errors import ConfigError
from ..slo import SLO, PerGroup
from .reading import slo_list

__all__ = ["check_freq", "group_periods", "known_periods", "policy_builds", "run_builds",
           "tiers_text"]


def check_freq(freq: str, policies: dict[str, Any], *, period: Any = None) -> None:
    """``--freq`` must divide every window of the policies (their tiers are evaluated on whole
    bins): refused naming the first window it does not divide (and the SLO period the policy
    was built for, when ``period`` is given: the groups' SLOs have several).

    >>> from budgetlab.alerts.policy import AlertPolicy
    >>> check_freq("5min", {"workbook": AlertPolicy.workbook("28D")}, period="28D")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --freq 5min does not divide the 56 min window of the workbook
    policy's page_1h tier at the 28 d SLO period (its windows are whole numbers of bins); give a
    --freq that divides every window, e.g. 1min.
    """
    from .._util.validation import to_timedelta

    step = to_timedelta(freq, name="freq")
    at = "" if period is None else f" at the {prose_duration(period)} SLO period"
    for name, pol in policies.items():
        for tier in pol.tiers:
            for w in tier.windows:
                if w % step:
                    raise ConfigError(
                        f"--freq {freq} does not divide the {prose_duration(w)} window of the "
                        f"{name} policy's {tier.name} tier{at} (its windows are whole "
                        "numbers of bins); give a --freq that divides every window, e.g. 1min.")


def known_periods(slo: SLO | PerGroup) -> list[pd.Timedelta] | None:
    """The SRE budget period every group runs with, known before the log is read: an SLO's, or
    the one period of every SLO of per-group SLOs (their default's included); ``None`` when
    they differ (the log's groups decide which apply: an SLO of a group the log does not have
    is not used)."""
    periods = list(dict.fromkeys(pd.Timedelta(s.period) for s in slo_list(slo)))
    return periods if len(periods) == 1 else None


def group_periods(slo: SLO | PerGroup, events: pd.DataFrame, by: list[str]) -> list[pd.Timedelta]:
    """The distinct SRE budget periods of the SLOs of the log's groups, in the groups' order."""
    if isinstance(slo, SLO) or not by:
        return [pd.Timedelta((slo.base if isinstance(slo, PerGroup) else slo).period)]
    keys = events.groupby(by, observed=True, sort=True, dropna=False).size().reset_index()[by]
    return list(dict.fromkeys(pd.Timedelta(s.period) for s in slo.resolve(keys)))


def policy_builds(name: str, periods: list[pd.Timedelta], freq: str
                  ) -> list[tuple[pd.Timedelta, Any]]:
    """The preset ``name`` built for each period (as the replay builds it for the groups of that
    period), ``--freq`` checked against each build's windows; a period the preset refuses, and
    builds whose tier names differ (:mod:`~budgetlab.alerts.period_tiers`), are refused here, in
    the command's words."""
    from ..alerts.period_tiers import check_tier_names
    from ..alerts.policy import as_policy

    builds = [(p, as_policy(name, period=p)) for p in periods]
    check_tier_names(name, builds)
    for p, pol in builds:
        check_freq(freq, {name: pol}, period=p if len(builds) > 1 else None)
    return builds


def run_builds(names: list[str], slo: SLO | PerGroup, freq: str,
               events: pd.DataFrame | None = None, by: list[str] | None = None
               ) -> dict[str, list[tuple[pd.Timedelta, Any]]]:
    """Each preset of ``names`` built for the periods the groups run with
    (:func:`policy_builds`): before the read (no ``events``) when every SLO has one period, else
    ``{}`` (call again with the log's ``events`` and ``by``: the periods of its groups' SLOs)."""
    periods = known_periods(slo) if events is None else group_periods(slo, events, by or [])
    if periods is None:
        return {}
    return {n: policy_builds(n, periods, freq) for n in names}


def tiers_text(builds: list[tuple[pd.Timedelta, Any]]) -> str:
    """``tiers: critical_15m burn 14 over 15m/1m for 1m, ...``: each tier as the groups ran it;
    with builds for several periods whose tiers differ, each period's (``tiers at 28 d: ...; at
    7 d: ...``)."""
    from ..alerts.period_tiers import tier_spec

    def listed(pol: Any) -> str:
        return ", ".join(f"{t.name} {tier_spec(t)}" for t in pol.tiers)

    texts = list(dict.fromkeys(listed(pol) for _, pol in builds))
    if len(texts) == 1:
        return "tiers: " + texts[0]
    return "tiers at " + "; at ".join(f"{prose_duration(p)}: {listed(pol)}" for p, pol in builds)
