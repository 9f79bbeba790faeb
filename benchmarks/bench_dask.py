"""Dask case: the same analyses on pandas (1 process) and on budgetlab.dask (LocalCluster, 2
worker processes x 1 thread), end to end from 28 daily Parquet files (hive ``date=YYYY-MM-DD``)
of 4 weeks x 20 groups.

Cases, each from the files: ``read_events`` (load + validate; Dask keeps the result on the
workers), ``bin_events`` 1 min by group, ``replay + transitions`` 24 h by group. The pandas
baseline reads the same files (``pandas.read_parquet`` of the directory) and calls the pandas
functions, in a fresh process per case.

Memory is the operating system's peak resident set size (Linux ``VmHWM``) of a process that did
nothing else: a fresh child process per pandas case, a fresh cluster per Dask case (``idle`` =
a worker right after its start, Python + Dask + budgetlab imported). Each case: one warm-up run,
then the median of the timed runs.

``run(quick)`` returns one dict per case and engine; ``case(events, repeat)`` adapts it to
``benchmarks/run.py``. ``python -m benchmarks.bench_dask [--quick]`` prints the rows.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

WORKERS = 2
MEMORY_LIMIT = "4GiB"
SLO_ARGS = {"target": 0.95, "window": "24h"}
CASES = ("read_events", "bin_events 1min", "replay+transitions 24h")


def write_daily(events: pd.DataFrame, root: Path) -> int:
    """The events as a raw log (``ts``, ``outcome`` text, ``group``) in daily hive files."""
    raw = pd.DataFrame({"ts": events["ts"], "outcome": events["bucket"].astype(str),
                        "group": events["group"]})
    days = raw["ts"].dt.strftime("%Y-%m-%d").to_numpy()
    n = 0
    for day, part in raw.groupby(days, sort=True):
        folder = root / f"date={day}"
        folder.mkdir(parents=True)
        part.to_parquet(folder / "part.parquet", index=False)
        n += 1
    return n


def _rss_peak_mb() -> float:
    """Peak RSS of this process's address space (Linux ``VmHWM``; ``ru_maxrss`` would carry the
    parent's size over a fork + exec)."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    raise RuntimeError("no VmHWM in /proc/self/status: peak memory needs Linux")


def _import_budgetlab() -> None:
    import budgetlab.dask  # noqa: F401


def _rss_now_mb() -> float:
    import psutil

    return float(psutil.Process().memory_info().rss) / 2**20


# ---------------------------------------------------------------------------------------------
# the work, per engine
# ---------------------------------------------------------------------------------------------
def _pandas_work(name: str, root: str) -> Callable[[], Any]:
    import budgetlab as bl

    def load() -> pd.DataFrame:
        raw = pd.read_parquet(root, columns=["ts", "outcome", "group"])
        return bl.read_events(raw, by="group")

    if name == "read_events":
        return load
    if name == "bin_events 1min":
        return lambda: bl.bin_events(load(), "1min", by="group")
    slo = bl.SLO(**SLO_ARGS)
    return lambda: bl.transitions(bl.replay(load(), slo, by="group"))


def _dask_work(name: str, root: str) -> Callable[[], Any]:
    from distributed import wait

    import budgetlab as bl
    import budgetlab.dask as bd

    if name == "read_events":
        def load() -> None:
            ev = bd.read_events(root, by="group").persist()
            wait(ev)
            del ev
        return load
    if name == "bin_events 1min":
        return lambda: bd.bin_events(bd.read_events(root, by="group"), "1min", by="group")
    slo = bl.SLO(**SLO_ARGS)
    return lambda: bd.transitions(bd.replay(bd.read_events(root, by="group"), slo, by="group"))


def _timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def _pandas_child(name: str, root: str, repeat: int, out: Any) -> None:
    """Runs in a fresh process: imports first, then the timed runs; reports times and peak RSS."""
    import budgetlab  # noqa: F401

    idle = _rss_now_mb()
    times = _timed(_pandas_work(name, root), repeat)
    out.put({"times": times, "peak": _rss_peak_mb(), "idle": idle})


def _pandas_case(name: str, root: Path, repeat: int) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_pandas_child, args=(name, str(root), repeat, queue))
    proc.start()
    proc.join()  # the result is a few numbers: the queue never blocks the child's exit
    if proc.exitcode != 0:
        raise RuntimeError(f"the pandas benchmark process for {name!r} failed (exit code "
                           f"{proc.exitcode}).")
    return dict(queue.get(timeout=60))


