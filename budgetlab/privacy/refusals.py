"""What the guard says when it refuses: the column or source, the kinds and counts (never a value),
and the fix in the words of the API (``pii='hash'``) or of the command line (``--pii hash``); the
warning of a column dropped (``pii='drop'``), by every reader that drops one."""

from __future__ import annotations

import warnings

from .._util.words import counted, counted_of, say
from ..errors import ConfigError, PersonalDataError, PersonalDataWarning

__all__ = ["findings", "column_refusal", "dropped_key_refusal", "values_refusal", "warn_dropped"]


def _like(kind: str) -> str:
    """``like an e-mail address``, ``like a phone number``."""
    return f"like {'an' if kind[0] in 'aeiouIE' else 'a'} {kind}"


def findings(rows: dict[str, int], distinct: dict[str, int]) -> str:
    """Rows and distinct values per kind, or (none found) that the column's name is the reason.

    >>> findings({"IPv4 address": 10000}, {"IPv4 address": 1753})
    '10,000 rows like an IPv4 address (1,753 distinct values)'
    """
    return ", ".join(f"{counted(n, 'row')} {_like(kind)} "
                     f"({counted(distinct[kind], 'distinct value')})"
                     for kind, n in rows.items()) or "its name denotes people or accounts"


def warn_dropped(col: str, what: str, *, stacklevel: int) -> None:
    """The :class:`PersonalDataWarning` of a column dropped under ``pii='drop'``, with the
    :func:`findings` ``what`` (``stacklevel`` as :func:`warnings.warn` would count it in the
    caller): the pandas reader's guard and the Dask reader say it in these words.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_dropped("user", "2 rows like an e-mail address (2 distinct values)", stacklevel=1)
    >>> print(caught[0].message)
    dropped column 'user': it looks like personal data (2 rows like an e-mail address (2 distinct
    values)).
    """
    warnings.warn(PersonalDataWarning(f"dropped column {col!r}: it looks like personal data "
                                      f"({what})."), stacklevel=stacklevel + 1)


def column_refusal(col: str, what: str, why: str) -> PersonalDataError:
    """The refusal of a column: named for people (``why="named"``), required, or declared.

    >>> print(column_refusal("user", "its name denotes people or accounts", "named"))
    group key 'user' is named like personal data (people or accounts): groups must not identify
    people. Do not declare it, or pass pii='hash' with salt= ... not_personal=['user'] ...
    """
    if why == "named":
        return PersonalDataError(
            f"group key {col!r} is named like personal data (people or accounts): groups must not "
            "identify people. Do not declare it, or pass " + say(
                f"pii='hash' with salt= to keep it as a keyed hash, or not_personal=[{col!r}] if "
                "it names no person.", "--pii hash --salt S to keep it as a keyed hash, or "
                f"--not-personal {col} if it names no person."))
    return PersonalDataError(f"column {col!r} looks like personal data ({what}); " + (
        "it is declared as a required column (time/outcome/ok/bucket), so it cannot be dropped or "
        "hashed: check which column you declared." if why == "required" else
        "personal data must not enter the budget log. Do not declare it, or pass " + say(
            "pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.",
            "--pii drop to drop it or --pii hash --salt S to keep it as a keyed hash.")))


def dropped_key_refusal(col: str) -> ConfigError:
    """The refusal of a group key that ``pii='drop'`` would drop: the grouping would be lost.

    >>> print(dropped_key_refusal("email"))
    by='email' names a column that pii='drop' removes as personal data; use pii='hash' with
    salt= to group by its hashed values.
    """
    return ConfigError(say(f"by={col!r} names a column that pii='drop' removes as personal "
                           "data; use pii='hash' with salt= to group by its hashed values.",
                           f"--by {col} names a column that --pii drop removes as personal "
                           "data; use --pii hash --salt S to group by its hashed values."))


def values_refusal(what: str, hit: int, total: int, kinds: dict[str, int],
                   fix: str | None = None) -> PersonalDataError:
    """The refusal of user values bound for an output: ``hit`` of ``total`` from ``what`` look like
    personal data, ``kinds`` counts them per kind; ``fix`` is the way out where hashing them on
    load is not one (a Prometheus label), after ``replace it/them with an opaque id/ids``.

    >>> print(values_refusal("group keys", 2, 3, {"phone number": 2}))
    group keys: 2 of the 3 values look like personal data (2 like a phone number); budgetlab keeps
    personal data out of outputs and messages: replace them with opaque ids (or hash them on ...
    """
    found = ", ".join(f"{n:,} {_like(kind)}" for kind, n in kinds.items())
    look, it, ids = ("looks", "it", "an opaque id") if hit == 1 else ("look", "them", "opaque ids")
    return PersonalDataError(
        f"{what}: {counted_of(hit, total, 'value')} {look} like personal data ({found}); budgetlab "
        f"keeps personal data out of outputs and messages: replace {it} with {ids} " + (
            fix if fix is not None else f"(or hash {it} on load: " + say(
                "read_events(..., pii='hash', salt=...)).", "--pii hash --salt S).")))
