"""Window comparison of thousands of groups (stop 56): ``plot_window_comparison`` of a table of
3,061 groups (a stranger's sitekeys) under three windows, drawn on a new figure and saved as PNG,
against the same figure of 30 groups, measured in the same run. The grey "other" groups are one
line of marks per panel, so the cost does not grow per group: target <= 2x (each group its own
line per panel, as before, took about 20x: 6,122 artists, 14 to 22 s on the development
machine while other work ran, against ~1 s now). The table is built by hand (seeded), not from
events: the figure is what is measured. ``python -m benchmarks.bench_plot_groups`` runs this case
alone.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.harness import Result, time_pair

N_GROUPS = 3061
BASE_GROUPS = 30
WINDOWS = ["1h", "6h", "24h"]


def comparison(n: int, seed: int = 56) -> pd.DataFrame:
    """A compare_windows table of ``n`` groups under :data:`WINDOWS`: rates, shares, incident
    counts and detection medians drawn at random (seeded), a fifth of the rows under 24 h
    evaluated (withheld), a detection median only where an incident was detected."""
    rng = np.random.default_rng(seed)
    w = len(WINDOWS)
    rows = n * w
    incidents = rng.integers(0, 4, rows)
    detected = np.minimum(incidents, rng.integers(0, 4, rows))
    median = np.where(detected > 0, rng.uniform(1, 60, rows), np.nan)
    t = pd.DataFrame({
        "sitekey": np.repeat([f"sitekey-{i:04d}" for i in range(n)], w),
        "window": pd.Categorical(WINDOWS * n, categories=WINDOWS),
        "min_dwell": pd.Timedelta(0), "events": np.repeat(rng.integers(100, 100_000, n), w),
        "hours": np.where(rng.random(rows) < 0.2, 10.0, 600.0),
        "transitions_per_day": rng.gamma(2.0, 3.0, rows),
        "share_exhausted": rng.uniform(0, 0.3, rows), "incidents": incidents,
        "detected": detected, "missed": incidents - detected,
        "detection_median": pd.to_timedelta(median, unit="min")})
    t.attrs["by"] = ["sitekey"]
    return t


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from budgetlab.plotting import plot_window_comparison

    many, few = comparison(N_GROUPS), comparison(BASE_GROUPS)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "comparison.png"

        def draw(table: pd.DataFrame) -> None:
            fig = plt.figure(figsize=(9, 6))
            plot_window_comparison(table, ax=fig.gca())
            fig.savefig(out, dpi=100)
            plt.close(fig)

        t_many, t_few = time_pair(lambda: draw(many), lambda: draw(few), repeat=max(repeat, 3))
    ratio = t_many / t_few
    return [Result(f"plot_window_comparison, {N_GROUPS:,} groups x {len(WINDOWS)} windows, PNG",
                   len(many), t_many, f"the same figure of {BASE_GROUPS} groups", t_few, None,
                   "<= 2x", ratio <= 2.0)]


if __name__ == "__main__":
    from benchmarks.run import print_table

    print_table(case(pd.DataFrame(), 3))
