"""``replay --plot`` draws in a worker forked at start-up (budgetlab.cli.plot_worker): the same
picture as drawing in process, errors raised in the parent as they were raised in the worker, and
no fork where it is not safe (this test process has Arrow loaded: the in-process path)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli.plot_worker import PlotWorker

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the worker forks on Linux only")


def _log(path: Path) -> Path:
    rng = np.random.default_rng(4)
    n = 30_000
    ts = pd.Timestamp("2026-11-01T00:00:00Z") + pd.to_timedelta(np.sort(rng.integers(0, 6 * 86400, n)), unit="s")
    group = np.array([f"g{i}" for i in range(6)])[rng.integers(0, 6, n)]
    bad = rng.random(n) < np.where(group == "g3", 0.2, 0.01)  # g3 burns its budget: drawn first
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": np.where(bad, "timeout", "success"),
                  "group": group}).to_csv(path, index=False)
    return path


def _run(args: list[str], env: dict[str, str] | None = None, code: str = "") -> subprocess.CompletedProcess[str]:
    """``budgetlab ARGS`` in a fresh process (``code`` runs first, before the command line)."""
    script = textwrap.dedent(code) + "\nimport sys\nfrom budgetlab.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


SPY = """
import budgetlab.cli.plot_worker as pw
_start = pw.PlotWorker.start.__func__
def start(cls, draw):
    worker = _start(cls, draw)
    print("worker:", "forked" if worker is not None else "none", file=sys.stderr)
    return worker
import sys
pw.PlotWorker.start = classmethod(start)
"""


def test_the_forked_worker_draws_the_same_picture(tmp_path):
    log = _log(tmp_path / "log.csv")
    args = ["replay", str(log), "--by", "group", "--target", "0.99", "--window", "6h"]
    forked = _run([*args, "--plot", str(tmp_path / "forked.png")], code=SPY)
    assert forked.returncode == 0, forked.stderr
    assert "worker: forked" in forked.stderr  # the fork happened (before Arrow or numba were loaded)
    alone = _run([*args, "--plot", str(tmp_path / "alone.png")], env={"BUDGETLAB_NO_FORK": "1"}, code=SPY)
    assert alone.returncode == 0, alone.stderr
    assert "worker: none" in alone.stderr
    assert (tmp_path / "forked.png").read_bytes() == (tmp_path / "alone.png").read_bytes()
    # the same tables, printed by the parent either way (the last line names the file written)
    assert forked.stdout.replace("forked.png", "alone.png") == alone.stdout
    assert "4 of 6 groups" in forked.stderr and "4 of 6 groups" in alone.stderr


def test_an_error_before_drawing_ends_the_worker_and_writes_nothing(tmp_path):
    log = _log(tmp_path / "log.csv")
    out = _run(["replay", str(log), "--by", "nope", "--plot", str(tmp_path / "t.png")], code=SPY)
    assert out.returncode == 2 and "worker: forked" in out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("budgetlab: error: ")
    assert not (tmp_path / "t.png").exists()


WORKER = """
import errno, os, signal, sys, time
import numpy as np
from budgetlab.cli.plot_worker import PlotWorker
from budgetlab.errors import ConfigError

def render(job, arrays):
    if job["what"] == "refuse":
        raise ConfigError("a refusal in the worker")
    if job["what"] == "bug":
        raise ValueError("a bug in the worker")
    if job["what"] == "disk":
        raise OSError(errno.ENOSPC, "No space left on device", job["path"])
    if job["what"] == "killed":  # as the out-of-memory killer ends a process: no answer
        os.kill(os.getpid(), signal.SIGKILL)
    if job["what"] == "crash":  # ended some other way without an answer
        os._exit(3)
    # what the worker got: its pid (another process?) and the arrays' dtypes and bytes
    got = ";".join(f"{a.dtype.str}:{a.tobytes().hex()}" for a in arrays)
    return f"drawn by {'worker' if os.getpid() != job['parent'] else 'parent'}|{got}".encode()

def here(job, arrays):
    return f"drawn here|{len(arrays)}".encode()

