"""Both readers list refused outcome labels in one order, the order met (file after file, row
after row: the order of one file or DataFrame), and refuse the same Parquet files in the same
words; the Dask reader names the first partition that refuses, whichever a worker read first.
Expected texts written by hand from the files."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import OutcomeError

#: Two files: 'zeta' is met before 'alpha', 'mango' before 'beta' (sorted: alpha, beta, mango,
#: zeta). The first file is the larger, so a worker may finish the second first.
FILES = {"a.parquet": ["success", "zeta", "alpha", "zeta"] + ["success"] * 2000,
         "b.parquet": ["mango", "success", "beta"]}
UNKNOWN = ("unknown outcome labels (the built-in vocabulary does not know them, and budgetlab "
           "gives no label a meaning it cannot know): ")


def _write(folder):
    paths = []
    for name, labels in FILES.items():
        path = folder / name
        pd.DataFrame({"ts": ["2026-11-29T01:00:00Z"] * len(labels), "outcome": labels}
                     ).to_parquet(path)
        paths.append(path)
    return paths


def _refusal(read, source) -> str:
    with pytest.raises(OutcomeError) as err:
        events = read(source)
        events.compute()  # a Dask table (the refusal comes before: nothing is computed)
    return str(err.value)


def test_unknown_labels_are_listed_in_the_order_met_by_both_readers(tmp_path):
    first, second = _write(tmp_path)
    one = ("2 " + UNKNOWN + "'zeta' (2), 'alpha' (1). Say what each means: "
           "outcomes={'success': 'success', 'zeta': '?', 'alpha': '?'}.")
    assert _refusal(read_events, first) == one
    assert _refusal(read_events, pd.read_parquet(first)) == one
    # several files: one table, its labels in the order met, not sorted
    assert _refusal(read_events, [first, second]) == (
        "4 " + UNKNOWN + "'zeta' (2), 'alpha' (1), 'mango' (1), 'beta' (1). Say what each "
        "means: outcomes={'success': 'success', 'zeta': '?', 'alpha': '?', 'mango': '?', "
        "'beta': '?'}.")
    # the Dask reader refuses partition by partition (row counts within it), the same words
    prefix = "partition 0 of the Dask frame (rows counted within it): "
    assert _refusal(dask_read_events, first) == prefix + one
    for _ in range(5):  # always partition 0, though a worker may finish partition 1 first
        assert _refusal(dask_read_events, [first, second]) == prefix + one
