"""The shipped and committed datasets: they load as canonical tables, the regeneration command
reproduces them exactly, and they tell the stories data/README.md promises."""

from __future__ import annotations

import importlib.resources
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import budgetlab
from budgetlab import DatasetError, OutputExistsError, check_events, datasets, synth
from budgetlab.datasets.__main__ import main as dataset_main
from budgetlab.events.schema import INCIDENT_COLUMNS, scope_mask, ts_ns

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ["demo", "outcomes_4w", "night_incident"]
INCIDENTS = {"demo": "demo_incidents", "outcomes_4w": "incidents_4w", "night_incident": "night_incident_incidents"}


@pytest.fixture(scope="module")
def loaded():
    return {name: datasets.load(name) for name in datasets.names()}


def test_names():
    assert datasets.names() == [
        "demo", "demo_incidents", "outcomes_4w", "incidents_4w", "night_incident", "night_incident_incidents"
    ]


@pytest.mark.parametrize("name", EVENTS)
def test_event_tables_are_canonical(loaded, name):
    events = loaded[name]
    keys = ["captcha_type", "region", "sitekey"]
    assert check_events(events, keys) == keys
    expected = ["ts", "ok", "bucket", *keys] + (["session_id"] if name == "night_incident" else [])
    assert list(events.columns) == expected
    assert str(events["ts"].dtype) == "datetime64[ns, UTC]"
    assert events["bucket"].cat.ordered and list(events["bucket"].cat.categories)[:3] == ["success", "timeout", "solve_error"]
    assert set(events["captcha_type"].unique()) == {"recaptcha_v2", "turnstile", "image"}
    assert set(events["region"].unique()) == {"fra", "ams"}
    assert set(events["bucket"].unique()) == {"success", "timeout", "solve_error"}


@pytest.mark.parametrize("name", INCIDENTS.values())
def test_incident_tables(loaded, name):
    table = loaded[name]
    assert list(table.columns) == list(INCIDENT_COLUMNS)
    assert str(table["start"].dtype) == "datetime64[ns, UTC]" and str(table["end"].dtype) == "datetime64[ns, UTC]"
    assert (table["start"] < table["end"]).all()
    assert table["severity"].between(0, 1).all()
    assert table["incident_id"].is_unique


def test_demo_ships_inside_the_package():
    res = importlib.resources.files("budgetlab.datasets")
    assert res.joinpath("demo.parquet").is_file() and res.joinpath("demo_incidents.csv").is_file()
    assert res.joinpath("demo.parquet").stat().st_size < 1.5e6  # type: ignore[attr-defined]


def test_committed_files_stay_small():
    for path in [*(ROOT / "data").glob("*.parquet"), *(ROOT / "data").glob("*.csv")]:
        assert path.stat().st_size < 15e6, path.name


# Regenerating gives the same tables (frames, not bytes: parquet's footer records the writer's version).
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
    monkeypatch.setattr(datasets, "_checkout_data", lambda: tmp_path)
    monkeypatch.setattr(datasets, "_DATASETS", {**datasets._DATASETS, "x": ("demo.parquet", "demo", "events")})
    events, _ = synth.generate_preset("demo")
    pd.testing.assert_frame_equal(datasets.load("x"), events, check_exact=True)
    # no silent overwrite
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path)]) == 2
    with pytest.raises(OutputExistsError):
        synth.write_preset("demo", tmp_path)
    assert dataset_main(["--preset", "demo", "--out", str(tmp_path), "--force"]) == 0


def test_data_readme_gives_each_command():
    readme = (ROOT / "data" / "README.md").read_text()
    for preset, spec in synth.PRESETS.items():
        assert f"python -m budgetlab.datasets --preset {preset} --out {spec['out']} --force" in readme
        for file_name in spec["files"]:
            assert file_name in readme


def test_missing_file_says_how_to_regenerate(monkeypatch, tmp_path):
    monkeypatch.setattr(datasets, "_checkout_data", lambda: tmp_path)
    with pytest.raises(DatasetError, match=r"python -m budgetlab\.datasets --preset outcomes_4w --out data/ --force"):
        datasets.load("outcomes_4w")
    with pytest.raises(DatasetError, match="night_incident"):
        datasets.load("night_incident_incidents")


def test_unreadable_file_says_how_to_regenerate(monkeypatch, tmp_path):
    (tmp_path / "outcomes_4w.parquet").write_bytes(b"PAR1 not really")
    monkeypatch.setattr(datasets, "_checkout_data", lambda: tmp_path)
    with pytest.raises(DatasetError, match="could not be read.*--preset outcomes_4w"):
        datasets.load("outcomes_4w")


@pytest.mark.parametrize("name", ["nope", "", None, "demo.parquet"])
def test_unknown_name(name):
    with pytest.raises(DatasetError, match="unknown dataset"):
        datasets.load(name)


def test_checkout_data_folder_is_next_to_the_package():
    assert datasets._checkout_data() == Path(budgetlab.__file__).resolve().parents[1] / "data"


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
        a = row.start + (row.end - row.start) / 2 if row.kind == "gradual_degradation" else row.start
        lo, hi = np.searchsorted(t, [a.value, row.end.value])
        part = events.iloc[lo:hi]
        inside = part[scope_mask(part, row.scope)]
        n, rate = len(inside), float((~inside["ok"]).mean())
        assert n > 200, row.incident_id
        # binomial tolerance, 4 standard errors (the severity is the expected failure rate there)
        assert abs(rate - row.severity) <= 4 * math.sqrt(row.severity * (1 - row.severity) / n) + 1e-12, row.incident_id


def test_night_incident_story(loaded):
    events, table = loaded["night_incident"], loaded["night_incident_incidents"]
    alert = pd.Timestamp("2026-11-05 03:47", tz="Europe/Berlin")
    rc = events[events["captcha_type"] == "recaptcha_v2"]
    # the seed tracker's 1 h window at the alert: events with alert - 1h <= ts <= alert
    window = rc[(rc["ts"] >= alert - pd.Timedelta("1h")) & (rc["ts"] <= alert)]
    assert round(100 * float(window["ok"].mean()), 1) == 94.2
    day_before = rc[(rc["ts"] >= alert - pd.Timedelta("25h")) & (rc["ts"] < alert - pd.Timedelta("23h"))]
    assert float(day_before["ok"].mean()) > 0.95  # the same hour a day earlier was above target
    # the storm in fra overlaps the degradation of reCAPTCHA v2, and both cover the alert
    kinds = dict(zip(table["kind"], table["scope"], strict=True))
    assert kinds == {"gradual_degradation": "captcha_type=recaptcha_v2", "timeout_storm": "region=fra"}
    assert ((table["start"] <= alert) & (table["end"] > alert)).all()
    # the storm is a fra network problem: fra's timeouts during it far above ams's and above fra's
    # own rate in the same hours the night before
    storm = table[table["kind"] == "timeout_storm"].iloc[0]

    def timeout_rate(region, shift):
        t = events["ts"]
        m = (t >= storm["start"] - shift) & (t < storm["end"] - shift) & (events["region"] == region)
        return float((events["bucket"][m] == "timeout").mean())

    now, before = pd.Timedelta(0), pd.Timedelta("1D")
    assert timeout_rate("fra", now) > timeout_rate("ams", now) + 0.02
    assert timeout_rate("fra", now) > timeout_rate("fra", before) + 0.02
    # enough history before the alert for a 24 h window
    assert events["ts"].min() <= alert - pd.Timedelta("24h")
    assert events["session_id"].str.fullmatch(r"[0-9a-f]{12}").all()
