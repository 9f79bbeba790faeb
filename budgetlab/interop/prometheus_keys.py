"""The groups of a Prometheus read: the values of the ``by`` labels as group keys.

* **one spelling** (:func:`spell_keys`): the event readers' rule for group keys
  (:func:`budgetlab.events.spelling.one_spelling`): values stripped and in Unicode NFC, so ``Köln``
  written with a combining mark is the group ``Köln`` (two series of one group then have their
  counts added, and a note says so); a value holding an invisible character (zero-width, format,
  bidirectional or control) is refused, counted, since it would make a group that prints like
  another;
* **one series per group** (:func:`group_index`), refused with the fix that fits the query;
* **no personal data** (:func:`guard_keys`): keys become names in tables, messages and plots;
  a label named for people or accounts (``user``, ``customer``) is refused before the server is
  asked (:func:`refuse_named_keys`), as the event readers refuse such a key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from .._util.words import counted, noun_for, say
from ..errors import ConfigError, InputError, PersonalDataError
from ..events.spelling import INVISIBLE_WORDS, one_spelling
from ..privacy import guard_values, names_a_person, shown
from .prometheus_answer import Series
from .promql import PART_LABEL, CountQuery
from .promql_aggregation import aggregates

__all__ = ["spellings", "spell_keys", "group_index", "split_parts", "guard_keys", "key_frame",
           "refuse_named_keys"]


def spellings(values: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """Each value's one spelling (stripped, NFC), and the values holding an invisible character.

    >>> spellings(["Ko\\u0308ln ", "fr\\u200ba", "ams"])
    ({'Ko\u0308ln ': 'Köln', 'fr\u200ba': 'fr\u200ba', 'ams': 'ams'}, ['fr\u200ba'])
    """
    raw = list(dict.fromkeys(values))
    if not raw:
        return {}, []
    names, invisible = one_spelling(pd.Index([v.strip() for v in raw], dtype="str"))
    return dict(zip(raw, (str(n) for n in names), strict=True)), [
        v for v, bad in zip(raw, invisible.tolist(), strict=True) if bad]


def _merged(parts: list[Series]) -> Series:
    """One series of parts with the same labels: the values at each time added."""
    ts = np.unique(np.concatenate([p.ts_ns for p in parts]))
    vals = np.zeros(len(ts), dtype=np.float64)
    for p in parts:
        np.add.at(vals, np.searchsorted(ts, p.ts_ns), p.values)
    return Series(parts[0].labels, ts, vals)


def spell_keys(answers: Sequence[Sequence[Series]], by: list[str], whats: Sequence[str],
               notes: list[str]) -> list[list[Series]]:
    """The ``answers`` with the values of the ``by`` labels in one spelling, the series that then
    carry the same labels merged (counts added; a note per answer named in ``whats``); a value
    with an invisible character is refused."""
    if not by:
        return [list(a) for a in answers]
    for k in by:
        _, hidden = spellings(s.labels[k] for a in answers for s in a if k in s.labels)
        if hidden:
            raise InputError(f"the values of the label {k!r} hold {INVISIBLE_WORDS} in "
                             f"{counted(len(hidden), 'value')}; they would make groups that "
                             "print alike: remove them where the series are labelled, or "
                             "rewrite them with label_replace in the query.")
    spelled = spellings(s.labels[k] for a in answers for s in a for k in by if k in s.labels)[0]
    out = []
    for i, answer in enumerate(answers):
        groups: dict[tuple[tuple[str, str], ...], list[Series]] = {}
        for s in answer:
            labels = {n: spelled[v] if n in by else v for n, v in s.labels.items()}
            groups.setdefault(tuple(sorted(labels.items())), []).append(
                Series(labels, s.ts_ns, s.values))
        twins = [parts for parts in groups.values() if len(parts) > 1]
        if twins and i < len(whats):
            first = ", ".join(f"{k}={shown(twins[0][0].labels.get(k, ''))}" for k in by)
            notes.append(f"{whats[i]}: {counted(len(twins), 'group')} written in several "
                         f"spellings (Unicode forms, spaces around) read as one each, the counts "
                         f"added (first: {first})")
        out.append([_merged(parts) if len(parts) > 1 else parts[0] for parts in groups.values()])
    return out


def group_index(series: Sequence[Series], by: list[str], what: str,
                query: CountQuery) -> list[tuple[str, ...]]:
    """The group key of each series; a missing label or two series of one group refused."""
    keys = []
    for s in series:
        missing = [k for k in by if k not in s.labels]
        if missing:
            raise ConfigError(f"{what}: the query result has no label {missing[0]!r}; group by "
                              "labels the series "
                              "carry (or keep them in the query's sum by (...)).")
        keys.append(tuple(s.labels[k] for k in by))
    if len(set(keys)) != len(keys):
        raise InputError(_several_series(series, keys, by, what, query))
    return keys


def _several_series(series: Sequence[Series], keys: list[tuple[str, ...]], by: list[str],
                    what: str, query: CountQuery) -> str:
    """The refusal of a query that returned several series where one (per group) was expected,
    with the fix that fits the query: ``by`` the labels that tell the series apart, or an
    aggregation over them (a query that aggregates already is told the labels it keeps)."""
    label = "one series" if not by else f"one series per {', '.join(by)}"
    head = f"{what}: the query returned {len(series)} series where {label} was expected"
    seen = Counter(keys)
    twins = [s.labels for s, k in zip(series, keys, strict=True) if seen[k] > 1]
    apart = sorted(n for n in set().union(*twins) - {"__name__"}
                   if len({t.get(n) for t in twins}) > 1)
    if not apart:
        return f"{head}; aggregate with sum(...) or give by= the labels that tell them apart."
    give = say(f"by={apart[0]!r}" if len(apart) == 1 and not by else f"by={[*by, *apart]!r}",
               f"--by {','.join([*by, *apart])}")
    if not by and not query.bare and aggregates(query.text):
        return (f"{head}; the query aggregates but keeps {noun_for(len(apart), 'the label')} "
                f"{', '.join(apart)}: give {give}, or aggregate over "
                f"{'it' if len(apart) == 1 else 'them'} in the query too.")
    return (f"{head}; aggregate with sum(...) or give the labels that tell them apart: "
            f"{give}.")


def split_parts(series: Sequence[Series], by: list[str]
                ) -> tuple[list[Series], list[tuple[tuple[str, ...], Series]]]:
    """The series of a count query, and those of its reset part (split form, marked with
    :data:`~budgetlab.interop.promql.PART_LABEL`) with their group keys."""
    main = [s for s in series if PART_LABEL not in s.labels]
    parts = [(tuple(s.labels.get(k, "") for k in by), s) for s in series if PART_LABEL in s.labels]
    return main, parts


#: The way out of a label of personal data: a Prometheus read has no keyed hash (``pii=``).
_LABEL_FIX = ("(where the series are labelled, or in the query with label_replace), or group by "
              "another label.")


def guard_keys(keys: list[tuple[str, ...]], by: list[str]) -> None:
    """Group keys become names in tables, messages and plots: refuse personal data (counted, never
    shown)."""
    for i, k in enumerate(by):
        guard_values(sorted({key[i] for key in keys}), what=f"total: the values of the label {k!r}",
                     fix=_LABEL_FIX)


def refuse_named_keys(by: Sequence[str], not_personal: Sequence[str]) -> None:
    """Refuse a ``by`` label named for people or accounts (its values may look plain: ``jsmith``,
    ``root``) unless declared ``not_personal``; a name in ``not_personal`` that ``by`` lacks is
    refused too (as :class:`~budgetlab.events.spec.ReadSpec` refuses it).

    >>> refuse_named_keys(["region", "client"], ["client"])
    >>> refuse_named_keys(["user"], [])
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: group key 'user' is named like personal data (people or
    accounts): groups must not identify people. Group by a label of opaque ids (a Prometheus read
    has no keyed hash), or pass not_personal=['user'] if it names no person.
    """
    stray = [k for k in not_personal if k not in by]
    if stray:
        raise ConfigError(f"{say('not_personal=', '--not-personal')} names "
                          f"{', '.join(map(repr, stray))}, which {say('by=', '--by')} does not "
                          "group by.")
    for k in by:
        if names_a_person(k) and k not in not_personal:
            raise PersonalDataError(
                f"group key {k!r} is named like personal data (people or accounts): groups must "
                "not identify people. Group by a label of opaque ids (a Prometheus read has no "
                "keyed hash), or pass " + say(f"not_personal=[{k!r}]", f"--not-personal {k}")
                + " if it names no person.")


def key_frame(index: dict[tuple[str, ...], int], by: list[str]) -> pd.DataFrame:
    """The groups' keys, one row per group in index order (categoricals)."""
    if not by:
        return pd.DataFrame(index=pd.RangeIndex(1))
    frame = pd.DataFrame(list(index), columns=by)
    for key in by:
        frame[key] = pd.Categorical(frame[key].astype(str),
                                    categories=sorted(set(frame[key].astype(str))))
    return frame
