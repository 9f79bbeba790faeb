"""The one spelling of group-key values (stripped, Unicode NFC, spaces that print as one written
U+0020) and the invisible characters refused in them: the events' keys on reading
(:func:`~budgetlab.events.read.group_key`), Prometheus labels, and incident scopes
(:func:`~budgetlab.events.schema.parse_scope`) all go through :func:`one_spelling`, so that a value
typed decomposed (``Ko\u0308ln``) is the key read composed (``Köln``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["INVISIBLE_WORDS", "one_spelling"]

#: RE2 class of the characters refused in keys, which print as nothing: control (Cc), line and
#: paragraph separators and Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt,
#: Unicode 15.1): format (Cf: zero-width, bidi controls, BOM, soft hyphen, tags), the grapheme
#: joiner U+034F, Hangul fillers, Khmer inherent vowels, variation selectors, reserved E0000-E0FFF.
_INVISIBLE = (r"[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\x{034F}\x{115F}\x{1160}\x{17B4}\x{17B5}\x{180B}-\x{180F}"
              r"\x{2065}\x{3164}\x{FE00}-\x{FE0F}\x{FFA0}\x{FFF0}-\x{FFF8}\x{E0000}-\x{E0FFF}]")
#: What :data:`_INVISIBLE` matches, in the words of every refusal of it.
INVISIBLE_WORDS = ("invisible characters (zero-width, format, bidirectional, variation selectors, "
                   "fillers or control characters)")
#: Spaces that print as one (no-break, en to hair, narrow, ideographic): in a key, U+0020.
_SPACES = r"[\x{00A0}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}]"


def one_spelling(values: pd.Index) -> tuple[pd.Index, np.ndarray]:
    """``values`` (distinct strings) in one spelling: stripped, NFC, spaces that print as a
    space written U+0020; and which of them hold an invisible character (:data:`_INVISIBLE`).

    >>> names, bad = one_spelling(pd.Index(["Ko\\u0308ln", "Köln ", "fra\\u200b", "a\\xa0b"]))
    >>> names.tolist() == ["Köln", "Köln", "fra\\u200b", "a b"], bad.tolist()
    (True, [False, False, True, False])
    """
    if len(values) == 0:
        return values, np.zeros(0, dtype=bool)
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = pc.utf8_trim_whitespace(pa.array(np.asarray(values, dtype=object), type=pa.string()))
    bad = np.asarray(pc.match_substring_regex(arr, pattern=_INVISIBLE).fill_null(False), bool)
    arr = pc.replace_substring_regex(pc.utf8_normalize(arr, form="NFC"), _SPACES, " ")
    return pd.Index(arr.to_pylist(), dtype="str"), bad
