"""Notebook parameters from the command line: ``-p NAME=VALUE``, each value a plain value
(``None``, ``true``/``false``, a number, else text; no YAML).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError

__all__ = ["plain_value", "parse_parameters", "per_notebook"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INT = re.compile(r"^[+-]?[0-9]+$")
_FLOAT = re.compile(r"^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?$")
_WORDS: dict[str, Any] = {"none": None, "null": None, "~": None, "true": True, "false": False}


def plain_value(text: str) -> Any:
    """One ``-p`` value as a plain Python value: ``None``/``null``, ``true``/``false``, a decimal
    integer or float, text in quotes as that text, anything else as it is written. No YAML:
    ``3:47`` stays the text ``"3:47"`` (YAML 1.1 reads it as the number 227) and ``no`` stays
    ``"no"`` (YAML: ``False``).

    >>> [plain_value(t) for t in ["0.97", "None", "3:47", "no", "'0.97'", "24h", "-2", "1e-3"]]
    [0.97, None, '3:47', 'no', '0.97', '24h', -2, 0.001]
    """
    t = text.strip()
    if t.lower() in _WORDS:
        return _WORDS[t.lower()]
    if _INT.match(t):
        return int(t)
    if _FLOAT.match(t):
        return float(t)
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return text


def parse_parameters(items: Sequence[str] | Mapping[str, Any] | None) -> dict[str, Any]:
    """``["source=logs/x.parquet", "target=0.97", "incidents=None"]`` as a dict; each value is a
    plain value (:func:`plain_value`: ``None``, ``true``/``false``, a number, else text).

    >>> parse_parameters(["target=0.97", "incidents=None", "alert_time=03:47", "source=a=b.csv"])
    {'target': 0.97, 'incidents': None, 'alert_time': '03:47', 'source': 'a=b.csv'}
    """
    if items is None:
        return {}
    if isinstance(items, Mapping):
        out = dict(items)
    else:
        out = {}
        for item in items:
            name, sep, text = str(item).partition("=")
            name = name.strip()
            if not sep:
                raise ConfigError(f"-p {item!r}: write NAME=VALUE (e.g. -p "
                                  "source=path/to/log.parquet).")
            out[name] = plain_value(text)
    for name in out:
        if not isinstance(name, str) or not _NAME.match(name):
            raise ConfigError(f"-p {name!r}: a parameter name must be a Python identifier (e.g. "
                              "source).")
    return out


#: Beside a close match (``did you mean source?``), the run's parameters are listed only when
#: there are at most this many: the five shipped notebooks have some forty.
_LISTED = 10


def per_notebook(params: Mapping[str, Any],
                 declared: Mapping[str, Sequence[str]]) -> dict[str, dict[str, Any]]:
    """The ``-p`` values each notebook takes: those named in its ``parameters`` cell
    (``declared``: notebook name -> its parameter names). A name that no notebook of the run
    declares is refused, before any runs: papermill would only warn and run the notebook on its
    own defaults (``-p sorce=my.log`` a report on the shipped data); a name that some declare
    goes to those only (``-p window=1h`` to the notebooks that have a ``window``). The refusal
    names the close match and lists the run's parameters (beside a close match, only a short
    list).

    >>> per_notebook({"source": "a.csv", "window": "1h"},
    ...              {"01.ipynb": ["source", "window"], "02.ipynb": ["source", "windows"]})
    {'01.ipynb': {'source': 'a.csv', 'window': '1h'}, '02.ipynb': {'source': 'a.csv'}}
    >>> per_notebook({"sorce": "a.csv"}, {"01.ipynb": ["source", "window"]})
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: -p sorce: no notebook of this run has a parameter of that name \
(did you mean source?); their parameters: source, window.
    """
    import difflib

    known = sorted({name for names in declared.values() for name in names})
    unknown = [name for name in params if name not in known]
    if unknown:
        close = [m for name in unknown for m in difflib.get_close_matches(name, known, n=1)]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        which = "that name" if len(unknown) == 1 else "those names"
        # the list is the fix when nothing is close; beside a close match, only when short
        listed = (f"; their parameters: {', '.join(known) or 'none'}"
                  if not close or len(known) <= _LISTED else "")
        raise ConfigError(f"-p {', '.join(unknown)}: no notebook of this run has a parameter of "
                          f"{which}{hint}{listed}.")
    return {nb: {k: v for k, v in params.items() if k in names} for nb, names in declared.items()}
