"""Both readers list refused outcome labels in one order, the order met (file after file, row
after row: the order of one file or DataFrame), and refuse the same Parquet files in the same
words: the Dask reader lists the labels of every partition with their rows, as the pandas one
lists those of several files, whichever partition a worker read first. A refusal that names rows
names the partition and counts rows within it. Expected texts written by hand from the inputs."""

from __future__ import annotations

import dask.dataframe as dd
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
    # the Dask reader: the labels of every partition, in the same words, in the order met
    # though a worker may finish partition 1 first
    assert _refusal(dask_read_events, first) == one
    for _ in range(5):
        assert _refusal(dask_read_events, [first, second]) == (
            "4 " + UNKNOWN + "'zeta' (2), 'alpha' (1), 'mango' (1), 'beta' (1). Say what each "
            "means: outcomes={'success': 'success', 'zeta': '?', 'alpha': '?', 'mango': '?', "
            "'beta': '?'}.")


def _partitions(*parts):
    labels = [label for part in parts for label in part]
    raw = pd.DataFrame({"ts": ["2026-11-29T01:00:00Z"] * len(labels), "outcome": labels})
    # one partition per part: from_pandas cuts at these index values
    cuts = [0]
    for part in parts:
        cuts.append(cuts[-1] + len(part))
    frame = dd.from_pandas(raw, npartitions=1, sort=True).repartition(
        divisions=[*cuts[:-1], cuts[-1] - 1])
    assert frame.npartitions == len(parts)
    return frame


def test_refused_labels_in_different_partitions_are_listed_together():
    # 'Timeout ' and 'timeout' are one label; 'weird' sits in partitions 0 and 2, 'odd' in 1
    frame = _partitions(["success", "weird", "weird"], ["odd", "timeout"],
                        ["Timeout ", "weird", "success"])
    want = ("2 " + UNKNOWN + "'weird' (3), 'odd' (1). Say what each means: outcomes={'success': "
            "'success', 'timeout': 'timeout', 'weird': '?', 'odd': '?'}.")
    assert _refusal(dask_read_events, frame) == want
    assert _refusal(read_events, frame.compute()) == want  # the same table in one piece
    # with a mapping: what it does not list, from every partition
    assert _refusal(lambda f: dask_read_events(f, outcomes={"success": "success",
                                                             "weird": "skip"}), frame) == (
        "2 unknown outcome labels (outcomes= does not list them): 'odd' (1), 'timeout' (2). Say "
        "what each means: outcomes={'success': 'success', 'weird': 'skip', 'odd': '?', "
        "'timeout': '?'}.")


def test_numeric_labels_in_different_partitions_are_counted_together():
    frame = _partitions(["200", "503"], ["200", "200"], ["503", "404"])
    assert _refusal(dask_read_events, frame).startswith(
        "outcome labels look like numeric codes: '200' (3), '503' (2), '404' (1); say which are "
        "successes with outcomes=")


def test_a_refusal_that_names_rows_names_the_partition():
    # an empty label is row 2 of partition 1 (rows counted within it); the unknown 'odd' of
    # partition 0 waits for the labels as a whole, which are never classified
    frame = _partitions(["success", "odd"], ["success", ""])
    assert _refusal(dask_read_events, frame) == (
        "partition 1 of the Dask frame (rows counted within it): 1 empty or missing outcome label "
        "at row 2 (1-based); fill or drop those rows.")
