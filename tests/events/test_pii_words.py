"""The personal-data refusals count rows, distinct values and values in the number each count
takes, and the verb and pronoun agree (they wrote "1 row(s) ... (1 distinct values)", "1 of 1
value(s) look ...; replace them"). Expected texts written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab._util.words import cli_words
from budgetlab.errors import PersonalDataError
from budgetlab.privacy import guard_personal_data, guard_values

LOG_FIX = ("personal data must not enter the budget log. Do not declare it, or pass pii='drop' to "
           "drop it or pii='hash' with a salt to keep it as a keyed hash.")


def _column_refusal(values: list[str]) -> str:
    frame = pd.DataFrame({"region": ["fra"] * len(values), "user": values})
    with pytest.raises(PersonalDataError) as info:
        guard_personal_data(frame, ["region", "user"])
    return str(info.value)


def test_a_column_counts_its_rows_and_distinct_values():
    assert _column_refusal(["anna@example.org", "fra-1"]) == (
        "column 'user' looks like personal data (1 row like an e-mail address (1 distinct "
        f"value)); {LOG_FIX}")
    assert _column_refusal(["anna@example.org", "anna@example.org", "boris@example.org"]) == (
        "column 'user' looks like personal data (3 rows like an e-mail address (2 distinct "
        f"values)); {LOG_FIX}")


def _values_refusal(values: list[str], *, cli: bool = False) -> str:
    with pytest.raises(PersonalDataError) as info:
        if cli:
            with cli_words():
                guard_values(values, what="group keys")
        else:
            guard_values(values, what="group keys")
    return str(info.value)


def test_one_value_is_it():
    assert _values_refusal(["anna@example.org"]) == (
        "group keys: the one value looks like personal data (1 like an e-mail address); budgetlab "
        "keeps personal data out of outputs and messages: replace it with an opaque id (or hash "
        "it on load: read_events(..., pii='hash', salt=...)).")
    assert _values_refusal(["fra", "anna@example.org", "ams"], cli=True) == (
        "group keys: 1 of the 3 values looks like personal data (1 like an e-mail address); "
        "budgetlab keeps personal data out of outputs and messages: replace it with an opaque id "
        "(or hash it on load: --pii hash --salt S).")


def test_several_values_are_them():
    assert _values_refusal(["fra", "anna@example.org", "boris@example.org"]) == (
        "group keys: 2 of the 3 values look like personal data (2 like an e-mail address); "
        "budgetlab keeps personal data out of outputs and messages: replace them with opaque ids "
        "(or hash them on load: read_events(..., pii='hash', salt=...)).")
