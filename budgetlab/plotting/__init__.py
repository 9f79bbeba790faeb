"""Drawings only. Every ``plot_*`` takes the tidy table a budgetlab function returned, draws on
``ax`` (default: the current axes), returns the Axes and never calls ``plt.show()``. Legends sit
above or beside the plot area; on a figure without a layout engine the plot area gives way to
them (:func:`~budgetlab.plotting.legends.room_for`), so a plain ``savefig`` keeps them whole."""

from __future__ import annotations

from ._common import STATUS_COLORS, STATUS_HATCHES, gap_threshold, place_axis_labels, thin_minmax
from .alert_chart import plot_alerts
from .analyses import plot_recalibration
from .charts import BUCKET_COLORS, plot_buckets
from .history import plot_daily_success, plot_hourly_profile
from .latency import plot_latency_shares
from .timeline import plot_timeline
from .timeout_tradeoff import plot_timeout_tradeoff
from .window_comparison import plot_window_comparison

__all__ = ["place_axis_labels", "plot_daily_success", "plot_hourly_profile",
           "STATUS_COLORS", "STATUS_HATCHES", "thin_minmax", "gap_threshold", "BUCKET_COLORS",
           "plot_timeline", "plot_buckets", "plot_alerts",
           "plot_recalibration", "plot_window_comparison", "plot_latency_shares",
           "plot_timeout_tradeoff"]
