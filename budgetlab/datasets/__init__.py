"""Synthetic outcome histories with labelled incidents, shipped with the package, ready to load.

==============================  ======================================================  =========
name                            what                                                    rows
==============================  ======================================================  =========
``demo``                        3 days, 3 captcha types x 2 regions                     207,980
``demo_incidents``              its one incident (a night-time reCAPTCHA v2 sag)        1
``outcomes_4w``                 4 weeks from Mon 2026-10-05 00:00 UTC                   3,024,204
``incidents_4w``                its 7 incidents, one or more of each kind               7
``night_incident``              2.5 days around the 03:47 alert of 2026-11-05           864,195
``night_incident_incidents``    its 2 overlapping incidents                             2
==============================  ======================================================  =========

Every file lives in this package (``budgetlab/datasets/``, package data of the wheel, about
13 MB) and is read through :mod:`importlib.resources`, so :func:`load` works from any directory
after ``pip install budgetlab``. Event tables are canonical (:mod:`budgetlab.events.schema`):
``ts, ok, bucket, captcha_type, region, sitekey`` and, in ``night_incident`` only, ``session_id``.
Incident tables have the columns of :data:`budgetlab.events.schema.INCIDENT_COLUMNS`. Every file
is made by :mod:`budgetlab.datasets.synth` (``python -m budgetlab.datasets --preset NAME --force``);
``data/README.md`` in the repository documents schema, provenance and generation.

:func:`load` also takes a path, so code (a notebook's parameters cell) can point at the shipped
data or at a log of your own with one plain value: a path is read as an event log with
:func:`budgetlab.read_events` (CSV/TSV, Parquet, JSON Lines, a glob or a folder), or as an
incident table with :func:`budgetlab.read_incidents` when ``kind="incidents"``.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import os
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.csv_cells import restore_frame
from .._util.validation import as_list
from .._util.words import noun_for
from ..errors import ConfigError, DatasetError, SchemaError
from ..events.schema import INCIDENT_COLUMNS, bucket_dtype, check_events
from .synth import PRESETS

__all__ = ["names", "load", "KINDS"]

#: What :func:`load` can return: an event table or an incident table.
KINDS = ("events", "incidents")

#: name -> (file name, preset, "events" or "incidents")
_DATASETS: dict[str, tuple[str, str, str]] = {}
for _preset, _spec in PRESETS.items():
    _events_file, _incidents_file = _spec["files"]
    _DATASETS[_events_file.rsplit(".", 1)[0]] = (_events_file, _preset, "events")
    _DATASETS[_incidents_file.rsplit(".", 1)[0]] = (_incidents_file, _preset, "incidents")

_GROUP_KEYS = ("captcha_type", "region", "sitekey")
_PATH_MARKS = ("/", "\\", ".", "*", "?", "[", "~")


def names() -> list[str]:
    """Names of the datasets :func:`load` knows.

    >>> names()
    ['demo', 'demo_incidents', 'outcomes_4w', 'incidents_4w', 'night_incident',
    'night_incident_incidents']
    """
    return list(_DATASETS)


def _resource(file_name: str) -> Traversable:
    """The packaged file (tests point this elsewhere)."""
    return importlib.resources.files(__name__).joinpath(file_name)


def load(source: str | os.PathLike[str], *, kind: str | None = None,
         **options: Any) -> pd.DataFrame:
    """Load a shipped dataset by name, or an event log or incident table of your own by path.

    Parameters
    ----------
    source : str or path-like
        A name from :func:`names` (the shipped data, found through :mod:`importlib.resources`),
        or a path. The rule: a ``str`` equal to a dataset name is that dataset; any other ``str``
        or path-like object is a path (a ``str`` that is neither a name nor looks like a path,
        such as a misspelt name, is refused). A path is an event log read with
        :func:`budgetlab.read_events` (CSV/TSV, Parquet, JSON Lines, ``.gz``, a glob such as
        ``"logs/*.csv"`` or a folder), or with ``kind="incidents"`` an incident CSV read with
        :func:`budgetlab.read_incidents`.
    kind : {"events", "incidents"}, optional
        What ``source`` holds. Default: a dataset's own kind for a name, ``"events"`` for a path.
        A name of the other kind is refused.
    **options
        Keyword options of :func:`budgetlab.read_events` (``by``, ``time``, ``outcome``, ``tz``,
        ...) for an event log. A named event dataset is already canonical: ``by`` is checked
        against its columns, and every other option must keep its default (a value that would
        change how a file is read cannot apply to it). Incident tables take no options.

    Returns
    -------
    DataFrame
        Events: ``ts`` (datetime64[ns, UTC]), ``ok``, ``bucket`` and the group columns
        (``captcha_type``, ``region``, ``sitekey`` categoricals and ``session_id`` string in
        ``night_incident`` for the shipped data). Incidents: ``incident_id, kind, start, end,
        scope, severity`` for the shipped data; ``incident_id, start, end, scope`` and the
        file's other columns for a CSV, ``severity`` a number (float64) in both.

    Raises
    ------
    DatasetError
        An unknown name, a name of the other ``kind``, or a shipped file missing or unreadable
        (the message gives the command that regenerates it).
    ConfigError
        An unknown option, or a read option given for a named dataset or an incident table.
    SchemaError
        A ``by`` column that the named dataset does not have.
    budgetlab.errors.BudgetlabError
        Whatever :func:`~budgetlab.read_events` or :func:`~budgetlab.read_incidents` raise for a
        path.

    Examples
    --------
    >>> events = load("demo", by=["captcha_type", "region"])
    >>> list(events.columns), str(events["ts"].dtype), len(events)
    (['ts', 'ok', 'bucket', 'captcha_type', 'region', 'sitekey'], 'datetime64[ns, UTC]', 207980)
    >>> load("demo_incidents")[["kind", "scope", "severity"]]
                      kind                      scope  severity
    0  gradual_degradation  captcha_type=recaptcha_v2      0.14

    A path works the same way (here a CSV written from the demo data):

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "log.csv"
    >>> events.assign(outcome=events["bucket"]).head(1000).to_csv(path, index=False)
    >>> mine = load(str(path), by=["captcha_type", "region"])
    >>> len(mine), list(mine.columns)
    (1000, ['ts', 'ok', 'bucket', 'captcha_type', 'region'])
    """
    if kind is not None and kind not in KINDS:
        raise ConfigError(f"kind={kind!r} is not valid; use 'events' or 'incidents' (or leave it "
                          "out).")
    if isinstance(source, str) and source in _DATASETS:
        return _load_named(source, kind, options)
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        return _load_path(source, kind or "events", options)
    raise DatasetError(
        f"{_shown(source)} is neither a dataset name ({', '.join(map(repr, _DATASETS))}) nor a "
        "path; "
        "give one of those names, or a path to a log such as logs/outcomes.csv."
    )


def _shown(source: object) -> str:
    if source is None or isinstance(source, (bool, int, float)):
        return f"source={source!r}"
    if not isinstance(source, str):
        return f"a {type(source).__name__}"
    from ..privacy import shown

    return shown(source)


def _looks_like_path(text: str) -> bool:
    return bool(text.strip()) and (
        any(mark in text for mark in _PATH_MARKS) or os.path.exists(text)
    )


def _read_defaults() -> dict[str, Any]:
    from ..events.spec import ReadSpec

    return {f.name: f.default for f in dataclasses.fields(ReadSpec)}


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    defaults = _read_defaults()
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise ConfigError(f"unknown {noun_for(len(unknown), 'option')} {', '.join(unknown)}; "
                          "load() takes kind= and the keyword options of "
                          "budgetlab.read_events (by, time, outcome, tz, ...).")
    return defaults


def _load_named(name: str, kind: str | None, options: dict[str, Any]) -> pd.DataFrame:
    file_name, preset, own_kind = _DATASETS[name]
    if kind is not None and kind != own_kind:
        raise DatasetError(f"dataset {name!r} is an "
                           f"{'event' if own_kind == 'events' else 'incident'} table, not "
                           f"{kind}; leave kind= out or use kind={own_kind!r}.")
    defaults = _check_options(options)
    # the table holds UTC instants: tz="UTC" (the zone naive times get when none is given)
    # changes nothing either
    changed = sorted(k for k, v in options.items() if k != "by" and not _same(v, defaults[k])
                     and not (k == "tz" and v == "UTC"))
    if own_kind == "incidents" and options:
        changed = sorted(options)
    if changed:
        one = len(changed) == 1
        raise ConfigError(f"{noun_for(len(changed), 'option')} {', '.join(changed)} "
                          f"{'applies' if one else 'apply'} to a log file, not to the shipped "
                          f"dataset {name!r} (already canonical); leave "
                          f"{'it at its default' if one else 'them at their defaults'} or give a "
                          "path instead.")
    resource = _resource(file_name)
    if not resource.is_file():
        raise DatasetError(f"dataset {name!r} ({file_name}) is missing from this installation of "
                           "budgetlab; "
                           f"reinstall budgetlab, or regenerate the file with: {_command(preset)} "
                           "(or get the same "
                           "tables in memory with "
                           f"budgetlab.datasets.synth.generate_preset({preset!r})).")
    with importlib.resources.as_file(resource) as path:
        table = _read(path, own_kind, name, preset)
    if own_kind == "events":
        _check_by(table, name, options.get("by", ()))
    return table


def _same(value: Any, default: Any) -> bool:
    if value is default:
        return True
    try:
        return bool(value == default)
    except (TypeError, ValueError):  # e.g. an array compared with a default
        return False


def _check_by(events: pd.DataFrame, name: str, by: str | Sequence[str] | None) -> None:
    if by is not None and not isinstance(by, (str, list, tuple)):  # as read_events says for a path
        raise ConfigError(f"by= takes a column name or a list of names, got {type(by).__name__}.")
    keys = as_list(by)
    keys_here = [c for c in _GROUP_KEYS if c in events.columns]
    missing = [k for k in keys if k not in keys_here]
    if missing:
        raise SchemaError(f"by: dataset {name!r} has no group column {_shown(str(missing[0]))}; "
                          "its group columns "
                          f"are {', '.join(keys_here)}.")


def _load_path(source: str | os.PathLike[str], kind: str, options: dict[str, Any]) -> pd.DataFrame:
    if kind == "incidents":
        if options:
            raise ConfigError(f"{noun_for(len(options), 'option')} {', '.join(sorted(options))} "
                              f"{'applies' if len(options) == 1 else 'apply'} to event logs; an "
                              "incident table (kind='incidents') takes none.")
        from ..alerts.incidents_file import read_incidents

        return read_incidents(Path(source).expanduser())
    _check_options(options)
    from ..events.read import read_events

    path = os.fspath(source)
    return read_events(os.path.expanduser(path), **options)


def _command(preset: str) -> str:
    return f"python -m budgetlab.datasets --preset {preset} --force"


def _read(path: Path, kind: str, name: str, preset: str) -> pd.DataFrame:
    try:
        return _read_events(path) if kind == "events" else _read_incidents(path)
    except DatasetError:
        raise
    except Exception as exc:  # a truncated or foreign file: say how to get a good one
        raise DatasetError(
            f"dataset {name!r} ({path.name}) could not be read ({type(exc).__name__}); "
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
    for col in _GROUP_KEYS:
        if col in events.columns and not isinstance(events[col].dtype, pd.CategoricalDtype):
            events[col] = events[col].astype("category")
    if "session_id" in events.columns:
        events["session_id"] = events["session_id"].astype("string")
    check_events(events, [c for c in _GROUP_KEYS if c in events.columns])
    return events


def _read_incidents(path: Path) -> pd.DataFrame:
    table = restore_frame(pd.read_csv(path, dtype={"incident_id": "str", "kind": "str",
                                                   "scope": "str",
                                                   "severity": "float64"}, keep_default_na=False))
    if tuple(table.columns) != INCIDENT_COLUMNS:
        raise DatasetError(f"{path.name}: columns must be {', '.join(INCIDENT_COLUMNS)}.")
    for col in ("start", "end"):
        table[col] = pd.to_datetime(table[col], utc=True, format="ISO8601").dt.as_unit("ns")
    return table
