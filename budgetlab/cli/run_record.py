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

from .._util.validation import duration_label
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


def _slo_dict(slo: SLO, typed: str | None = None) -> dict[str, Any]:
    """The SLO's facts; its window as the user ``typed`` it (``--window 90s``, not ``1m30s``)
    where that is the window, else as a compact label (from an ``--slo`` file)."""
    window = duration_label(slo.window)
    if typed is not None and duration_label(typed) == window:
        window = typed
    return {"target": slo.target, "window": window, "warning": slo.warning,
            "critical": slo.critical, "min_events": slo.min_events}


def write_record(record: dict[str, Any], slo: SLO | PerGroup, args: argparse.Namespace,
                 events: pd.DataFrame) -> None:
    """Write the run record beside ``--out`` (the SLO, how the input was read, the outputs)."""
    from .._util.files import atomic_write

    how = events.attrs.get("how_read")
    typed = getattr(args, "window", None)
    if isinstance(slo, SLO):
        slo_facts: dict[str, Any] = _slo_dict(slo, typed)
    else:
        slo_facts = {"per_group": [{"group": list(k), **_slo_dict(s, typed)} for k,
                                   s in slo.table.items()],
                     "binding": slo.binding}
    full = {**record, "slo": slo_facts, "how_read": how,
            "outputs": {"table": path_label(Path(args.out).name),
                        "plot": path_label(Path(args.plot).name) if args.plot else None}}
    with atomic_write(record_path(args.out), force=args.force) as fh:
        json.dump(full, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