ARRAYS = [np.arange(5, dtype=np.int64) * 10**12, np.array([0.5, -0.0, np.inf, np.nan]), np.array([3, -1], np.int8),
          np.zeros(0, np.float64)]
SPECS = [(a.dtype, len(a)) for a in ARRAYS]
WANT = ";".join(f"{a.dtype.str}:{a.tobytes().hex()}" for a in ARRAYS)

def produce_bad():
    yield ARRAYS[0]
    raise KeyError("a bug while taking the rows")

for what in sys.argv[1:]:
    worker = PlotWorker.start(render)
    assert worker is not None
    if what == "gone":  # the worker dies before it takes the job: the drawing is done here
        os.kill(worker.pid, signal.SIGKILL)
        time.sleep(0.5)
    job = {"what": what, "path": what + ".png", "parent": os.getpid()}
    try:
        if what in ("arrays", "gone", "killed"):
            worker.submit(job, SPECS, lambda: iter(ARRAYS))
        elif what == "bad arrays":
            worker.submit(job, SPECS, produce_bad)
        else:
            worker.submit(job)
        out = worker.result(here).decode()
        print(what, "ok", out.replace(WANT, "ALL ARRAYS") if what == "arrays" else out)
    except ConfigError as exc:
        print(what, "ConfigError", exc)
    except RuntimeError as exc:
        print(what, "RuntimeError", exc)
    except OSError as exc:
        print(what, "OSError", errno.errorcode[exc.errno], exc.filename)
    except KeyError as exc:
        print(what, "KeyError", exc)
    try:
        os.waitpid(worker.pid, 0)
        print(what, "not reaped")
    except ChildProcessError:
        pass
for when in ("before", "after"):  # no plot after all: before the job was sent, or while it renders
    worker = PlotWorker.start(render)
    if when == "after":
        worker.submit({"what": "fine", "path": "x", "parent": os.getpid()}, SPECS, lambda: iter(ARRAYS))
    worker.cancel()
    try:
        os.waitpid(worker.pid, 0)
        print("cancelled", when, "not reaped")
    except ChildProcessError:
        print("cancelled", when, "reaped")
print(sorted(os.listdir(".")))
"""


def test_the_workers_answers_reach_the_parent(tmp_path):
    out = subprocess.run([sys.executable, "-c", WORKER, "fine", "arrays", "refuse", "bug", "disk", "gone", "killed",
                          "crash", "bad arrays"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "fine ok drawn by worker|",
        "arrays ok drawn by worker|ALL ARRAYS",  # streamed as they are: every dtype and bit (NaN, -0.0) kept
        "refuse ConfigError a refusal in the worker",
        "bug RuntimeError drawing the timeline failed: ValueError: a bug in the worker",
        "disk OSError ENOSPC disk.png",  # the CLI says it as a disk error, exit 2
        "gone ok drawn here|4",  # the arrays produced again for the fallback
        "killed ok drawn here|4",  # killed before it answered: drawn here too
        "crash RuntimeError drawing the timeline failed: the drawing process ended (status 768)",
        "bad arrays KeyError 'a bug while taking the rows'",  # raised by result(), the worker stopped
        "cancelled before reaped",
        "cancelled after reaped",
        "[]",  # the worker writes no file, whatever happens
    ]


FAIL_AFTER_SUBMIT = """
import errno
import budgetlab._util.files as bfiles
def full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device", str(args[1]))
bfiles.write_table = full  # --out fails after the timeline's job went to the worker
"""


def test_a_run_that_fails_after_the_job_was_sent_writes_no_plot(tmp_path):
    log = _log(tmp_path / "log.csv")
    out = _run(["replay", str(log), "--by", "group", "--out", str(tmp_path / "tr.csv"),
                "--plot", str(tmp_path / "t.png")], code=SPY + FAIL_AFTER_SUBMIT)
    assert "worker: forked" in out.stderr
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("budgetlab: error: No space left on device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.csv"]  # no plot, no temporary file


def test_no_fork_where_it_is_not_safe():
    import pyarrow  # noqa: F401  (loaded in this process, as in any test process)

    assert PlotWorker.start(lambda **job: None) is None
