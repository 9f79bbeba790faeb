"""What every log-reading subcommand shares: the input, SLO and output options, the SLO of the
command line (one :class:`~budgetlab.SLO` or per-group :class:`~budgetlab.PerGroup`), and
:func:`read_log`, which reads ``LOG...`` the same way for ``replay`` and every analysis.

Before any result, :func:`read_log` writes the "how it was read" block to stderr, so a pipe of
the results stays clean; it registers every input and checks every output before the work.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.percent import given_fraction
from .._util.words import option_word, prose_duration, some_named, speak
from ..errors import ConfigError
from ..slo import SLO, PerGroup, key_text
from .options import (
    DEFAULT_TARGET,
    DEFAULT_WINDOW,
    group_keys,
    parse_outcomes,
    read_paths,
    read_spec,
)
from .prose import path_label, wrap
from .slo_labels import log_columns, picked_labels, select_by_labels
from .slo_latency import adopt_latency
from .value_flags import target_value

# group_keys, parse_outcomes, read_spec: what the reading flags mean (options), for commands
__all__ = ["slo_from_args", "group_keys", "parse_outcomes", "read_spec", "LogRead", "read_log",
           "describe_slo",
           "slo_list", "longest_window"]

#: How many groups the SLO header line names before "and N more".
_SHOWN_GROUPS = 8


_OVERRIDES = ("window", "warning", "critical", "min_events")


def slo_from_args(args: argparse.Namespace) -> SLO | PerGroup:
    """The SLO of the command line: ``--slo FILE`` (OpenSLO; several SLOs bound to groups by their
    labels give a :class:`PerGroup`) with the flags given overriding it, else the flags with the
    subcommand's defaults."""
    if getattr(args, "slo", None):
        from .._util.inputs import register_input
        from ..interop.openslo import load_slos

        given = str(args.slo).partition("#")[0]  # as typed: the messages repeat it
        path, said = Path(given), path_label(given)
        if path.is_file():
            register_input(path)  # no output of this run may replace it
        base = load_slos(args.slo, by=tuple(group_keys(args)))
        adopt_latency(args, path, said)
        changes = {k: getattr(args, k) for k in _OVERRIDES if getattr(args, k, None) is not None}
        if isinstance(base, PerGroup):
            if args.target is not None:
                raise ConfigError("--target would replace the target of every group of "
                                  f"{said}; leave it out, "
                                  "or edit the targets in the file.")
            if not changes:
                return base
            default = base.default.with_(**changes) if isinstance(base.default,
                                                                  SLO) else base.default
            return PerGroup({k: s.with_(**changes) for k, s in base.table.items()}, default=default,
                            base=base.base.with_(**changes), binding=base.binding)
        target = _targets(args.target, [])
        if isinstance(target, dict):
            raise ConfigError(f"{said} holds one SLO; per-group --target needs per-group "
                              "SLOs: give one number, "
                              "or bind several SLOs to the groups in the file.")
        if target is not None:
            changes["target"] = target
        return base.with_(**changes) if changes else base
    target = _targets(args.target, group_keys(args))
    slo = SLO(
        target=DEFAULT_TARGET if target is None or isinstance(target, dict) else target,
        window=DEFAULT_WINDOW if args.window is None else args.window,
        warning=0.5 if args.warning is None else args.warning,
        critical=0.1 if args.critical is None else args.critical,
        min_events=0 if args.min_events is None else args.min_events,
    )
    if isinstance(target, dict):
        return PerGroup(target, base=slo, binding=f"--target, by {group_keys(args)[0]}")
    return slo


def _targets(text: str | None, by: list[str]) -> float | dict[str, float] | None:
    """``--target 0.95`` as a number, ``--target a=0.93,b=0.97`` as per-group targets, each item
    split at its last ``=`` (a group's name may hold one: ``=eq=0.78``; in quotes, ``,`` too)."""
    if text is None:
        return None
    if "=" not in text:
        try:
            float(text)
        except ValueError:
            raise ConfigError("--target takes a number (e.g. 0.95) or per-group targets (e.g. "
                              "recaptcha_v2=0.93,turnstile=0.97).") from None
        return target_value(text.strip(), text.strip())
    if len(by) != 1:
        raise ConfigError("per-group --target needs exactly one --by key (e.g. --by captcha_type); "
                          "for several keys "
                          "bind SLOs to the groups in an OpenSLO file (--slo).")
    from .._util.pairs import split_items, write_key

    out: dict[str, float] = {}
    # at the last "=": a target never holds one, a group may ("=eq=0.78"); in quotes, also ","
    for key, sep, value in split_items(text):
        try:
            if not sep or not key:
                raise ValueError(key)
            float(value)
        except ValueError:
            raise ConfigError("--target: every item must be GROUP=TARGET (e.g. "
                              "recaptcha_v2=0.93,turnstile=0.97).") from None
        out[key] = target_value(value, f"{write_key(key)}={value}")
    return out


