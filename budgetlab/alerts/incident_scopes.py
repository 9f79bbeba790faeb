"""The scopes of an incidents file (``key=value`` pairs joined by ``&``) under the personal-data
policy of the run that scores them.

A scope value that looks like personal data is refused (``pii="error"``, ``"drop"``: a dropped key
cannot be matched), or with ``pii="hash"`` replaced by its keyed hash under the events' salt
(:func:`~budgetlab.privacy.hash_values`), so that the incident matches the hashed group of the
events read with the same salt. Hashed, a value is first put in the one spelling of group keys
(:func:`~budgetlab.events.spelling.one_spelling`: stripped, NFC), as the events' keys are before
their hash, and one holding an invisible character is refused as the reader refuses it; then
:func:`match_hashed_keys` hashes the values that do not look personal but whose key the events
hold hashed (``ip=unknown`` beside hashed addresses). Keys and values are counted apart, and no
value is ever shown. :func:`ungrouped_scope_words` says how a
scope key that is not a group key is read (it does not restrict: the incident covers every
group), for ``alerts`` and the window comparison alike.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

from .._util.validation import check_argument
from .._util.words import counted_of, say
from ..errors import ConfigError, InputError, PersonalDataError
from ..events.schema import parse_scope
from ..events.scopes import scope_parts
from ..events.spelling import INVISIBLE_WORDS, one_spelling
from ..privacy import PII_MODES, guard_values, hash_values, scan_text

__all__ = ["scope_items", "guard_scopes", "match_hashed_keys", "hash_scope",
           "ungrouped_scope_words", "holds_hashes", "HASHED"]

#: What :func:`~budgetlab.privacy.hash_values` writes for a value: 16 lower-case hex digits.
HASHED = "[0-9a-f]{16}"


def scope_items(scope: str) -> list[tuple[str, str]]:
    """The ``(key, value)`` pairs of a scope (``[]`` for ``*``), stripped as they are matched;
    split, and a malformed one refused, by :func:`~budgetlab.events.scopes.scope_parts`.

    >>> scope_items("region=fra & ip=10.0.0.1"), scope_items("*")
    ([('region', 'fra'), ('ip', '10.0.0.1')], [])
    """
    return [(k, v.strip()) for k, v in scope_parts(scope)]


def _joined(items: list[tuple[str, str]]) -> str:
    return "&".join(f"{k}={v}" for k, v in items) or "*"


def _spelled(values: list[str], where: str | None) -> dict[str, str]:
    """Each of ``values`` (distinct) in the one spelling of group keys (:func:`one_spelling`),
    as the events' keys are spelled before their keyed hash; with ``where`` (where the values come
    from), a value holding an invisible character is refused in the events reader's words.

    >>> _spelled(["Ko\u0308ln", "fra "], "--scope") == {"Ko\u0308ln": "Köln", "fra ": "fra"}
    True
    """
    if not values:
        return {}
    names, invisible = one_spelling(pd.Index(values, dtype="str"))
    if where is not None and invisible.any():
        some = counted_of(int(invisible.sum()), len(values), "scope value")
        raise InputError(f"{where} holds {INVISIBLE_WORDS} in {some}; they would make groups "
                         "that print alike: remove them from the scope.")
    return dict(zip(values, (str(n) for n in names), strict=True))


def _refusal(where: str, hit: int, total: int, kinds: dict[str, int]) -> PersonalDataError:
    found = ", ".join(f"{n:,} like {'an' if kind[0] in 'aeiouIE' else 'a'} {kind}"
                      for kind, n in kinds.items())
    look, it, ids = ("looks", "it", "an opaque id") if hit == 1 else ("look", "them", "opaque ids")
    return PersonalDataError(
        f"{where}: {counted_of(hit, total, 'scope value')} {look} like "
        f"personal data ({found}); budgetlab keeps personal data out of outputs and messages: "
        f"replace {it} with {ids}, or hash {it} with the salt the events are hashed with ("
        + say("read_incidents(..., pii='hash', salt=...), as read_events(..., pii='hash', "
              "salt=...)).", "--pii hash --salt S)."))


def guard_scopes(scopes: pd.Series, where: str, *, pii: str = "error",
                 salt: str | None = None) -> pd.Series:
    """``scopes`` (well-formed) with their personal-looking values hashed under ``salt``
    (``pii="hash"``: every value first in the one spelling of group keys, :func:`one_spelling`,
    and one holding an invisible character refused as the events reader refuses it), else
    refused (a :class:`PersonalDataError` that counts the values, not the keys); a key that looks
    personal is refused whatever ``pii``. ``where``: where the scopes
    come from, for the refusal (``the 'scope' column of 'incidents.csv'``, ``--scope``).

    >>> guard_scopes(pd.Series(["ip=10.0.0.1&region=fra", "*"]), "scopes", pii="hash",
    ...              salt="s").tolist()
    ['ip=0c964d3ed260c878&region=fra', '*']
    """
    check_argument("pii", pii, PII_MODES)
    if pii == "hash" and not (isinstance(salt, str) and salt):
        raise ConfigError(say("pii='hash' needs salt='a secret string', the salt the events are "
                              "hashed with.", "--pii hash needs --salt S, a secret string"))
    parsed = [scope_items(s) for s in scopes.tolist()]
    keys = sorted({k for items in parsed for k, _ in items})
    guard_values(keys, what=f"the keys of {where}")
    spelled = False
    if pii == "hash":  # hashed in the spelling the events' keys are hashed in
        table = _spelled(sorted({v for items in parsed for _, v in items}), where)
        spelled = any(s != v for v, s in table.items())
        parsed = [[(k, table[v]) for k, v in items] for items in parsed]
    values = sorted({v for items in parsed for _, v in items})
    found = scan_text(values) if values else {}
    if not found and not spelled:
        return scopes
    personal = np.logical_or.reduce([np.zeros(len(values), bool), *found.values()])
    if found and pii != "hash":
        raise _refusal(where, int(personal.sum()), len(values),
                       {kind: int(mask.sum()) for kind, mask in found.items() if mask.any()})
    plain = [v for v, p in zip(values, personal, strict=True) if p]
    hashed = dict(zip(plain, hash_values(pd.Series(plain, dtype=object), str(salt)), strict=True))
    return pd.Series([_joined([(k, hashed.get(v, v)) for k, v in items]) for items in parsed],
                     index=scopes.index, name=scopes.name)


def match_hashed_keys(incidents: pd.DataFrame, events: pd.DataFrame, salt: str) -> pd.DataFrame:
    """``incidents`` with each scope value that is not among the values of its key's event column
    but whose keyed hash (``salt``; of the value in one spelling, :func:`one_spelling`) is,
    replaced by that hash: the key's column was hashed on load (``pii="hash"``) and the value did
    not look personal, so :func:`guard_scopes` kept it plain. A new table; the same one when
    nothing changes."""
    parsed = [scope_items(s) for s in incidents["scope"].tolist()]
    wanted = {(k, v) for items in parsed for k, v in items if k in events.columns}
    swap: dict[tuple[str, str], str] = {}
    for key in {k for k, _ in wanted}:
        have = set(pd.unique(events[key].astype(str)))
        plain = sorted(v for k, v in wanted if k == key and v not in have)
        if plain:  # hashed in the spelling the events' keys were hashed in
            spelled = _spelled(plain, None)
            hashed = hash_values(pd.Series([spelled[v] for v in plain], dtype=object), salt)
            swap.update({(key, v): h for v, h in zip(plain, hashed, strict=True) if h in have})
    if not swap:
        return incidents
    out = incidents.copy()
    out["scope"] = [_joined([(k, swap.get((k, v), v)) for k, v in items]) for items in parsed]
    return out


def hash_scope(scope: str | pd.DataFrame, events: pd.DataFrame, *, salt: str,
               ) -> str | pd.DataFrame:
    """``scope`` spelled through the keyed hash of ``events`` read with ``pii="hash"``: what
    ``--pii hash --salt S`` does to ``--scope`` and ``--incidents`` on the command line.

    Each value is put in the one spelling of group keys (stripped, NFC); one that looks like
    personal data is replaced by its keyed hash under ``salt`` (:func:`guard_scopes`), and one
    that does not, but whose key ``events`` hold hashed (``customer=acme`` beside a hashed
    ``customer`` column), by its hash when that is among the key's values
    (:func:`match_hashed_keys`). Values already hashed, and those of keys ``events`` hold plain,
    stay as they are.

    Parameters
    ----------
    scope : str or DataFrame
        One scope (``"customer=acme&region=fra"``), as ``incident_report(scope=)`` takes it, or
        an incidents table with a ``scope`` column (:func:`budgetlab.read_incidents`).
    events : DataFrame
        The events, read with ``pii="hash"`` and ``salt``.
    salt : str
        The salt the events were read with.

    Returns
    -------
    str or DataFrame
        The scope, or a new incidents table (the same one when nothing changes).

    Examples
    --------
    >>> from budgetlab import read_events
    >>> raw = pd.DataFrame({"ts": ["2026-11-29T01:00:00Z", "2026-11-29T02:00:00Z"],
    ...                     "outcome": ["success", "timeout"], "customer": ["acme", "initech"]})
    >>> ev = read_events(raw, by="customer", pii="hash", salt="s3cret")
    >>> scope = hash_scope("customer=acme", ev, salt="s3cret")
    >>> scope == f"customer={ev['customer'].iloc[0]}", scope != "customer=acme"
    (True, True)
    """
    if isinstance(scope, pd.DataFrame):
        table = scope.assign(scope=guard_scopes(scope["scope"], "the 'scope' column of scope=",
                                                pii="hash", salt=salt))
        out = match_hashed_keys(table, events, salt)
        return scope if out["scope"].equals(scope["scope"]) else out
    if not isinstance(scope, str):
        raise ConfigError("scope= takes a scope string (key=value pairs joined by &) or an "
                          f"incidents table with a 'scope' column, got {type(scope).__name__}.")
    one = guard_scopes(pd.Series([scope]), "scope=", pii="hash", salt=salt)
    return str(match_hashed_keys(pd.DataFrame({"scope": one}), events, salt)["scope"].iloc[0])


def ungrouped_scope_words(scopes: pd.Series, by: list[str],
                          matched: str = "which groups' alerts match an incident", *,
                          columns: Collection[str] | None = None, as_read: bool = False) -> str:
    """How incident ``scopes`` that name keys outside the group keys ``by`` are read: such a key
    does not restrict (:func:`~budgetlab.events.schema.scope_mask`), so the incident covers every
    group whatever its value; ``''`` when every scope key is a group key. ``matched``: what the
    key does not restrict. ``columns``: the columns of the events (the log's, on the command
    line) when the caller knows them: a key among them is advised as a group key (``give
    by=[...]``), one that is not is said to be no column (no ``by=`` could name it; before stop 59
    it was advised too, and following the advice was refused); without them the advice is given
    on that condition. ``as_read``: ``columns`` are those of an events table (the API's), which
    keeps only the columns it was read with: a key that is none of them may still be a column of
    the data it was read from, so it is said to be no column of these events and the advice to
    read it as a group key is given on that condition (never "no by= can make it"). In the words
    of the API or the command line.

    >>> print(ungrouped_scope_words(pd.Series(["region=ams", "*", "captcha_type=image"]),
    ...                             ["captcha_type"], columns=["ts", "ok", "captcha_type",
    ...                                                        "region"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    incident scopes name region, not a by= key: it does not restrict which groups' alerts match
    an incident; give by=['captcha_type', 'region'] to match each incident to its own groups only.
    >>> print(ungrouped_scope_words(pd.Series(["region=ams"]), ["svc"],
    ...                             columns=["ts", "ok", "svc"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    incident scopes name region, which is not a column of the events: it does not restrict which
    groups' alerts match an incident, and no by= can make it; name the events' columns in the
    scopes to match each incident to its own groups only.
    >>> print(ungrouped_scope_words(pd.Series(["region=ams"]), ["svc"],
    ...                             columns=["ts", "ok", "svc"], as_read=True))
    ... # doctest: +NORMALIZE_WHITESPACE
    incident scopes name region, which is not a column of these events: it does not restrict
    which groups' alerts match an incident; if the data they were read from has a column region,
    read them with by=['svc', 'region'] and give the same by= here to match each incident to its
    own groups only.
    """
    keys = sorted({k for s in scopes.dropna() for k in parse_scope(str(s))} - set(by))
    if not keys:
        return ""
    flag = say("by=", "--by")
    absent = [] if columns is None else [k for k in keys if k not in set(columns)]
    whose = say("the events'", "the log's")
    out = []
    if absent and as_read:
        out.append(_not_read_words(absent, by, matched))
    elif absent:
        one = len(absent) == 1
        out.append(f"incident scopes name {', '.join(absent)}, which "
                   f"{'is not a column' if one else 'are not columns'} of "
                   f"{say('the events', 'the log')}: {'it does' if one else 'they do'} not "
                   f"restrict {matched}, and no {flag} can make {'it' if one else 'them'}; name "
                   f"{whose} columns in the scopes to match each incident to its own groups "
                   "only.")
    keys = [k for k in keys if k not in absent]
    if keys:
        one = len(keys) == 1
        given = [*by, *keys]
        cond = ("" if columns is not None else
                f"if {say('the events have', 'the log has')} {'a column' if one else 'columns'} "
                f"{', '.join(keys)}, ")
        out.append(f"incident scopes name {', '.join(keys)}, "
                   f"{f'not a {flag} key' if one else f'not {flag} keys'}"
                   f": {'it does' if one else 'they do'} not restrict {matched}; {cond}give "
                   f"{say(f'by={given!r}', '--by ' + ','.join(given))} to match each incident to "
                   "its own groups only.")
    return " ".join(out)


def _not_read_words(absent: list[str], by: list[str], matched: str) -> str:
    """:func:`ungrouped_scope_words` of the scope keys ``absent`` from an events table (the
    API's, which keeps only the columns it was read with): they may be columns of the data."""
    one = len(absent) == 1
    keys = ", ".join(absent)
    return (f"incident scopes name {keys}, which {'is not a column' if one else 'are not columns'}"
            f" of these events: {'it does' if one else 'they do'} not restrict {matched}; if the "
            f"data they were read from has {'a column' if one else 'columns'} {keys}, read them "
            f"with by={[*by, *absent]!r} and give the same by= here to match each incident to "
            "its own groups only.")


def holds_hashes(column: pd.Series) -> bool:
    """Whether every value of ``column`` (at least one) is written as
    :func:`~budgetlab.privacy.hash_values` writes one (:data:`HASHED`): a key column read with
    ``pii="hash"``.

    >>> holds_hashes(hash_values(pd.Series(["acme", "initech"]), salt="s"))
    True
    >>> holds_hashes(pd.Series(["acme"])), holds_hashes(pd.Series([], dtype=object))
    (False, False)
    """
    values = column.cat.categories if isinstance(column.dtype, pd.CategoricalDtype) \
        else column.dropna().unique()
    return len(values) > 0 and bool(pd.Series(values, dtype="str").str.fullmatch(HASHED).all())
