"""The one detector of times written with their offset (events.offsets.has_offset): the event
readers and the incidents file's count of naive times use it (expected values written by hand)."""

import pandas as pd

from budgetlab.alerts.incidents_file import read_incidents
from budgetlab.events.offsets import has_offset

CASES = {  # text -> names its offset
    "2026-01-05T10:00:00Z": True, "2026-01-05T10:00:00z": True,
    "2026-01-05T10:00:00.123456789Z": True, "2026-01-05T10:00:00+01": True,
    "2026-01-05T10:00:00 +01:00": True, "2026-01-05T10+0100": True, "20260108T1030-0500": True,
    "2026-01-05 10:00:00 UTC": True, "2026-01-05T10:00:00": False, "2026-01-05 10:00": False,
    "2026-01-05": False, "2026-01-05T10:00:00.5": False,
}


def test_the_detector_on_hand_cases():
    assert has_offset(pd.Series(list(CASES))).tolist() == list(CASES.values())
    assert has_offset(pd.Series(["2026-01-05T10:00Z", None], dtype=object)).tolist() == [True,
                                                                                          False]


def test_the_incidents_file_counts_naive_times_with_it(tmp_path):
    # the rows the ISO reader accepts: 2 of 5 incidents have a naive start or end
    p = tmp_path / "incidents.csv"
    p.write_text("incident_id,start,end\n"
                 "a,2026-01-05T10:00:00Z,2026-01-05T12:00:00+01\n"  # 11:00 UTC, after its start
                 "b,2026-01-05T10:00:00,2026-01-05T11:00:00Z\n"
                 "c,20260108T1030-0500,2026-01-08T18:00:00.5Z\n"
                 "d,2026-01-06,2026-01-06T10:00:00 +01:00\n"
                 "e,2026-01-07T10+0100,2026-01-07T11:00Z\n")
    assert read_incidents(p).attrs["naive_times"] == 2
