"""``--slo FILE#NAME``: the one SLO picked applies to the events its ``metadata.labels`` select.

A whole file (``--slo FILE --by KEY``) binds each SLO to the group its labels name; one SLO
picked by name is bound the same way: each label whose key is a column of the log keeps the
events whose value it names (a list: any of them), and the run says so on its first line
(``slos.yaml#solve-turnstile: the events its labels select, captcha_type=turnstile: 41,609 of
207,980``). A label that names no column of the log (a Sloth ``owner``, a ``team``) selects
nothing, and the line says that too. The log's columns are read from its header (CSV, TSV, JSON
Lines, plain or compressed), its schema (Parquet) or the named groups of its pattern.
"""

from __future__ import annotations

import argparse
import bz2
import csv
import gzip
import io
import json
import lzma
import zlib
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import ConfigError
from .prose import path_label

__all__ = ["picked_labels", "log_columns", "select_by_labels"]

_HEAD = 1 << 16


def picked_labels(args: argparse.Namespace) -> tuple[str, dict[str, list[str]]]:
    """``(FILE#NAME as typed, {key: values})``: the labels of the SLO that ``--slo FILE#NAME``
    picks; ``("", {})`` without ``#NAME`` (or with a file whose SLO has no labels)."""
    spec = str(getattr(args, "slo", None) or "")
    if "#" not in spec or not spec.partition("#")[2]:
        return "", {}
    from ..interop.openslo.bind import pick_slos

    _, _, docs = pick_slos(spec)
    return spec, {str(k): [str(x) for x in (v if isinstance(v, list) else [v])]
                  for k, v in docs[0].labels.items()}


def _text_head(path: Path) -> bytes:
    """The first bytes of a text file, decompressed by its name (``.gz``, ``.bz2``, ``.xz``); a
    file that does not read so gives none (the read that follows names the problem)."""
    opener: Any = {".gz": gzip.open, ".gzip": gzip.open, ".bz2": bz2.open,
                   ".xz": lzma.open}.get(path.suffix.lower(), open)
    try:
        with opener(path, "rb") as fh:
            return bytes(fh.read(_HEAD))
    except (OSError, EOFError, lzma.LZMAError, zlib.error):
        return b""


def log_columns(paths: list[Path], args: argparse.Namespace, access: bool) -> set[str]:
    """The columns the first of ``paths`` offers as group keys, read as the run reads it."""
    from ..events.presets import PRESETS, pattern_groups

    pattern = getattr(args, "pattern", None) or (PRESETS[args.preset].pattern if getattr(
        args, "preset", None) else PRESETS["access"].pattern if access else None)
    if pattern is not None:
        return set(pattern_groups(pattern))
    path = paths[0]
    suffixes = [s.lower() for s in path.suffixes]
    if args.format == "parquet" or (suffixes and suffixes[-1] in (".parquet", ".pq")):
        import pyarrow.parquet as pq

        return set(pq.read_schema(path).names)
    text = _text_head(path).decode("utf-8", errors="replace").lstrip("\ufeff")
    first = text.splitlines()[0] if text.strip() else ""
    if args.format == "jsonl" or any(s in (".jsonl", ".ndjson", ".json") for s in suffixes):
        try:
            row = json.loads(first)
        except ValueError:
            return set()
        return set(row) if isinstance(row, dict) else set()
    sep = "\t" if args.format == "tsv" or any(s in (".tsv", ".tab") for s in suffixes) else ","
    return {c.strip() for c in next(csv.reader(io.StringIO(first), delimiter=sep), [])}


def select_by_labels(events: pd.DataFrame, spec: str, labels: dict[str, list[str]],
                     extra: list[str]) -> tuple[pd.DataFrame, str]:
    """The events the labels that are columns of ``events`` select (the ``extra`` columns, read
    for the selection only, dropped), and the line that says so; refused when none is left."""
    bound = {k: v for k, v in labels.items() if k in events.columns}
    keep = pd.Series(True, index=events.index)
    for key, values in bound.items():
        keep &= events[key].astype(str).isin(values)
    said = " & ".join(f"{k}={'|'.join(v)}" for k, v in bound.items())
    if bound and not keep.any():
        raise ConfigError(f"{path_label(spec)}: no event of the log has {said}, which the SLO's "
                          "labels select; pick the SLO of a group the log holds, or give the whole "
                          "file with --by KEY to bind each SLO to its group.")
    out = events[keep.to_numpy()].drop(columns=extra).reset_index(drop=True)
    for key in bound:
        if key in out.columns and isinstance(out[key].dtype, pd.CategoricalDtype):
            out[key] = out[key].cat.remove_unused_categories()
    out.attrs = events.attrs
    parts = [f"the events its labels select, {said}: {len(out):,} of {len(events):,}"
             if bound else f"all {len(events):,} events"]
    unused = [f"{k}={'|'.join(v)}" for k, v in labels.items() if k not in bound]
    if unused:
        one = len(unused) == 1
        parts.append(f"{'label' if one else 'labels'} {', '.join(unused)} "
                     f"{'names' if one else 'name'} no column of the log and "
                     f"{'selects' if one else 'select'} nothing")
    return out, f"{path_label(spec)}: {'; '.join(parts)}"
