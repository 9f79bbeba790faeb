"""A group key named like a column the result writes itself (``status``, ``burn_rate``, ``start``)
is refused: the replay and the spans would write their own column over it and lose the groups
without a word (an access log read ``--by status`` failed with "internal error (ValueError)")."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.cli import main
from budgetlab.errors import ConfigError

WHY = ("has the name of a column the result writes itself, which would hide the key: rename that "
       "column of the events first (an access log's status: group by status_class).")
APACHE = Path(__file__).resolve().parents[1] / "fixtures" / "elastic_apache" / "apache_logs"


def _events(key: str) -> pd.DataFrame:
    ts = pd.date_range("2026-01-01", periods=10, freq="1min", tz="UTC")
    return bl.as_events(ts, [True] * 10, groups={key: ["a", "b"] * 5})


@pytest.mark.parametrize("key", ["status", "burn_rate", "total"])
def test_replay_refuses_a_key_named_like_its_columns(key):
    with pytest.raises(ConfigError) as err:
        bl.replay(_events(key), bl.SLO(0.9, window="1h"), by=key)
    assert str(err.value) == f"the group key {key!r} {WHY}"


@pytest.mark.parametrize("key", ["status", "start", "end"])
def test_status_spans_refuses_a_key_named_like_its_columns(key):
    with pytest.raises(ConfigError) as err:
        bl.status_spans(_events(key), bl.SLO(0.9, window="1h"), by=key)
    assert str(err.value) == f"the group key {key!r} {WHY}"


def test_other_keys_are_kept():
    out = bl.replay(_events("region"), bl.SLO(0.9, window="1h"), by="region")
    assert out["region"].astype(str).tolist() == ["a", "b"] * 5


def test_the_access_log_by_status_is_one_line_and_exit_2(capsys):
    assert main(["replay", str(APACHE), "--by", "status"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"budgetlab: error: the group key 'status' {WHY}"