def slo_list(slo: SLO | PerGroup) -> list[SLO]:
    """Every distinct SLO of ``slo`` (its default included), in a stable order."""
    if isinstance(slo, SLO):
        return [slo]
    found = list(dict.fromkeys(slo.table.values()))
    if isinstance(slo.default, SLO):
        found.append(slo.default)
    elif slo.default is not None:
        found.append(slo.base.with_(target=float(slo.default)))
    return list(dict.fromkeys(found))


def longest_window(slo: SLO | PerGroup) -> pd.Timedelta:
    """The longest tracker window of ``slo`` (the warm-up of a per-group run)."""
    return max(pd.Timedelta(s.window) for s in slo_list(slo))


def _key_label(key: tuple[str, ...]) -> str:
    return key[0] if len(key) == 1 else "(" + ", ".join(key) + ")"


def describe_slo(slo: SLO | PerGroup, by: list[str], *, window: bool = True,
                 events: pd.DataFrame | None = None, tracker: bool = True) -> str:
    """The SLO header line: one SLO in full; per-group SLOs compactly (the targets by group, each
    other field once when all groups share it, else by group). Without ``window`` the SLO's window
    is left out (a command that replays other windows says those); without ``tracker`` every
    field of the tracker is (window, thresholds, minimum events: ``alerts`` reads the target
    only, the budget period it says on its first line). With ``events`` (the log), the
    per-group SLOs are those of its groups: a group the SLOs name and the log lacks is named once
    as not used (as the warning of :func:`~budgetlab.slo_groups.warn_unused` says), the default
    shown only when a group of the log takes it.

    >>> describe_slo(PerGroup({"a": 0.93, "b": 0.97}, base=SLO(window="1h")), ["t"])
    'SLO: target a 0.93, b 0.97; window 1 h, warning < 0.5, critical < 0.1, min_events 0, by t'
    >>> describe_slo(SLO(target=0.99), ["t"], tracker=False)
    'SLO: target 0.99, by t'
    >>> describe_slo(PerGroup({"a": 0.93, "zz": 0.9}, default=0.95), ["t"],
    ...              events=pd.DataFrame({"t": ["a", "b"]})).partition(";")[0]
    'SLO: target a 0.93, other groups 0.95 (zz: not in the log, not used)'
    """
    by_text = f", by {', '.join(by)}" if by else ""
    if isinstance(slo, SLO):
        span = f", window {prose_duration(slo.window)}" if window else ""
        target, warning, critical = map(given_fraction, (slo.target, slo.warning, slo.critical))
        if not tracker:
            return f"SLO: target {target}{by_text}"
        return (f"SLO: target {target}{span}, warning < {warning}, critical < {critical}, "
                f"{option_word('min_events')} {slo.min_events}{by_text}")
    table, unused, others = _applied(slo, by, events)
    fields: dict[str, tuple[str, Any]] = {
        "window": ("window", lambda s: prose_duration(s.window)),
        "warning": ("warning <", lambda s: given_fraction(s.warning)),
        "critical": ("critical <", lambda s: given_fraction(s.critical)),
        "min_events": (option_word("min_events"), lambda s: str(s.min_events))}
    targets = [f"{_key_label(k)} {given_fraction(s.target)}" for k, s in table.items()]
    if others:
        targets.append(f"{'other' if table else 'all'} groups {given_fraction(others[0].target)}")
    parts = []
    every = [*table.values(), *others]
    if not window:
        del fields["window"]
    if not tracker:
        fields.clear()
    for label, fmt in fields.values():
        values = {fmt(s) for s in every}
        if len(values) == 1:
            parts.append(f"{label} {values.pop()}")
        else:
            parts.append(f"{label} " + some_named([f"{_key_label(k)} {fmt(s)}"
                                                  for k, s in table.items()], _SHOWN_GROUPS))
    lacking = (f" ({some_named([_key_label(k) for k in unused], _SHOWN_GROUPS)}: not in the log, "
               "not used)" if unused else "")
    rest = f"; {', '.join(parts)}" if parts else ""
    return f"SLO: target {some_named(targets, _SHOWN_GROUPS)}{lacking}{rest}{by_text}"


def _applied(slo: PerGroup, by: list[str], events: pd.DataFrame | None
             ) -> tuple[dict[tuple[str, ...], SLO], list[tuple[str, ...]], list[SLO]]:
    """The per-group SLOs that apply to the groups of ``events``: the table's SLOs of the log's
    groups, the groups it names that the log lacks, and the default when a group takes it (all of
    the table, none lacking, the default if any, without ``events`` or without a group in it)."""
    table = slo.table
    others = slo_list(slo)[len(set(table.values())):] if slo.default is not None else []
    if events is None or not by or not set(by) <= set(events.columns) or events.empty:
        return table, [], others
    have = {key_text(row) for row in
            events[by].drop_duplicates().itertuples(index=False, name=None)}
    used = {k: s for k, s in table.items() if k in have}
    return used, [k for k in table if k not in have], others if have - set(used) else []


