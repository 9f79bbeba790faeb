"""A withheld verdict is said in words, one way in recalibrate's summary and target_verdicts'
table (the verdict ``withheld``, the reason beside it), never as None or NaN; verdicts_table takes
target_verdicts' table or refuses with a named error; settings["slo"] records the target used.

The log: an event every 20 min over 10 days, group a the first 5 (every 20th failing from the 4th:
3 failures in 60 events), group b the last 5 (no failure: no miss its failures decide); a 1 h
window. By the package's rule (10 expected failures under the target) the
evaluated events judge 95 % (n x 0.05 >= 10 for n >= 200) and not 99.99 % (10 / 0.0001 =
100,000 events needed).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import ConfigError


@pytest.fixture(scope="module")
def events() -> pd.DataFrame:
    n = 10 * 72
    ts = pd.Timestamp("2026-01-05", tz="UTC") + pd.to_timedelta(np.arange(n) * 20, unit="min")
    kind = np.where(np.arange(n) < n // 2, "a", "b")
    return pd.DataFrame({"ts": ts, "ok": (np.arange(n) % 20 != 3) | (kind == "b"), "kind": kind})


def test_settings_record_the_current_target_used(events):
    r = bl.recalibrate(events, window="1h", target=0.999, n_boot=0)
    assert r.settings["slo"].target == 0.999  # was SLO()'s 0.95
    assert r.summary["current_target"].iloc[0] == 0.999
    # its other parts are the SLO replayed: the window given, the default thresholds
    assert r.settings["slo"].window == pd.Timedelta("1h") and r.settings["slo"].critical == 0.1
    # target= over slo.target
    r = bl.recalibrate(events, slo=bl.SLO(target=0.9, window="1h", critical=0.2), target=0.97,
                       n_boot=0)
    assert r.settings["slo"] == bl.SLO(target=0.97, window="1h", critical=0.2)
    # one target per group: each group's SLO with its own
    r = bl.recalibrate(events, by="kind", window="1h", target={"a": 0.9, "b": 0.97}, n_boot=0)
    per = r.settings["slo"]
    assert isinstance(per, bl.PerGroup)
    assert (per.slo_for("a").target, per.slo_for("b").target) == (0.9, 0.97)


def test_per_group_slos_with_a_target_record_that_target(events):
    slos = {"a": bl.SLO(target=0.9, window="1h"), "b": bl.SLO(target=0.95, window="2h")}
    r = bl.recalibrate(events, by="kind", slo=slos, target=0.97, n_boot=0)
    per = r.settings["slo"]
    assert per.slo_for("a") == bl.SLO(target=0.97, window="1h")
    assert per.slo_for("b") == bl.SLO(target=0.97, window="2h")
    # without target= the per-group SLOs are what was used, as given
    r = bl.recalibrate(events, by="kind", slo=slos, n_boot=0)
    assert r.settings["slo"].slo_for("b") == slos["b"]


def test_a_withheld_verdict_reads_withheld_in_both_tables(events):
    # 95 % for a (judged), 99.99 % for b (too few events: withheld): b's 360 events less the 3
    # of its first hour's warm-up are 357, 0.0357 expected failures under 99.99 %
    r = bl.recalibrate(events, by="kind", window="1h", target={"a": 0.95, "b": 0.9999}, n_boot=0)
    s = r.summary.set_index("kind")
    assert s.loc["b", "verdict"] == "withheld"
    assert s.loc["b", "verdict_reason"].startswith("357 events in the evaluated span: too few")
    assert s.loc["a", "verdict"] != "withheld" and not s["verdict"].isna().any()
    v = bl.target_verdicts(r).set_index("kind")
    assert v.loc["b", "verdict"] == "withheld" and v.loc["b", "withheld"].startswith("357 events")
    assert v.loc["a", "verdict"] == s.loc["a", "verdict"] and v.loc["a", "withheld"] == ""
    assert "None" not in v.to_string() and "NaN" not in v[["verdict"]].to_string()
    # no current target: withheld too, the reason says so
    r = bl.recalibrate(events, by="kind", window="1h", n_boot=0)
    assert r.summary["verdict"].tolist() == ["withheld", "withheld"]
    assert bl.target_verdicts(r)["withheld"].tolist() == ["no current target given"] * 2


def test_verdicts_table_takes_target_verdicts_table_and_refuses_the_rest(events):
    r = bl.recalibrate(events, by="kind", window="1h", target=0.95, n_boot=0)
    v = bl.target_verdicts(r)
    t = bl.verdicts_table(v)  # was: TypeError: asdict() should be called on dataclass instances
    assert t.equals(v) and t is not v
    for bad in (r, r.summary, [v]):
        with pytest.raises(ConfigError, match=r"verdicts_table\(\) takes .*Verdict objects"):
            bl.verdicts_table(bad)
    # Verdict objects: a withheld one reads "withheld" there too, the reason beside it
    page = bl.page_verdict(1, 4, target=0.95, threshold=5.0)
    t = bl.verdicts_table([page, bl.page_verdict(300, 1000, target=0.95, threshold=5.0)])
    assert t["verdict"].tolist() == ["withheld", "justified"]
    assert t.loc[0, "withheld"] == page.withheld != ""
    assert page.verdict is None and not page.given  # the object keeps its None
