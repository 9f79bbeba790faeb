"""A notebook's refusal of a group column the log lacks names the parameter that gave that
column, not every group parameter: notebook 04 with ``scope_column='captcha_type'`` and
``breakdown_by='region'`` on a log with a region column said "no column 'captcha_type'
(declared in the notebook's parameters scope_column and breakdown_by ...)", though
breakdown_by's column exists."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli.read_flags import read_source
from budgetlab.errors import SchemaError


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "svc.csv"
    pd.DataFrame({"ts": ["2026-10-25T00:00:00Z", "2026-10-25T00:00:08Z"],
                  "method": ["POST", "GET"], "region": ["fra", "iad"],
                  "outcome": ["success", "timeout"]}).to_csv(path, index=False)
    return path


def test_the_refusal_names_only_the_parameter_whose_column_is_missing(log):
    with pytest.raises(SchemaError) as err:
        read_source(str(log), None, by={"scope_column": "captcha_type", "breakdown_by": "region"},
                    show=False)
    said = str(err.value)
    assert said.startswith("svc.csv has no column 'captcha_type' (declared in the notebook's "
                           "parameter scope_column: give the name the file uses).")
    assert "breakdown_by" not in said


def test_the_other_parameters_missing_column_names_that_parameter(log):
    # scope_column's method exists, breakdown_by's zone does not: breakdown_by alone is named
    with pytest.raises(SchemaError) as err:
        read_source(str(log), None, by={"scope_column": "method", "breakdown_by": "zone"},
                    show=False)
    assert str(err.value).startswith("svc.csv has no column 'zone' (declared in the notebook's "
                                     "parameter breakdown_by: ")
