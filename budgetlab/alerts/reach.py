"""Tiers that can never fire at a target. A tier fires when the error ratio exceeds
``burn x (1 - target)`` (strictly), and an error ratio is at most 1 (every event failing): at a
93 % target the workbook's 14.4 page needs a ratio above 14.4 x 0.07 = 1.008, so it never fires,
however bad the service, and its "never fired" and recall 0 say nothing of the tier.
:func:`~budgetlab.low_traffic` says it per group (``can_fire``); the replays say it in a note
(``attrs["cannot_fire_note"]`` of :func:`~budgetlab.alert_episodes` and the score tables), and
:func:`~budgetlab.interop.prometheus.prometheus_rules` warns, naming the tiers and the SLOs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._util.burns import three_digits
from .._util.percent import given_fraction
from .._util.words import counted, some_named
from ..budget.targets import target_array
from ..privacy import shown
from ..slo import key_label
from ..windows.bingrid import BinGrid
from .policy import AlertPolicy
from .tier import AlertTier

__all__ = ["can_never_fire", "cannot_fire_words", "cannot_fire_note", "cannot_fire_rows",
           "named_slos_note"]


def can_never_fire(tier: AlertTier, target: float) -> bool:
    """Whether ``tier`` can never fire at ``target``: its threshold ``burn x (1 - target)``
    (computed as the replay and the PromQL rule compute it) is 1 or more.

    >>> from budgetlab.alerts.policy import AlertPolicy
    >>> [(t.name, can_never_fire(t, 0.93)) for t in AlertPolicy.workbook().tiers][:2]
    [('page_1h', True), ('page_6h', False)]
    """
    return bool(tier.burn * (1.0 - target) >= 1.0)


def cannot_fire_words(tiers: Sequence[AlertTier | tuple[str, float]], target: float,
                      where: str = "") -> str:
    """The clause that says ``tiers`` (or their ``(name, burn)``) can never fire at ``target``
    (``where``: after the target, e.g. the groups), each threshold to four significant digits.

    >>> from budgetlab.alerts.policy import AlertPolicy
    >>> print(cannot_fire_words(AlertPolicy.workbook().tiers[:1], 0.93))
    ... # doctest: +NORMALIZE_WHITESPACE
    page_1h can never fire at target 0.93: it needs an error ratio above 14.4 x (1 - 0.93) =
    1.008, and an error ratio is at most 1 (every event failing)
    """
    t = given_fraction(target)
    pairs = [(x.name, x.burn) if isinstance(x, AlertTier) else x for x in tiers]
    names = " and ".join([", ".join(n for n, _ in pairs[:-1]), pairs[-1][0]]
                         if len(pairs) > 1 else [pairs[0][0]])
    needs = " and ".join(f"{three_digits(b, significant=4)} x (1 - {t}) = "
                         f"{three_digits(b * (1.0 - target), significant=4)}" for _, b in pairs)
    return (f"{names} can never fire at target {t}{where}: "
            f"{'it needs' if len(tiers) == 1 else 'they need'} an error ratio above {needs}, "
            "and an error ratio is at most 1 (every event failing)")


def _group_words(grid: BinGrid, groups: np.ndarray, n_all: int) -> str:
    """`` (the group 'image')`` or `` (2 of 3 groups: 'a', 'b')``; nothing for all groups. A
    group of several keys is named as messages name one (:func:`~budgetlab.slo.key_label`):
    ``('recaptcha_v2', 'fra')``, never its values loose in the list."""
    if not grid.by or len(groups) == n_all:
        return ""
    keys = grid.keys.iloc[groups]
    labels = [key_label(tuple(shown(v) for v in row)) for row in
              keys[list(grid.by)].astype(str).itertuples(index=False, name=None)]
    if len(labels) == 1:
        return f" (the group {labels[0]})"
    return f" ({len(labels)} of {counted(n_all, 'group')}: {some_named(labels, 3)})"


def cannot_fire_note(grid: BinGrid,
                     parts: Sequence[tuple[np.ndarray | None, BinGrid, Any, AlertPolicy]]) -> str:
    """The note of a replay over ``grid`` (the ``parts`` of
    :func:`~budgetlab.alerts.episodes.policy_parts`) on the tiers that can never fire at their
    group's target; ``""`` when every tier can fire in every group."""
    found = _never_firing(parts)
    clauses = [cannot_fire_words(tiers, value, _group_words(grid, groups, grid.n_groups))
               for (value, tiers), groups in found.items()]
    if not clauses:
        return ""
    n = sum(len(tiers) for _, tiers in found)
    return ("; ".join(clauses) + f"; {'its' if n == 1 else 'their'} recall is no verdict on "
            f"{'the tier' if n == 1 else 'those tiers'}.")


