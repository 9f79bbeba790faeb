"""The committed datasets: each preset's generator arguments and file names, and how its tables
are written (compact Parquet events, CSV incidents)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from .._util.csv_cells import neutralise, quoting
from .model import TIME_ZONE, sitekeys

__all__ = ["PRESETS", "write_events_parquet", "write_incidents_csv"]

_SK = sitekeys(4)


def _local(text: str) -> str:
    """A Europe/Berlin wall-clock time as UTC ISO text (for readable preset definitions)."""
    return pd.Timestamp(text, tz=TIME_ZONE).tz_convert("UTC").isoformat()


#: The committed datasets: generator arguments and file names. Regenerate with
#: ``python -m budgetlab.datasets --preset NAME --out DIR --force``.
PRESETS: dict[str, dict[str, Any]] = {
    "demo": {
        "files": ("demo.parquet", "demo_incidents.csv"),
        "out": "budgetlab/datasets/",
        "args": {
            "start": "2026-10-06T00:00Z",  # Tuesday
            "days": 3,
            "seed": 3,
            "rate": 0.8,
            "session_ids": False,
            "incidents": [
                {
                    "incident_id": "D1",
                    "kind": "gradual_degradation",
                    "start": _local("2026-10-08 01:30"),
                    "end": _local("2026-10-08 05:30"),
                    "scope": "captcha_type=recaptcha_v2",
                    "severity": 0.14,
                },
            ],
        },
    },
    "outcomes_4w": {
        "files": ("outcomes_4w.parquet", "incidents_4w.csv"),
        "out": "budgetlab/datasets/",
        "args": {
            "start": "2026-10-05T00:00Z",  # Monday
            "days": 28,
            "seed": 2026,
            "rate": 1.25,
            "session_ids": False,
            "incidents": [
                {"incident_id": "I01", "kind": "outage", "start": "2026-10-06T13:20Z",
                 "end": "2026-10-06T13:35Z", "scope": "*", "severity": 1.0},
                {"incident_id": "I02", "kind": "timeout_storm", "start": "2026-10-08T20:10Z",
                 "end": "2026-10-08T21:40Z", "scope": "region=ams", "severity": 0.2},
                {"incident_id": "I03", "kind": "solver_degradation", "start": "2026-10-12T09:00Z",
                 "end": "2026-10-12T12:30Z", "scope": "captcha_type=image", "severity": 0.22},
                {"incident_id": "I04", "kind": "slow_burn", "start": "2026-10-14T00:00Z",
                 "end": "2026-10-18T00:00Z", "scope": "captcha_type=turnstile", "severity": 0.035},
                {"incident_id": "I05", "kind": "gradual_degradation", "start": "2026-10-20T01:00Z",
                 "end": "2026-10-20T05:00Z", "scope": "captcha_type=recaptcha_v2&region=fra",
                 "severity": 0.12},
                {"incident_id": "I06", "kind": "timeout_storm", "start": "2026-10-27T01:30Z",
                 "end": "2026-10-27T02:45Z", "scope": "region=fra", "severity": 0.15},
                {"incident_id": "I07", "kind": "sitekey_change", "start": "2026-10-29T10:00Z",
                 "end": "2026-11-02T00:00Z",
                 "scope": f"captcha_type=image&sitekey={_SK['image'][1]}",
                 "severity": 0.4},
            ],
        },
    },
    "night_incident": {
        "files": ("night_incident.parquet", "night_incident_incidents.csv"),
        "out": "budgetlab/datasets/",
        "args": {
            "start": "2026-11-03T00:00Z",  # Tuesday; the alert is Thursday 2026-11-05 03:47 local
            "days": 2.5,
            "seed": 24,  # seed and severities chosen by data/tune_night_incident.py
            "rate": 4.0,
            "success": {"recaptcha_v2": 0.975},
            "session_ids": True,
            "incidents": [
                {"incident_id": "N1", "kind": "gradual_degradation",
                 "start": _local("2026-11-05 01:40"),
                 "end": _local("2026-11-05 05:10"), "scope": "captcha_type=recaptcha_v2",
                 "severity": 0.0461},
                {"incident_id": "N2", "kind": "timeout_storm", "start": _local("2026-11-05 03:10"),
                 "end": _local("2026-11-05 04:30"), "scope": "region=fra", "severity": 0.081},
            ],
        },
    },
}


def write_events_parquet(events: pd.DataFrame, path: Path) -> None:
    """Write events compactly: ms timestamps delta-encoded, categoricals as dictionaries, zstd."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(events, preserve_index=False)
    ts_type = pa.timestamp("ms", tz="UTC")
    table = table.set_column(0, pa.field("ts", ts_type, nullable=False),
                             table.column("ts").cast(ts_type))
    dict_cols = [c for c in events.columns if isinstance(events[c].dtype, pd.CategoricalDtype)]
    plain = [c for c in events.columns if c not in dict_cols and c not in ("ts",)]
    pq.write_table(
        table,
        path,
        compression="zstd",
        compression_level=9,
        use_dictionary=dict_cols,
        column_encoding={"ts": "DELTA_BINARY_PACKED", **{c: "PLAIN" for c in plain}},
        row_group_size=1 << 20,
    )


def write_incidents_csv(incidents: pd.DataFrame, path: Path) -> None:
    """Write an incident table as CSV with ISO 8601 UTC times (``2026-10-06T13:20:00Z``)."""
    out = incidents.copy()
    for col in ("start", "end"):
        out[col] = out[col].dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    safe = neutralise(out)
    safe.to_csv(path, index=False, lineterminator="\n", quoting=quoting(safe))

