"""A column named twice in ``by=``, ``keep=`` or ``not_personal=`` is refused in one English
sentence that says which column and what to do, in the words of whoever gave it: the API's
keyword, or the notebook's parameters that named it. The notebook read "the notebook's
parameters scope_column and breakdown_by names a column twice; list each once" (its subject
plural, its verb singular, the column unnamed)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import ReadSpec
from budgetlab.cli.read_flags import read_source
from budgetlab.errors import ConfigError


@pytest.mark.parametrize(("given", "said"), [
    ({"by": ["region", "region"]}, "the column 'region' appears twice in by=; name each column "
                                   "once."),
    ({"keep": ["a", "b", "a"]}, "the column 'a' appears twice in keep=; name each column once."),
])
def test_the_api_names_the_column_and_its_keyword(given, said):
    with pytest.raises(ConfigError) as caught:
        ReadSpec(**given)
    assert str(caught.value) == said


def test_a_notebook_names_the_column_and_its_parameters(tmp_path):
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01 00:00:00", "2026-01-01 00:01:00"],
                  "outcome": ["success", "timeout"], "region": ["eu", "us"]}).to_csv(log,
                                                                                   index=False)
    with pytest.raises(ConfigError) as caught:
        read_source(str(log), by={"scope_column": "region", "breakdown_by": "region"})
    assert str(caught.value) == ("the column 'region' appears twice in the notebook's parameters "
                                 "scope_column and breakdown_by; name each column once.")
