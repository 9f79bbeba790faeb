"""Drawings only. Every ``plot_*`` takes the tidy table a budgetlab function returned, draws on
``ax`` (default: the current axes), returns the Axes and never calls ``plt.show()``."""

from __future__ import annotations

from ._common import STATUS_COLORS
from .analyses import plot_recalibration, plot_window_comparison
from .charts import BUCKET_COLORS, plot_alerts, plot_buckets
from .timeline import plot_timeline

__all__ = ["STATUS_COLORS", "BUCKET_COLORS", "plot_timeline", "plot_buckets", "plot_alerts",
           "plot_recalibration", "plot_window_comparison"]
