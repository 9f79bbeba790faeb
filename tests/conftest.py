import os
import sys
from collections.abc import Iterator
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # tests/seed_tracker.py and benchmarks are imported by path
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("TQDM_DISABLE", "1")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("ci")

from tests.leaks import cluster_leftovers  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def no_dask_cluster_left_running() -> Iterator[None]:
    """After each test module: no Dask ``distributed`` client or cluster is left running (its
    threads and worker processes would outlive the module, beside every later test of the
    process; tests/leaks.py). Start one in a fixture with a ``with`` block."""
    yield
    left = cluster_leftovers()
    if left:
        pytest.fail("this module left a Dask cluster or client running: " + ", ".join(left)
                    + "; close it in the fixture that starts it (with LocalCluster(...) as"
                    " cluster, Client(cluster) as client: yield client)", pytrace=False)


@pytest.fixture
def wide_terminal(monkeypatch):
    """A terminal wide enough for every table the CLI prints (``COLUMNS=250``), for the tests that
    read a table's rows, one row a line: a narrower one cuts a wide table into blocks of columns
    (:func:`budgetlab.cli.shared.table_text`, tested in tests/cli/test_table_width.py)."""
    monkeypatch.setenv("COLUMNS", "250")


@pytest.fixture
def saved(monkeypatch):
    """The figures the command line encodes (every plot is saved through ``figure_bytes``): their
    axes' x and y labels, titles, texts, legend texts, the failure-bucket layers' labels (gid
    ``bucket``), the labelled axes' ticks ``(x, text)`` and the size, kept."""
    import budgetlab._util.figures as bfiles

    real = bfiles.figure_bytes
    seen: list[dict] = []

    def keep(fig, path, **kw):
        fig.canvas.draw()  # the tick labels as drawn
        seen.append(
            {
                "xlabels": [a.get_xlabel() for a in fig.axes if a.get_xlabel()],
                "ylabels": [a.get_ylabel() for a in fig.axes if a.get_ylabel()],
                "legends": [[t.get_text() for t in a.get_legend().get_texts()]
                            for a in fig.axes if a.get_legend() is not None],
                "size": tuple(fig.get_size_inches() * kw.get("dpi", 110)),
                "titles": [a.get_title(loc="left") for a in fig.axes if a.get_title(loc="left")],
                "texts": [t.get_text() for t in fig.texts],
                "layers": [p.get_label() for a in fig.axes for p in a.patches
                           if p.get_gid() == "bucket"],
                "ticks": [[(t.get_position()[0], t.get_text()) for t in a.get_xticklabels()]
                          for a in fig.axes if a.get_xlabel()],
            }
        )
        return real(fig, path, **kw)

    monkeypatch.setattr(bfiles, "figure_bytes", keep)
    return seen


@pytest.fixture
def outage_log(tmp_path):
    """A CSV log (``ts``, ``outcome``) of 3 h, 2026-01-05 00:00 .. 02:59:54 UTC: 10 events a
    minute, 6 s apart (1,800 events); every event of 01:40 .. 01:50 (the minutes 100..109, 100
    events) is ``error``, the others ``success``. Read it with ``--outcomes
    success=success,error=error``."""
    import numpy as np
    import pandas as pd

    minute = np.repeat(np.arange(180), 10)
    ts = (pd.Timestamp("2026-01-05", tz="UTC") + pd.to_timedelta(minute, unit="min")
          + pd.to_timedelta(np.tile(np.arange(10) * 6, 180), unit="s"))
    bad = (minute >= 100) & (minute < 110)
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts, "outcome": np.where(bad, "error", "success")}).to_csv(log, index=False)
    return log


@pytest.fixture
def metric_series(tmp_path):
    """A NAB-like metric series (``timestamp,value``, like NAB's ``realKnownCause`` files): 864
    rows every 5 minutes, 2026-03-02 00:00 .. 03-04 23:55 (naive: read as UTC), value 40 except
    every 10th row (rows 0, 10, ..., 860: 87 rows), which reads 60. Read with ``--time timestamp
    --ok-when 'value<50'``: 777 successes and 87 failures."""
    import datetime as dt

    lines = ["timestamp,value"]
    for i in range(864):
        at = dt.datetime(2026, 3, 2) + dt.timedelta(minutes=5 * i)
        lines.append(f"{at:%Y-%m-%d %H:%M:%S},{60.0 if i % 10 == 0 else 40.0}")
    path = tmp_path / "latency.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def every_fifth_slow(tmp_path):
    """A CSV log (``ts``, ``outcome``, ``s``: seconds) of three days, 2026-01-01 00:00 ..
    01-03 23:50 UTC: one successful attempt every 10 min (432), every 5th taking 30 s and the
    others 5 s, so that the 24 h window's share within 20 s stays at 80 % (+- 1 of ~144)."""
    import pandas as pd

    n = 3 * 144
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(range(0, 10 * n, 10), unit="min")
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success",
                  "s": [30.0 if i % 5 == 0 else 5.0 for i in range(n)]}).to_csv(path, index=False)
    return path


@pytest.fixture
def one_event_grid():
    """A builder of small bin grids, ``one_event_grid(groups, bins)``: groups ``r0``, ``r1``, ...
    (key ``region``), 1-minute bins from the epoch, one good event in every bin (for the memory
    refusals, which count groups and bins)."""
    import numpy as np
    import pandas as pd

    from budgetlab.windows.bingrid import BinGrid

    def build(groups: int, bins: int) -> BinGrid:
        total = np.ones((groups, bins), dtype=np.int64)
        keys = pd.DataFrame({"region": [f"r{i}" for i in range(groups)]})
        return BinGrid.from_dense(keys, ["region"], 0, 60 * 10**9, total, np.zeros_like(total))

    return build


@pytest.fixture
def close_figures() -> Iterator[None]:
    """Closes every pyplot figure after the test (a module of drawing tests takes it with
    ``pytestmark = pytest.mark.usefixtures("close_figures")``)."""
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


@pytest.fixture
def fresh_run() -> Iterator[None]:
    """The test in a run of its own: no input or planned output of another test is remembered
    before it, and none of its own after it (``budgetlab._util.plan.new_run``); a module takes it
    with ``pytestmark = pytest.mark.usefixtures("fresh_run")``."""
    from budgetlab._util.plan import new_run

    new_run()
    yield
    new_run()
