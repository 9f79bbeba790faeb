"""``Recalibration.summary``'s ``window`` column: the tracker window each group's target was
judged under, as duration text that budgetlab's duration parser reads back exactly.

Oracles: the windows are the ones given to ``recalibrate`` (``window=``, an SLO's window, each
group's SLO with ``PerGroup``), compared as ``pd.Timedelta`` built here from the same text; the
round trip reads the text back with ``to_timedelta``, the one duration parser of the package."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, ConfigError, PerGroup, recalibrate, synth
from budgetlab._util.durations import to_timedelta


@pytest.fixture(scope="module")
def events() -> pd.DataFrame:
    ev, _ = synth.generate("2026-10-05", 8, seed=1, rate=0.05, incidents=None, session_ids=False)
    return ev


@pytest.mark.parametrize("window, text", [("6h", "6h"), ("24h", "1d"), ("2D", "2d"),
                                          ("90min", "1h30m"), ("90s", "1m30s")])
def test_the_window_column_is_the_window_given_and_reads_back_exactly(events, window, text):
    rec = recalibrate(events, by="captcha_type", window=window, n_boot=0)
    col = rec.summary["window"]
    # every group, withheld or not, was judged under the one window given
    assert col.tolist() == [text] * 3
    assert {to_timedelta(t) for t in col} == {pd.Timedelta(window)}


def test_the_window_column_leaves_the_group_keys_before_events(events):
    # read_recalibration_table takes the columns before "events" as the group keys
    cols = list(recalibrate(events, by=["captcha_type", "region"], n_boot=0).summary.columns)
    assert cols[:cols.index("events")] == ["captcha_type", "region"]
    assert cols.index("window") > cols.index("events")


def test_without_a_window_the_column_is_the_slo_s_or_the_default(events):
    by_slo = recalibrate(events, by="captcha_type", slo=SLO(target=0.95, window="12h"), n_boot=0)
    default = recalibrate(events, n_boot=0)  # no groups: one row, recalibrate's 24 h default
    assert by_slo.summary["window"].tolist() == ["12h"] * 3
    assert default.summary["window"].tolist() == ["1d"]


def test_per_group_slos_give_each_row_its_own_slo_s_window(events):
    slos = PerGroup({"recaptcha_v2": SLO(target=0.93, window="6h"),
                     "turnstile": SLO(target=0.97, window="24h"),
                     "image": SLO(target=0.88, window="6h")})
    rec = recalibrate(events, by="captcha_type", slo=slos, n_boot=0)
    got = dict(zip(rec.summary["captcha_type"], map(to_timedelta, rec.summary["window"]),
                   strict=True))
    assert got == {"recaptcha_v2": pd.Timedelta("6h"), "turnstile": pd.Timedelta("24h"),
                   "image": pd.Timedelta("6h")}
    assert rec.settings["window"] is None  # the settings cannot say one window: the rows do


@pytest.mark.parametrize("key", ["window", "events", "target", "probability", "sample"])
def test_a_group_key_named_as_a_written_column_is_refused_not_overwritten(events, key):
    # before: summary["window"] (or "events", ...) replaced the key, and the groups' names were
    # lost without a word (three rows all named '1d')
    renamed = events.rename(columns={"captcha_type": key})
    with pytest.raises(ConfigError, match=rf"^by: the group key '{key}' has the name of a column "
                                          rf"recalibrate writes .* to '{key}_key'"):
        recalibrate(renamed, by=key, n_boot=0)
