"""The options of line-oriented text logs in a :class:`~budgetlab.events.spec.ReadSpec`
(``pattern``, ``preset``, ``time_format``, ``year``, ``on_error`` and the deprecated ``strict``),
checked when one of them is given: a preset fills the pattern, its time format and its label
meanings; ``strict=True`` warns and is held as ``on_error="raise"``; the options that go with a
pattern are refused without one.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

from .._util.validation import check_argument
from ..errors import ConfigError
from .presets import PRESETS, check_pattern
from .timeformat import check_time_format, has_year

__all__ = ["check_line_options"]


def _caller_level() -> int:
    """The ``stacklevel`` of a warning raised by the caller of this function that points at the
    user's line: the first frame outside budgetlab and the dataclass machinery (a spec is made by
    ``ReadSpec(...)``, by :meth:`ReadSpec.replace` through :func:`dataclasses.replace`, or inside
    ``read_events`` and its Dask twin, each a different depth)."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and \
            str(frame.f_globals.get("__name__")).partition(".")[0] in ("budgetlab", "dataclasses"):
        frame, level = frame.f_back, level + 1
    return level


def check_line_options(spec: Any) -> None:
    """Check the options of text logs of ``spec`` (``pattern``, ``preset``, ``time_format``,
    ``year``, ``on_error`` and the deprecated ``strict``) and fill those a ``preset`` sets."""
    check_argument("on_error", spec.on_error, ("count", "raise", "skip"))
    # the refusals below name the option given: strict=True, or on_error=
    given = "strict=True (on_error='raise')" if spec.strict is True else "on_error="
    _old_strict(spec)
    if spec.preset is not None:
        check_argument("preset", spec.preset, tuple(PRESETS))
        if spec.pattern is not None or spec.time_format is not None:
            raise ConfigError("preset= sets the pattern and the time format; give either "
                              "preset= or pattern= (with time_format=), not both.")
        p = PRESETS[spec.preset]
        if spec.year is not None and has_year(p.time_format):  # the user gave no format
            raise ConfigError(f"the {spec.preset} preset's times carry their year "
                              f"({p.time_format!r}); leave year= out.")
        spec._set(pattern=p.pattern, time_format=p.time_format,
                  outcomes=spec.outcomes if spec.outcomes is not None else
                  dict(p.outcomes) or None)
    if spec.pattern is not None:
        if spec.format is not None:
            raise ConfigError("pattern= reads text lines; leave format= out.")
        check_pattern(spec.pattern, [spec.time, spec.label, *spec.by, *spec.keep,
                                     *(c for c in (spec.bucket, spec.session, spec.duration)
                                       if c)], preset=spec.preset, roles=spec.roles)
    elif spec.on_error != "count":
        raise ConfigError(f"{given} goes with pattern= (or preset=): it says what becomes "
                          "of the lines the pattern does not match.")
    if spec.time_format is not None or spec.year is not None:
        check_time_format(spec.time_format, spec.year)
    if spec.time_format is not None and spec.epoch is not None:
        raise ConfigError("time_format= reads text times and epoch= numbers; give one of "
                          "them.")


def _old_strict(spec: Any) -> None:
    """``strict=True``, the deprecated spelling of ``on_error="raise"``: warned about and
    read as that, so that ``on_error`` alone holds the choice."""
    if not isinstance(spec.strict, bool):
        raise ConfigError("strict= takes True or False (it is deprecated: pass "
                          "on_error='raise').")
    if not spec.strict:
        return
    if spec.on_error == "skip":
        raise ConfigError("strict=True refuses the lines that on_error='skip' would skip; "
                          "give on_error= alone (strict= is deprecated).")
    warnings.warn("strict=True is deprecated and will be removed; pass on_error='raise' "
                  "(the same rule).", FutureWarning, stacklevel=_caller_level())
    spec._set(strict=False, on_error="raise")
