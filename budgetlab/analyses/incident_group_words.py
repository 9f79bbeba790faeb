"""How the incident summary names the groups a figure is about
(:mod:`budgetlab.analyses.incident_text`): one group by its keys, several summed by their count
and keys, within the incident's scope when it has one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

__all__ = ["all_groups", "for_group", "group_label"]


def group_label(row: pd.Series | dict[str, Any], keys: Sequence[str]) -> str:
    """``captcha_type=image, region=fra``: one group by its keys."""
    return ", ".join(f"{k}={row[k]}" for k in keys)


def for_group(row: pd.Series, keys: Sequence[str]) -> str:
    """`` for captcha_type=image, region=fra`` (the group a figure is about), or nothing without
    group keys."""
    return f" for {group_label(row, keys)}" if keys else ""


def all_groups(table: pd.DataFrame, keys: Sequence[str], scope: str = "*", *,
               mid: bool = False, of: int = 0) -> str:
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
    (its budget table's): said so when they are fewer, never "all 2" of 3.

    >>> all_groups(t, ["region"], of=3)
    ' of the 2 groups by region with events in the incident'
    """
    n = len(table.drop_duplicates(subset=list(keys))) if keys else 1
    if n < 2:
        return ""
    by = " and ".join(keys)
    groups = (f"the {n:,} groups by {by} with events in the incident" if of > n else
              f"{'both groups' if n == 2 else f'all {n:,} groups'} by {by}")
    if scope == "*":
        return f" of {groups}"
    return f" in the scope {scope}, across {groups}{',' if mid else ''}"
