"""budgetlab.dask equals the pandas path, on a distributed.LocalCluster with 2 worker processes.

Oracle: the pandas functions (budgetlab.read_events / bins.bin_events / replay / transitions) on
the same rows, in file order; they are checked against the seed tracker and hand-computed cases
elsewhere. Data: the 4-week sample (budgetlab.datasets "outcomes_4w", 3.0 M events) written as
a raw log split into daily hive files ``date=YYYY-MM-DD/part.parquet``. read_events and
bin_events are compared on all 28 days; replay/transitions on the first 7 days (0.75 M events,
incidents I01 and I02), to keep CI time modest.
"""

from __future__ import annotations

from pathlib import Path

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.budget.burn import burn_rates
from budgetlab.errors import (
    ConfigError,
    DatasetError,
    FileFormatError,
    InputError,
    OutcomeError,
    PersonalDataError,
    SchemaError,
)
from budgetlab.windows.binning import bin_events as pd_bin_events

# xdist_group: with -n, one worker runs the tests that start a Dask cluster
pytestmark = [pytest.mark.dask, pytest.mark.xdist_group("dask_cluster")]

KEYS = ["captcha_type", "region", "sitekey"]
GROUPS = ["region", "sitekey"]
FIRST_WEEK_END = "2026-10-11"  # the replay subset: 2026-10-05 .. 2026-10-11


# ---------------------------------------------------------------------------------------------
# fixtures: one cluster, one split of the sample, the pandas references
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client():
    """A LocalCluster and its Client for this module, closed at its end (no cluster outlives
    the module: tests/leaks.py)."""
    with (LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="2GiB",
                      dashboard_address=":0") as cluster,
          Client(cluster) as c):
        yield c


def _sample() -> pd.DataFrame:
    try:
        return bl.datasets.load("outcomes_4w")
    except DatasetError:  # data/ not generated in this checkout: the same table from its preset
        return bl.synth.generate_preset("outcomes_4w")[0]


def write_hive(raw: pd.DataFrame, root: Path, column: str, values: pd.Series) -> list[Path]:
    """One Parquet file per distinct value, ``root/<column>=<value>/part.parquet``, rows in
    order."""
    paths = []
    for value, part in raw.groupby(values.to_numpy(), sort=True):
        folder = root / f"{column}={value}"
        folder.mkdir(parents=True)
        part.to_parquet(folder / "part.parquet", index=False)
        paths.append(folder / "part.parquet")
    return paths


def assert_identical(got: pd.DataFrame, want: pd.DataFrame, *, attrs: bool = True) -> None:
    """Exact equality: columns, dtypes (category order included), index, bit-identical values,
    and ``attrs`` (what the table says it was computed with) unless ``attrs=False``: for a
    computed Dask event table, which keeps no ``how_read`` (docs/dask.md; the ``how_read`` of
    ``budgetlab.dask.read_events`` is compared in test_how_read_dask.py).

    (pandas' assert_frame_equal takes minutes on millions of categorical rows, and compares
    floats with a tolerance.)
    """
    if attrs:
        assert got.attrs == want.attrs
    assert list(got.columns) == list(want.columns)
    assert got.index.equals(want.index) and got.index.dtype == want.index.dtype
    for col in want.columns:
        a, b = got[col], want[col]
        assert a.dtype == b.dtype, col
        if isinstance(b.dtype, pd.CategoricalDtype):
            assert (
                list(a.cat.categories) == list(b.cat.categories) and a.cat.ordered == b.cat.ordered
            ), col
            x, y = a.cat.codes.to_numpy(), b.cat.codes.to_numpy()
        elif isinstance(b.dtype, pd.DatetimeTZDtype):
            x, y = a.array.asi8, b.array.asi8
        elif b.dtype.kind == "f":
            x, y = a.to_numpy().view(np.int64), b.to_numpy().view(np.int64)
        elif b.dtype.kind in "biu":
            x, y = a.to_numpy(), b.to_numpy()
        else:  # text
            x, y = a.to_numpy(dtype=object, na_value=None), b.to_numpy(dtype=object, na_value=None)
        assert np.array_equal(x, y), col


