"""What the timeline's panels show besides the data: each line's label and colour, the target, the
burn rate's 1× and the alert policy's tiers, the budget thresholds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.percent import given_percent
from .clock_lines import clock_values

__all__ = ["LINE_COLORS", "LINE_LABELS", "draw_levels"]

#: Each line's legend text, top-down.
LINE_LABELS = (("success_rate", "success rate in window (%)"), ("burn_rate", "burn rate"),
               ("budget_remaining", "budget remaining (%)"))
#: Line colours (Okabe–Ito): success rate blue, burn rate reddish purple, budget remaining black.
LINE_COLORS = {"success_rate": "#0072B2", "burn_rate": "#CC79A7", "budget_remaining": "#0072B2"}


def draw_levels(panels: list[Axes], values: dict[str, np.ndarray], spans: pd.DataFrame | None,
                slo: Any, policy: Any) -> tuple[dict[str, Any], list[str], list[list[float]]]:
    """What the timeline's ``panels`` draw before the data: ``(lines, hidden, extras)``, each
    line (by gid) with its label and no points yet, the policy's tiers named in the legend only
    (:func:`_burn_levels`, from the highest burn rate the line will show: of ``values``, or with
    ``spans`` on the window's clock) and the levels each panel's y range holds (target, 1×, the
    tiers drawn, the budget thresholds)."""
    lines = {gid: p.plot([], [], drawstyle="steps-post", color=LINE_COLORS[gid], lw=1.1,
                         label=label, gid=gid)[0]
             for p, (gid, label) in zip(panels, LINE_LABELS, strict=False)}

    def burn() -> np.ndarray:  # read only for a policy's tiers: on the clock, a pass over steps
        return (clock_values(spans, "burn_rate")[1] if spans is not None and len(spans)
                else values["burn_rate"])

    hidden, shown = _burn_levels(panels[1], burn, policy)
    extras = [_target(panels[0], slo), shown]
    if len(panels) > 2:
        extras.append(_budget_levels(panels[2], slo))
    return lines, hidden, extras


def _target(ax: Axes, slo: Any) -> list[float]:
    """The success-rate panel's target line and label; the level its y range holds."""
    ax.set_ylabel("success\nrate (%)")
    if slo is None:
        return []
    ax.axhline(slo.target * 100, color="black", ls="--", lw=0.9,
               label=f"target {given_percent(slo.target, space=False)}", gid="target")
    return [slo.target * 100]


def _budget_levels(budget_ax: Axes, slo: Any) -> list[float]:
    """The budget panel's thresholds (dashed, named once in the legend; each status drawn names
    the one that starts it) and label; the levels its y range holds: always the whole 0-100 %
    scale, so that a budget at 0 throughout is read against the full scale, as in every other
    group, not on an axis stopping near the warning threshold."""
    levels = [0.0, 100.0]
    if slo is not None:
        levels += [slo.warning * 100, slo.critical * 100]
        drawn = [f for f in (slo.warning, slo.critical) if f > 0]
        label = "thresholds " + ", ".join(given_percent(f, space=False) for f in drawn)
        for k, f in enumerate(drawn):
            budget_ax.axhline(f * 100, color="0.35", ls="--", lw=0.8, gid="budget_threshold",
                              label=None if k else label)
    budget_ax.axhline(0.0, color="0.35", ls="-", lw=0.8, gid="budget_threshold")
    budget_ax.set_ylabel("budget\nleft (%)")
    return levels


def _burn_levels(burn_ax: Axes, burn: Callable[[], np.ndarray], policy: Any
                 ) -> tuple[list[str], list[float]]:
    """The burn-rate panel's 1× line, the ``policy``'s tier thresholds and label: ``(hidden,
    shown)``, the tiers above 1.5 times the highest burn rate ``burn()`` (named in the legend
    only, so that they do not squash the data) and the levels the y range holds."""
    burn_ax.axhline(1.0, color="black", ls=":", lw=0.9, label="1× = the allowed pace",
                    gid="burn_one")
    tiers = getattr(policy, "tiers", ()) or ()
    shown, hidden = [1.0], []
    if tiers:
        br = burn()
        finite = br[np.isfinite(br)]
        peak = max(float(finite.max()) if len(finite) else 0.0, 1.0)
    for tier in tiers:
        level = float(tier.burn)
        if level <= 1.5 * peak:
            burn_ax.axhline(level, color="#D55E00", ls="--", lw=0.9, gid="burn_threshold",
                            label=f"{tier.name}: burn {level:g}")
            shown.append(level)
        else:
            hidden.append(f"{tier.name}: burn {level:g} (above the axis)")
    burn_ax.set_ylabel("burn\nrate (×)")
    return hidden, shown
