"""The Dask reader names hive files (date=.../part.parquet) as budgetlab.read_events does: by the
shortest ending of their path that is their own."""

from __future__ import annotations

from budgetlab import how_read
from budgetlab.dask import read_events as dask_read_events
from tests.hive_files import WANT, hand_hive


def test_a_hive_folder_names_its_files_by_their_folders(tmp_path):
    hive = hand_hive(tmp_path)
    for source in (hive, str(hive / "*" / "part.parquet")):
        events = dask_read_events(source)
        assert events.attrs["how_read"]["files"] == WANT
        assert str(how_read(events)).splitlines()[0] == (
            "how it was read: 3 files: date=2026-01-01/part.parquet, "
            "date=2026-01-02/part.parquet, date=2026-01-03/part.parquet (6 rows)")


def test_a_skipped_hive_file_is_named_by_its_folder(tmp_path):
    hive = hand_hive(tmp_path)
    events = dask_read_events(hive, filters=[("outcome", "==", "success"),
                                             ("ts", "<", "2026-01-03")])
    assert events.attrs["how_read"]["notes"] == [
        "date=2026-01-03/part.parquet: no rows kept by filters=, skipped"]