@pytest.fixture(scope="module")
def raw_log() -> pd.DataFrame:
    """The sample as a raw outcome log: labels as text, one key as text, two as categoricals.

    Two twists the loader must absorb identically on both paths: a failure label that occurs on
    one day only (its bucket must exist in every partition), and blanks around some text keys.
    """
    s = _sample()
    outcome = s["bucket"].astype(str).to_numpy(dtype=object)
    ts = s["ts"]
    rare = (ts >= pd.Timestamp("2026-10-20 02:00",
                               tz="UTC")) & (ts < pd.Timestamp("2026-10-20 03:00", tz="UTC"))
    # issue 14: a vocabulary word -> 'failure'
    outcome[(rare & (s["bucket"] == "solve_error")).to_numpy()] = "error"

    ctype = s["captcha_type"].astype(str).to_numpy(dtype=object)
    padded = (ts.dt.day == 7).to_numpy()
    ctype[padded] = ctype[padded] + " "
    return pd.DataFrame({"ts": ts, "outcome": outcome, "captcha_type": ctype, "region": s["region"],
                         "sitekey": s["sitekey"]})


@pytest.fixture(scope="module")
def daily_dir(raw_log, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("daily")
    paths = write_hive(raw_log, root, "date", raw_log["ts"].dt.strftime("%Y-%m-%d"))
    assert len(paths) == 28
    return root


@pytest.fixture(scope="module")
def events_pd(raw_log) -> pd.DataFrame:
    return bl.read_events(raw_log, by=KEYS)


@pytest.fixture(scope="module")
def events_dd(client, daily_dir):
    ev = bd.read_events(daily_dir, by=KEYS)
    return ev.persist()


@pytest.fixture(scope="module")
def week(client, daily_dir, raw_log):
    """(dask events, pandas events) of the first 7 days, read with a hive-partition filter."""
    ev = bd.read_events(daily_dir, by=KEYS, filters=[("date", "<=", FIRST_WEEK_END)]).persist()
    cut = raw_log["ts"] < pd.Timestamp(FIRST_WEEK_END, tz="UTC") + pd.Timedelta(days=1)
    return ev, bl.read_events(raw_log[cut], by=KEYS)


# ---------------------------------------------------------------------------------------------
# equality with pandas on the 4-week sample
# ---------------------------------------------------------------------------------------------
def test_read_events_daily_parquet_equals_pandas(client, daily_dir, events_pd):
    ev = bd.read_events(daily_dir, by=KEYS)
    assert ev.npartitions == 28
    for col in ("bucket", *KEYS):  # known categories: every partition has the same dtype
        assert ev[col].cat.known
    # the rare label exists in every partition's dtype, the padded key is stripped everywhere
    assert list(ev["bucket"].dtype.categories) == ["success", "timeout", "solve_error", "failure"]
    first = ev.partitions[0].compute()
    assert first["bucket"].dtype == events_pd["bucket"].dtype
    assert first["captcha_type"].dtype == events_pd["captcha_type"].dtype
    got = ev.compute()
    # per-partition order is the pandas order here: daily files in path order, sorted inside
    assert_identical(got.reset_index(drop=True), events_pd, attrs=False)


@pytest.mark.parametrize(
    "options",
    [
        {"freq": "1min", "by": GROUPS},
        {"freq": "1min", "by": KEYS, "exclude_buckets": "timeout",
         "exclude_windows": [("2026-10-06 13:20", "2026-10-06 13:35")], "exclude_mode": "good"},
        # start not on the grid, end past the data (empty trailing bins), ungrouped
        {"freq": "5min", "start": "2026-10-10 07:03:30", "end": "2026-11-03 00:00",
         "exclude_windows": [("2026-10-20 02:00", "2026-10-20 02:30")]},
        # every bin of every group, the span past the data at both ends (dense= was refused with
        # a TypeError from deep inside before)
        {"freq": "1h", "by": GROUPS, "dense": True, "start": "2026-10-05", "end": "2026-11-03"},
    ],
    ids=["groups", "exclusions", "span", "dense"],
)
def test_bin_events_equals_pandas(events_dd, events_pd, options):
    options = dict(options)
    freq = options.pop("freq")
    got = bd.bin_events(events_dd, freq, **options)
    want = pd_bin_events(events_pd, freq, **options)
    assert_identical(got, want)
    assert (got["total"] == 0).any()  # empty bins are rows, on both paths
    if options.get("dense"):  # by hand: every group's 29 days x 24 hourly bins
        assert len(got) == len(events_pd[GROUPS].drop_duplicates()) * 29 * 24


def test_sre_analyses_run_unchanged_on_dask_bins(events_dd, events_pd):
    got = burn_rates(bd.bin_events(events_dd, "5min", by=GROUPS), 0.95, ["1h", "6h"])
    want = burn_rates(pd_bin_events(events_pd, "5min", by=GROUPS), 0.95, ["1h", "6h"])
    assert_identical(got, want)


@pytest.mark.parametrize(
    ("slo", "shuffle_method"),
    [(bl.SLO(target=0.95, window="1h"), None), (bl.SLO(target=0.97, window="6h", min_events=30),
                                                "tasks")],
    ids=["1h", "6h-min-events"],
)
def test_replay_and_transitions_equal_pandas(week, slo, shuffle_method):
    ev_dd, ev_pd = week
    states = bd.replay(ev_dd, slo, by=GROUPS, shuffle_method=shuffle_method).persist()
    got = states.compute()
    assert got.index.name == "event_id" and got.index.is_unique
    want = bl.replay(ev_pd, slo, by=GROUPS)
    # sorting by event_id restores the event table's order, which is the pandas order here
    # with the attrs: the SLO and keys replay_summary reads travel through compute(): a Dask
    # replay summarises as the pandas one (the oracle, tested against the seed tracker); in the
    # states' own order (groups by partition) it is refused, not paired with the wrong events
    assert_identical(got.sort_index().reset_index(drop=True), want.reset_index(drop=True))
    assert_identical(bl.replay_summary(got.sort_index(), ev_dd.compute()),
                     bl.replay_summary(want, ev_pd))
    with pytest.raises(InputError, match="row for row"):
        bl.replay_summary(got, ev_dd.compute())
    tr = bd.transitions(states)
    want_tr = bl.transitions(want)
    assert len(want_tr) > 100
    assert_identical(tr, want_tr)


def test_replay_without_groups_uses_one_partition(week):
    ev_dd, ev_pd = week
    two_days = pd.Timestamp("2026-10-07", tz="UTC")
    small_dd = ev_dd.partitions[:2]
    small_pd = ev_pd[ev_pd["ts"] < two_days].reset_index(drop=True)
    slo = bl.SLO(target=0.95, window="30min")
    states = bd.replay(small_dd, slo)
    assert states.npartitions == 1
    assert_identical(states.compute().sort_index().reset_index(drop=True), bl.replay(small_pd, slo))
    assert_identical(bd.transitions(states), bl.transitions(bl.replay(small_pd, slo)))


# ---------------------------------------------------------------------------------------------
# order: ties across files, and a layout that is not by time
# ---------------------------------------------------------------------------------------------
def _tie_log(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 600
    base = pd.Timestamp("2026-11-29 03:00", tz="UTC")
    # only 4 distinct instants: every file holds events at each of them
    ts = base + pd.to_timedelta(rng.integers(0, 4, n) * 20, unit="min")
    return pd.DataFrame({"ts": ts, "outcome": np.where(rng.random(n) < 0.2, "timeout", "success"),
                         "region": rng.choice(["fra", "ams"], n), "file": np.repeat([0, 1, 2],
                                                                                    n // 3)})


def test_equal_timestamps_keep_file_order_across_partitions(client, tmp_path):
    raw = _tie_log(seed=8)
    write_hive(raw.drop(columns="file"), tmp_path, "file", raw["file"])
    ev_dd = bd.read_events(tmp_path, by="region")
    ev_pd = bl.read_events(raw, by="region")  # the rows in file order, sorted stably by ts
    slo = bl.SLO(target=0.9, window="30min")
    want = bl.replay(ev_pd, slo, by="region")
    states = bd.replay(ev_dd, slo, by="region", npartitions=2)
    got = states.compute()
    # files interleave in time here, so the pandas order is (ts, file, row): per group, that is
    # the (ts, event_id) order; the k-th event of a tie sees the k events before it
    for region in ("fra", "ams"):
        g = got[got["region"] == region]
        g = g.iloc[np.lexsort((g.index.to_numpy(), g["ts"].array.asi8))].reset_index(drop=True)
        w = want[want["region"] == region].reset_index(drop=True)
        assert_identical(g, w)
    assert_identical(bd.transitions(states), bl.transitions(want))


def test_hive_partition_column_as_group_key(client, tmp_path, raw_log):
    raw = raw_log[raw_log["ts"] < pd.Timestamp("2026-10-07", tz="UTC")]
    raw = raw.assign(region=raw["region"].astype(str))
    write_hive(raw.drop(columns="region"), tmp_path, "region", raw["region"])
    ev_dd = bd.read_events(tmp_path, by="region")  # files by region: not in time order
    assert list(ev_dd["region"].dtype.categories) == ["ams", "fra"]
    # pandas reads the same files in the same order
    files = [pd.read_parquet(p).assign(region=p.parent.name.split("=")[1])
             for p in sorted(tmp_path.glob("region=*/part.parquet"))]
    ev_pd = bl.read_events(pd.concat(files, ignore_index=True), by="region")
    assert_identical(bd.bin_events(ev_dd, "10min", by="region"), pd_bin_events(ev_pd, "10min",
                                                                               by="region"))
    slo = bl.SLO(target=0.95, window="1h")
    assert_identical(bd.transitions(bd.replay(ev_dd, slo, by="region")),
                       bl.transitions(bl.replay(ev_pd, slo, by="region")))


# ---------------------------------------------------------------------------------------------
# the personal-data guard and validation, per partition
# ---------------------------------------------------------------------------------------------
def _small_log(email_in_file: int | None) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 90
    client_id = np.array([f"c{i % 7}" for i in range(n)], dtype=object)
    if email_in_file is not None:
        client_id[email_in_file * 30 + 5] = "alice@example.org"
    return pd.DataFrame({
        "ts": pd.Timestamp("2026-11-29", tz="UTC") + pd.to_timedelta(np.sort(rng.integers(0, 86_400,
                                                                                          n)),
                                                                     unit="s"),
        "outcome": rng.choice(["success", "success", "timeout", "solve_error"], n),
        "region": rng.choice(["fra", "ams"], n),
        "client": client_id,
        "part": np.repeat([0, 1, 2], 30),
    })


def _write_small(raw: pd.DataFrame, root: Path) -> None:
    write_hive(raw.drop(columns="part"), root, "part", raw["part"])


def test_personal_data_in_one_partition_is_refused(client, tmp_path):
    raw = _small_log(email_in_file=1)
    _write_small(raw, tmp_path)
    with pytest.raises(PersonalDataError) as info:  # at read time (stop 59), not at .compute()
        bd.read_events(tmp_path, by="region", keep=["client"])
    message = str(info.value)
    # over the whole input, named as given (stop 59; before: "partition 1" and its counts)
    assert message.startswith(f"{tmp_path.name}: column 'client' looks like personal data (1 row "
                              "like an e-mail address (1 distinct value))")
    assert "alice" not in message and "example.org" not in message
    with pytest.raises(PersonalDataError):  # a group key is checked in the first pass already
        bd.read_events(tmp_path, by=["region", "client"])


def test_pii_hash_decided_globally_like_pandas(client, tmp_path):
    raw = _small_log(email_in_file=2)
    _write_small(raw, tmp_path)
    got = bd.read_events(tmp_path, by="region", keep=["client"], pii="hash",
                         salt="s3cret").compute()
    want = bl.read_events(raw, by="region", keep=["client"], pii="hash", salt="s3cret")
    # the column is hashed in all partitions, also those without the e-mail address
    assert_identical(got.reset_index(drop=True), want, attrs=False)
    assert not got["client"].str.fullmatch(r"c\d").any()


def test_pii_drop_decided_globally_like_pandas(client, tmp_path):
    raw = _small_log(email_in_file=0)
    _write_small(raw, tmp_path)
    with pytest.warns(UserWarning, match="'client'"):
        ev = bd.read_events(tmp_path, by=["region"], keep=["client"], pii="drop")
    with pytest.warns(UserWarning, match="'client'"):
        want = bl.read_events(raw, by=["region"], keep=["client"], pii="drop")
    assert "client" not in ev.columns
    assert_identical(ev.compute().reset_index(drop=True), want, attrs=False)
    # as a by= key, dropping it would lose the grouping: both readers refuse, in one sentence
    for read, source in ((bd.read_events, tmp_path), (bl.read_events, raw)):
        with pytest.raises(ConfigError, match=r"^by='client' names a column that pii='drop' "
                                              r"removes as personal data; use pii='hash'"):
            read(source, by=["region", "client"], pii="drop")


def test_bad_labels_and_columns_are_named_errors(client, tmp_path):
    raw = _small_log(email_in_file=None)
    raw.loc[40, "outcome"] = "teapot"
    _write_small(raw, tmp_path)
    # the labels of every partition are classified at once: the refusal names the label, no
    # partition
    with pytest.raises(OutcomeError, match=r"^1 unknown outcome label \(outcomes= does not list "
                                           r"it\): 'teapot' \(1\)\."):
        bd.read_events(tmp_path, outcomes={"success": "success", "timeout": "timeout",
                                           "solve_error": "solve_error"})
    with pytest.raises(SchemaError, match="Did you mean 'region'"):
        bd.read_events(tmp_path, by="regoin")
    with pytest.raises(FileFormatError, match="no such file"):
        bd.read_events(tmp_path / "missing")
    with pytest.raises(InputError, match=r"budgetlab\.read_events\(\)"):
        bd.read_events(raw)


def test_mixed_up_frames_raise_budgetlab_errors(client, week):
    ev_dd, ev_pd = week
    slo = bl.SLO()
    with pytest.raises(InputError, match=r"budgetlab\.replay\(\)"):
        bd.replay(ev_pd, slo, by=GROUPS)
    with pytest.raises(InputError, match=r"budgetlab\.bin_events\(\)"):
        bd.bin_events(ev_pd, "1min")
    with pytest.raises(InputError):  # the pandas functions stay pandas-only
        bl.replay(ev_dd, slo, by=GROUPS)
    with pytest.raises(InputError):
        pd_bin_events(ev_dd, "1min")
    unknown = ev_dd.assign(region=ev_dd["region"].cat.as_unknown())
    with pytest.raises(SchemaError, match="unknown categories"):
        bd.replay(unknown, slo, by="region")
    states = bd.replay(ev_dd.partitions[:2], slo, by=GROUPS)
    with pytest.raises(InputError, match="spans several partitions"):
        bd.transitions(states.repartition(npartitions=1).repartition(npartitions=3))


def test_pandas_functions_point_to_budgetlab_dask(week):
    ev_dd, _ = week
    with pytest.raises(InputError, match=r"budgetlab\.dask"):
        bl.replay(ev_dd, bl.SLO(), by=GROUPS)
    with pytest.raises(InputError, match=r"budgetlab\.dask"):
        bl.bin_events(ev_dd, "1min", by=GROUPS)


def test_read_events_accepts_a_raw_dask_frame(client):
    raw = _small_log(None).drop(columns=["part", "client"])
    ev = bd.read_events(dd.from_pandas(raw, npartitions=3, sort=False), by="region")
    want = bl.read_events(raw, by="region")
    assert_identical(ev.compute().reset_index(drop=True), want, attrs=False)
    bins = bd.bin_events(ev, "1h", by="region")
    assert int(bins["total"].sum()) == len(raw)  # every event in exactly one bin
    assert_identical(bins, pd_bin_events(want, "1h", by="region"))
