"""Incident scopes: ``key=value`` conditions joined by ``&`` (``region=fra&method=GET``), parsed
once (:func:`parse_scope`, values in the one spelling of group keys) and matched against a table's
group key columns (:func:`scope_mask`). Re-exported by :mod:`budgetlab.events.schema`."""

from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd

from ..errors import InputError
from .spelling import INVISIBLE_WORDS, one_spelling

__all__ = ["parse_scope", "scope_mask", "scope_parts"]


def parse_scope(scope: str | None) -> dict[str, str]:
    """Parse an incident ``scope``: ``key=value`` pairs joined by ``&``; ``""`` or ``"*"`` is
    everything. A value holding ``=`` is refused (:class:`~budgetlab.errors.InputError`): the
    conditions were joined by another sign (``ip=203.0.113.7,city=Köln``), and reading them as
    one value would drop the second condition; the message gives them joined by ``&``
    (:func:`scope_parts`). Each value is put in the one spelling of group keys
    (:func:`~budgetlab.events.spelling.one_spelling`: stripped, NFC), as the events' keys are on
    reading, so ``Ko\u0308ln`` typed decomposed is the key ``Köln``; a value holding an invisible
    character is refused, as the readers refuse it in a key.

    >>> parse_scope("captcha_type=recaptcha_v2&region=fra")
    {'captcha_type': 'recaptcha_v2', 'region': 'fra'}
    >>> parse_scope("*")
    {}
    >>> parse_scope("city=Ko\u0308ln") == {"city": "K\u00f6ln"}
    True
    """
    if scope is None or (isinstance(scope, float) and np.isnan(scope)):
        return {}
    return dict(_scope_pairs(str(scope).strip()))


def scope_parts(text: str) -> list[tuple[str, str]]:
    """The ``(key, value)`` conditions of a scope's text as written (keys stripped, values as
    they are; ``[]`` for ``""`` or ``*``): the one split of a scope, which :func:`parse_scope`
    and the scopes' hashing read. A part that is not ``key=value`` is refused, and so is a value
    holding ``=``: the conditions were joined by another sign than ``&``, and read as one value
    the second condition would be lost (:class:`~budgetlab.errors.InputError`, giving them joined
    by ``&``).

    >>> scope_parts(" region=fra &ip=10.0.0.1"), scope_parts("*")
    ([('region', 'fra '), ('ip', '10.0.0.1')], [])
    >>> from budgetlab.errors import InputError
    >>> try:
    ...     scope_parts("ip=203.0.113.7,city=Köln")
    ... except InputError as e:
    ...     print(str(e).split(": join ")[1])
    conditions with & ('ip=203.0.113.7&city=Köln').
    """
    text = text.strip()
    out: list[tuple[str, str]] = []
    for part in text.split("&") if text not in ("", "*") else []:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise InputError(f"incident scope part {part!r} is not of the form key=value (e.g. "
                             "region=fra).")
        if "=" in value:  # conditions joined by ',' or ';': one key's value would swallow them
            fixed = re.sub(r"\s*[,;]\s*(?=[^,;&=]+=)", "&", text)
            raise InputError(f"incident scope part {part!r}: the value of {key.strip()!r} holds "
                             "'=', so conditions seem joined by another sign than &: join "
                             f"conditions with & ({fixed!r}).")
        out.append((key.strip(), value))
    return out


@functools.lru_cache(maxsize=4096)
def _scope_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The ``(key, value)`` pairs of a scope's text, values in one spelling (see
    :func:`parse_scope`); once per distinct text."""
    out = dict(scope_parts(text))
    names, invisible = one_spelling(pd.Index(list(out.values()), dtype="str"))
    if invisible.any():
        keys = ", ".join(repr(k) for k, bad in zip(out, invisible, strict=True) if bad)
        raise InputError(f"the incident scope's value of {keys} holds {INVISIBLE_WORDS}; they "
                         "would make groups that print alike: remove them from the scope.")
    return tuple(zip(out, (str(n) for n in names), strict=True))


def scope_mask(frame: pd.DataFrame, scope: str | None) -> np.ndarray:
    """Boolean mask of the rows of ``frame`` inside ``scope``; a scope key ``frame`` has no column
    for does not restrict (an ungrouped analysis still sees a per-region incident).

    >>> f = pd.DataFrame({"region": ["fra", "ams"]})
    >>> scope_mask(f, "region=fra").tolist()
    [True, False]
    """
    mask = np.ones(len(frame), dtype=bool)
    for key, value in parse_scope(scope).items():
        if key in frame.columns:
            mask &= np.asarray(frame[key].astype(str) == value)
    return mask
