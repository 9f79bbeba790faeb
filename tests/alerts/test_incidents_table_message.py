"""A table given as incidents without the incident columns: the message names the missing column
and the columns the table has (it listed the expected columns as if they were the table's)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, compare_windows, datasets
from budgetlab.errors import SchemaError


def test_missing_incident_column_names_the_columns_present():
    events = datasets.load("demo")
    table = pd.DataFrame({"id": ["D1"], "begin": ["2026-10-07T23:30Z"], "end": ["x"]})
    with pytest.raises(SchemaError) as err:
        compare_windows(events, SLO(target=0.95), ["1h"], incidents=table)
    assert str(err.value) == ("incidents has no column 'incident_id'. Columns present: 'id', "
                              "'begin', 'end'.")
    # a near miss is suggested
    with pytest.raises(SchemaError, match="no column 'start'. Did you mean 'starts'?"):
        compare_windows(events, SLO(target=0.95), ["1h"],
                        incidents=table.rename(columns={"id": "incident_id", "begin": "starts"}))
