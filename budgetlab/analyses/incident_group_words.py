"""How the incident summary names the groups a figure is about
(:mod:`budgetlab.analyses.incident_text`): one group by its keys, several summed by their count
and keys, within the incident's scope when it has one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ..events.scopes import parse_scope

__all__ = ["all_groups", "for_group", "group_label", "no_event_labels", "no_event_words",
           "scope_group_words"]


def group_label(row: pd.Series | dict[str, Any], keys: Sequence[str]) -> str:
    """``captcha_type=image, region=fra``: one group by its keys."""
    return ", ".join(f"{k}={row[k]}" for k in keys)


def for_group(row: pd.Series, keys: Sequence[str]) -> str:
    """`` for captcha_type=image, region=fra`` (the group a figure is about), or nothing without
    group keys."""
    return f" for {group_label(row, keys)}" if keys else ""


def all_groups(table: pd.DataFrame, keys: Sequence[str], scope: str = "*", *,
               mid: bool = False, of: int = 0, none: Sequence[str] = (),
               again: bool = False) -> str:
    """`` of all 4 groups by captcha_type and region`` (``of both groups``) when ``table`` holds
    several groups of ``keys`` (a figure summed over them), else nothing (one group, or no keys).
    With a ``scope`` the groups are its parts, and the words say so: `` in the scope
    captcha_type=recaptcha_v2, across both groups by region``, closed by a comma when the
    sentence goes on (``mid``).

    >>> t = pd.DataFrame({"region": ["fra", "fra", "ams"], "n": [1, 2, 3]})
    >>> all_groups(t, ["region"]), all_groups(t.iloc[:2], ["region"]), all_groups(t, [])
    (' of both groups by region', '', '')
    >>> all_groups(t, ["region"], "captcha_type=recaptcha_v2", mid=True)
    ' in the scope captcha_type=recaptcha_v2, across both groups by region,'

    ``table`` holding the groups with events in the incident, of ``of`` groups the report counts
    (its budget table's): the figure is counted over all ``of`` of them, and the groups with no
    event are named (``none``: their labels, :func:`no_event_labels`) or counted, never "all 2"
    of 3 nor one figure "of both groups" beside another "of the 1 group with events".

    >>> all_groups(t, ["region"], of=3, none=["region=lis"])
    ' of all 3 groups by region (region=lis had no event in the incident)'
    >>> all_groups(t.iloc[:1], ["region"], "svc=api", mid=True, of=2, none=["region=ams"])
    ' in the scope svc=api, across both groups by region (region=ams had no event in the incident),'

    Said ``again`` (an earlier sentence named them), such groups are "the same" ones, their
    groups without an event not named twice.

    >>> all_groups(t, ["region"], of=3, none=["region=lis"], again=True)
    ' of the same 3 groups'

    The groups are named by the keys that tell them apart: a key the ``scope`` pins to one value
    (``region`` in ``region=fra``) is no grouping of them (before stop 63 a breakdown by
    ``captcha_type`` and ``region`` in the scope ``region=fra`` read "by captcha_type and
    region", and one by ``region`` alone "both groups by region" of groups by another key).

    >>> u = pd.DataFrame({"captcha_type": ["image", "v2"], "region": ["fra", "fra"]})
    >>> all_groups(u, ["captcha_type", "region"], "region=fra")
    ' in the scope region=fra, across both groups by captcha_type'
    """
    n = len(table.drop_duplicates(subset=list(keys))) if keys else 1
    total = max(n, of) if keys else 1
    if total < 2:
        return ""
    pinned = parse_scope(scope)
    by = " and ".join([k for k in keys if k not in pinned] or keys)
    groups = f"{'both groups' if total == 2 else f'all {total:,} groups'} by {by}"
    if total > n and again:
        groups = f"the same {total:,} groups"
    elif total > n:
        groups += no_event_words(n, total, none)
    if scope == "*":
        return f" of {groups}"
    return f" in the scope {scope}, across {groups}{',' if mid else ''}"


def no_event_labels(table: pd.DataFrame, keys: Sequence[str]) -> list[str]:
    """The labels of ``table``'s groups (a budget table: one row per group) whose ``events``
    during the incident are 0.

    >>> b = pd.DataFrame({"region": ["ams", "fra"], "events": [0, 5]})
    >>> no_event_labels(b, ["region"])
    ['region=ams']
    """
    if not keys or "events" not in table.columns:
        return []
    return [group_label(r, keys) for _, r in table[table["events"] == 0].iterrows()]


def no_event_words(seen: int, total: int, none: Sequence[str] = ()) -> str:
    """`` (region=lis had no event in the incident)``: the groups of ``total`` beyond the
    ``seen`` ones with events (``none``: their labels), as :func:`all_groups` names them; ``""``
    when every group had events.

    >>> no_event_words(2, 3, ["region=lis"]), no_event_words(3, 3)
    (' (region=lis had no event in the incident)', '')
    """
    return f" ({_none_words(list(none), total - seen)} in the incident)" if total > seen else ""


def _none_words(labels: list[str], n: int) -> str:
    """``region=ams had no event``, ``region=ams and region=lis had none``, ``5 of them had no
    event`` (more than three, or no labels given)."""
    if not labels or len(labels) != n or n > 3:
        return f"{n:,} of them had no event"
    if n == 1:
        return f"{labels[0]} had no event"
    return f"{', '.join(labels[:-1])} and {labels[-1]} had no event"


def scope_group_words(scope: str, focus: dict[str, Any]) -> str:
    """The scope and the focus group as the incident figure's title names them: the scope's
    events (all its panels), the focus group's (the upper two); a pair the scope names said once.

    >>> scope_group_words("method=POST&region=iad", {"method": "POST", "region": "iad"})
    'method=POST&region=iad'
    >>> scope_group_words("method=POST", {"method": "POST", "region": "iad"})
    'method=POST, region=iad'
    >>> scope_group_words("*", {"region": "iad"}), scope_group_words("*", {})
    ('region=iad', '')
    """
    from ..events.scopes import parse_scope

    named = {f"{k}={v}" for k, v in parse_scope(scope).items()}
    pairs = [p for k, v in focus.items() if (p := f"{k}={v}") not in named]
    return ", ".join([*([scope] if scope != "*" else []), *pairs])
