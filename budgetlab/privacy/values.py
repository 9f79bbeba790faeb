"""User values bound for an output (group keys, labels, names): refused when they look like
personal data, by the detection rules of :mod:`.guard`, counted per kind, never shown."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .guard import scan_text
from .refusals import values_refusal

__all__ = ["guard_values"]


def guard_values(values: Iterable[Any], *, what: str, fix: str | None = None) -> None:
    """Refuse user values (group keys, labels, names) that look like personal data before they
    become a name, label or title of an output: :class:`PersonalDataError` counts them per kind
    and never shows them. ``what`` (where they come from, e.g. "the 'group' column of rec.csv")
    is put into the message as given, so it must not hold a user value itself; ``fix`` is the way
    out where hashing on load is not one (:func:`~budgetlab.privacy.refusals.values_refusal`).

    >>> guard_values(["turnstile", "image"], what="group keys")
    >>> guard_values(["turnstile", "ivan@example.org", "+7 916 123-45-67"], what="group keys")
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: group keys: 2 of the 3 values look like personal data
    (1 like an e-mail address, 1 like a phone number); ...
    """
    values = [str(v) for v in values]
    found = scan_text(values)
    if found:
        raise values_refusal(what, int(np.logical_or.reduce(list(found.values())).sum()),
                             len(values), {kind: int(mask.sum()) for kind, mask in found.items()},
                             fix)
