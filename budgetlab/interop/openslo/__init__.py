"""OpenSLO in and out: read ``openslo/v1`` (every kind) and ``openslo/v1alpha`` (as Sloth writes
it) into :class:`SLODocument` objects, write valid OpenSLO v1 back.

The specification is the ``README.md`` of github.com/OpenSLO/OpenSLO; the validation rules are
those of the OpenSLO Go SDK (``pkg/openslo/v1/*.go``), re-stated in :mod:`.checks`: every object
read must pass them, and every object written does. One :class:`SLODocument` (:mod:`.model`)
holds one SLO: the budgetlab :class:`~budgetlab.SLO` (target from the objective, decimal-exact
for ``targetPercent``; ``period`` from ``timeWindow``; the tracker ``window`` from the annotation
``budgetlab/window``, else the period), its SLI, its alert policies (one
:class:`~budgetlab.alerts.tier.AlertTier` per burn-rate AlertCondition) with their delivery
details (:class:`AlertPolicyInfo`), the objects it refers to, and notes on how it was read.

Modules: :mod:`.checks` (the v1 rules), :mod:`.model` (the document), :mod:`.read` and
:mod:`.write` (YAML in and out), :mod:`.v1alpha` (Sloth's dialect), :mod:`._fields` (field
values, OpenSLO's duration shorthand among them), :mod:`.build` (documents from a
recalibration, one SLO per group bound by labels) with :mod:`.recalibration_table`
(:func:`read_recalibration_table`, and each row's target and window). :mod:`.bind` holds
:func:`load_slos`, which reads a file whose SLOs are bound to groups by ``metadata.labels`` as a
:class:`~budgetlab.PerGroup`. The full field list, what is refused and why, is in
``docs/interop.md``.
"""

from __future__ import annotations

from ._fields import duration_shorthand, parse_duration_shorthand
from .alert_info import AlertPolicyInfo
from .bind import load_slo, load_slos
from .build import slos_from_recalibration
from .indicators import latency_indicator, ratio_indicator
from .model import API_VERSION, SLODocument
from .read import read_openslo
from .recalibration_table import read_recalibration_table
from .write import openslo_names, to_openslo_yaml, write_openslo

__all__ = [
    "API_VERSION",
    "SLODocument",
    "AlertPolicyInfo",
    "read_openslo",
    "load_slo",
    "load_slos",
    "to_openslo_yaml",
    "write_openslo",
    "openslo_names",
    "slos_from_recalibration",
    "read_recalibration_table",
    "ratio_indicator",
    "latency_indicator",
    "duration_shorthand",
    "parse_duration_shorthand",
]
