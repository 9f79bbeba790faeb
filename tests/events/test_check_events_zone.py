"""check_events takes UTC times in any unit and refuses another zone with the conversion (api52b).

Before, ``ts`` in Europe/Berlin was accepted and ``replay`` returned Berlin times, against the
table's contract (UTC); the message named only ``datetime64[ns, UTC]`` though s/ms/us pass.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pandas as pd
import pytest

from budgetlab import SLO, SchemaError, as_events, check_events, replay, replay_transitions

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


# Zones whose offset is always zero are UTC by definition (tz53; note 52's question, decided):
# each spelling is accepted, and what a function returns is in pandas' UTC, as for UTC itself.
ZERO_OFFSET_ZONES = ["Etc/UTC", zoneinfo.ZoneInfo("UTC"), "Etc/UCT", "Universal", "Zulu", "Etc/GMT",
                     dt.UTC, dt.timezone(dt.timedelta(0)), "+00:00"]


@pytest.mark.parametrize("zone", ZERO_OFFSET_ZONES, ids=str)
def test_zones_always_at_offset_zero_are_utc(zone: object) -> None:
    zoned = EVENTS.assign(ts=EVENTS["ts"].dt.tz_convert(zone))
    assert check_events(zoned) == []
    states = replay(zoned, SLO(target=0.5, window="2h"))
    assert str(states["ts"].dtype) == "datetime64[ns, UTC]"
    # the same hand count as for UTC above
    assert states["total"].tolist() == [1, 2, 3, 3]
    assert states["failures"].tolist() == [0, 1, 1, 1]
    pd.testing.assert_frame_equal(states, replay(EVENTS, SLO(target=0.5, window="2h")))
    moves = replay_transitions(zoned, SLO(target=0.5, window="2h"))
    pd.testing.assert_frame_equal(moves, replay_transitions(EVENTS, SLO(target=0.5, window="2h")))
    made = as_events(ts=zoned["ts"], ok=zoned["ok"])
    assert str(made["ts"].dtype) == "datetime64[ns, UTC]"
    assert made["ts"].tolist() == TS.tolist()


def test_london_is_at_offset_zero_in_winter_only_and_stays_refused() -> None:
    # all four events are in March before the change (offset zero then), yet the zone is not UTC
    london = EVENTS.assign(ts=EVENTS["ts"].dt.tz_convert("Europe/London"))
    with pytest.raises(SchemaError, match=r"is in Europe/London, not UTC") as err:
        check_events(london)
    assert "tz_convert('UTC')" in str(err.value)


def test_dask_takes_the_same_rule() -> None:
    dd = pytest.importorskip("dask.dataframe")
    from budgetlab.dask import replay as dask_replay

    slo = SLO(target=0.5, window="2h")
    zulu = dd.from_pandas(EVENTS.assign(ts=EVENTS["ts"].dt.tz_convert("Zulu")), npartitions=1)
    states = dask_replay(zulu, slo).compute()
    assert states["total"].tolist() == [1, 2, 3, 3]  # the hand count above
    pd.testing.assert_frame_equal(states, dask_replay(dd.from_pandas(EVENTS, npartitions=1),
                                                      slo).compute())
    london = dd.from_pandas(EVENTS.assign(ts=EVENTS["ts"].dt.tz_convert("Europe/London")),
                            npartitions=1)
    with pytest.raises(SchemaError, match=r"tz_convert\('UTC'\)"):
        dask_replay(london, slo)


def test_dask_names_the_zone_in_the_same_words() -> None:
    # the Dask check refused Berlin times without naming the zone; the words are pandas' now
    dd = pytest.importorskip("dask.dataframe")
    import budgetlab.dask as bd

    berlin = EVENTS.assign(ts=EVENTS["ts"].dt.tz_convert("Europe/Berlin"))
    with pytest.raises(SchemaError) as pandas_err:
        replay(berlin, SLO(target=0.5, window="2h"))
    with pytest.raises(SchemaError, match=r"^events\['ts'\] is in Europe/Berlin, not UTC") as err:
        bd.replay(dd.from_pandas(berlin, npartitions=2), SLO(target=0.5, window="2h"))
    assert str(err.value) == str(pandas_err.value)
    # naive times: the reader that parses them is Dask's own
    naive = EVENTS.assign(ts=EVENTS["ts"].dt.tz_localize(None))
    with pytest.raises(SchemaError, match=r"load the data with budgetlab\.dask\.read_events\(\)"):
        bd.replay(dd.from_pandas(naive, npartitions=2), SLO(target=0.5, window="2h"))
