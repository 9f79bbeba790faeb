"""How to read a log: :class:`ReadSpec`, the one frozen, validated options object every reader
takes (:func:`budgetlab.read_events`, its Dask twin, the command line); each option is documented
once, here."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from .._util.validation import check_argument, check_tz
from .._util.words import command_flag, noun_for, say
from ..errors import ConfigError
from ..privacy import PII_MODES, guard_values, names_a_person
from ._format_words import check_format
from .epochs import EPOCH_UNITS
from .files import check_text_encoding
from .presets import check_line_options
from .threshold import Threshold, check_latency, check_ok_when, parse_ok_when
from .vocabulary import Outcomes, check_outcomes

__all__ = ["ReadSpec", "OUTPUT_NAMES"]

#: Column names of the canonical table that a kept column may not take.
OUTPUT_NAMES = ("ts", "ok", "bucket", "session_id")


def _names(name: str, value: Any, *, many: bool = True) -> tuple[str, ...]:
    """Column names given to ``name=``: each a non-empty string, none twice."""
    if value is None and many:
        return ()
    values = [value] if isinstance(value, str) or not many else value
    try:
        out = tuple(values)
    except TypeError:
        raise ConfigError(f"{name}= takes a column name or a list of names, got "
                          f"{type(value).__name__}.") from None
    for v in out:
        if not isinstance(v, str) or not v:
            raise ConfigError(f"{name}= takes a column name (a non-empty string), got "
                              f"{type(v).__name__}.")
    twice = next((v for i, v in enumerate(out) if v in out[:i]), None)
    if twice is not None:  # "in by=", "in --by", "in the notebook's parameters a and b"
        raise ConfigError(f"the column {twice!r} appears twice in {name}=; name each column "
                          "once.")
    return out


def _listed(options: Sequence[str], word: str) -> str:
    """``options`` in the words of the API (``time=, ok= and bucket=``) or of the command line
    (its flags, leaving out those it has none for: ``--time, --ok and --bucket``).

    >>> _listed(["time", "outcome", "session"], "or")
    'time=, outcome= or session='
    """
    words = [w for w in (say(f"{o}=", command_flag(o) or "") for o in options) if w]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {word} {words[-1]}"


def _text_log_options(spec: ReadSpec) -> bool:
    """Whether ``spec`` gives an option of text logs, checked by
    :func:`~budgetlab.events.presets.check_line_options` (a read of a table enters no
    module of text logs)."""
    return any(v is not None for v in (spec.pattern, spec.preset, spec.time_format, spec.year)) \
        or spec.strict is not False or spec.on_error != "count"


@dataclasses.dataclass(frozen=True)
class ReadSpec:
    r"""What the columns of a log mean and how to read them; validated when made.

    ``read_events(source, spec, **overrides)`` reads with ``spec`` and the overrides (each a field
    below). ``by`` and ``keep`` are kept as tuples, ``outcomes`` as a checked dict; a ``preset``
    fills ``pattern``, ``time_format`` and (unless given) ``outcomes``.

    Parameters
    ----------
    time : str
        Time column: ISO-8601 strings (with offsets, which may differ from row to row: each is an
        exact instant, e.g. +01:00 and +02:00 across a DST change; or all without, then ``tz``
        says the zone; ``GMT+0100``/``UTC-05:00`` after any date style are offsets with the ISO
        sign), datetimes, or epoch numbers (then say the unit with ``epoch=``). Naive and aware
        times mixed (in a file or across files), and dates without a day or a year, are refused.
    outcome : str, optional
        Outcome-label column. Labels are normalised
        (:func:`~budgetlab.events.vocabulary.normalize_label`) and read through the built-in
        vocabulary :data:`~budgetlab.events.vocabulary.DEFAULT_OUTCOMES` (``success``,
        ``succeeded``, ``done``, ``ok``, ``true``, ``1`` ... -> success; ``timeout``, ``timed
        out`` ... -> ``timeout``; ``failed``, ``error``, ``false``, ``0`` ... -> ``failure``), or
        through ``outcomes``. **A label neither knows is refused**, with its count and the exact
        ``outcomes=`` to pass; so is a file's column in which no label is a success under the
        built-in vocabulary (a DataFrame may be one slice of a larger log). Ignored with ``ok``.
    ok : str, optional
        A boolean success column (true/false, 1/0, yes/no; ``1.0``/``0.0``, a float column as
        pandas writes it, are 1/0, value by value) instead of outcome labels.
    ok_when : str, optional
        A metric series (one measured value per row, such as a latency) read as outcomes by
        your threshold: ``"COLUMN<NUMBER"`` (or ``<=``, ``>``, ``>=``; CLI ``--ok-when``), e.g.
        ``ok_when="value<300"``; a row is a success when the comparison holds, else a failure in
        bucket ``failure``. Missing values and values that are not numbers are refused by row;
        ``ok``, ``outcomes``, ``bucket`` and another ``outcome`` column are refused beside it
        (:mod:`budgetlab.events.threshold`). budgetlab never proposes a threshold.
    bucket : str, optional
        With ``ok``: the failure-kind column (failures without a kind count as ``failure``).
    by : str or list of str
        Group keys to keep (as categoricals of NFC strings; invisible characters are refused).
    session : str, optional
        Column kept as ``session_id`` (opaque id); ``hash_session=True`` hashes it with ``salt``.
    keep : list of str
        Other columns to keep unchanged (declared, so they pass the personal-data guard).
    tz : str, optional
        Time zone of naive timestamps, when every time is naive; not given (``None``), they are
        read as UTC and ``how_read`` says that was the default. Output is UTC.
    epoch : {"s", "ms", "us", "ns"}, optional
        Unit of numeric timestamps, checked against the values: instants before 2000 or from
        2100 on, or magnitudes 1000x apart in one column, are refused with the likely unit named.
    outcomes : mapping, optional
        A complete label mapping: label -> ``"success"``, a failure bucket name, or ``"skip"``
        (those rows are left out and counted). Keys may be HTTP status ranges (``"2xx"``,
        ``"50x"``; an exact code wins). Labels it does not list are refused, with their counts.
        Or a function of the (normalised) label giving one of those meanings, called once for
        each distinct label (what :func:`~budgetlab.read_access_log` passes for ``ok(status)``).
    pii : {"error", "drop", "hash"}
        A declared column that looks like personal data (e-mail, phone, IP, card number): refuse
        the load, drop the column with a warning, or replace it by a keyed hash (needs ``salt``).
        The time, outcome, ok and bucket columns are always refused.
    salt : str, optional
        Secret for ``pii="hash"`` and ``hash_session``.
    hash_session : bool
        Replace ``session_id`` by its keyed hash (16 hex digits) on load.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        File format when the extension does not say it (an access log, the command line's
        ``--format access``: :func:`~budgetlab.read_access_log` or ``preset="access"``).
        Compression is recognised by content (gzip, bzip2, xz); a file that expands to more
        than 100 times its compressed size
        (beyond 16 MiB) is refused as a decompression bomb (``BUDGETLAB_MAX_RATIO`` raises the
        cap), and the decompressed bytes must fit the memory budget (``BUDGETLAB_MEMORY_LIMIT``,
        default half of the physical memory). zstd and lz4 are refused with the command that
        decompresses them.
    encoding : str
        Text encoding of CSV/TSV/JSON Lines files (default UTF-8, a BOM is skipped; UTF-16 is
        recognised and named). Lines may end in LF, CRLF or CR alone. CR-only line ends, a
        compression, Parquet binary columns read as UTF-8 and a numeric outcome column read as
        labels are stated in ``budgetlab.how_read(events).notes``.
    duration, duration_unit, slow_above : optional
        Latency as part of success: successes whose ``duration`` is strictly above
        ``slow_above`` (e.g. ``"2s"``) become failures in the ``slow`` bucket. Numeric durations
        need their unit (``duration_unit="ms"``); text such as ``"350ms"`` carries its own. A
        ``duration`` is kept as the ``duration`` column (timedelta64[ns]), with or without
        ``slow_above`` (what :func:`budgetlab.latency_profile` reads); it names a column of its
        own, not the ``time``, ``outcome`` (or ``ok``), ``bucket`` or ``session`` column.
    pattern : str, optional
        Read a line-oriented text log: an RE2 regular expression (Arrow's ``extract_regex``: no
        lookaround, no backreferences) whose named groups are the columns, e.g.
        ``r"^(?P<ts>\S+ \S+) (?P<outcome>\w+) (?P<region>\w+)"``. Lines that do not match are not
        events: their count and share are stated in the notes; a file where no line matches is
        refused (:mod:`budgetlab.events.lines`).
    preset : {"sshd", "proxifier", "access"}, optional
        A named pattern with its time format and label meanings
        (:data:`~budgetlab.events.presets.PRESETS`).
    time_format : str, optional
        Read the time column as written with this strptime format (e.g. ``"%b %d %H:%M:%S"``);
        times that do not match it are refused by row.
    year : int, optional
        The year of the first line, for a ``time_format`` without one (required then); each
        line is read in the year nearest the latest time before it (the New Year rule,
        :mod:`budgetlab.events.timeformat`).
    strict : bool
        Deprecated: the older spelling of ``on_error="raise"``; ``strict=True`` warns
        (``FutureWarning``) and is read as ``on_error="raise"`` (``strict`` is then ``False``:
        ``on_error`` holds the choice).
    on_error : {"count", "raise", "skip"}
        With ``pattern``: what becomes of a non-blank line that is not an event (the rule is in
        :mod:`budgetlab.events.lines`; CLI ``--on-error``): ``"count"`` (default) states the
        share of lines the pattern does not match; ``"raise"`` refuses, and ``"skip"`` leaves out
        with a warning, every line not in the format (the pattern does not match it, its time
        does not read, or a group fails the preset's check), named by file and line number.
    not_personal : list of str
        Group keys whose names denote people or accounts (``user``, ``login``, ``account``,
        ``email``, ``customer``, ``client``, ... in English, German, French, Spanish and Russian)
        but that name no person here. Without it such a key is refused even when its values look
        plain, unless ``pii="hash"`` (kept as a keyed hash) or ``pii="drop"``.

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
    ok_when: str | None = None
    bucket: str | None = None
    by: str | Sequence[str] = ()
    session: str | None = None
    keep: Sequence[str] = ()
    tz: str | None = None
    epoch: str | None = None
    outcomes: Outcomes | None = None
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
    on_error: str = "count"

    def __post_init__(self) -> None:
        _names("time", self.time, many=False)
        for name in ("outcome", "ok", "bucket", "session", "duration"):
            if getattr(self, name) is not None:
                _names(name, getattr(self, name), many=False)
        self._set(by=_names("by", self.by), keep=_names("keep", self.keep),
                  not_personal=_names("not_personal", self.not_personal))
        stray = [c for c in self.not_personal if c not in self.by]
        if stray:
            raise ConfigError(f"not_personal= names {', '.join(map(repr, stray))}, which by= does "
                              "not declare; it takes group keys whose names sound personal but "
                              "that name no person.")
        guard_values(self.columns,
                     what="the declared column names (time, outcome, ok, bucket, by, keep, ...)")
        self._check_privacy()
        if self.epoch is not None:
            check_argument("epoch", self.epoch, tuple(EPOCH_UNITS))
        if self.format is not None:
            check_format(self.format)
        check_text_encoding(self.encoding)
        if self.tz is not None:
            self._set(tz=check_tz(self.tz))
        if _text_log_options(self):
            check_line_options(self)
        self._set(outcomes=check_outcomes(self.outcomes))
        if self.ok_when is not None:  # a metric series read by a threshold
            self._set(ok_when=check_ok_when(self))
        if (self.duration, self.duration_unit, self.slow_above) != (None, None, None):
            check_latency(self.duration, self.duration_unit, self.slow_above)
        self._check_roles()

    def _set(self, **values: Any) -> None:
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def _check_privacy(self) -> None:
        check_argument("pii", self.pii, PII_MODES)
        if self.salt is not None and (not isinstance(self.salt, str) or not self.salt):
            raise ConfigError("salt= must be a non-empty string (a secret kept out of the data).")
        if (self.pii == "hash" or self.hash_session) and self.salt is None:
            raise ConfigError(say("pii='hash' and hash_session=True need salt='a secret string'",
                                  "--pii hash needs --salt S, a secret string")
                              + " (keep it out of the data).")
        if self.hash_session and self.session is None:
            raise ConfigError("hash_session=True needs session='<session id column>'.")
        if self.salt is not None and self.pii != "hash" and not self.hash_session:
            raise ConfigError(say("salt= keys the hashes of pii='hash' and hash_session=True; "
                                  "without them nothing is hashed: pass pii='hash', or leave "
                                  "salt= out.",
                                  "--salt keys the hashes of --pii hash; without it nothing is "
                                  "hashed: pass --pii hash too, or leave --salt out."))

    def _check_roles(self) -> None:
        # each column read as the time, the outcome (ok= wins over outcome=) and the kind of
        # failure, or kept as the session id, is its own; the duration's may be none of them
        options = ("time", self._label_role()[0], "bucket", "session")
        given = (self.time, self.label, self.bucket, self.session)
        of = {c: [o for o, g in zip(options, given, strict=True) if g == c]
              for c in given if c is not None}  # the options that name each column
        if shared := {c: o for c, o in of.items() if len(o) > 1}:  # named: only those that share
            raise ConfigError("; ".join(f"{_listed(o, 'and')} name the same column {c!r}" for c, o
                                        in shared.items()) + "; each needs a column of its own.")
        for k in (*self.by, *self.keep):
            if k in OUTPUT_NAMES:
                raise ConfigError(f"column {k!r} would clash with the output column of that "
                                  "name; rename it first.")
        if self.bucket is not None and self.ok is None:
            raise ConfigError("bucket= goes with ok= (a success column); with outcome= the "
                              "labels are the buckets.")
        if self.duration is not None and self.duration in of:
            raise ConfigError(f"duration={self.duration!r} is also the column of "
                              f"{_listed(of[self.duration], 'and')}; the duration needs a "
                              f"column of its own, not that of {_listed(options, 'or')}.")

    @property
    def label(self) -> str:
        """The outcome-label or success column (``ok`` or the column of ``ok_when`` win over
        ``outcome``)."""
        label = self._label_role()[1]
        if label is None:
            raise ConfigError("give outcome='<label column>' or ok='<boolean success column>'.")
        return label

    @property
    def reads_labels(self) -> bool:
        """The success is read from outcome labels (neither ``ok`` nor ``ok_when`` is given)."""
        return self.ok is None and self.ok_when is None

    @property
    def threshold(self) -> Threshold | None:
        """``ok_when`` parsed: its column, operator and number (``None`` without it)."""
        if self.ok_when is None:
            return None
        return parse_ok_when(self.ok_when)

    def _label_role(self) -> tuple[str, str | None]:
        """The option that says what a success is (``ok``, else ``ok_when``, else ``outcome``)
        and its column."""
        threshold = self.threshold
        return ("ok", self.ok) if self.ok is not None else \
            ("ok_when", threshold.column) if threshold is not None else ("outcome", self.outcome)

    @property
    def columns(self) -> list[str]:
        """Every declared column, once, in reading order (time, label, bucket, session, keys,
        kept, duration)."""
        return list(self.roles)

    @property
    def roles(self) -> dict[str, tuple[str, ...]]:
        """Each declared column and every option that declared it, in reading order
        (``{"ts": ("time",), "t": ("time", "by"), ...}``), for messages that name the options to
        fix.

        >>> ReadSpec(time="t", by="t").roles["t"]
        ('time', 'by')
        """
        pairs = [("time", self.time), self._label_role(), ("bucket", self.bucket),
                 ("session", self.session),
                 *(("by", k) for k in self.by), *(("keep", k) for k in self.keep),
                 ("duration", self.duration)]
        roles: dict[str, tuple[str, ...]] = {}
        for option, c in pairs:
            if isinstance(c, str):
                roles[c] = (*roles.get(c, ()), option)
        return roles

    @property
    def named_personal(self) -> list[str]:
        """Group keys whose names denote people or accounts, unless declared ``not_personal``."""
        return [k for k in self.by if names_a_person(k) and k not in self.not_personal]

    @property
    def slow_ns(self) -> int | None:
        """``slow_above`` in nanoseconds (``None`` when not asked for)."""
        return None if self.slow_above is None else \
            check_latency(self.duration, self.duration_unit, self.slow_above)

    def replace(self, **overrides: Any) -> ReadSpec:
        """A copy with ``overrides`` (validated again); unknown names are refused by name."""
        unknown = sorted(set(overrides) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise TypeError(f"read_events() got unexpected keyword "
                            f"{noun_for(len(unknown), 'argument')} {', '.join(map(repr, unknown))}")
        if not overrides:
            return self
        if self.preset is not None and "preset" not in overrides:  # the preset's values refilled
            overrides = {"pattern": None, "time_format": None, **overrides}
        return dataclasses.replace(self, **overrides)
