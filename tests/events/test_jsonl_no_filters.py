"""Stop 60: JSON Lines that Arrow's string reader leaves to pandas (a field that is not a string)
are read without ``warnings.catch_warnings`` (its filters are the whole process's, not safe on
threads): pandas is told to convert neither values nor column names, so it has nothing to warn
about. Column names pandas took for numbers or dates were converted, and the declared columns
were then not found (a bare KeyError). Oracles: the instants and outcomes written below."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from budgetlab import read_events
from tests.filter_callers import filter_callers

UTC = [pd.Timestamp("2026-03-01T10:00:00Z"), pd.Timestamp("2026-03-01T11:00:00Z")]


@pytest.mark.parametrize(("text", "name"), [
    ('{"ts": "2026-03-01T10:00:00Z", "ok": true}\n'
     '{"ts": "2026-03-01T11:00:00Z", "ok": false}\n', "log.jsonl"),
    ('[{"ts": "2026-03-01T10:00:00Z", "ok": true},'
     ' {"ts": "2026-03-01T11:00:00Z", "ok": false}]', "log.json"),
])
def test_json_read_by_pandas_sets_no_warnings_filter(tmp_path, monkeypatch, text, name):
    path = tmp_path / name
    path.write_text(text)
    callers = filter_callers(monkeypatch)
    real = warnings.catch_warnings
    with real():
        warnings.simplefilter("error")  # a warning of pandas' would raise here
        got = read_events(path, ok="ok")
    assert callers == []
    assert got["ts"].tolist() == UTC
    assert got["ok"].tolist() == [True, False]


@pytest.mark.parametrize(("time", "ok"), [("1", "2"), ("2026-01-01", "2026-01-02")])
def test_columns_named_like_numbers_or_dates_are_read_by_their_names(tmp_path, time, ok):
    path = tmp_path / "log.jsonl"
    path.write_text(f'{{"{time}": "2026-03-01T10:00:00Z", "{ok}": true}}\n'
                    f'{{"{time}": "2026-03-01T11:00:00Z", "{ok}": false}}\n')
    got = read_events(path, time=time, ok=ok)
    assert got["ts"].tolist() == UTC
    assert got["ok"].tolist() == [True, False]
