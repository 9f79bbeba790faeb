"""The alert chart's groups too thin for a verdict
(:func:`~budgetlab.analyses.choices.policy_thin.thin_policy_groups`): their episode bars drawn
light and hatched, keyed as left out of the scores (the policy choice of notebook 02,
``budgetlab alerts``' precision and recall), so that a group of 30 events does not look
like the evidence a policy is chosen on."""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from .alert_chart import add_alert_keys

__all__ = ["mark_thin_groups", "THIN_LABEL", "THIN_ALPHA", "THIN_HATCH"]

#: The legend entry of the thin groups' bars (gid ``thin_group``), one per chart.
THIN_LABEL = "too thin for a verdict\n(< 10 expected failures):\nleft out of the scores"
#: How light a thin group's bars are drawn, and their hatch.
THIN_ALPHA = 0.3
THIN_HATCH = "////"


def mark_thin_groups(ax: Axes, thin: pd.DataFrame | None, by: list[str]) -> int:
    """Draw the episode bars of the groups of ``thin`` (rows of their key columns ``by``; every
    row when ``by`` is empty) light (:data:`THIN_ALPHA`) and hatched (:data:`THIN_HATCH`, gid
    ``thin_group``) on the alert chart ``ax`` (:func:`~budgetlab.plotting.plot_alerts`), and key
    them once (:data:`THIN_LABEL`) when any bar was drawn so. A row is found by its label
    (``<group> · <tier>``). Returns the bars marked.

    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
    >>> from budgetlab.plotting import plot_alerts
    >>> ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    >>> ev = as_events(ts, [not (30 <= i < 40) for i in range(120)], groups={"t": ["a"] * 120})
    >>> ep = alert_episodes(bin_events(ev, "1min", by="t"), 0.9,
    ...                     AlertPolicy.single_window("10min", burn=4.5))
    >>> ax = plot_alerts(ep)
    >>> mark_thin_groups(ax, pd.DataFrame({"t": ["a"]}), ["t"])
    1
    >>> plt.close("all")
    """
    if thin is None or not len(thin):
        return 0
    heads = ([""] if not by else
             [" · ".join(str(v) for v in row) + " · "
              for row in thin[by].itertuples(index=False, name=None)])
    marked = 0
    for container in ax.containers:
        label = str(container.get_label())
        if label == "incidents" or not any(label.startswith(h) for h in heads):
            continue
        for bar in container:
            _mark(bar)
            marked += 1
    if marked:
        add_alert_keys(ax, [Patch(facecolor="#D55E00", alpha=THIN_ALPHA, hatch=THIN_HATCH,
                                  edgecolor="0.3", label=THIN_LABEL, gid="thin_group")])
    return marked


def _mark(bar: Any) -> None:
    """One episode bar drawn light and hatched, its edge kept (a narrow one still shows)."""
    bar.set_alpha(THIN_ALPHA)
    bar.set_hatch(THIN_HATCH)
    bar.set_gid("thin_group")
