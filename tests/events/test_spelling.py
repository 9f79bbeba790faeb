"""Issue 29 point 6: one spelling of a key. NFC on reading (oracle: unicodedata per row); invisible,
format, bidirectional and control characters in keys refused with the row count."""

from __future__ import annotations

import unicodedata

import numpy as np
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.errors import InputError

COMPOSED, DECOMPOSED = "K\u00f6ln", "Ko\u0308ln"


def frame(keys: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=len(keys), freq="min", tz="UTC"),
                         "outcome": ["success"] * len(keys), "city": keys})


def test_nfc_and_nfd_spellings_are_one_group(tmp_path):
    rng = np.random.default_rng(29)
    keys = [str(k) for k in rng.choice([COMPOSED, DECOMPOSED, "Mu\u0308nchen", "fra"], size=500)]
    ev = read_events(frame(keys), by="city")
    oracle = pd.Series([unicodedata.normalize("NFC", k) for k in keys]).value_counts().to_dict()
    assert ev["city"].astype(str).value_counts().to_dict() == oracle
    assert len(ev["city"].cat.categories) == 3
    path = tmp_path / "log.csv"
    frame(keys).to_csv(path, index=False)
    assert read_events(path, by="city")["city"].astype(str).value_counts().to_dict() == oracle


@pytest.mark.parametrize("mark", ["\u200b", "\u200d", "\u200f", "\u202e", "\u2066", "\ufeff",
                                  "\u00ad", "\x07"])
def test_invisible_characters_in_keys_are_refused_with_the_row_count(mark):
    keys = ["fra", "fra", f"fra{mark}", "ams", f"{mark}ams"]
    with pytest.raises(InputError) as info:
        read_events(frame(keys), by="city")
    text = str(info.value)
    assert "invisible characters" in text and "rows 3, 5" in text and "(2 rows)" in text
    assert mark not in text
