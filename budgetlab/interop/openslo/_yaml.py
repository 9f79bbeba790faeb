"""YAML in, with bounded resources: a safe loader that refuses duplicated keys, checks the node
graph before building any Python object, and plain copies of loaded values.

PyYAML builds the node graph of a document first (aliases are shared nodes, nothing is copied)
and then the Python objects. Between the two steps :func:`check_graph` walks the graph once,
without recursion, counting every node as often as aliases make it appear: a "billion laughs"
file (nested aliases) is refused after a walk over its few dozen distinct nodes, long before
anything is expanded. Refused with one line (:class:`~budgetlab.FileFormatError`):

* more than :data:`MAX_NODES` nodes once aliases are expanded, or nesting deeper than
  :data:`MAX_DEPTH` levels (a 50,000-deep ``[[[[...`` never reaches Python's recursion limit:
  composing stops at that depth),
* a recursive alias (a node that contains itself),
* a list or mapping used as a mapping key,
* a tag other than YAML's own (``!!python/object`` ...), a file larger than :data:`MAX_BYTES`,
  text that is not UTF-8.

The YAML merge key (``<<: *defaults``) is supported as PyYAML's safe loader reads it: the keys
of the merged mapping(s) first, the mapping's own keys override them; keys written twice in one
mapping are still refused.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import yaml

from ..._util.inputs import check_input_file, register_input
from ...errors import FileFormatError
from ...privacy import looks_personal, shown

__all__ = ["load_documents", "plain", "check_graph", "file_label", "MAX_NODES", "MAX_DEPTH",
           "MAX_BYTES"]

#: Most nodes a YAML source may expand to (aliases counted each time they are used).
MAX_NODES = 1_000_000
#: Deepest nesting of lists and mappings (aliases expanded); OpenSLO objects need about ten.
MAX_DEPTH = 100
#: Largest YAML file read.
MAX_BYTES = 16 * 2**20

_MERGE_TAG = "tag:yaml.org,2002:merge"


def file_label(path: str | os.PathLike[str]) -> str:
    """A file name as messages show it: as given (long ones shortened), or a placeholder when
    it looks like personal data.

    >>> file_label("slos.yaml"), file_label("ivan@example.org.yaml")
    ('slos.yaml', 'the file given (its name looks like personal data; not shown)')
    """
    text = os.fspath(path)
    if looks_personal(text):
        return "the file given (its name looks like personal data; not shown)"
    return text if len(text) <= 120 else text[:119] + "…"


class _Refused(yaml.MarkedYAMLError):  # type: ignore[misc]
    """A YAML source refused by the resource checks (turned into FileFormatError with its line)."""

    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(problem=message, problem_mark=mark)


class _Loader(yaml.SafeLoader):  # type: ignore[misc]
    """Safe YAML loader: refuses duplicated keys and nesting deeper than :data:`MAX_DEPTH`."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Refused(f"lists and mappings nest deeper than {MAX_DEPTH} levels; OpenSLO "
                               "objects need about "
                               "ten: fix the file", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict[Any,
                                                                                            Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if key_node.tag == _MERGE_TAG:
            continue
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, Hashable):  # e.g. "? !!set {a}": a scalar key node cannot be one
            raise _Refused("a list, set or mapping is used as a mapping key; keys must be plain "
                           "text (or a number)",
                           key_node.start_mark)
        if key in seen:
            raise _Refused(f"key {shown(key)} appears twice in one mapping; keep one",
                           key_node.start_mark)
        seen.add(key)
    return dict(loader.construct_mapping(node, deep=deep))


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _children(node: Any) -> list[Any]:
    """The child nodes of ``node``; a list or mapping as a mapping key is refused here."""
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        out: list[Any] = []
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise _Refused("a list or mapping is used as a mapping key; keys must be plain "
                               "text (or a "
                               "number)", key.start_mark)
            out.extend((key, value))
        return out
    return []


