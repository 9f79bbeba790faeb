"""Plot case (issue 30, point 3): what ``--plot`` adds to a command-line replay drawn in process,
and what ``plot_timeline`` costs on millions of events against drawing the thinned lines alone.

1. ``budgetlab replay FILE --ok ok --bucket bucket --by group --plot t.png`` against the same
   command without ``--plot``, each a fresh ``python -m budgetlab`` process held to ONE core
   (``os.sched_setaffinity`` in the child before it starts Python: what a user runs, start-up,
   reading the Parquet file, replay, summary, transitions, and for ``--plot`` importing
   matplotlib and drawing the 4 groups with the most failures of the 20, reduced to the
   panels' pixel columns). Measured once (one pair, after a warm-up on a small file that fills
   the numba and font caches): at 5 M events each run is CPU-heavy. Target: ``--plot`` <= 1.5x
   the run without it, in CPU seconds of the child (user + system: on one core, the work it
   does; wall seconds are reported beside it, and on a machine shared with other work they
   include the time the core was busy elsewhere).
2. ``plot_timeline`` of one group of the same events (every event one row) on a new figure saved
   as PNG, against the baseline of drawing what it draws: the three series already thinned by
   :func:`budgetlab.plotting.thin_minmax` as step lines on three panels, saved the same way
   (no target: the ratio is what thinning, gaps, bands and limits cost on top of the picture).
   Measured once too.

The events are the first 5 M (or all, with ``--quick``) of the suite's generated data.
``python -m benchmarks.bench_plot`` runs this case alone on 5 M generated events.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.harness import Result, time_pair

N_EVENTS = 5_000_000


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from budgetlab import SLO, replay
    from budgetlab.cli.drawn import MAX_DRAWN
    from budgetlab.plotting import gap_threshold, plot_timeline, thin_minmax
    from budgetlab.plotting._common import (  # the baseline draws the same lines
        gap_breaks,
        step_line,
    )

    ev = events.iloc[:N_EVENTS][["ts", "ok", "bucket", "group"]].reset_index(drop=True)
    n = len(ev)
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "events.parquet"
        ev.to_parquet(log)
        png = Path(tmp) / "timeline.png"
        argv = [sys.executable, "-m", "budgetlab", "replay", str(log), "--ok", "ok", "--bucket",
                "bucket",
                "--by", "group", "--target", "0.95"]
        root = str(Path(__file__).resolve().parents[1])
        env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))

        core = min(os.sched_getaffinity(0))

        def one_core() -> None:  # in the child, before Python starts: the whole run on one core
            os.sched_setaffinity(0, {core})

        def run(args: list[str], extra: list[str]) -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(args + extra, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           check=True, env=env,
                           cwd=tmp, preexec_fn=one_core)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

        small = Path(tmp) / "small.parquet"
        ev.iloc[:20_000].to_parquet(small)
        # warm-up: numba and font caches
        run([*argv[:4], str(small), *argv[5:]], ["--plot", str(png), "--force"])
        plain_wall, plain_cpu = run(argv, [])
        plot_wall, plot_cpu = run(argv, ["--plot", str(png), "--force"])
        ratio = plot_cpu / plain_cpu
        results.append(Result(f"replay CLI --by group --plot t.png (20 groups, {MAX_DRAWN} drawn), "
                              "one core, CPU s",
                              n, plot_cpu, "the same command without --plot", plain_cpu, None,
                              "<= 1.5x",
                              ratio <= 1.5, {"wall_ratio": plot_wall / plain_wall,
                                             "wall_s": plot_wall,
                                             "wall_s_without": plain_wall,
                                             "png_bytes": png.stat().st_size}))

        slo = SLO(target=0.95, window="24h")
        states = replay(ev[["ts", "ok", "bucket"]], slo)
        t = np.asarray(states["ts"].array.asi8)
        gap = gap_threshold(t)
        brk = gap_breaks(t, gap)
        out = Path(tmp) / "one.png"

        def timeline() -> None:
            fig, ax = plt.subplots(figsize=(12, 5))
            plot_timeline(states, slo=slo, ax=ax)
            fig.savefig(out, dpi=110)
            plt.close(fig)

        def drawn_only() -> None:  # the thinned lines precomputed: what the picture itself costs
            fig, axes = plt.subplots(3, 1, figsize=(12, 5), sharex=True)
            for a, (x, y) in zip(axes, lines, strict=True):
                a.plot(x, y, drawstyle="steps-post")
            fig.savefig(out, dpi=110)
            plt.close(fig)

        lines = []
        for column in ("success_rate", "burn_rate", "remaining_fraction"):
            y = states[column].to_numpy(dtype=float)
            lines.append(step_line(t, y, thin_minmax(t, y, max_points=5000, breaks=brk), brk))
        t_plot, t_base = time_pair(timeline, drawn_only, repeat=1, warmup=0)  # CPU-heavy: once
        results.append(Result("plot_timeline, 1 group, saved as PNG", n, t_plot,
                              "the thinned lines drawn and saved", t_base, None, "(reported)", None,
                              {"points_per_line": max(len(x) for x, _ in lines)}))
    return results


if __name__ == "__main__":
    from benchmarks.run import build_events, print_table

    print_table(case(build_events(N_EVENTS), 1))
