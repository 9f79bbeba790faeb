"""YAML in: safe loading that refuses duplicated keys, and plain copies of loaded values."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ...errors import ConfigError, FileFormatError

__all__ = ["load_documents", "plain"]


class _Loader(yaml.SafeLoader):  # type: ignore[misc]
    """Safe YAML loader that refuses duplicated keys instead of keeping the last one."""


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ConfigError(f"line {key_node.start_mark.line + 1}: key {key!r} appears twice in one mapping.")
        seen.add(key)
    return dict(loader.construct_mapping(node, deep=deep))


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def plain(value: Any) -> Any:
    """A deep copy made of dicts, lists and scalars (datetimes as ISO text).

    >>> plain({"at": _dt.date(2026, 1, 5), "xs": (1, 2)})
    {'at': '2026-01-05', 'xs': [1, 2]}
    """
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat(sep=" ") if isinstance(value, _dt.datetime) else value.isoformat()
    return value


def load_documents(source: Any) -> tuple[list[Any], str]:
    """``(objects, label)``: every object of a YAML file or text (several documents, or lists of
    objects, are flattened) and the name that messages use for the source."""
    is_text = isinstance(source, str) and ("\n" in source or source.lstrip().startswith(("apiVersion", "-", "{")))
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not is_text):
        path = Path(source)
        if not path.exists():
            raise FileFormatError(f"{path}: no such file; give an OpenSLO YAML file.")
        if path.is_dir():
            raise FileFormatError(f"{path}: is a directory; give an OpenSLO YAML file.")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise FileFormatError(f"{path}: is not UTF-8 text; give an OpenSLO YAML file.") from None
        label = path.name
    elif isinstance(source, str):
        text, label = source, "<text>"
    else:
        raise ConfigError("read_openslo takes a path or YAML text.")
    try:
        docs = list(yaml.load_all(text, Loader=_Loader))  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise FileFormatError(f"{label}: is not valid YAML{where}; fix the syntax.") from None
    objects: list[Any] = []
    for d in docs:
        if d is None:
            continue
        objects.extend(d if isinstance(d, list) else [d])
    if not objects:
        raise FileFormatError(f"{label}: holds no OpenSLO objects.")
    return objects, label
