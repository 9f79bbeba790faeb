"""One spelling of a key: group-key values are Unicode-normalised (NFC) when read, and values
holding invisible characters (format characters such as zero-width spaces and joiners,
bidirectional marks, embeddings and isolates, control characters, line and paragraph separators)
are refused: ``Köln`` written composed or decomposed is one group, and no two groups print the same.
The checks run on the distinct values (Arrow's ``utf8_normalize`` and RE2), never per row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["one_spelling", "INVISIBLE"]

#: RE2 class of the characters refused in keys: format (Cf: zero-width, bidi controls, BOM, soft hyphen),
#: control (Cc), line and paragraph separators.
INVISIBLE = r"[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]"


def one_spelling(values: pd.Index) -> tuple[pd.Index, np.ndarray]:
    """``values`` (distinct strings) in NFC, and which of them hold an invisible character.

    >>> names, bad = one_spelling(pd.Index(["Ko\\u0308ln", "Köln", "fra\\u200b", "ams\\u200f"]))
    >>> list(names[:2]) == ["Köln", "Köln"], bad.tolist()
    (True, [False, False, True, True])
    """
    if len(values) == 0:
        return values, np.zeros(0, dtype=bool)
    arr = pa.array(np.asarray(values, dtype=object), type=pa.string())
    bad = np.asarray(pc.match_substring_regex(arr, pattern=INVISIBLE).fill_null(False), dtype=bool)
    nfc = pc.utf8_normalize(arr, form="NFC")
    return pd.Index(nfc.to_pylist(), dtype="str"), bad
