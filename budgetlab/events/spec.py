"""How to read a log: one frozen, validated options object, :class:`ReadSpec`, that every reader
takes (:func:`budgetlab.read_events`, its Dask twin, the command line)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .._util.validation import check_argument, check_tz
from .._util.words import say, speak
from ..errors import BudgetlabError, ConfigError
from ..privacy import PII_MODES, guard_values, names_a_person
from ._latency import check_latency
from ._times import EPOCH_UNITS
from .files import FORMATS, check_text_encoding
from .lines import PRESETS, check_pattern
from .outcomes import check_outcomes
from .timeformat import check_time_format

__all__ = ["ReadSpec", "OUTPUT_NAMES"]

#: Column names of the canonical table that a kept column may not take.
OUTPUT_NAMES = ("ts", "ok", "bucket", "session_id")


def _check_name(name: str, value: Any, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{name}= takes a column name (a non-empty string), got "
                          f"{type(value).__name__}.")


def _names(name: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    try:
        out = tuple(value)
    except TypeError:
        raise ConfigError(f"{name}= takes a column name or a list of names, got "
                          f"{type(value).__name__}.") from None
    for v in out:
        _check_name(name, v, optional=False)
    if len(set(out)) != len(out):
        raise ConfigError(f"{name}= names a column twice; list each once.")
    return out


def _check_privacy(pii: str, salt: Any, hash_session: bool, session: str | None) -> None:
    check_argument("pii", pii, PII_MODES)
    if salt is not None and (not isinstance(salt, str) or not salt):
        raise ConfigError("salt= must be a non-empty string (a secret kept out of the data).")
    if (pii == "hash" or hash_session) and salt is None:
        raise ConfigError(say("pii='hash' and hash_session=True need salt='a secret string'",
                              "--pii hash needs --salt S (a secret "
                              "string)") + " (keep it out of the data).")
    if hash_session and session is None:
        raise ConfigError("hash_session=True needs session='<session id column>'.")


@dataclasses.dataclass(frozen=True)
class ReadSpec:
    """What the columns of a log mean and how to read them; validated when made.

    The fields are the keyword options of :func:`budgetlab.read_events` (see its parameters for
    each); ``read_events(source, spec, **overrides)`` reads with ``spec`` and the overrides.
    ``by`` and ``keep`` are kept as tuples, ``outcomes`` as a checked dict; a ``preset`` fills
    ``pattern``, ``time_format`` and (unless given) ``outcomes``.

    Examples
    --------
    >>> spec = ReadSpec(by="region", tz="Europe/Berlin")
    >>> spec.by, spec.label
    (('region',), 'outcome')
    >>> ReadSpec(preset="sshd", year=2015).time_format
    '%b %d %H:%M:%S'
    >>> ReadSpec(pii="hash")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: pii='hash' and hash_session=True need salt='a secret string' (keep
    it out of the data).
    """

    time: str = "ts"
    outcome: str | None = "outcome"
    ok: str | None = None
    bucket: str | None = None
    by: str | Sequence[str] = ()
    session: str | None = None
    keep: Sequence[str] = ()
    tz: str = "UTC"
    epoch: str | None = None
    outcomes: Mapping[str, str] | None = None
    pii: str = "error"
    salt: str | None = None
    hash_session: bool = False
    format: str | None = None
    encoding: str = "utf-8"
    duration: str | None = None
    duration_unit: str | None = None
    slow_above: Any = None
    pattern: str | None = None
    preset: str | None = None
    time_format: str | None = None
    year: int | None = None
    strict: bool = False
    not_personal: Sequence[str] = ()

    def __post_init__(self) -> None:
        try:
            self._validate()
        # in the command's words on the command line (--pii, not pii=)
        except BudgetlabError as exc:
            raise type(exc)(speak(str(exc))) from None

    def _validate(self) -> None:
        _check_name("time", self.time, optional=False)
        for nm in ("outcome", "ok", "bucket", "session", "duration"):
            _check_name(nm, getattr(self, nm))
        self._set(by=_names("by", self.by), keep=_names("keep", self.keep),
                  not_personal=_names("not_personal", self.not_personal))
        stray = [c for c in self.not_personal if c not in self.by]
        if stray:
            raise ConfigError(f"not_personal= names {', '.join(map(repr, stray))}, which by= does "
                              "not declare; it "
                              "takes group keys whose names sound personal but that name no "
                              "person.")
        guard_values(self.columns,
                     what="the declared column names (time, outcome, ok, bucket, by, keep, ...)")
        _check_privacy(self.pii, self.salt, self.hash_session, self.session)
        if self.epoch is not None:
            check_argument("epoch", self.epoch, tuple(EPOCH_UNITS))
        if self.format is not None:
            check_argument("format", self.format, FORMATS)
        check_text_encoding(self.encoding)
        self._set(tz=check_tz(self.tz))
        self._lines()
        self._set(outcomes=check_outcomes(self.outcomes))
        if (self.duration, self.duration_unit, self.slow_above) != (None, None, None):
            check_latency(self.duration, self.duration_unit, self.slow_above)
        self._check_roles()

    def _set(self, **values: Any) -> None:
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def _lines(self) -> None:
        if not isinstance(self.strict, bool):
            raise ConfigError("strict= takes True or False.")
        if self.preset is not None:
            check_argument("preset", self.preset, tuple(PRESETS))
            if self.pattern is not None or self.time_format is not None:
                raise ConfigError("preset= sets the pattern and the time format; give either "
                                  "preset= or "
                                  "pattern= (with time_format=), not both.")
            p = PRESETS[self.preset]
            self._set(
                pattern=p.pattern,
                time_format=p.time_format,
                outcomes=self.outcomes if self.outcomes is not None else dict(p.outcomes) or None,
            )
        if self.pattern is not None:
            if self.format is not None:
                raise ConfigError("pattern= reads text lines; leave format= out.")
            check_pattern(self.pattern, [self.time, self.label, *self.by, *self.keep,
                                         *(c for c in (self.bucket, self.session,
                                                       self.duration) if c)])
        elif self.strict:
            raise ConfigError("strict= goes with pattern= (or preset=): it refuses lines the "
                              "pattern does not match.")
        if self.time_format is not None or self.year is not None:
            check_time_format(self.time_format, self.year)
        if self.time_format is not None and self.epoch is not None:
            raise ConfigError("time_format= reads text times and epoch= numbers; give one of them.")

    def _check_roles(self) -> None:
        roles = [r for r in (self.time, self.label, self.bucket, self.session) if r is not None]
        if len(set(roles)) != len(roles):
            raise ConfigError("time=, outcome=/ok=, bucket= and session= must name different "
                              "columns.")
        for k in (*self.by, *self.keep):
            if k in OUTPUT_NAMES:
                raise ConfigError(f"column {k!r} would clash with the output column of that name; "
                                  "rename it first.")
        if self.bucket is not None and self.ok is None:
            raise ConfigError("bucket= goes with ok= (a success column); with outcome= the labels "
                              "are the buckets.")
        if self.duration is not None and self.duration in (self.time, self.label, self.bucket,
                                                           self.session):
            raise ConfigError("duration= must name its own column (not the time, outcome, bucket "
                              "or session column).")

    @property
    def label(self) -> str:
        """The outcome-label or success column (``ok`` wins over ``outcome``)."""
        label = self.ok if self.ok is not None else self.outcome
        if label is None:
            raise ConfigError("give outcome='<label column>' or ok='<boolean success column>'.")
        return label

    @property
    def columns(self) -> list[str]:
        """Every declared column, once, in reading order (time, label, bucket, session, keys, kept,
        duration)."""
        label = self.ok if self.ok is not None else self.outcome
        return list(dict.fromkeys(c for c in (self.time, label, self.bucket, self.session, *self.by,
                                              *self.keep,
                                              self.duration) if isinstance(c, str)))

    @property
    def named_personal(self) -> list[str]:
        """Group keys whose names denote people or accounts, unless declared ``not_personal``."""
        return [k for k in self.by if names_a_person(k) and k not in self.not_personal]

    @property
    def slow_ns(self) -> int | None:
        """``slow_above`` in nanoseconds (``None`` when not asked for)."""
        return None if self.slow_above is None else check_latency(self.duration, self.duration_unit,
                                                                   self.slow_above)

    def replace(self, **overrides: Any) -> ReadSpec:
        """A copy with ``overrides`` (validated again); unknown names are refused by name."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise TypeError("read_events() got unexpected keyword argument(s) "
                            f"{', '.join(map(repr, unknown))}")
        if not overrides:
            return self
        # the preset's values are refilled
        if self.preset is not None and "preset" not in overrides:
            overrides = {"pattern": None, "time_format": None, **overrides}
        return dataclasses.replace(self, **overrides)
