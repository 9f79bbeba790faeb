"""plot_recalibration leaves out the groups without a recommendation (a window too thin for
one: analyses/recalibration/window_events.py), says how many, and the x axis follows the groups
drawn. Hand log, 15 days, 24 h window: three busy groups (an event every 90 s, every 56th a
failure: the rule's target 0.98, its candidates' range from 97.5 %, the usual target below the
1 % quantile 1 - 18/960 = 98.125 %, up to 99 %) and 30 thin ones (an event every 6 h, one failure
in half of them: ~4 events in a window, withheld)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab
from budgetlab.plotting import plot_recalibration

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-11-01", tz="UTC")


def _group(name: str, every_s: float, fail: list[int], fail_every: int = 0) -> pd.DataFrame:
    n = int(15 * 86_400 // every_s)
    ok = np.ones(n, dtype=bool)
    if fail_every:
        ok[fail_every - 1::fail_every] = False
    ok[fail] = False
    return pd.DataFrame({"ts": T0 + pd.to_timedelta(np.arange(n) * every_s, unit="s"),
                         "g": name, "ok": ok})


@pytest.fixture(scope="module")
def result():
    parts = [_group(f"busy{i}", 90, [], fail_every=56) for i in range(3)]
    parts += [_group(f"thin{i:02d}", 6 * 3600, [30] if i % 2 else []) for i in range(30)]
    ev = pd.concat(parts, ignore_index=True).sort_values("ts", kind="stable")
    return budgetlab.recalibrate(ev.reset_index(drop=True), by="g", window="24h", n_boot=0)


def test_only_the_groups_with_a_recommendation_are_drawn(result):
    s = result.summary.set_index("g")
    assert (s.filter(like="busy", axis=0)["recommended_target"] == 0.98).all()
    ax = plot_recalibration(result)
    drawn = sorted(a.get_gid() for a in ax.lines if str(a.get_gid()).startswith("distribution"))
    assert drawn == ["distribution:busy0", "distribution:busy1", "distribution:busy2"]
    assert not any(str(a.get_gid()).endswith("/others") for a in ax.collections)
    xs = np.concatenate([np.asarray(a.get_xdata(), dtype=float) for a in ax.lines
                         if str(a.get_gid()).split(":")[0] in ("distribution", "candidates")])
    assert xs.min() >= 97.5 - 1e-9  # the busy groups' range starts at 97.5 %
    assert ax.get_xlim()[0] >= 97.0
    note = [t.get_text() for t in ax.texts if t.get_gid() == "left_out"]
    assert len(note) == 1 and "30 groups without a recommendation" in note[0]
