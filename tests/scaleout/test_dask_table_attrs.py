"""budgetlab.dask.transitions gives the table of budgetlab.transitions with its attrs (the SLO,
the group keys and the span of the events), from full or lean states, and
budgetlab.dask.read_events says why it refuses the latency options.

Oracle: the pandas functions on the same rows (budgetlab.transitions / replay /
read_events; docs/dask.md promises their results, attrs included), compared with
tests/same_frames.assert_same (frames exactly, and attrs).
"""

from __future__ import annotations

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.errors import InputError
from tests.same_frames import assert_same

pytestmark = pytest.mark.dask

T0 = pd.Timestamp("2026-03-01", tz="UTC")
SLO = bl.SLO(target=0.95, window="30min", min_events=3)


def events(n=900, seed=11):
    """Three regions with failures, and 'calm' (never a failure) holding the first and the last
    event: the span of the events is not the span of the changes."""
    rng = np.random.default_rng(seed)
    t = T0 + pd.Timedelta("1min") + pd.to_timedelta(np.cumsum(rng.choice([0, 1, 30, 120],
                                                                         size=n)), unit="s")
    region = rng.choice(["fra", "ams", "waw"], size=n)
    ok = rng.random(n) >= 0.08
    calm = pd.DatetimeIndex([T0, t[-1] + pd.Timedelta("1h")])
    ts = pd.DatetimeIndex(t).append(calm)
    return bl.as_events(ts, np.append(ok, [True, True]),
                        groups={"region": np.append(region, ["calm", "calm"])})


def test_dask_transitions_carry_the_attrs_of_pandas():
    ev = events()
    ddf = dd.from_pandas(ev, npartitions=3, sort=False)
    got = bd.transitions(bd.replay(ddf, SLO, by="region"))
    want = bl.transitions(bl.replay(ev, SLO, by="region"))
    assert len(want) > 5
    assert_same(got, want)
    assert bl.table_slo(got) == SLO  # it was {}: table_slo said None
    assert got.attrs["start"] == "2026-03-01T00:00:00+00:00"  # the calm group's events
    assert got.attrs["end"] == ev["ts"].max().isoformat()
    # no events at all: no changes, no span
    empty = dd.from_pandas(ev.iloc[:0], npartitions=1, sort=False)
    none = bd.transitions(bd.replay(empty, SLO, by="region"))
    assert_same(none, bl.transitions(bl.replay(ev.iloc[:0], SLO, by="region")))


@pytest.mark.parametrize("slo", [SLO, bl.PerGroup({"fra": bl.SLO(0.97, window="1h")},
                                                  default=SLO)], ids=["one", "per-group"])
def test_dask_transitions_take_lean_states_as_pandas_does(slo):
    ev = events()
    ddf = dd.from_pandas(ev, npartitions=3, sort=False)
    lean = ["total", "failures", "status"]
    got = bd.transitions(bd.replay(ddf, slo, by="region", columns=lean))
    want = bl.transitions(bl.replay(ev, slo, by="region"))
    assert_same(got, want)
    assert_same(got, bl.transitions(bl.replay(ev, slo, by="region", columns=lean)))


def test_dask_transitions_refuse_lean_states_without_the_counts():
    ddf = dd.from_pandas(events(), npartitions=2, sort=False)
    states = bd.replay(ddf, SLO, by="region", columns=["total", "status"])
    with pytest.raises(InputError, match=r"or total and failures .*columns= naming total, "
                                         r"failures and status"):
        bd.transitions(states)


def raw_log() -> pd.DataFrame:
    return pd.DataFrame({"ts": ["2026-03-01T00:00:00Z", "2026-03-01T00:01:00Z",
                                "2026-03-01T00:02:00Z", "2026-03-01T00:03:00Z"],
                         "outcome": ["ok", "ok", "error", "ok"],
                         "duration_ms": [120, 2600, 80, 900]})


@pytest.mark.parametrize("options", [{"duration": "duration_ms", "duration_unit": "ms"},
                                     {"duration": "duration_ms", "duration_unit": "ms",
                                      "slow_above": "2s"}])
def test_dask_reader_names_the_latency_options_it_does_not_take(options):
    raw = raw_log()
    with pytest.raises(InputError, match=r"^duration= is not supported by budgetlab\.dask\."
                                         r"read_events, which does not read request durations"
                                         r".*budgetlab\.read_events.*ok="):
        bd.read_events(dd.from_pandas(raw, npartitions=2, sort=False), **options)
    # the fix it names: an ok column computed by the user (a success within 2 s), ok= naming it
    good = raw.assign(good=(raw["outcome"] == "ok") & (raw["duration_ms"] <= 2000))
    got = bd.read_events(dd.from_pandas(good, npartitions=2, sort=False), ok="good").compute()
    want = bl.read_events(raw, duration="duration_ms", duration_unit="ms", slow_above="2s")
    assert got["ok"].tolist() == want["ok"].tolist() == [True, False, False, True]
