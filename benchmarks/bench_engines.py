"""budgetlab beside the engines a user would pick instead: Polars and DuckDB (optional baselines).

Two jobs, at 200, 2,000 and 50,000 groups (``bench_groups.with_groups``: a ``group`` key drawn per
event from a fixed seed) on the suite's events:

* **per-event status** (the seed's tracker, 24 h window, target 0.95): ``budgetlab.replay(...,
  by="group", columns=["status"])`` against, per engine, the trailing count and failures of every
  event's window ``[ts - 24h, ts]`` and the seed's status arithmetic (the same float operations);
* **per-minute burn rates** (1-minute bins, 1 h window): ``bin_events`` + sparse ``burn_rates``
  against binning per (group, minute) and a trailing 1 h sum per group, in two jobs that each
  return the same rows as budgetlab: ``at="events"`` (rows at the minutes that hold events: the
  engines' window functions over the non-empty minutes) and the default ``at="traffic"`` (every
  minute at whose end the window holds traffic, per group: up to 60 rows per isolated event).
  The default's rows grow with events x groups (~40 M at 1 M events and 2,000 groups), so this
  job runs on at most ``TRAFFIC_EVENTS`` events (every k-th event of the suite's, 28 days kept).

Each engine gets two idiomatic formulations per job; the faster one is reported (both are run
once, then the best is timed interleaved with budgetlab). Status and burn rates at events:
Polars ``rolling_sum_by`` over ``over(group)``, and cumulative sums + ``join_asof``; DuckDB
``SUM(...) OVER (PARTITION BY ... ORDER BY ... RANGE BETWEEN ... PRECEDING AND CURRENT ROW)``,
and running sums + ``ASOF JOIN``. Burn rates at every minute with traffic: each minute's counts
scattered to the 60 window ends that hold it (``int_ranges``/``range`` + explode/``UNNEST``) then
summed per (group, end); and the runs of minutes with traffic (a new run after a gap of >= 60
minutes) expanded to every minute, the minute counts joined on, then a trailing 60-minute sum
(``rolling_sum_by`` / window ``RANGE``). Both clip at the grid's last minute, as budgetlab does.
**Outputs are checked equal before timing**: every engine's status per event equals budgetlab's
(events with a tie in time within a group are counted and left out: an engine's time window holds
the whole tie, the seed's tracker only the rows recorded so far); every engine's table has
budgetlab's rows, (group, minute) for (group, bin end), with equal ``total`` and ``bad`` (and the
burn rate computed from them equal to budgetlab's: Polars' own division differs in the last bit).
Polars runs on its default thread pool, DuckDB on one thread.
A formulation that disagrees is reported as such and not timed. Versions are printed with the
results. Needs ``pip install 'budgetlab[bench]'`` (polars, duckdb); without them the case says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from benchmarks.bench_groups import with_groups
from benchmarks.harness import Result, time_pair

GROUPS = (200, 2_000, 50_000)
TRAFFIC_EVENTS = 1_000_000  # events of the default-rows job (see above)
TARGET = 0.95
DAY_NS = 86_400 * 10**9
HOUR_MIN = 60


def _status_np(total: np.ndarray, bad: np.ndarray) -> np.ndarray:
    from budgetlab.budget.figures import remaining_fraction, status_codes
    from budgetlab.slo import SLO

    return np.asarray(status_codes(remaining_fraction(total, bad, TARGET), SLO(TARGET)),
                      dtype=np.int8)


# --- Polars ------------------------------------------------------------------------------------
def _pl_frame(ev: pd.DataFrame) -> Any:
    import polars as pl

    return pl.DataFrame({"rid": np.arange(len(ev), dtype=np.int64),
                         "g": ev["group"].cat.codes.to_numpy(),
                         "ts": ev["ts"].array.asi8, "bad": (~ev["ok"].to_numpy()).astype(np.int64),
                         "one": np.ones(len(ev), dtype=np.int64)})


def _pl_status_rolling(df: Any) -> tuple[np.ndarray, np.ndarray]:
    import polars as pl

    win = {"window_size": f"{DAY_NS}i", "closed": "both"}  # [ts - 24h, ts]
    out = df.sort(["g", "ts"]).with_columns(total=pl.col("one").rolling_sum_by("ts",
                                                                               **win).over("g"),
                                            failures=pl.col("bad").rolling_sum_by("ts",
                                                                                  **win).over("g"))
    return out["rid"].to_numpy(), _status_np(out["total"].to_numpy(), out["failures"].to_numpy())


def _pl_status_asof(df: Any) -> tuple[np.ndarray, np.ndarray]:
    import polars as pl

    s = df.sort(["g", "ts"]).with_columns(n=pl.int_range(1, pl.len() + 1).over("g"),
                                          cb=pl.col("bad").cum_sum().over("g"))
    cut = s.select("g", "rid", "n", "cb", key=pl.col("ts") - DAY_NS - 1)  # last row with ts < t - W
    prev = s.select("g", key=pl.col("ts"), n0=pl.col("n"), cb0=pl.col("cb"))
    j = cut.sort("key").join_asof(prev.sort("key"), on="key", by="g", strategy="backward",
                                  check_sortedness=False)
    total = (j["n"] - j["n0"].fill_null(0)).to_numpy()
    bad = (j["cb"] - j["cb0"].fill_null(0)).to_numpy()
    return j["rid"].to_numpy(), _status_np(total, bad)


def _pl_minutes(df: Any) -> Any:
    import polars as pl

    return (df.group_by("g", m=pl.col("ts") // 60_000_000_000).agg(total=pl.len().cast(pl.Int64),
                                                                   bad=pl.col("bad").sum())
            .sort(["g", "m"]))


def _pl_burn_rolling(df: Any) -> Any:
    import polars as pl

    b = _pl_minutes(df).with_columns(t=pl.col("m").cast(pl.Int64))
    return b.with_columns(
        total=pl.col("total").rolling_sum_by("t", window_size=f"{HOUR_MIN}i").over("g"),
        bad=pl.col("bad").rolling_sum_by("t", window_size=f"{HOUR_MIN}i").over("g"),
    ).with_columns(burn_rate=(pl.col("bad") / pl.col("total")) / (1 - TARGET)).select("g", "m",
                                                                                      "total",
                                                                                      "bad",
                                                                                      "burn_rate")


def _pl_burn_asof(df: Any) -> Any:
    import polars as pl

    b = _pl_minutes(df).with_columns(ct=pl.col("total").cum_sum().over("g"),
                                     cb=pl.col("bad").cum_sum().over("g"))
    prev = b.select("g", key=pl.col("m"), ct0=pl.col("ct"), cb0=pl.col("cb"))
    j = b.with_columns(key=pl.col("m") - HOUR_MIN).sort("key").join_asof(prev.sort("key"), on="key",
                                                                         by="g",
                                                                         check_sortedness=False)
    return j.select("g", "m", total=pl.col("ct") - pl.col("ct0").fill_null(0),
                    bad=pl.col("cb") - pl.col("cb0").fill_null(0)) \
        .with_columns(burn_rate=(pl.col("bad") / pl.col("total")) / (1 - TARGET)).sort(["g", "m"])


def _pl_traffic_scatter(df: Any) -> Any:
    """Every minute's counts added to the 60 window ends that hold it, then summed per (group, end):
    exactly the ends at which the window holds traffic (clipped at the grid's last minute). Lazy:
    half the CPU of the eager form (the runs below are faster eager)."""
    import polars as pl

    b = _pl_minutes(df)
    last = int(b["m"].max()) + 1
    ends = pl.int_ranges("m", pl.min_horizontal(pl.col("m") + HOUR_MIN, pl.lit(last)))
    return (b.lazy().with_columns(end=ends).explode("end").group_by("g", "end")
            .agg(pl.col("total").sum(), pl.col("bad").sum()).sort(["g", "end"])
            .select("g", m="end", total="total", bad="bad",
                    burn_rate=(pl.col("bad") / pl.col("total")) / (1 - TARGET)).collect())


def _pl_traffic_runs(df: Any) -> Any:
    """The runs of minutes where the window holds traffic (a new run after a gap of >= 60 minutes),
    every minute of them, the minute counts joined on (0 where empty), then ``rolling_sum_by``."""
    import polars as pl

    b = _pl_minutes(df)
    last = int(b["m"].max()) + 1
    new = (pl.col("g") != pl.col("g").shift()) | (pl.col("m") - pl.col("m").shift() >= HOUR_MIN)
    runs = (b.with_columns(run=new.fill_null(True).cum_sum()).group_by("run")
            .agg(pl.col("g").first(), s=pl.col("m").first(), e=pl.col("m").last() + HOUR_MIN))
    rows = runs.select("g", m=pl.int_ranges("s", pl.min_horizontal("e", pl.lit(last)))).explode("m")
    win = f"{HOUR_MIN}i"
    return (rows.sort(["g", "m"]).join(b, on=["g", "m"], how="left", maintain_order="left")
            .with_columns(pl.col("total", "bad").fill_null(0))
            .with_columns(total=pl.col("total").rolling_sum_by("m", window_size=win).over("g"),
                          bad=pl.col("bad").rolling_sum_by("m", window_size=win).over("g"))
            .with_columns(burn_rate=(pl.col("bad") / pl.col("total")) / (1 - TARGET)))


# --- DuckDB ------------------------------------------------------------------------------------
def _duck(ev: pd.DataFrame) -> Any:
    import duckdb

    con = duckdb.connect()
    con.execute("SET threads TO 1")  # one core, as budgetlab's path
    frame = pd.DataFrame({"rid": np.arange(len(ev), dtype=np.int64),
                          "g": ev["group"].cat.codes.to_numpy().astype(np.int32),
                          "ts": ev["ts"].array.asi8,
                          "bad": (~ev["ok"].to_numpy()).astype(np.int64)})
    con.register("ev", frame)
    return con


def _dk_status_window(con: Any) -> tuple[np.ndarray, np.ndarray]:
    out = con.execute(f"""SELECT rid, COUNT(*) OVER w AS total, SUM(bad) OVER w AS failures FROM ev
        WINDOW w AS (PARTITION BY g ORDER BY ts
                     RANGE BETWEEN {DAY_NS} PRECEDING AND CURRENT ROW)""").fetchnumpy()
    return out["rid"], _status_np(out["total"].astype(np.int64), out["failures"].astype(np.int64))


def _dk_status_asof(con: Any) -> tuple[np.ndarray, np.ndarray]:
    out = con.execute(f"""WITH s AS (SELECT rid, g, ts,
            ROW_NUMBER() OVER (PARTITION BY g ORDER BY ts, rid) AS n,
            SUM(bad) OVER (PARTITION BY g ORDER BY ts, rid ROWS UNBOUNDED PRECEDING) AS cb FROM ev),
        q AS (SELECT rid, g, n, cb, ts - {DAY_NS} - 1 AS key FROM s)
        SELECT q.rid, q.n - COALESCE(p.n, 0) AS total, q.cb - COALESCE(p.cb, 0) AS failures
        FROM q ASOF LEFT JOIN s p ON q.g = p.g AND q.key >= p.ts""").fetchnumpy()
    return out["rid"], _status_np(out["total"].astype(np.int64), out["failures"].astype(np.int64))


_DK_MINUTES = ("SELECT g, ts // 60000000000 AS m, COUNT(*) AS total, SUM(bad) AS bad FROM ev GROUP "
               "BY g, m")


def _dk_burn_window(con: Any) -> pd.DataFrame:
    return con.execute(f"""WITH b AS ({_DK_MINUTES})
        SELECT g, m, SUM(total) OVER w AS total, SUM(bad) OVER w AS bad FROM b
        WINDOW w AS (PARTITION BY g ORDER BY m
                     RANGE BETWEEN {HOUR_MIN - 1} PRECEDING AND CURRENT ROW)
        ORDER BY g, m""").df()


def _dk_burn_asof(con: Any) -> pd.DataFrame:
    return con.execute(f"""WITH b AS ({_DK_MINUTES}),
        c AS (SELECT g, m, SUM(total) OVER (PARTITION BY g ORDER BY m) AS ct,
                     SUM(bad) OVER (PARTITION BY g ORDER BY m) AS cb FROM b)
        SELECT c.g, c.m, c.ct - COALESCE(p.ct, 0) AS total, c.cb - COALESCE(p.cb, 0) AS bad
        FROM c ASOF LEFT JOIN c p ON c.g = p.g AND c.m - {HOUR_MIN} >= p.m
        ORDER BY c.g, c.m""").df()


_DK_LAST = "(SELECT MAX(m) + 1 FROM b)"


def _dk_traffic_scatter(con: Any) -> Any:
    return con.execute(f"""WITH b AS ({_DK_MINUTES}),
        s AS (SELECT g, UNNEST(range(m, LEAST(m + {HOUR_MIN}, {_DK_LAST}))) AS e, total, bad FROM b)
        SELECT g, e AS m, SUM(total) AS total, SUM(bad) AS bad,
               (SUM(bad) / SUM(total)) / {1 - TARGET!r} AS burn_rate
        FROM s GROUP BY g, e ORDER BY g, e""").df()


def _dk_traffic_runs(con: Any) -> Any:
    return con.execute(f"""WITH b AS ({_DK_MINUTES}),
        n AS (SELECT g, m, CASE WHEN m - LAG(m) OVER (PARTITION BY g ORDER BY m) < {HOUR_MIN}
                                THEN 0 ELSE 1 END AS new FROM b),
        r AS (SELECT g, m, SUM(new) OVER (PARTITION BY g ORDER BY m ROWS UNBOUNDED PRECEDING) AS run
              FROM n),
        runs AS (SELECT g, MIN(m) AS s, LEAST(MAX(m) + {HOUR_MIN}, {_DK_LAST}) AS e FROM r
                 GROUP BY g, run),
        t AS (SELECT g, UNNEST(range(s, e)) AS m FROM runs),
        f AS (SELECT t.g, t.m, COALESCE(b.total, 0) AS total, COALESCE(b.bad, 0) AS bad
              FROM t LEFT JOIN b ON t.g = b.g AND t.m = b.m)
        SELECT g, m, SUM(total) OVER w AS total, SUM(bad) OVER w AS bad,
               (SUM(bad) OVER w / SUM(total) OVER w) / {1 - TARGET!r} AS burn_rate FROM f
        WINDOW w AS (PARTITION BY g ORDER BY m
                     RANGE BETWEEN {HOUR_MIN - 1} PRECEDING AND CURRENT ROW)
        ORDER BY g, m""").df()


# --- checks --------------------------------------------------------------------------------------
def _check_status(got: tuple[np.ndarray, np.ndarray], want: np.ndarray, tied: np.ndarray) -> bool:
    rid, status = got
    full = np.full(len(want), -1, dtype=np.int8)
    full[np.asarray(rid, dtype=np.int64)] = status
    return bool(np.array_equal(full[~tied], want[~tied]))


def _check_burn(got: Any, want: pd.DataFrame) -> bool:
    """``got`` has ``want``'s rows, (group, minute) in order, with equal counts and burn rates."""
    frame = got.to_pandas() if hasattr(got, "to_pandas") else got
    if len(frame) != len(want):
        return False
    same = all(np.array_equal(frame[c].to_numpy().astype(np.int64), want[c].to_numpy())
               for c in ("g", "m", "total", "bad"))
    # the burn rate from the engine's counts (Polars' own division differs in the last bit at
    # places)
    burn = (frame["bad"].to_numpy() / frame["total"].to_numpy()) / (1 - TARGET)
    return same and bool(np.array_equal(burn, want["burn_rate"].to_numpy()))


def _ours_burn(ev: pd.DataFrame, at: str) -> pd.DataFrame:
    """What the user calls: bin the events, then the sparse burn rates."""
    from budgetlab import bin_events, burn_rates

    return burn_rates(bin_events(ev, "1min", by="group"), TARGET, windows=["1h"], at=at)


def _budgetlab_burn_rows(ev: pd.DataFrame, at: str = "traffic") -> pd.DataFrame:
    br = _ours_burn(ev, at)
    return pd.DataFrame({"g": br["group"].cat.codes.to_numpy().astype(np.int64),
                         "m": br["bin_end"].array.asi8 // 60_000_000_000 - 1,
                         "total": br["total"].to_numpy(), "bad": br["bad"].to_numpy(),
                         "burn_rate": br["burn_rate"].to_numpy()})


def _best(
    label: str, formulations: dict[str, Callable[[], Any]], check: Callable[[Any], bool]
) -> tuple[str, Callable[[], Any]] | None:
    """The fastest formulation whose output passes ``check`` (each run once)."""
    timed = []
    for name, fn in formulations.items():
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        ok = check(out)
        print(f"  {label} {name}: {dt:.3f} s, {'equal' if ok else 'NOT EQUAL: not timed'}")
        if ok:
            timed.append((dt, name, fn))
    if not timed:
        return None
    _, name, fn = min(timed, key=lambda x: x[0])
    return name, fn


def _versions() -> dict[str, str]:
    import duckdb
    import polars as pl

    return {"polars": pl.__version__, "duckdb": duckdb.__version__}


def _traffic_events(ev: pd.DataFrame) -> pd.DataFrame:
    """At most ``TRAFFIC_EVENTS`` of ``ev``: every k-th event (the span and the groups kept)."""
    step = -(-len(ev) // TRAFFIC_EVENTS)
    return ev if step == 1 else ev.iloc[::step].reset_index(drop=True)


def _jobs(ev: pd.DataFrame, tied: np.ndarray) -> tuple[dict[str, Any], dict[str, int]]:
    """Per job: (its events, budgetlab's call, the output check, {engine: {formulation: call}}),
    and the row counts of the burn-rate tables (every minute with traffic, minutes with events)."""
    from budgetlab import SLO, replay

    slo = SLO(TARGET, window="24h")

    def ours_status() -> Any:
        return replay(ev, slo, by="group", columns=["status"])

    want_status = ours_status()["status"].cat.codes.to_numpy().astype(np.int8)
    want_events = _budgetlab_burn_rows(ev, "events")
    pdf, con = _pl_frame(ev), _duck(ev)
    evt = _traffic_events(ev)
    want_traffic = _budgetlab_burn_rows(evt)
    pdt, cont = (pdf, con) if evt is ev else (_pl_frame(evt), _duck(evt))
    rows = {"traffic": len(want_traffic), "events": len(want_events)}
    jobs = {
        "per-event status, 24h": (len(ev), ours_status, lambda got: _check_status(got, want_status,
                                                                                  tied), {
            "polars": {"rolling_sum_by over(group)": lambda: _pl_status_rolling(pdf),
                       "cum_sum + join_asof": lambda: _pl_status_asof(pdf)},
            "duckdb": {"window RANGE": lambda: _dk_status_window(con),
                       "running sum + ASOF JOIN": lambda: _dk_status_asof(con)}}),
        "burn rates 1h, at minutes with events": (
            len(ev), lambda: _ours_burn(ev, "events"), lambda got: _check_burn(got, want_events), {
                "polars": {"rolling_sum_by over(group)": lambda: _pl_burn_rolling(pdf),
                           "cum_sum + join_asof": lambda: _pl_burn_asof(pdf)},
                "duckdb": {"window RANGE": lambda: _dk_burn_window(con),
                           "running sum + ASOF JOIN": lambda: _dk_burn_asof(con)}}),
        "burn rates 1h, every minute with traffic (default)": (
            len(evt), lambda: _ours_burn(evt, "traffic"), lambda got: _check_burn(got,
                                                                                  want_traffic), {
                "polars": {"scatter to window ends + group_by": lambda: _pl_traffic_scatter(pdt),
                           "runs + int_ranges + rolling_sum_by": lambda: _pl_traffic_runs(pdt)},
                "duckdb": {"scatter to window ends + GROUP BY": lambda: _dk_traffic_scatter(cont),
                           "runs + range + window RANGE": lambda: _dk_traffic_runs(cont)}}),
    }
    return jobs, rows


def case(events: pd.DataFrame, repeat: int, groups: tuple[int, ...] = GROUPS) -> list[Result]:
    try:
        versions = _versions()
    except ImportError as exc:
        return [Result(f"engines: {exc.name} not installed (pip install 'budgetlab[bench]')", 0,
                       float("nan"))]
    results = []
    for g in groups:
        ev = with_groups(events, g)
        order = np.lexsort((ev["ts"].array.asi8, ev["group"].cat.codes.to_numpy()))
        gs, ts = ev["group"].cat.codes.to_numpy()[order], ev["ts"].array.asi8[order]
        tie_sorted = np.zeros(len(ev), dtype=bool)
        same = (gs[1:] == gs[:-1]) & (ts[1:] == ts[:-1])
        tie_sorted[1:] |= same
        tie_sorted[:-1] |= same
        tied = np.zeros(len(ev), dtype=bool)
        tied[order] = tie_sorted
        jobs, rows = _jobs(ev, tied)
        for job, (n_ev, ours, check, engines) in jobs.items():
            for engine, forms in engines.items():
                label = f"engines: {job}, {g:,} groups vs {engine}"
                best = _best(label, forms, check)
                if best is None:
                    results.append(Result(label, n_ev, float("nan"), target="outputs equal",
                                          passed=False))
                    continue
                name, fn = best
                t, b = time_pair(ours, fn, repeat=max(1, repeat // 2), warmup=0)
                limit = (0.3 if "status" in job else 1.0) if engine == "polars" else None
                target = "(reported)" if limit is None else f"<= {limit}x Polars"
                extra = ({"tied_events_left_out": int(tied.sum())} if "status" in job else
                         {"rows": rows["traffic" if "traffic" in job else "events"]})
                results.append(Result(label, n_ev, t, f"{engine} {versions[engine]}: {name}", b,
                                      None, target,
                                      None if limit is None else t / b <= limit, extra))
    return results
