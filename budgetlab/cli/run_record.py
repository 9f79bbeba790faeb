"""The run record of ``replay --out OUT``: ``OUT.run.json``, the reproducible facts of a run
(version, parameters but never the salt, the inputs' names, sizes and hashes, the SLO, how the
input was read, the outputs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.durations import duration_label
from ..slo import SLO, PerGroup
from .prose import path_label
from .reading import LogRead

__all__ = ["record_path", "run_record", "write_record"]


def record_path(out: str) -> str:
    """Where the JSON run record of ``--out OUT`` goes: ``OUT.run.json``."""
    return f"{out}.run.json"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:  # read-only
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_RECORDED = ("time", "outcome", "ok", "bucket", "tz", "epoch", "outcomes", "pii", "format",
             "encoding", "duration",
             "duration_unit", "slow_above", "pattern", "preset", "time_format", "year", "on_error",
             "not_personal", "by", "target",
             "window", "warning", "critical", "min_events")


def run_record(args: argparse.Namespace, read: LogRead) -> dict[str, Any]:
    """The reproducible facts of a run: version, parameters (never the salt), input hashes (the
    log files, then ``--incidents`` when given)."""
    from .. import __version__

    params = {k: getattr(args, k, None) for k in _RECORDED}
    params["slo"] = Path(args.slo).name if getattr(args, "slo", None) else None
    incidents = Path(args.incidents) if getattr(args, "incidents", None) else None
    if incidents is not None:  # recorded like the log: name, size, hash
        params["incidents"] = incidents.name
    files = [*read.paths, *([incidents] if incidents is not None else [])]
    return {"budgetlab_version": __version__, "command": "replay", "reader": read.reader,
            "parameters": params,
            "inputs": [{"name": path_label(p.name), "bytes": p.stat().st_size,
                        "sha256": _sha256(p)} for p in files]}


def _slo_facts(slo: SLO | PerGroup, typed: str | None) -> dict[str, Any]:
    """The SLO as :meth:`SLO.as_dict` / :meth:`PerGroup.as_dict` write it (what
    :func:`~budgetlab.slo.slo_from_dict` reads back), each window as the user ``typed`` it
    (``--window 90s``, not ``1m30s``) where that is the window."""
    facts = slo.as_dict()
    if typed is None:
        return facts
    one = [facts] if isinstance(slo, SLO) else [*facts["per_group"], facts["default"],
                                                facts["base"]]
    for part in one:
        if part is not None and part["window"] == duration_label(typed):
            part["window"] = typed
    return facts


def write_record(record: dict[str, Any], slo: SLO | PerGroup, args: argparse.Namespace,
                 events: pd.DataFrame) -> None:
    """Write the run record beside ``--out`` (the SLO, how the input was read, the outputs)."""
    from .._util.files import atomic_write

    how = events.attrs.get("how_read")
    slo_facts = _slo_facts(slo, getattr(args, "window", None))
    full = {**record, "slo": slo_facts, "how_read": how,
            "outputs": {"table": path_label(Path(args.out).name),
                        "plot": path_label(Path(args.plot).name) if args.plot else None}}
    with atomic_write(record_path(args.out), force=args.force) as fh:
        json.dump(full, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
