"""Notebook parameters from the command line: ``-p NAME=VALUE``, each value a plain value
(``None``, ``true``/``false``, a number, else text; no YAML).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError

__all__ = ["plain_value", "parse_parameters"]

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