def cannot_fire_rows(grid: BinGrid,
                     parts: Sequence[tuple[np.ndarray | None, BinGrid, Any, AlertPolicy]]
                     ) -> list[list[Any]]:
    """The tiers that can never fire in a replay over ``grid``, one entry per tier and target:
    ``[tier name, burn, target, groups]``, ``groups`` the keys (as text, one list per group) of
    the groups at that target, ``None`` for every group of the grid. What the alert chart reads
    (``attrs["cannot_fire"]`` of :func:`~budgetlab.alert_episodes`) to say so on the tier's row.
    """
    keys = grid.keys[list(grid.by)].astype(str).to_numpy().tolist() if grid.by else []
    return [[t.name, float(t.burn), float(value),
             None if len(groups) == grid.n_groups else [keys[i] for i in groups.tolist()]]
            for (value, tiers), groups in _never_firing(parts).items() for t in tiers]


def _never_firing(parts: Sequence[tuple[np.ndarray | None, BinGrid, Any, AlertPolicy]]
                  ) -> dict[tuple[float, tuple[AlertTier, ...]], np.ndarray]:
    """Per (target, the tiers that can never fire at it): the groups (sorted indices into the
    replay's grid) at that target."""
    found: dict[tuple[float, tuple[AlertTier, ...]], list[np.ndarray]] = {}
    for idx, sub, tgt, pol in parts:
        targets = target_array(tgt, sub)
        at = np.arange(sub.n_groups) if idx is None else np.asarray(idx)
        for value in dict.fromkeys(targets.tolist()):
            tiers = tuple(t for t in pol.tiers if can_never_fire(t, value))
            if tiers:
                found.setdefault((value, tiers), []).append(at[targets == value])
    return {k: np.sort(np.concatenate(chunks)) for k, chunks in found.items()}


def named_slos_note(slos: Iterable[tuple[str, float, AlertPolicy]]) -> str:
    """The warning of a rule file for ``(SLO name, target, policy)``: per target and tiers
    (by name and burn: a preset's windows move with each SLO's period, its burns do not), the
    SLOs whose tiers can never fire; ``""`` when every tier can fire.

    >>> print(named_slos_note([(n, 0.89, AlertPolicy.workbook()) for n in ("a", "b")]))
    ... # doctest: +NORMALIZE_WHITESPACE
    SLOs 'a' and 'b': page_1h can never fire at target 0.89: it needs an error ratio above 14.4 x
    (1 - 0.89) = 1.584, and an error ratio is at most 1 (every event failing); the rules are
    written all the same.
    """
    never: dict[tuple[float, tuple[tuple[str, float], ...]], list[str]] = {}
    for name, target, policy in slos:
        tiers = tuple((t.name, t.burn) for t in policy.tiers if can_never_fire(t, target))
        if tiers:
            never.setdefault((target, tiers), []).append(name)
    if not never:
        return ""

    def listed(names: list[str]) -> str:
        quoted = [repr(n) for n in names]
        return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]

    return "; ".join(f"SLO{'s' if len(names) > 1 else ''} {listed(names)}: "
                     + cannot_fire_words(tiers, target)
                     for (target, tiers), names in never.items()) + (
        "; the rules are written all the same.")