def _dask_case(name: str, root: Path, repeat: int) -> dict[str, Any]:
    """A fresh cluster per case: the workers' peak RSS is this case's (``client.restart()`` is
    slower and sometimes times out on a loaded machine)."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                      memory_limit=MEMORY_LIMIT,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        client.run(_import_budgetlab)
        idle = client.run(_rss_now_mb)
        times = _timed(_dask_work(name, str(root)), repeat)
        peak = client.run(_rss_peak_mb)
    return {"times": times, "peak": max(peak.values()), "idle": max(idle.values())}


# ---------------------------------------------------------------------------------------------
# entry points
# ---------------------------------------------------------------------------------------------
def measure(events: pd.DataFrame, repeat: int) -> list[dict[str, Any]]:
    """Pandas and Dask rows for each case on ``events`` (canonical, with a ``group`` key)."""
    n = len(events)
    days = int((events["ts"].iloc[-1] - events["ts"].iloc[0]).ceil("1D").days)
    groups = int(events["group"].nunique())
    tmp = Path(tempfile.mkdtemp(prefix="budgetlab-bench-dask-"))
    rows: list[dict[str, Any]] = []
    try:
        files = write_daily(events, tmp)
        for name in CASES:
            base = _pandas_case(name, tmp, repeat)
            dsk = _dask_case(name, tmp, repeat)
            pandas_s = statistics.median(base["times"])
            dask_s = statistics.median(dsk["times"])
            common = {"size": n, "days": days, "groups": groups, "files": files, "repeat": repeat}
            rows.append({"case": f"pandas: {name}", "engine": "pandas", "workers": 1, **common,
                         "median_s": pandas_s, "events_per_s": n / pandas_s,
                         "peak_rss_mb_per_worker": base["peak"],
                         "idle_rss_mb_per_worker": base["idle"],
                         "pandas_s": pandas_s, "vs_pandas": 1.0})
            rows.append({"case": f"dask 2 workers: {name}", "engine": "dask", "workers": WORKERS,
                         **common,
                         "median_s": dask_s, "events_per_s": n / dask_s,
                         "peak_rss_mb_per_worker": dsk["peak"],
                         "idle_rss_mb_per_worker": dsk["idle"],
                         "pandas_s": pandas_s, "vs_pandas": dask_s / pandas_s})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def run(quick: bool) -> list[dict[str, Any]]:
    """The Dask benchmark on the runner's data: 4 weeks x 20 groups, 1 M events (``quick``,
    1 timed run) or 10 M events (3 timed runs).

    One dict per case and engine: ``case``, ``engine`` ("pandas"/"dask"), ``workers``, ``size``
    (events), ``days``, ``groups``, ``files``, ``repeat``, ``median_s``, ``events_per_s``,
    ``peak_rss_mb_per_worker`` (the pandas process, or the largest Dask worker),
    ``idle_rss_mb_per_worker``, ``pandas_s`` (the baseline of the same run) and ``vs_pandas``
    (time / pandas time)."""
    from benchmarks.run import build_events

    events = build_events(1_000_000 if quick else 10_000_000)
    return measure(events, 1 if quick else 3)


def case(events: pd.DataFrame, repeat: int) -> list[Any]:
    """Adapter for ``benchmarks/run.py``: one Result per Dask row, pandas as its baseline."""
    from benchmarks.harness import Result

    rows = measure(events, max(1, min(repeat, 3)))
    pandas_peak = {
        r["case"].split(": ", 1)[1]: r["peak_rss_mb_per_worker"]
        for r in rows
        if r["engine"] == "pandas"
    }
    results = []
    for row in rows:
        if row["engine"] != "dask":
            continue
        name = row["case"].split(": ", 1)[1]
        results.append(Result(
            f"dask 2 workers, {row['days']} daily files, {row['groups']} groups: {name}",
                              row["size"],
            row["median_s"], "pandas, same files, 1 process", row["pandas_s"], None, "(reported)",
                              None,
            {"peak_rss_mib_per_worker": row["peak_rss_mb_per_worker"],
             "idle_rss_mib_per_worker": row["idle_rss_mb_per_worker"],
             "pandas_peak_rss_mib": pandas_peak[name]},
        ))
    return results


def main(argv: list[str] | None = None) -> int:
    quick = "--quick" in (sys.argv[1:] if argv is None else argv)
    t0 = time.perf_counter()
    rows = run(quick)
    cols = ["case", "size", "median_s", "events_per_s", "peak_rss_mb_per_worker",
            "idle_rss_mb_per_worker",
            "vs_pandas"]
    table = pd.DataFrame(rows)[cols]
    with pd.option_context("display.width", 200, "display.float_format", "{:,.2f}".format):
        print(table.to_string(index=False))
    print(f"\n{os.cpu_count()} cores; total {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
