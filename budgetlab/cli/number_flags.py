"""The ``type=`` of the command line's number flags (``--max-share``, ``--warning``, ``--timeout``
…): a float that shows itself as typed, so that a refusal echoes ``--max-share 5``, not ``5.0``,
as ``--target`` does (:func:`budgetlab.cli.value_flags.one_target`). Free of pandas: the parser
is built before anything heavy is imported."""

from __future__ import annotations

__all__ = ["TypedNumber", "number"]


class TypedNumber(float):
    """A number flag's value: a float whose ``repr`` and ``str`` are the text as typed
    (arithmetic on it gives plain floats).

    >>> TypedNumber("5"), TypedNumber(" 0.050 "), TypedNumber("5") * 2, f"{TypedNumber('1e-3')}"
    (5, 0.050, 10.0, '1e-3')
    """

    text: str

    def __new__(cls, text: str | float) -> TypedNumber:
        number = super().__new__(cls, text)
        number.text = text.strip() if isinstance(text, str) else repr(float(text))
        return number

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def number(text: str) -> TypedNumber:
    """The ``type=`` itself: argparse names it in its refusal ("--step: invalid number value:
    'abc'")."""
    return TypedNumber(text)