def check_graph(root: Any, *, max_nodes: int = MAX_NODES) -> int:
    """The number of nodes of a composed YAML document with every alias expanded, computed over
    the distinct nodes only (no copy, no recursion). Raises (a ``yaml.YAMLError`` subclass with
    the line) when it exceeds ``max_nodes``, when nesting exceeds :data:`MAX_DEPTH`, for a
    recursive alias and for a list or mapping used as a key.

    >>> # the mapping, a, [1, 2] (3 nodes), b, and [*x, *x] (7 nodes)
    >>> check_graph(yaml.compose("a: &x [1, 2]\\nb: [*x, *x]"))
    13
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        nid = id(node)
        if finished:
            kids = _children(node)
            size[nid] = 1 + sum(size[id(c)] for c in kids)
            depth[nid] = 1 + max((depth[id(c)] for c in kids), default=0)
            on_path.discard(nid)
            if size[nid] > max_nodes:
                raise _Refused(f"aliases expand to more than {max_nodes:,} nodes (a 'billion "
                               "laughs' file?); an OpenSLO "
                               "file needs far fewer: fix the aliases", node.start_mark)
            if depth[nid] > MAX_DEPTH:
                raise _Refused(f"lists and mappings nest deeper than {MAX_DEPTH} levels once "
                               "aliases are expanded; "
                               "fix the aliases", node.start_mark)
            continue
        if nid in size:
            continue
        on_path.add(nid)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in on_path:
                raise _Refused("a recursive alias (a list or mapping that contains itself); an "
                               "OpenSLO file "
                               "cannot hold one: fix the alias", child.start_mark)
            if id(child) not in size:
                stack.append((child, False))
    return size[id(root)]


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


def _message(exc: yaml.YAMLError, label: str) -> str:
    """One line for a YAML error: what is wrong, where, and how to fix it."""
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1}" if mark is not None else ""
    if isinstance(exc, _Refused):
        return f"{label}{where}: {exc.problem}."
    problem = str(getattr(exc, "problem", "") or "")
    if isinstance(exc, yaml.reader.ReaderError):
        return (f"{label}: holds a character YAML does not allow (a control character such as NUL, "
                "at character "
                f"{exc.position + 1}); give an OpenSLO YAML text file.")
    if isinstance(exc, yaml.composer.ComposerError) and "undefined alias" in problem:
        return (f"{label}{where}: an alias (*name) names no anchor (&name) before it in the same "
                "document (anchors do "
                "not cross '---'); define the anchor first.")
    if isinstance(exc, yaml.constructor.ConstructorError):
        if "merging" in problem or "merge" in str(getattr(exc, "context", "") or ""):
            return (f"{label}{where}: the YAML merge key '<<' must name a mapping or a list of "
                    "mappings "
                    "(e.g. <<: *defaults); fix the merge key.")
        if "could not determine a constructor for the tag" in problem:
            found = re.search(r"for the tag '(.*)'", problem)
            tag = (found.group(1) if found else "?").replace("tag:yaml.org,2002:", "!!")
            return (f"{label}{where}: the YAML tag {shown(tag)} is not allowed; OpenSLO files hold "
                    "plain mappings, "
                    "lists, text and numbers: drop the tag.")
        return (f"{label}{where}: a value cannot be read as YAML "
                f"({problem or 'constructor error'}); fix it.")
    return f"{label}: is not valid YAML{where}; fix the syntax."


def _parse(text: str, label: str) -> list[Any]:
    """Every document of ``text``: composed, checked (:func:`check_graph`), then constructed."""
    docs: list[Any] = []
    budget = MAX_NODES
    try:
        loader = _Loader(text)  # checks the characters first
    except yaml.YAMLError as exc:
        raise FileFormatError(_message(exc, label)) from None
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            budget -= check_graph(node, max_nodes=budget)
            docs.append(loader.construct_document(node))
    except yaml.YAMLError as exc:
        raise FileFormatError(_message(exc, label)) from None
    except (ValueError, OverflowError, AttributeError, TypeError, KeyError):
        # PyYAML's constructors fail this way on values their tag cannot hold: an impossible date
        # (2026-02-30, read as a timestamp) or an explicit tag on the wrong text (!!timestamp abc)
        raise FileFormatError(f"{label}: a value cannot be read as its YAML type (e.g. an "
                              "impossible date such as "
                              "2026-02-30, or !!timestamp on text that is no date); quote it or "
                              "fix it.") from None
    finally:
        loader.dispose()
    return docs


def _read_text(path: Path) -> tuple[str, str]:
    """(text, label) of a YAML file, registered as an input of this run."""
    shown_path = file_label(path)
    check_input_file(path, name=shown_path,
                     give="give an OpenSLO, Sloth prometheus/v1 or Pyrra YAML file")
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise FileFormatError(f"{shown_path}: cannot be read "
                              f"({exc.strerror or 'I/O error'}).") from None
    register_input(path)
    label = file_label(path.name)
    if len(data) > MAX_BYTES:
        raise FileFormatError(f"{label}: is larger than {MAX_BYTES // 2**20} MiB; an OpenSLO file "
                              "is far smaller: "
                              "give the right file.")
    try:
        return data.decode("utf-8"), label
    except UnicodeDecodeError:
        raise FileFormatError(f"{label}: is not UTF-8 text; give an OpenSLO YAML file.") from None


def load_documents(source: str | os.PathLike[str]) -> tuple[list[Any], str]:
    """``(objects, label)``: every object of a YAML file or text (several documents, or lists of
    objects, are flattened) and the name that messages use for the source. A file is registered
    as an input of the run (no output may replace it)."""
    if isinstance(source, str) and ("\n" in source
                                    or source.lstrip().startswith(("apiVersion", "-", "{"))):
        text, label = source, "<text>"
    else:
        text, label = _read_text(Path(source))
    objects: list[Any] = []
    for d in _parse(text, label):
        if d is None:
            continue
        objects.extend(d if isinstance(d, list) else [d])
    if not objects:
        raise FileFormatError(f"{label}: holds no OpenSLO objects.")
    return objects, label
