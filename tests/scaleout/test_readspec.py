"""Issue 29 point 1: the Dask twin takes the same ReadSpec as budgetlab.read_events."""

from __future__ import annotations

import linecache
import warnings
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest

from budgetlab import ReadSpec, read_events
from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import (
    ConfigError,
    InputError,
    OutcomeError,
    PersonalDataError,
    TimestampError,
)

RAW = pd.DataFrame({"ts": [f"2026-11-29T0{h}:00:00Z" for h in range(6)],
                    "outcome": ["success", "timeout", "success", "success", "failed", "success"],
                    "region": ["fra", "ams", "fra", "ams", "fra", "fra"],
                    "client": ["web", "app", "web", "web", "app", "web"]})


def test_the_same_spec_reads_the_same_events():
    spec = ReadSpec(by=["region", "client"], not_personal=["client"])
    want = read_events(RAW, spec)
    got = dask_read_events(dd.from_pandas(RAW, npartitions=2, sort=False), spec).compute()
    got = got.sort_values("ts", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(got[want.columns].astype({"region": "str", "client": "str"}),
                                  want.astype({"region": "str", "client": "str"}))


def test_keywords_override_the_spec_and_the_name_rule_holds():
    spec = ReadSpec(by=["region", "client"], not_personal=["client"])
    with pytest.raises(PersonalDataError, match="named like personal data"):
        dask_read_events(dd.from_pandas(RAW, npartitions=2, sort=False), spec,
                         not_personal=[]).compute()
    # the spec's preset (which fills its pattern) is named as the user gave it
    with pytest.raises(InputError, match="preset= is for budgetlab.read_events"):
        dask_read_events(dd.from_pandas(RAW, npartitions=1), ReadSpec(preset="sshd", year=2015))


LINES_ONLY = ("goes with pattern= (or preset=): it says what becomes of the lines the pattern "
              "does not match.")


@pytest.mark.parametrize("reader", ["pandas", "dask"])
def test_on_error_is_the_one_spelling_and_strict_warns_in_both_readers(reader):
    # read_events on a table: on_error= other than "count" goes with pattern=, strict=True is its
    # deprecated spelling (FutureWarning); the Dask twin says the same words
    def read(**options):
        if reader == "pandas":
            return read_events(RAW, **options)
        return dask_read_events(dd.from_pandas(RAW, npartitions=2, sort=False),
                                **options).compute()

    assert len(read(on_error="count")) == len(read(strict=False)) == 6
    with pytest.warns(FutureWarning, match=r"strict=True is deprecated and will be removed; pass "
                                           r"on_error='raise' \(the same rule\)\.") as warned, \
            pytest.raises(ConfigError) as info:
        read(strict=True)
    assert str(info.value) == f"strict=True (on_error='raise') {LINES_ONLY}"
    # the warning points at the caller's line (read() above), not into budgetlab or dataclasses
    assert [Path(w.filename) for w in warned] == [Path(__file__)]
    called = linecache.getline(__file__, warned[0].lineno).strip()
    assert called.startswith("return read_events(RAW" if reader == "pandas" else
                             "return dask_read_events(dd.from_pandas")
    for on_error in ("raise", "skip"):
        with pytest.raises(ConfigError) as info:
            read(on_error=on_error)
        assert str(info.value) == f"on_error= {LINES_ONLY}"


@pytest.mark.parametrize("first", ["zoned", "naive"])
def test_partitions_mixing_zoned_and_naive_times_are_refused_like_files(tmp_path, first):
    # two files, one with offsets, one without: budgetlab.read_events refuses them (mixed naive
    # and zone-aware); the Dask twin read each partition on its own and combined 10:00Z with
    # 11:00 Berlin (10:00Z) silently
    zoned = pd.DataFrame({"ts": ["2026-01-01T10:00:00Z", "2026-01-01T10:30:00Z"],
                          "outcome": ["success", "timeout"]})
    naive = pd.DataFrame({"ts": ["2026-01-01 11:00:00", "2026-01-01 11:30:00"],
                          "outcome": ["success", "success"]})
    parts = [zoned, naive] if first == "zoned" else [naive, zoned]
    for n, part in enumerate(parts):
        part.to_csv(tmp_path / f"{n}.csv", index=False)
    with pytest.raises(TimestampError, match="mixed naive and zone-aware"):
        read_events([tmp_path / "0.csv", tmp_path / "1.csv"], tz="Europe/Berlin")
    raw = dd.read_csv(str(tmp_path / "*.csv"), dtype=str)
    assert raw.npartitions == 2
    with pytest.raises(TimestampError, match=r"mixed naive and zone-aware timestamps: partition "
                                             r"0 .* but partition 1 "):
        dask_read_events(raw, tz="Europe/Berlin")
    # one form in every partition is read as before
    got = dask_read_events(dd.from_pandas(pd.concat([zoned, zoned]), npartitions=2,
                                          sort=False)).compute()
    assert got["ts"].dt.strftime("%H:%M").tolist() == ["10:00", "10:30"] * 2


def _failures_only(tmp_path, outcome):
    """Two Parquet files (two partitions), no success in either."""
    folder = tmp_path / "log"
    folder.mkdir()
    for i, part in enumerate((outcome[:2], outcome[2:])):
        pd.DataFrame({"ts": [f"2026-11-29T0{i}:0{j}:00Z" for j in range(len(part))],
                      "outcome": part}).to_parquet(folder / f"part{i}.parquet")
    return folder


NO_SUCCESS = {
    "labels": ("no outcome label is a success under the built-in vocabulary (every row would be a "
               "failure); check outcome= names the outcome column, or, if no attempt succeeded, "
               "say so with an explicit mapping: outcomes={'timeout': 'timeout', "
               "'solve_error': 'solve_error'}."),  # in the order met, as one file lists them
    "flags": ("no row of the outcome column is a success (every value is false); check "
              "outcome=, or, if no attempt succeeded, say so with outcomes={'false': 'failure'}."),
}


@pytest.mark.parametrize("kind, outcome", [
    ("labels", ["timeout", "solve_error", "timeout"]), ("flags", [False, False, False])])
def test_a_parquet_log_without_any_success_is_refused_in_the_pandas_words(tmp_path, kind,
                                                                          outcome):
    folder = _failures_only(tmp_path, outcome)
    files = sorted(folder.glob("*.parquet"))
    for source in (folder, files):
        with pytest.raises(OutcomeError) as pandas_err:
            read_events(files)
        with pytest.raises(OutcomeError) as dask_err:
            dask_read_events(source)
        assert str(dask_err.value) == str(pandas_err.value) == NO_SUCCESS[kind]
    with pytest.raises(OutcomeError) as pandas_err:  # one file: its labels in their order
        read_events(files[0])
    with pytest.raises(OutcomeError) as dask_err:
        dask_read_events(files[0])
    assert str(dask_err.value) == str(pandas_err.value)
    # said so with outcomes=: read, as by pandas
    said = {"timeout": "timeout", "solve_error": "solve_error"} if kind == "labels" else \
        {"false": "failure"}
    assert len(dask_read_events(folder, outcomes=said).compute()) == len(read_events(
        files, outcomes=said)) == 3


def test_one_partition_of_failures_only_or_a_frame_of_failures_is_read(tmp_path):
    """The rule is over the whole log: a partition (a slice) may hold failures only, and a
    DataFrame is a slice of a log (pandas reads one without a success too)."""
    folder = _failures_only(tmp_path, ["timeout", "solve_error", "success"])
    assert dask_read_events(folder).compute()["ok"].tolist() == [False, False, True]
    raw = pd.DataFrame({"ts": ["2026-11-29T00:00:00Z"], "outcome": ["timeout"]})
    assert dask_read_events(dd.from_pandas(raw, npartitions=1)).compute()["ok"].tolist() == [False]


def test_reading_parquet_warns_nothing_at_compute(tmp_path):
    # Dask's Parquet reader calls reset_index(inplace=True) on files without a stored index (as
    # most tools write them), deprecated by pandas 3.1: its Pandas4Warning (a DeprecationWarning)
    # reached the user's .compute(). With every warning an error, two files (two partitions)
    # read to the 6 events of RAW: 4 successes, the ams timeout at 01:00 and the fra 'failed' at
    # 04:00, each file sorted by time
    RAW.iloc[:3].to_parquet(tmp_path / "a.parquet", index=False)
    RAW.iloc[3:].to_parquet(tmp_path / "b.parquet", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = dask_read_events(str(tmp_path / "*.parquet"), by=["region"]).compute()
    assert got["ok"].tolist() == [True, False, True, True, False, True]
    assert got["bucket"].astype(str).tolist() == ["success", "timeout", "success", "success",
                                                  "failure", "success"]
    assert got["region"].astype(str).tolist() == ["fra", "ams", "fra", "ams", "fra", "fra"]


TEXT_ONLY = ("{name}= is not supported by budgetlab.dask.read_events, which reads Parquet files "
             "or a Dask DataFrame; {name}= is for budgetlab.read_events.")
DURATIONS = ("{name}= is not supported by budgetlab.dask.read_events, which does not read request "
             "durations: use budgetlab.read_events for duration=, duration_unit= and slow_above=, "
             "or pass a Dask DataFrame with an ok column you computed (a success within your "
             "threshold) and ok= naming it.")


@pytest.mark.parametrize(("options", "words"), [
    ({"pattern": "x"}, TEXT_ONLY.format(name="pattern")),  # no named group: ConfigError before
    ({"pattern": r"^(?P<ts>\S+) (?P<outcome>\S+)"}, TEXT_ONLY.format(name="pattern")),
    ({"format": "csv"}, TEXT_ONLY.format(name="format")),
    # a preset fills pattern=: the refusal names the keyword the user gave (it said pattern=)
    ({"preset": "access"}, TEXT_ONLY.format(name="preset")),
    ({"preset": "sshd", "year": 2015}, TEXT_ONLY.format(name="preset")),
    ({"encoding": "latin-1"}, TEXT_ONLY.format(name="encoding")),
    ({"slow_above": "2s"}, DURATIONS.format(name="slow_above")),  # alone: ConfigError before
    ({"duration_unit": "s"}, DURATIONS.format(name="duration_unit")),  # alone: ConfigError before
    ({"duration": "client"}, DURATIONS.format(name="duration")),
    ({"duration": "client", "slow_above": "2s"}, DURATIONS.format(name="duration")),
])
def test_options_the_dask_reader_does_not_take_are_refused_first_whatever_their_value(
        options, words):
    with pytest.raises(InputError) as err:
        dask_read_events(dd.from_pandas(RAW, npartitions=2, sort=False), **options)
    assert type(err.value) is InputError
    assert str(err.value) == words
