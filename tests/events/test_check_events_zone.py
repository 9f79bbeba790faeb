"""check_events takes UTC times in any unit and refuses another zone with the conversion (api52b).

Before, ``ts`` in Europe/Berlin was accepted and ``replay`` returned Berlin times, against the
table's contract (UTC); the message named only ``datetime64[ns, UTC]`` though s/ms/us pass.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, SchemaError, as_events, check_events, replay

# Four events an hour apart from 2026-03-28 22:00 UTC (Berlin: 23:00 CET, then 00:00, 01:00 CET
# and 03:00 CEST across the spring change); the second fails.
TS = pd.date_range("2026-03-28 22:00", periods=4, freq="1h", tz="UTC")
EVENTS = as_events(ts=TS, ok=[True, False, True, True])


def test_berlin_times_are_refused_with_the_conversion() -> None:
    berlin = EVENTS.assign(ts=EVENTS["ts"].dt.tz_convert("Europe/Berlin"))
    with pytest.raises(SchemaError, match=r"is in Europe/Berlin, not UTC") as err:
        replay(berlin, SLO(target=0.5, window="2h"))
    assert "events.assign(ts=events['ts'].dt.tz_convert('UTC'))" in str(err.value)
    # The fix the message gives: the same instants, in UTC.
    fixed = berlin.assign(ts=berlin["ts"].dt.tz_convert("UTC"))
    states = replay(fixed, SLO(target=0.5, window="2h"))
    assert str(states["ts"].dtype) == "datetime64[ns, UTC]"
    assert states["ts"].iloc[0] == pd.Timestamp("2026-03-28 22:00", tz="UTC")
    # Hand count, 2 h window (an event stays through ts + 2 h inclusive): 22:00 is in at 00:00
    # and gone at 01:00, 23:00 (the failure) is in through 01:00.
    assert states["total"].tolist() == [1, 2, 3, 3]
    assert states["failures"].tolist() == [0, 1, 1, 1]


@pytest.mark.parametrize("unit", ["s", "ms", "us"])
def test_other_units_in_utc_pass_and_the_message_names_them(unit: str) -> None:
    assert check_events(EVENTS.assign(ts=EVENTS["ts"].dt.as_unit(unit))) == []
    naive = EVENTS.assign(ts=EVENTS["ts"].dt.tz_localize(None))
    with pytest.raises(SchemaError, match=r"datetime64 in s, ms, us or ns, UTC"):
        check_events(naive)
