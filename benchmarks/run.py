"""One command for every benchmark: ``python -m benchmarks [--quick] [--only CASE ...]``.

Builds its own data with the seeded generator, runs each case several times after a warm-up,
and prints a table: case, size, median seconds, events per second, peak memory, and the ratio
to a baseline measured in the same run on the same data (machines here are noisy; ratios of
interleaved runs hold better than seconds). ``--quick`` uses 1/10 of the sizes.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.harness import Result, peak_memory, time_it, time_pair  # noqa: E402

SEED = 20261129
START = "2026-10-05"  # a Monday


def build_events(n_target: int, *, groups: int = 20) -> pd.DataFrame:
    """~``n_target`` events over 28 days from the generator (fixed seed), with a 20-valued
    ``group`` key (sitekeys folded onto 20 groups) beside captcha_type and region."""
    from budgetlab import synth

    rate = n_target / (28 * 86400)
    events, _ = synth.generate(START, 28, seed=SEED, rate=rate, sitekeys_per_type=7,
                               session_ids=False)
    codes = events["sitekey"].cat.codes.to_numpy() % groups
    events["group"] = pd.Categorical.from_codes(codes,
                                                categories=[f"g{i:02d}" for i in range(groups)])
    return events


# ---------------------------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------------------------
def case_replay(events: pd.DataFrame, repeat: int) -> list[Result]:
    """The full replay (every column) + transitions, against the ONE-CALL pandas rolling count+sum
    (the transitions-only path and column subsets: bench_replay.py, ``--only replay_columns``)."""
    from budgetlab import SLO, replay, transitions
    from budgetlab.events.schema import ts_ns

    slo = SLO(target=0.95, window="24h")
    n = len(events)
    series = pd.Series((~events["ok"].to_numpy()).astype(np.int64),
                       index=pd.DatetimeIndex(ts_ns(events).view("datetime64[ns]")))

    def baseline() -> None:
        series.rolling("24h").agg(["count", "sum"])

    def one() -> None:
        transitions(replay(events, slo))

    def twenty() -> None:
        transitions(replay(events, slo, by="group"))

    t1, b1 = time_pair(one, baseline, repeat=repeat)
    mem = peak_memory(lambda: replay(events, slo))
    # the 20-group baseline: one group, interleaved
    t20, t1b = time_pair(twenty, one, repeat=repeat)
    b20 = b1
    ratio20 = t20 / t1b
    return [
        Result("replay+transitions (all columns), 24h, 1 group", n, t1,
               "pandas rolling('24h').agg(['count','sum']), one call", b1, mem,
               "<= 1.0x baseline; <= 120 B/event", t1 <= b1 and mem / n <= 120,
               {"bytes_per_event": mem / n}),
        Result("replay+transitions (all columns), 24h, 20 groups", n, t20,
               "replay+transitions, 1 group", t1b, None,
               "<= 1.3x one group", ratio20 <= 1.3, {"vs_pandas": t20 / b20}),
    ]


def case_tracker(events: pd.DataFrame, repeat: int) -> list[Result]:
    """Streaming Tracker vs a literal port of the seed tracker, 1 h window, ~3,600 events in it."""
    from budgetlab import SLO, Tracker
    from tests.seed_tracker import ErrorBudgetTracker, SLOConfig

    slo = SLO(target=0.95, window="1h")
    n_seed = 3_000
    warm = 3_600
    # 1 event/s, so the 1 h window holds ~3,600 events, as the issue states
    t = (np.arange(warm + n_seed, dtype=np.int64) * 1_000_000_000) + pd.Timestamp(START,
                                                                                  tz="UTC").value
    ok = np.random.default_rng(SEED).random(len(t)) < 0.95

    def seed_run() -> None:
        trk = ErrorBudgetTracker(SLOConfig(0.95, 3600 * 1_000_000_000))
        for ti, o in zip(t[:warm].tolist(), ok[:warm].tolist(), strict=True):
            trk.record(o, ti)
        t0 = time.perf_counter()
        for ti, o in zip(t[warm:].tolist(), ok[warm:].tolist(), strict=True):
            trk.record(o, ti)
        seed_run.seconds = time.perf_counter() - t0  # type: ignore[attr-defined]

    seed_run()
    seed_eps = n_seed / seed_run.seconds  # type: ignore[attr-defined]

    # the same stream for both trackers: 1 event/s, so the 1 h window holds ~3,600 events
    big_n = len(events)
    bt = (np.arange(big_n, dtype=np.int64) * 1_000_000_000) + pd.Timestamp(START, tz="UTC").value
    bok = np.random.default_rng(SEED).random(big_n) < 0.95
    btd = bt.view("datetime64[ns]")
    batch = 100_000

    def batches() -> None:
        trk = Tracker(slo)
        for lo in range(0, big_n, batch):
            trk.record_many(bok[lo:lo + batch], btd[lo:lo + batch])

    tb = time_it(batches, repeat=max(1, repeat // 2))
    n_single = 50_000
    st, sok = (bt[:n_single] / 1e9).tolist(), bok[:n_single].tolist()

    def singles() -> None:
        trk = Tracker(slo)
        for ti, o in zip(st, sok, strict=True):
            trk.record(o, ti)

    ts_single = time_it(singles, repeat=1)
    n_s = len(st)
    eps_batch = big_n / tb
    eps_single = n_s / ts_single
    return [
        Result("Tracker.record_many (batches of 100k), 1h window", big_n, tb,
               "seed tracker port, 1h window",
               n_seed / seed_eps * big_n / n_seed, None, ">= 1000x seed events/s",
               eps_batch / seed_eps >= 1000,
               {"speedup_vs_seed": eps_batch / seed_eps, "seed_events_per_s": seed_eps}),
        Result("Tracker.record (one call per event), 1h window", n_s, ts_single,
               "seed tracker port, 1h window",
               n_s / seed_eps, None, "(reported)", None,
               {"speedup_vs_seed": eps_single / seed_eps}),
    ]


CASES: dict[str, Callable[[pd.DataFrame, int], list[Result]]] = {
    "replay": case_replay,
    "tracker": case_tracker,
}


def _extra_cases() -> None:
    """Cases that live in their own modules (SRE model, analyses, generator, Dask)."""
    import importlib

    for mod, name in (("benchmarks.bench_sre", "sre"), ("benchmarks.bench_analyses", "analyses"),
                      ("benchmarks.bench_synth", "synth"), ("benchmarks.bench_dask", "dask"),
                      ("benchmarks.bench_backtest", "backtest"), ("benchmarks.bench_groups",
                                                                  "groups"),
                      ("benchmarks.bench_replay", "replay_columns"), ("benchmarks.bench_load",
                                                                      "load"),
                      ("benchmarks.bench_plot", "plot"), ("benchmarks.bench_startup", "startup"),
                      ("benchmarks.bench_engines", "engines"), ("benchmarks.bench_spans", "spans"),
                      ("benchmarks.bench_burn", "burn"),
                      ("benchmarks.bench_plot_groups", "plot_groups"),
                      ("benchmarks.bench_recalibrate_groups", "recalibrate_groups")):
        try:
            m = importlib.import_module(mod)
        except ImportError:
            continue
        if hasattr(m, "case"):
            CASES[name] = m.case


def _fmt_bytes(b: int | None) -> str:
    return "" if b is None else f"{b / 2**20:,.0f} MiB"


def print_table(results: list[Result]) -> None:
    rows = []
    for r in results:
        timed = not np.isnan(r.seconds)  # NaN: a case skipped or refused, said in words
        rows.append({
            "case": r.case,
            "size": f"{r.size:,}",
            "median s": f"{r.seconds:.3f}" if timed else "not timed",
            "events/s": f"{r.events_per_s:,.0f}" if timed else "",
            "peak mem": _fmt_bytes(r.peak_bytes),
            "baseline": r.baseline,
            "baseline s": "" if r.baseline_seconds is None else f"{r.baseline_seconds:.3f}",
            "ratio": "" if r.ratio is None else f"{r.ratio:.2f}x",
            "target": r.target,
            "met": {True: "yes", False: "NO", None: ""}[r.passed],
        })
    table = pd.DataFrame(rows)
    with pd.option_context("display.max_colwidth", 60, "display.width", 250):
        print(table.to_markdown(index=False) if _has_tabulate() else table.to_string(index=False))
    for r in results:
        if r.extra:
            print(f"  {r.case}: " + ", ".join(f"{k}={v:,.2f}" if isinstance(v,
                                                                            float) else f"{k}={v}"
                                             for k, v in r.extra.items()))


def _version(dist: str) -> str:
    """The installed version of ``dist``, or "not installed" (no import: start-up stays cheap)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "not installed"


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    _extra_cases()
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument("--quick", action="store_true", help="1/10 sizes, fewer repeats (< 1 minute)")
    p.add_argument("--only", nargs="*", choices=sorted(CASES), help="run only these cases")
    args = p.parse_args(argv)
    n = 1_000_000 if args.quick else 10_000_000
    repeat = 3 if args.quick else 5
    print(f"budgetlab benchmarks ({'quick' if args.quick else 'full'}): "
          f"{platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}, "
          f"pandas {pd.__version__}")
    print("versions: " + ", ".join(f"{name} {_version(name)}" for name in
                                   ("budgetlab", "numba", "pyarrow", "polars", "duckdb", "dask")))
    t0 = time.perf_counter()
    events = build_events(n)
    print(f"data: {len(events):,} events over 28 days from budgetlab.synth (seed {SEED}) in "
          f"{time.perf_counter() - t0:.1f} s\n")
    results: list[Result] = []
    for name in args.only or list(CASES):
        results.extend(CASES[name](events, repeat))
    print_table(results)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")
    return 0 if all(r.passed is not False for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
