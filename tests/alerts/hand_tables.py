"""Alert-episode tables written by hand for the scoring tests: the columns
:func:`budgetlab.alert_episodes` gives (``tier`` ordered as the policy's tiers, ``severity``,
``start``, ``end``, ``duration``, ``ongoing``), one row per ``(tier, start, end)``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from budgetlab.alerts.policy import AlertPolicy


def hand_episodes(rows: Sequence[tuple[str, str, str]], policy: AlertPolicy,
                  at: Callable[[str], pd.Timestamp]) -> pd.DataFrame:
    """``rows``: ``(tier, start, end)``, the times as ``at`` reads them (``"hh:mm"``)."""
    names = [t.name for t in policy.tiers]
    sev = {t.name: t.severity for t in policy.tiers}
    ep = pd.DataFrame({
        "tier": pd.Categorical([r[0] for r in rows], categories=names, ordered=True),
        "severity": [sev[r[0]] for r in rows],
        "start": pd.DatetimeIndex([at(r[1]) for r in rows]),
        "end": pd.DatetimeIndex([at(r[2]) for r in rows]),
    })
    ep["duration"] = ep["end"] - ep["start"]
    ep["ongoing"] = False
    return ep
