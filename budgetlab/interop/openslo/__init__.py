"""OpenSLO v1 in and out: read ``kind: SLO`` / ``AlertPolicy`` / ``AlertCondition`` into
:class:`~budgetlab.SLO` and :class:`~budgetlab.alerts.policy.AlertPolicy` objects, write them back.

The specification is the ``README.md`` of github.com/OpenSLO/OpenSLO (``apiVersion: openslo/v1``).
One :class:`SLODocument` (:mod:`.model`) holds one OpenSLO SLO: its metadata, the budgetlab :class:`SLO` (target
from the objective, window from ``timeWindow``), the budgeting method and the alert policies.

Mapping (see ``docs/interop.md`` for the full list of supported and rejected fields):

* ``objectives[0].target`` (or ``targetPercent / 100``) → ``SLO.target``; exactly one objective.
* ``timeWindow[0].duration`` → ``SLO.window`` (rolling); a calendar window (``1d``, ``1w``, ``1M``
  with ``calendar.startTime`` / ``timeZone``) keeps its calendar and uses the nominal length
  (1, 7 or 30 days, as OpenSLO's Go library reads ``M``) as the tracker window.
* ``budgetingMethod``: ``Occurrences`` or ``Timeslices`` (with ``timeSliceTarget`` /
  ``timeSliceWindow``); :meth:`SLODocument.period_kwargs` turns it into
  :func:`budgetlab.budget.period.period_budget` arguments.
* Each ``AlertCondition`` of ``kind: burnrate`` is one :class:`~budgetlab.alerts.policy.AlertTier`:
  ``threshold`` → ``burn``, ``lookbackWindow`` → ``long_window``, ``alertAfter`` → ``for_``,
  ``severity``. OpenSLO v1 has one window per condition; the short window of a multiwindow tier
  and ``keep_firing_for`` travel in the annotations ``budgetlab/short-window`` and
  ``budgetlab/keep-firing-for``. The tracker thresholds of :class:`SLO` (``warning``,
  ``critical``, ``min_events``) travel in ``budgetlab/warning``, ``budgetlab/critical`` and
  ``budgetlab/min-events``.

Anything else that would change the meaning (threshold metrics, ``op`` on a burn rate other than
``gt``, ``alertWhenNoData: true``, several objectives, unknown keys ...) raises a
:class:`~budgetlab.ConfigError` naming the field path, e.g. ``spec.indicator.spec.thresholdMetric``.

Modules: :mod:`.model` (the document), :mod:`.read` and :mod:`.write` (YAML in and out),
:mod:`.durations` (OpenSLO's duration shorthand), :mod:`.build` (documents from a recalibration).
"""

from __future__ import annotations

from .build import ratio_indicator, slos_from_recalibration
from .durations import duration_shorthand, parse_duration_shorthand
from .model import API_VERSION, SLODocument
from .read import load_slo, read_openslo
from .write import to_openslo_yaml, write_openslo

__all__ = [
    "API_VERSION",
    "SLODocument",
    "read_openslo",
    "load_slo",
    "to_openslo_yaml",
    "write_openslo",
    "slos_from_recalibration",
    "ratio_indicator",
    "duration_shorthand",
    "parse_duration_shorthand",
]
