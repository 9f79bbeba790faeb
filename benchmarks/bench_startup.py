"""Start-up cases (issue 20), each in fresh processes of this interpreter on this checkout:

- ``budgetlab --help``: wall time of the whole process (what the console script runs), target
  <= 0.2 s; the interpreter's own start (``python -c pass``) measured interleaved as the floor,
  and the heavy packages the process imported listed (there should be none).
- ``import budgetlab`` against ``import pandas``, interleaved, target <= 1.2x; and, for the record,
  ``import budgetlab`` plus the first use of a name that needs pandas (``budgetlab.replay``).
- The first ``replay`` call of a process (100,000 events, 20 groups, 24 h window) with a cold
  numba cache (an empty ``NUMBA_CACHE_DIR``: the kernels are compiled and written) against a warm
  one (the same folder again: loaded from disk), interleaved; the numpy twins
  (``BUDGETLAB_KERNEL=numpy``) for comparison. Reported, no target; the cache hits and misses of
  the kernel in the warm process are shown (numba's dispatcher statistics).

The ``events`` of the run are not used: each process builds what it needs.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import Result, time_pair

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pandas", "numpy", "numba", "matplotlib", "pyarrow", "scipy")
FIRST_REPLAY_EVENTS = 100_000

_HELP = "from budgetlab.cli import main; raise SystemExit(main())"  # what the console script does
_HEAVY_AFTER_HELP = (
    "import contextlib, io, sys\n"
    "from budgetlab.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    main(['--help'])\n"
    f"print(','.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))"
)
_FIRST_REPLAY = f"""
import json, sys, time
import numpy as np
import pandas as pd
import budgetlab as bl
n = {FIRST_REPLAY_EVENTS}
rng = np.random.default_rng(20261129)
ts = pd.Timestamp("2026-10-05", tz="UTC") + pd.to_timedelta(
    np.sort(rng.integers(0, 28 * 86400 * 10**9, n)), unit="ns")
events = pd.DataFrame({{"ts": ts, "ok": rng.random(n) < 0.95,
                       "group": pd.Categorical([f"g{{i:02d}}" for i in rng.integers(0, 20, n)])}})
slo = bl.SLO(target=0.95, window="24h")
t0 = time.perf_counter()
bl.replay(events, slo, by="group")
first = time.perf_counter() - t0
t0 = time.perf_counter()
bl.replay(events, slo, by="group")
second = time.perf_counter() - t0
from budgetlab.windows.kernels import compiled
kernel = compiled("window_counts")
stats = kernel.stats if kernel else None
print(json.dumps({{"first": first, "second": second, "kernel": "numba" if kernel else "numpy",
                  "hits": sum(stats.cache_hits.values()) if stats else None,
                  "misses": sum(stats.cache_misses.values()) if stats else None}}))
"""


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT),
                                         *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env.update(extra)
    return env


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT,
                          env=env or _env(), check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark child failed ({proc.returncode}): {proc.stderr[-500:]}")
    return proc.stdout


def _cpu(code: str, *args: str, into: list[float]) -> None:
    """Run ``code`` in a fresh process and append its CPU seconds (user + system) to ``into``:
    on a loaded machine the wall time of a short process is mostly waiting for a core."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    _run(code, *args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    into.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def _help_case(repeat: int) -> Result:
    n = max(7, 2 * repeat)
    cpu_help: list[float] = []
    cpu_pass: list[float] = []
    t_help, t_pass = time_pair(
        lambda: _cpu(_HELP, "--help", into=cpu_help), lambda: _cpu("pass", into=cpu_pass), repeat=n
    )
    heavy = _run(_HEAVY_AFTER_HELP).strip() or "none"
    return Result("budgetlab --help (fresh process)", 1, t_help, "python -c pass (fresh process)",
                  t_pass, None,
                  "<= 0.2 s wall; no pandas/numpy/numba/matplotlib",
                  t_help <= 0.2 and heavy == "none",
                  {"heavy_imported": heavy, "over_interpreter_s": t_help - t_pass,
                   "cpu_s": statistics.median(cpu_help),
                   "interpreter_cpu_s": statistics.median(cpu_pass)})


def _import_cases(repeat: int) -> list[Result]:
    n = max(7, 2 * repeat)
    t_bl, t_pd = time_pair(lambda: _run("import budgetlab"), lambda: _run("import pandas"),
                           repeat=n)
    t_use, t_pd2 = time_pair(lambda: _run("import budgetlab; budgetlab.replay"),
                             lambda: _run("import pandas"),
                             repeat=n)
    return [
        Result("import budgetlab (fresh process)", 1, t_bl, "import pandas (fresh process)", t_pd,
               None,
               "<= 1.2x baseline", t_bl <= 1.2 * t_pd),
        Result("import budgetlab; budgetlab.replay (fresh process)", 1, t_use,
               "import pandas (fresh process)",
               t_pd2, None, "report (first use imports pandas, numpy)", None),
    ]


def _first_replay_case(repeat: int) -> Result:
    cold: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    twin: list[dict[str, Any]] = []
    for _ in range(max(3, repeat)):
        with tempfile.TemporaryDirectory(prefix="budgetlab-numba-") as cache:
            env = _env(NUMBA_CACHE_DIR=cache)
            # an empty cache: compiled, then written
            cold.append(json.loads(_run(_FIRST_REPLAY, env=env)))
            # the same folder: loaded from disk
            warm.append(json.loads(_run(_FIRST_REPLAY, env=env)))
        twin.append(json.loads(_run(_FIRST_REPLAY, env=_env(BUDGETLAB_KERNEL="numpy"))))
    t_cold = statistics.median(r["first"] for r in cold)
    t_warm = statistics.median(r["first"] for r in warm)
    return Result("first replay of a process, warm numba cache", FIRST_REPLAY_EVENTS, t_warm,
                  "the same, cold cache (compiles)", t_cold, None, "report", None,
                  {"numpy_twins_first_s": statistics.median(r["first"] for r in twin),
                   "second_call_s": statistics.median(r["second"] for r in warm),
                   "warm_cache_hits": warm[-1]["hits"], "warm_cache_misses": warm[-1]["misses"],
                   "cold_cache_misses": cold[-1]["misses"], "kernel": warm[-1]["kernel"]})


def case(events: Any, repeat: int) -> list[Result]:
    """The start-up cases (``events`` unused: every measurement is a fresh process)."""
    started = time.perf_counter()
    results = [_help_case(repeat), *_import_cases(repeat), _first_replay_case(repeat)]
    results[-1].extra["startup_case_total_s"] = time.perf_counter() - started
    return results
