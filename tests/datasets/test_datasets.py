"""The shipped datasets: they live in the package, load as canonical tables with the row counts
data/README.md gives, the regeneration command reproduces them exactly, they tell the stories
data/README.md promises, and ``load`` takes a path as well as a name."""

from __future__ import annotations

import importlib.resources
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import DatasetError, OutputExistsError, check_events, datasets, synth
from budgetlab.datasets.__main__ import main as dataset_main
from budgetlab.errors import ConfigError, FileFormatError, SchemaError
from budgetlab.events.schema import INCIDENT_COLUMNS, scope_mask, ts_ns

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ["demo", "outcomes_4w", "night_incident"]
INCIDENTS = {"demo": "demo_incidents", "outcomes_4w": "incidents_4w",
             "night_incident": "night_incident_incidents"}


@pytest.fixture(scope="module")
def loaded():
    return {name: datasets.load(name) for name in datasets.names()}


def test_names():
    assert datasets.names() == [
        "demo", "demo_incidents", "outcomes_4w", "incidents_4w", "night_incident",
                                "night_incident_incidents"
    ]


@pytest.mark.parametrize("name", EVENTS)
def test_event_tables_are_canonical(loaded, name):
    events = loaded[name]
    keys = ["captcha_type", "region", "sitekey"]
    assert check_events(events, keys) == keys
    expected = ["ts", "ok", "bucket", *keys] + (["session_id"] if name == "night_incident" else [])
    assert list(events.columns) == expected
    assert str(events["ts"].dtype) == "datetime64[ns, UTC]"
    assert events["bucket"].cat.ordered and list(events["bucket"].cat.categories)[:3] == [
        "success",
        "timeout",
        "solve_error",
    ]
    assert set(events["captcha_type"].unique()) == {"recaptcha_v2", "turnstile", "image"}
    assert set(events["region"].unique()) == {"fra", "ams"}
    assert set(events["bucket"].unique()) == {"success", "timeout", "solve_error"}


@pytest.mark.parametrize("name", INCIDENTS.values())
def test_incident_tables(loaded, name):
    table = loaded[name]
    assert list(table.columns) == list(INCIDENT_COLUMNS)
    assert (
        str(table["start"].dtype) == "datetime64[ns, UTC]"
        and str(table["end"].dtype) == "datetime64[ns, UTC]"
    )
    assert (table["start"] < table["end"]).all()
    assert table["severity"].between(0, 1).all()
    assert table["incident_id"].is_unique


def _readme_rows() -> dict[str, int]:
    """The row counts data/README.md promises, per load name (the table's 'load name' and 'rows'
    columns)."""
    rows = {}
    for line in (ROOT / "data" / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[1].startswith("`") and cells[2].replace(",", "").isdigit():
            rows[cells[1].strip("`")] = int(cells[2].replace(",", ""))
    return rows


def test_row_counts_are_the_ones_data_readme_gives(loaded):
    promised = _readme_rows()
    assert sorted(promised) == sorted(datasets.names())
    assert {name: len(table) for name, table in loaded.items()} == promised


def test_every_dataset_ships_inside_the_package():
    """All six files are package data next to the loader (importlib.resources), none in data/."""
    res = importlib.resources.files("budgetlab.datasets")
    files = [f for spec in synth.PRESETS.values() for f in spec["files"]]
    assert len(files) == len(datasets.names())
    for name in files:
        assert res.joinpath(name).is_file(), name
    assert not [*(ROOT / "data").glob("*.parquet"), *(ROOT / "data").glob("*.csv")]


def test_shipped_files_stay_small():
    folder = ROOT / "budgetlab" / "datasets"
    sizes = {p.name: p.stat().st_size for p in [*folder.glob("*.parquet"), *folder.glob("*.csv")]}
    assert sizes["demo.parquet"] < 1.5e6
    assert sum(sizes.values()) < 15e6, sizes  # what every wheel carries


# Regenerating gives the same tables (frames, not bytes: parquet's footer records the writer's
# version).
@pytest.mark.parametrize("preset", list(synth.PRESETS))
def test_regeneration_reproduces_the_committed_tables(loaded, preset):
    events, incidents = synth.generate_preset(preset)
    events_name = synth.PRESETS[preset]["files"][0].removesuffix(".parquet")
    pd.testing.assert_frame_equal(events, loaded[events_name], check_exact=True)
    pd.testing.assert_frame_equal(incidents, loaded[INCIDENTS[events_name]], check_exact=True)


def test_regeneration_command_writes_loadable_files(tmp_path, monkeypatch):
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.parquet", "demo_incidents.csv"]
    # the loader reads what the writer wrote: same tables as in memory
    monkeypatch.setattr(datasets, "_resource", lambda file_name: tmp_path / file_name)
    events, incidents = synth.generate_preset("demo")
    pd.testing.assert_frame_equal(datasets.load("demo"), events, check_exact=True)
    pd.testing.assert_frame_equal(datasets.load("demo_incidents"), incidents, check_exact=True)
    # no silent overwrite
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path)]) == 2
    with pytest.raises(OutputExistsError):
        synth.write_preset("demo", tmp_path)
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path), "--force"]) == 0


