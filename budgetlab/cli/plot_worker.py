"""Drawing a run's timeline in a forked process, so that importing matplotlib overlaps the read.

Importing matplotlib and the plotting code costs ~0.4 s, a third of what ``--plot`` adds to a
run. A run that will draw forks first thing (before anything starts a thread); the child imports
matplotlib while the parent reads the log and replays it, then draws what the parent sends (the
drawn groups' rows, a few MB) with the same code as an in-process run and writes the file
atomically, and answers ``ok`` or the error. Where a fork is not safe (not Linux, a thread already
running, Arrow, numba or matplotlib already imported, as in a test process), :meth:`PlotWorker.start`
gives ``None`` and the run draws in process.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..errors import BudgetlabError

__all__ = ["PlotWorker", "draw_in_worker"]

#: Modules whose import may start threads (a fork must come before them).
_THREADED = ("pyarrow", "numba", "matplotlib", "dask", "distributed")


def _read_all(fd: int) -> bytes:
    with os.fdopen(fd, "rb") as f:
        return f.read()


def _warm_up() -> None:
    """Draw a small figure into memory while the parent is still reading: fonts, text layout, the
    Agg renderer and the PNG writer are loaded then, not during the timeline's draw."""
    import io

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 1.5))
    try:
        ax.plot([0, 1], [0, 1], label="x")
        ax.set_title("x", loc="left")
        ax.set_ylabel("y")
        ax.legend()
        fig.savefig(io.BytesIO(), format="png", dpi=50)
    finally:
        plt.close(fig)


def _one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
              file: Any = None, line: str | None = None) -> None:
    """Warnings as the command line shows them: one line each."""
    sys.stderr.write(f"budgetlab: warning: {' '.join(str(message).split())}\n")


def _child(job_r: int, res_w: int, draw: Callable[..., None]) -> None:
    """The forked process: import the plotting code, wait for one job, draw it, answer; never
    returns (``os._exit``: the parent's buffers and exit handlers are the parent's)."""
    import warnings

    warnings.simplefilter("default")
    warnings.showwarning = _one_line
    try:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot  # noqa: F401  (the import is the point: done while the parent reads)

            from .. import plotting  # noqa: F401
            from ..events import schema  # noqa: F401  (the incidents' scopes)
            from . import replay  # (pandas, and the drawing code)

            _warm_up()
            replay.prepare_timeline()  # the figure of the usual case, ready before the data come
        except Exception:  # noqa: BLE001  (a head start only: the drawing imports again and fails with the real message)
            pass
        data = _read_all(job_r)
        if not data:  # the parent gave up (an error before drawing): nothing to do
            os._exit(0)
        job = pickle.loads(data)
        from .._util.files import restore_run

        restore_run(job.pop("run"))  # the parent's inputs: no output over them, here either
        try:
            draw(**job)
            result: tuple[Any, ...] = ("ok",)
        except BudgetlabError as exc:
            result = ("error", type(exc), str(exc))
        except OSError as exc:  # disk full, permission denied: the parent says it as it would have
            result = ("oserror", exc.errno, exc.strerror, exc.filename)
        except Exception as exc:  # a bug: the parent reports it as one
            result = ("crash", f"{type(exc).__name__}: {exc}")
        with os.fdopen(res_w, "wb") as f:
            pickle.dump(result, f)
    except KeyboardInterrupt:
        os._exit(130)
    except BaseException:
        os._exit(1)
    os._exit(0)


class PlotWorker:
    """A forked process that draws one timeline (see the module docstring)."""

    def __init__(self, pid: int, job_w: int, res_r: int) -> None:
        self.pid, self.job_w, self.res_r = pid, job_w, res_r
        self.done = False

    @classmethod
    def start(cls, draw: Callable[..., None]) -> PlotWorker | None:
        """Fork the worker that will call ``draw(**job)``, or ``None`` where a fork is not safe."""
        if (not hasattr(os, "fork") or sys.platform != "linux" or threading.active_count() > 1
                or any(m in sys.modules for m in _THREADED) or os.environ.get("BUDGETLAB_NO_FORK")):
            return None
        sys.stdout.flush()
        sys.stderr.flush()
        job_r, job_w = os.pipe()
        res_r, res_w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (job_r, job_w, res_r, res_w):
                os.close(fd)
            return None
        if pid == 0:  # pragma: no cover - the child's coverage is not collected
            os.close(job_w)
            os.close(res_r)
            _child(job_r, res_w, draw)
        os.close(job_r)
        os.close(res_w)
        return cls(pid, job_w, res_r)

    def draw(self, fallback: Callable[..., None], **job: Any) -> None:
        """Send the job, wait for the drawing; the child's error is raised here as it was raised
        there (a :class:`~budgetlab.errors.BudgetlabError` of the same class and message, an
        :class:`OSError` with its number and file). A worker that is gone before it takes the
        job (killed, out of memory) leaves the drawing to ``fallback(**job)`` in this process."""
        from .._util.files import run_state

        self.done = True
        job_w, self.job_w = self.job_w, -1  # the file object below closes it, whatever happens
        try:
            with os.fdopen(job_w, "wb") as f:
                pickle.dump({**job, "run": run_state()}, f, protocol=pickle.HIGHEST_PROTOCOL)
        except OSError:  # the worker is gone (a closed pipe): draw here
            self._end()
            fallback(**job)
            return
        res_r, self.res_r = self.res_r, -1
        data = _read_all(res_r)
        _, status = os.waitpid(self.pid, 0)
        result: tuple[Any, ...] = pickle.loads(data) if data else ("crash", f"the drawing process ended (status {status})")
        if result[0] == "error":
            error: type[BudgetlabError] = result[1]
            raise error(result[2])
        if result[0] == "oserror":
            raise OSError(result[1], result[2], result[3])
        if result[0] != "ok":
            raise RuntimeError(f"drawing the timeline failed: {result[1]}")

    def _end(self) -> None:
        """Stop the worker now (it draws nothing more) and reap it."""
        import signal

        for fd in (self.job_w, self.res_r):
            if fd >= 0:
                os.close(fd)
        self.job_w = self.res_r = -1
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)

    def cancel(self) -> None:
        """No drawing after all (the run failed or was interrupted before it): the worker is
        stopped at once (never a plot written after the run ended) and reaped."""
        if self.done:
            return
        self.done = True
        self._end()


def draw_in_worker(**job: Any) -> None:
    """The worker's drawing: :func:`budgetlab.cli.replay.draw_timeline` (imported in the child)."""
    from .replay import draw_timeline

    draw_timeline(**job)
