"""One PromQL aggregation as a whole: whether a query is one (:func:`aggregates`: ``sum(...)``,
``sum by (code) (...)``, ``sum(...) without (instance)``) and the labels it groups by
(:func:`grouped_by`), read past the label values (a parenthesis inside one is no parenthesis).
:mod:`~budgetlab.interop.promql` sends a query that groups by the ``by`` labels already as it
is, without summing it again."""

from __future__ import annotations

import re

__all__ = ["aggregates", "grouped_by"]

_AGGREGATION = re.compile(r"^\s*(?:sum|min|max|avg|count|group|stddev|stdvar)\s*"
                          r"(?:(by|without)\s*\(([^()]*)\)\s*)?\(")
_GROUPING_TAIL = re.compile(r"^\s*(?:(by|without)\s*\(([^()]*)\)\s*)?$")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')


def _whole(text: str) -> tuple[str | None, str] | None:
    """``(by or without or None, its labels)`` of ``text`` when it is one aggregation as a
    whole, else ``None``."""
    bare = _STRING.sub('""', text)  # a parenthesis inside a label value is no parenthesis
    head = _AGGREGATION.match(bare)
    if head is None:
        return None
    depth = 0
    for i in range(head.end() - 1, len(bare)):
        depth += {"(": 1, ")": -1}.get(bare[i], 0)
        if depth == 0:
            tail = _GROUPING_TAIL.match(bare[i + 1:])
            if tail is None:
                return None
            return (head.group(1), head.group(2)) if head.group(1) else (tail.group(1),
                                                                         tail.group(2) or "")
    return None


def aggregates(text: str) -> bool:
    """Whether the PromQL ``text`` is one aggregation as a whole (``sum(...)``,
    ``sum by (code) (...)``, ``sum(...) without (instance)``), whatever labels it keeps.

    >>> aggregates('sum(rate(e_total{code=~"(5..)"}[{{.window}}]))')
    True
    >>> aggregates("sum by (code) (rate(e_total[5m]))"), aggregates("rate(e_total[5m])")
    (True, False)
    >>> aggregates("sum(rate(e_total[5m])) / sum(rate(t_total[5m]))")
    False
    """
    return _whole(text) is not None


def grouped_by(text: str) -> set[str] | None:
    """The labels the PromQL ``text`` keeps when it is one aggregation as a whole by them
    (``sum by (region) (...)``, ``sum(...) by (region)``; ``set()`` for ``sum(...)``), else
    ``None`` (not one aggregation, or one ``without`` labels: what it keeps is not known here).

    >>> grouped_by("sum by (region, code) (rate(e_total[5m]))") == {"region", "code"}
    True
    >>> grouped_by("sum(rate(e_total[5m])) by (region)"), grouped_by("sum(rate(e_total[5m]))")
    ({'region'}, set())
    >>> grouped_by("sum(rate(e_total[5m])) without (pod)"), grouped_by("rate(e_total[5m])")
    (None, None)
    """
    whole = _whole(text)
    if whole is None or whole[0] == "without":
        return None
    return {k.strip() for k in whole[1].split(",") if k.strip()}
