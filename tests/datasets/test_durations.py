"""Durations in the generated histories: opt-in, from their own random stream, so every other
column is the generator's output bit for bit (the committed ``demo`` file is the oracle)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import datasets
from budgetlab.datasets.synth import PRESETS, generate

ARGS = PRESETS["demo"]["args"]


@pytest.fixture(scope="module")
def with_durations() -> pd.DataFrame:
    events, _ = generate(**ARGS, client_timeout="45s")
    return events


# Without durations the output is the committed file (written by the generator before durations
# existed): tests/datasets/test_datasets.py::test_regeneration_reproduces_the_committed_tables
# [demo] asserts it, frame for frame and exactly (a second regeneration here cost ~10 s).


def test_durations_change_only_the_cut_attempts(with_durations):
    committed = datasets.load("demo")
    for col in ("ts", "captcha_type", "region", "sitekey"):
        pd.testing.assert_series_equal(with_durations[col], committed[col], check_names=True)
    changed = (with_durations["bucket"].astype(str) != committed["bucket"].astype(str)).to_numpy()
    dur = with_durations["duration"].to_numpy()
    # a changed row is an attempt cut at the client timeout: now a timeout of exactly 45 s
    assert changed.sum() > 0
    assert (with_durations["bucket"].astype(str).to_numpy()[changed] == "timeout").all()
    assert (dur[changed] == np.timedelta64(45, "s")).all()
    assert (
        with_durations["ok"].to_numpy()
        == (with_durations["bucket"].astype(str) == "success").to_numpy()
    ).all()


def test_timeouts_are_censored_at_the_client_timeout(with_durations):
    dur = with_durations["duration"]
    is_to = (with_durations["bucket"].astype(str) == "timeout").to_numpy()
    assert (dur[is_to] == pd.Timedelta("45s")).all()
    assert (dur[~is_to] <= pd.Timedelta("45s")).all()
    assert (dur > pd.Timedelta(0)).all()
    assert (dur.to_numpy().view(np.int64) % 1_000_000 == 0).all()  # whole milliseconds


def test_the_incident_is_slow(with_durations):
    # the demo's incident (reCAPTCHA v2, 01:30-05:30 Berlin on 2026-10-08) runs at slow_factor 3:
    # the median attempt there (solve errors aside, cut ones at 45 s: 3 x 14 s = 42 s is below the
    # cut,
    # so the median is not censored) is about 3 x the median of the same type outside it
    inc = datasets.load("demo_incidents").iloc[0]
    ev = with_durations[
        (with_durations["captcha_type"] == "recaptcha_v2")
        & (with_durations["bucket"] != "solve_error")
    ]
    inside = (ev["ts"] >= inc["start"]) & (ev["ts"] < inc["end"])
    ratio = ev.loc[inside, "duration"].median() / ev.loc[~inside, "duration"].median()
    assert 2.5 < ratio < 3.5


def test_same_seed_same_durations(with_durations):
    again, _ = generate(**ARGS, client_timeout="45s")
    pd.testing.assert_frame_equal(with_durations, again)
