"""``hysteresis`` and ``silences`` name the columns a table lacks, as ``transitions`` does
(``budget/replay_status.py:lacked_state_columns``); before, both refused without naming them:
"hysteresis() takes the DataFrame returned by budgetlab.replay()." and "silences() takes the
DataFrame returned by budgetlab.status_spans()."

Oracles: the sentences written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, as_events, hysteresis, replay, silences
from budgetlab.errors import InputError

TS = pd.date_range("2026-01-01", periods=4, freq="5min", tz="UTC")


@pytest.fixture
def states() -> pd.DataFrame:
    return replay(as_events(TS, [True, False, True, True]), SLO(target=0.5, window="5min"))


def test_hysteresis_names_the_missing_columns(states):
    with pytest.raises(InputError) as err:
        hysteresis(states.drop(columns="status"), "15min")
    assert str(err.value) == ("hysteresis() takes the DataFrame returned by budgetlab.replay(): "
                              "its status column is missing.")
    with pytest.raises(InputError) as err:
        hysteresis(states[["total"]], "15min")
    assert str(err.value) == ("hysteresis() takes the DataFrame returned by budgetlab.replay(): "
                              "its ts and status columns are missing.")


def test_silences_names_the_missing_columns(states):
    # a replay's states are not spans: they have a status, but neither start nor end
    with pytest.raises(InputError) as err:
        silences(states)
    assert str(err.value) == ("silences() takes the DataFrame returned by "
                              "budgetlab.status_spans(): its start and end columns are missing.")
    with pytest.raises(InputError) as err:
        silences(pd.DataFrame({"total": [1]}))
    assert str(err.value) == ("silences() takes the DataFrame returned by "
                              "budgetlab.status_spans(): its start, end and status columns are "
                              "missing.")