@dataclass(frozen=True)
class LogRead:
    """What :func:`read_log` read: the canonical events, the files, a title, the reader and the
    ``--incidents`` table (``None`` without one)."""

    events: pd.DataFrame
    paths: list[Path]
    title: str
    reader: str
    incidents: pd.DataFrame | None = None

    def file_columns(self, args: argparse.Namespace) -> set[str] | None:
        """The columns the log's first file holds, read as the run reads it (its header, or the
        pattern's groups; ``None`` when they cannot be read): those a scope may name."""
        return log_columns(self.paths, args, self.reader == "access log") or None


def _filled(block: str) -> str:
    """The "how it was read" block with its long lines (``  time: ...``, ``  note: ...``) filled
    to 100 columns as the rest of the output (:func:`~budgetlab.cli.prose.wrap`); the label
    table's rows (deeper indented) stay one per line."""
    return "\n".join(wrap(line, indent="  ") if len(line) > 100 and line.startswith("  ")
                     and not line.startswith("   ") else line for line in block.splitlines())


def _label_columns(paths: list[Path], args: argparse.Namespace,
                   labels: dict[str, list[str]]) -> list[str]:
    """The label keys of ``--slo FILE#NAME`` that are columns of the log and not ``--by`` keys:
    read beside them for the selection only."""
    if not labels:
        return []
    from ..events.accesslog import is_access_log

    lines = getattr(args, "pattern", None) or getattr(args, "preset", None)
    access = args.format == "access" or (args.format is None and not lines
                                         and is_access_log(paths[0]))
    columns = log_columns(paths, args, access)
    return [k for k in labels if k in columns and k not in group_keys(args)]


def _hashed_scopes(args: argparse.Namespace, table: pd.DataFrame | None, events: pd.DataFrame,
                   salt: str) -> pd.DataFrame | None:
    """With ``--pii hash``: the incident scopes (``--incidents``' and ``incident --scope``) whose
    values name a hashed key, hashed by the salt as the events' values are (``args.scope`` set)."""
    from ..alerts.incident_scopes import guard_scopes, match_hashed_keys

    if getattr(args, "scope", None):
        scope = guard_scopes(pd.Series([args.scope]), "--scope", pii="hash", salt=salt)
        args.scope = match_hashed_keys(pd.DataFrame({"scope": scope}), events, salt)["scope"][0]
    return match_hashed_keys(table, events, salt) if table is not None else None


def read_log(
    args: argparse.Namespace, outputs: dict[str, Any], *, incidents: str | None = None,
    check_incidents: Callable[[pd.DataFrame], object] | None = None,
) -> LogRead:
    """Read ``args.log`` as every subcommand reads it: register the inputs (the log files and
    the ``--incidents`` file ``incidents``), check every output of the run (``{option: path or
    None}``, see :func:`~budgetlab._util.files.plan_outputs`) and read the incidents before the
    work (``check_incidents`` checks the incidents table then: a refusal comes before the read),
    read (event table or access log), write the "how it was read" block to stderr, and drop from
    ``--by`` a key the log lacks (a ``--by`` key that ``--pii drop`` would drop is refused by the
    reader: the grouping is never lost without a word)."""
    from .._util.inputs import register_input
    from .._util.plan import plan_outputs
    from ..alerts.incidents_file import read_incidents
    from ..events.files import expand_sources
    from ..events.how_read import how_read

    paths = expand_sources(args.log if len(args.log) > 1 else args.log[0])
    for p in [*paths, *([Path(incidents)] if incidents else [])]:
        if p.is_file():
            register_input(p)
    plan_outputs(outputs, force=args.force)
    pii, salt = getattr(args, "pii", "error"), getattr(args, "salt", None)
    # a bad file fails before the read; with --pii hash, personal scope values hashed by the salt
    table = read_incidents(incidents, pii=pii, salt=salt) if incidents else None
    if table is not None and check_incidents is not None:
        check_incidents(table)
    spec, labels = picked_labels(args)  # --slo FILE#NAME: the events its labels select
    given, extra = args.by, _label_columns(paths, args, labels)
    try:
        args.by = ",".join([*group_keys(args), *extra]) or None
        events, access = read_paths(paths, args)
    finally:
        args.by = given
    if labels:
        events, line = select_by_labels(events, spec, labels, [k for k in extra
                                                               if k in events.columns])
        print(wrap(line, indent=""))
    if pii == "hash" and salt:
        table = _hashed_scopes(args, table, events, salt)
    # --bucket column, not bucket= column
    how = how_read(events)
    assert how is not None  # for mypy: read_events states how it read every table
    sys.stderr.write(f"{_filled(speak(str(how)))}\n")
    sys.stderr.flush()
    if args.by:  # a key the log lacks (a key --pii drop would drop was refused at the read)
        args.by = ",".join(k for k in group_keys(args) if k in events.columns)
    if len(events) == 0:
        raise ConfigError("no events were kept from the log (see 'how it was read' above); check "
                          "--outcomes.")
    # the files read: one without rows beside others is skipped (how it was read says so)
    title = path_label(paths[0].name) if len(paths) == 1 else f"{len(how.files):,} files" \
        if len(how.files) > 1 else path_label(how.files[0][0])
    return LogRead(events, paths, title, "access log" if access else "events", table)
