"""Synthetic outcome histories with labelled incidents, ready to load.

==============================  ======================================================  =================
name                            what                                                    where
==============================  ======================================================  =================
``demo``                        3 days, 3 captcha types x 2 regions, ~208k events       in the package
``demo_incidents``              its one incident (a night-time reCAPTCHA v2 sag)        in the package
``outcomes_4w``                 4 weeks from Mon 2026-10-05 00:00 UTC, ~3.0M events     ``data/``
``incidents_4w``                its 7 incidents, one or more of each kind               ``data/``
``night_incident``              2.5 days around the 03:47 alert of 2026-11-05, ~864k    ``data/``
``night_incident_incidents``    its 2 overlapping incidents                             ``data/``
==============================  ======================================================  =================

Event tables are canonical (:mod:`budgetlab.events.schema`): ``ts, ok, bucket, captcha_type, region,
sitekey`` and, in ``night_incident`` only, ``session_id``. Incident tables have the columns of
:data:`budgetlab.events.schema.INCIDENT_COLUMNS`. Every file is made by :mod:`budgetlab.datasets.synth`
(``python -m budgetlab.datasets --preset NAME --out DIR --force``); ``data/README.md`` in the
repository tells the details. The package's own files are found through :mod:`importlib.resources`
(works from a wheel); the others in ``data/`` next to the package when running from a checkout.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import pandas as pd

from ..errors import DatasetError
from ..events.schema import INCIDENT_COLUMNS, bucket_dtype, check_events
from .synth import PRESETS

__all__ = ["names", "load"]

#: name -> (file name, preset, "events" or "incidents")
_DATASETS: dict[str, tuple[str, str, str]] = {}
for _preset, _spec in PRESETS.items():
    _events_file, _incidents_file = _spec["files"]
    _DATASETS[_events_file.rsplit(".", 1)[0]] = (_events_file, _preset, "events")
    _DATASETS[_incidents_file.rsplit(".", 1)[0]] = (_incidents_file, _preset, "incidents")


def names() -> list[str]:
    """Names of the datasets :func:`load` knows (present or not).

    >>> names()
    ['demo', 'demo_incidents', 'outcomes_4w', 'incidents_4w', 'night_incident', 'night_incident_incidents']
    """
    return list(_DATASETS)


def _checkout_data() -> Path:
    return Path(__file__).resolve().parents[2] / "data"


def load(name: str) -> pd.DataFrame:
    """Load one dataset as a DataFrame: canonical events or an incident table.

    Looks in the installed package first, then in ``data/`` of the repository checkout that
    holds this package. Raises :class:`~budgetlab.errors.DatasetError` for an unknown name or a
    missing file (the message gives the command that regenerates it).

    Returns
    -------
    DataFrame
        Events: ``ts`` (datetime64[ns, UTC]), ``ok``, ``bucket``, ``captcha_type``, ``region``,
        ``sitekey`` (categoricals), ``session_id`` (string; ``night_incident`` only).
        Incidents: ``incident_id, kind, start, end, scope, severity``.

    Examples
    --------
    >>> events = load("demo")
    >>> list(events.columns), str(events["ts"].dtype)
    (['ts', 'ok', 'bucket', 'captcha_type', 'region', 'sitekey'], 'datetime64[ns, UTC]')
    >>> load("demo_incidents")[["kind", "scope", "severity"]]
                      kind                      scope  severity
    0  gradual_degradation  captcha_type=recaptcha_v2      0.14
    """
    if not isinstance(name, str) or name not in _DATASETS:
        raise DatasetError(f"unknown dataset {name!r}; use one of {', '.join(map(repr, _DATASETS))}.")
    file_name, preset, kind = _DATASETS[name]
    resource = importlib.resources.files(__name__).joinpath(file_name)
    if resource.is_file():
        with importlib.resources.as_file(resource) as path:
            return _read(path, kind, name, preset)
    path = _checkout_data() / file_name
    if path.is_file():
        return _read(path, kind, name, preset)
    raise DatasetError(
        f"dataset {name!r} ({file_name}) is neither in the installed package nor in {_checkout_data()}. "
        f"Regenerate it from the repository root with: {_command(preset)} "
        f"(or get the same tables in memory with budgetlab.datasets.synth.generate_preset({preset!r}))."
    )


def _command(preset: str) -> str:
    return f"python -m budgetlab.datasets --preset {preset} --out {PRESETS[preset]['out']} --force"


def _read(path: Path, kind: str, name: str, preset: str) -> pd.DataFrame:
    try:
        return _read_events(path) if kind == "events" else _read_incidents(path)
    except DatasetError:
        raise
    except Exception as exc:  # a truncated or foreign file: say how to get a good one
        raise DatasetError(
            f"dataset {name!r} could not be read from {path} ({type(exc).__name__}); "
            f"regenerate it with: {_command(preset)}"
        ) from None


def _read_events(path: Path) -> pd.DataFrame:
    import pyarrow.parquet as pq

    events: pd.DataFrame = pq.read_table(path).to_pandas()
    events["ts"] = events["ts"].dt.tz_convert("UTC").dt.as_unit("ns")
    bucket = events["bucket"]
    if not isinstance(bucket.dtype, pd.CategoricalDtype):
        bucket = bucket.astype("category")
    events["bucket"] = bucket.astype(bucket_dtype(bucket.cat.categories.astype(str)))
    for col in ("captcha_type", "region", "sitekey"):
        if col in events.columns and not isinstance(events[col].dtype, pd.CategoricalDtype):
            events[col] = events[col].astype("category")
    if "session_id" in events.columns:
        events["session_id"] = events["session_id"].astype("string")
    check_events(events, [c for c in ("captcha_type", "region", "sitekey") if c in events.columns])
    return events


def _read_incidents(path: Path) -> pd.DataFrame:
    table = pd.read_csv(path, dtype={"incident_id": "str", "kind": "str", "scope": "str", "severity": "float64"},
                        keep_default_na=False)
    if tuple(table.columns) != INCIDENT_COLUMNS:
        raise DatasetError(f"{path.name}: columns must be {', '.join(INCIDENT_COLUMNS)}.")
    for col in ("start", "end"):
        table[col] = pd.to_datetime(table[col], utc=True, format="ISO8601").dt.as_unit("ns")
    return table