def test_regeneration_command_writes_where_load_reads_by_default(monkeypatch, tmp_path):
    """Without --out the command writes into the package's datasets folder, whatever the working
    directory (here that folder is redirected so the shipped files stay untouched)."""
    import budgetlab.datasets.__main__ as cmd

    assert cmd.HOME == Path(datasets.__file__).resolve().parent == ROOT / "budgetlab" / "datasets"
    monkeypatch.setattr(cmd, "HOME", tmp_path / "home")
    monkeypatch.chdir(tmp_path)
    assert dataset_main(["--preset", "demo"]) == 0
    assert sorted(p.name for p in (tmp_path / "home").iterdir()) == ["demo.parquet",
                                                                     "demo_incidents.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


def test_data_readme_gives_each_command():
    readme = (ROOT / "data" / "README.md").read_text()
    for preset, spec in synth.PRESETS.items():
        assert f"python -m budgetlab.datasets --preset {preset} --force" in readme
        assert spec["out"] == "budgetlab/datasets/"
        for file_name in spec["files"]:
            assert f"`{file_name}`" in readme


def test_missing_file_says_how_to_regenerate(monkeypatch, tmp_path):
    monkeypatch.setattr(datasets, "_resource", lambda file_name: tmp_path / file_name)
    with pytest.raises(DatasetError, match=r"missing from this installation.*"
                                           r"python -m budgetlab\.datasets --preset outcomes_4w "
                                           r"--force"):
        datasets.load("outcomes_4w")
    with pytest.raises(DatasetError, match="night_incident"):
        datasets.load("night_incident_incidents")


def test_unreadable_file_says_how_to_regenerate(monkeypatch, tmp_path):
    (tmp_path / "outcomes_4w.parquet").write_bytes(b"PAR1 not really")
    monkeypatch.setattr(datasets, "_resource", lambda file_name: tmp_path / file_name)
    with pytest.raises(DatasetError, match="could not be read.*--preset outcomes_4w"):
        datasets.load("outcomes_4w")


@pytest.mark.parametrize("source", ["nope", "", "  ", "outcomes4w", None, 3])
def test_neither_a_name_nor_a_path(source, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatasetError, match="neither a dataset name .*'outcomes_4w'.* nor a path"):
        datasets.load(source)


# ---------------------------------------------------------------------------------------------
# load(path): one plain value points the same code at the shipped data or at a log of one's own


def test_a_path_is_read_as_an_event_log(tmp_path):
    events = datasets.load("demo").iloc[::50].reset_index(drop=True)
    log = tmp_path / "log.csv"
    # a log as a user would have it: ISO times, an outcome label, two group columns
    events.assign(ts=events["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                  outcome=events["bucket"].astype(str))[
        ["ts", "outcome", "captcha_type", "region"]].to_csv(log, index=False)
    for source in (str(log), log):
        mine = datasets.load(source, by=["captcha_type", "region"])
        assert list(mine.columns) == ["ts", "ok", "bucket", "captcha_type", "region"]
        assert (mine["ts"] == events["ts"]).all() and (mine["ok"] == events["ok"]).all()
        for col in ("bucket", "captcha_type", "region"):
            assert mine[col].astype(str).tolist() == events[col].astype(str).tolist(), col
    # read_events' options go through (here: another time column name)
    events.assign(finished=events["ts"], outcome=events["bucket"].astype(str))[
        ["finished", "outcome"]
    ].to_parquet(tmp_path / "other.parquet")
    other = datasets.load(str(tmp_path / "other.parquet"), time="finished", kind="events")
    assert (other["ts"] == events["ts"]).all() and (other["ok"] == events["ok"]).all()


def test_a_relative_path_and_a_glob(tmp_path, monkeypatch):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.csv").write_text(
        "ts,outcome\n2026-01-05T10:00:00Z,success\n2026-01-05T10:00:01Z,timeout\n"
    )
    (tmp_path / "logs" / "b.csv").write_text("ts,outcome\n2026-01-05T10:00:02Z,success\n")
    monkeypatch.chdir(tmp_path)
    one = datasets.load("logs/a.csv")
    assert one["ok"].tolist() == [True, False] and one["bucket"].astype(str).tolist() == ["success",
                                                                                          "timeout"]
    both = datasets.load("logs/*.csv")
    assert both["ok"].tolist() == [True, False, True]
    assert both["ts"].tolist() == [pd.Timestamp(f"2026-01-05 10:00:0{i}",
                                                tz="UTC") for i in range(3)]


def test_an_incident_table_by_path(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text(
        "incident_id,start,end,scope\nX1,2026-01-05T10:00:00Z,2026-01-05T11:30:00Z,region=fra\n"
    )
    table = datasets.load(str(path), kind="incidents")
    assert table["incident_id"].tolist() == ["X1"] and table["scope"].tolist() == ["region=fra"]
    assert table["start"].tolist() == [pd.Timestamp("2026-01-05 10:00", tz="UTC")]
    assert table["end"].tolist() == [pd.Timestamp("2026-01-05 11:30", tz="UTC")]
    with pytest.raises(ConfigError, match="takes none"):
        datasets.load(str(path), kind="incidents", by=["region"])


def test_a_missing_path_is_named_as_a_file():
    with pytest.raises(FileFormatError, match="no such file"):
        datasets.load("no/such/log.csv")
    with pytest.raises(FileFormatError, match="no such file"):
        datasets.load(Path("demo"))  # a Path is always a path, even when it spells a name


def test_a_named_dataset_takes_by_and_default_options_only():
    assert len(datasets.load("demo", by=["captcha_type", "region"], time="ts", tz="UTC")) == 207_980
    with pytest.raises(SchemaError,
                       match="no group column 'session_id'.*captcha_type, region, sitekey"):
        datasets.load("demo", by="session_id")
    with pytest.raises(ConfigError,
                       match="option time applies to a log file, not to the shipped dataset "
                             "'demo'"):
        datasets.load("demo", time="finished_at")
    # the table holds UTC instants: tz not given or "UTC" changes nothing, another zone would
    assert len(datasets.load("demo", tz=None)) == 207_980
    with pytest.raises(ConfigError,
                       match="option tz applies to a log file, not to the shipped dataset 'demo'"):
        datasets.load("demo", tz="Europe/Berlin")
    with pytest.raises(ConfigError, match="unknown option"):
        datasets.load("demo", window="1h")
    with pytest.raises(ConfigError, match="option by applies to a log file"):
        datasets.load("demo_incidents", by=["region"])


def test_by_none_and_a_bad_by_act_the_same_for_a_name_and_a_path(tmp_path):
    """read_events takes by=None (no group columns); a named dataset must too, and a by= that is
    not a column name is a ConfigError for both (it was a bare TypeError for a name)."""
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome\n2026-01-05T10:00:00Z,success\n", encoding="utf-8")
    assert len(datasets.load(str(log), by=None)) == 1
    assert len(datasets.load("demo", by=None)) == 207_980
    for source in (str(log), "demo"):
        with pytest.raises(ConfigError,
                           match="by= takes a column name or a list of names, got int"):
            datasets.load(source, by=3)


def test_kind_must_match_a_name():
    assert len(datasets.load("demo_incidents", kind="incidents")) == 1
    with pytest.raises(DatasetError, match="'demo' is an event table, not incidents"):
        datasets.load("demo", kind="incidents")
    with pytest.raises(DatasetError, match="'incidents_4w' is an incident table, not events"):
        datasets.load("incidents_4w", kind="events")
    with pytest.raises(ConfigError, match="kind='table' is not valid"):
        datasets.load("demo", kind="table")


# ---------------------------------------------------------------------------------------------
# the stories


def test_outcomes_4w_covers_four_weeks(loaded):
    events = loaded["outcomes_4w"]
    assert 2_000_000 <= len(events) <= 4_000_000
    assert events["ts"].min() >= pd.Timestamp("2026-10-05", tz="UTC")
    assert events["ts"].max() < pd.Timestamp("2026-11-02", tz="UTC")
    assert events["ts"].min() < pd.Timestamp("2026-10-05 00:05", tz="UTC")
    assert events["sitekey"].nunique() == 12
    assert sorted(loaded["incidents_4w"]["kind"].unique()) == sorted(synth.INCIDENT_KINDS)


@pytest.mark.parametrize("preset", ["outcomes_4w", "demo"])
def test_committed_incidents_are_visible(loaded, preset):
    events, table = loaded[preset if preset != "demo" else "demo"], loaded[INCIDENTS[preset]]
    t = ts_ns(events)
    for row in table.itertuples(index=False):
        a = (
            row.start + (row.end - row.start) / 2
            if row.kind == "gradual_degradation"
            else row.start
        )
        lo, hi = np.searchsorted(t, [a.value, row.end.value])
        part = events.iloc[lo:hi]
        inside = part[scope_mask(part, row.scope)]
        n, rate = len(inside), float((~inside["ok"]).mean())
        assert n > 200, row.incident_id
        # binomial tolerance, 4 standard errors (the severity is the expected failure rate there)
        assert (
            abs(rate - row.severity) <= 4 * math.sqrt(row.severity * (1 - row.severity) / n) + 1e-12
        ), row.incident_id


def test_night_incident_story(loaded):
    events, table = loaded["night_incident"], loaded["night_incident_incidents"]
    alert = pd.Timestamp("2026-11-05 03:47", tz="Europe/Berlin")
    rc = events[events["captcha_type"] == "recaptcha_v2"]
    # the seed tracker's 1 h window at the alert: events with alert - 1h <= ts <= alert
    window = rc[(rc["ts"] >= alert - pd.Timedelta("1h")) & (rc["ts"] <= alert)]
    assert round(100 * float(window["ok"].mean()), 1) == 94.2
    day_before = rc[
        (rc["ts"] >= alert - pd.Timedelta("25h")) & (rc["ts"] < alert - pd.Timedelta("23h"))
    ]
    assert float(day_before["ok"].mean()) > 0.95  # the same hour a day earlier was above target
    # the storm in fra overlaps the degradation of reCAPTCHA v2, and both cover the alert
    kinds = dict(zip(table["kind"], table["scope"], strict=True))
    assert kinds == {"gradual_degradation": "captcha_type=recaptcha_v2",
                     "timeout_storm": "region=fra"}
    assert ((table["start"] <= alert) & (table["end"] > alert)).all()
    # the storm is a fra network problem: fra's timeouts during it far above ams's and above fra's
    # own rate in the same hours the night before
    storm = table[table["kind"] == "timeout_storm"].iloc[0]

    def timeout_rate(region, shift):
        t = events["ts"]
        m = (
            (t >= storm["start"] - shift)
            & (t < storm["end"] - shift)
            & (events["region"] == region)
        )
        return float((events["bucket"][m] == "timeout").mean())

    now, before = pd.Timedelta(0), pd.Timedelta("1D")
    assert timeout_rate("fra", now) > timeout_rate("ams", now) + 0.02
    assert timeout_rate("fra", now) > timeout_rate("fra", before) + 0.02
    # enough history before the alert for a 24 h window
    assert events["ts"].min() <= alert - pd.Timedelta("24h")
    assert events["session_id"].str.fullmatch(r"[0-9a-f]{12}").all()


def test_the_regeneration_command_speaks_its_flags_and_refuses_a_bad_out_in_one_line(tmp_path,
                                                                                  capsys):
    """An existing file asked for ``force=True`` (the API's keyword) on the command line; an --out
    that is a file or cannot be made was a traceback, exit 1; 138 bytes read "0.00 MB"."""
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    # the committed incident file's size, as ls -l shows it
    assert f"wrote {tmp_path / 'demo_incidents.csv'} (138 B)" in out
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path)]) == 2
    # a command's refusal names its flag (it read "out: 'demo.parquet' exists already")
    assert capsys.readouterr().err == ("python -m budgetlab.datasets: error: --out: "
                                       "'demo.parquet' exists already; pass --force to overwrite "
                                       "it.\n")
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    # the file in the way named, whatever is below (and then the path given, by its last name:
    # an absolute path)
    for out_dir, lead in ((a_file, "--out:"), (a_file / "sub", "--out 'sub':")):
        assert dataset_main(["--preset", "demo", "--out", str(out_dir)]) == 2
        err = capsys.readouterr().err
        assert err == (f"python -m budgetlab.datasets: error: {lead} 'a_file' is a file, not a "
                       "folder; --out takes a folder.\n")
