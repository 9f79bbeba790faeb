"""Drawing a run's timeline in a forked process, so that the drawing overlaps the run's own work.

Importing matplotlib and the plotting code costs ~0.4 s, and drawing and encoding the figure about
a second on millions of events. A run that will draw forks first thing (before anything starts a
thread); the child imports matplotlib while the parent reads the log and replays it. Right after
the replay the parent sends the job: a thread streams the drawn groups' rows as numpy bytes (the
whole table when there are no groups), and the child draws them with the same code as an
in-process run while the parent computes and prints its summary, then answers with the encoded
figure (or the error). The child writes no file: the parent writes the bytes atomically when its
own work is done, so a run that fails or is interrupted after the job was sent leaves no plot, and
a killed worker leaves no temporary file. Where a fork is not safe (not Linux, a thread already
running, Arrow, numba or matplotlib already imported, as in a test process),
:meth:`PlotWorker.start` gives ``None`` and the run draws in process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import struct
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from ..errors import BudgetlabError

__all__ = ["PlotWorker", "render_in_worker"]

#: What renders a job: ``render(job, arrays)`` gives the encoded figure.
Render = Callable[[dict[str, Any], list[Any]], bytes]

#: Modules whose import may start threads (a fork must come before them).
_THREADED = ("pyarrow", "numba", "matplotlib", "dask", "distributed")


def _read_all(fd: int) -> bytes:
    with os.fdopen(fd, "rb") as f:
        return f.read()


#: A job's frame: the pickle's length and the number of arrays, then each array's dtype (as
#: text, 16 bytes) and length; then the pickle; then the arrays' bytes (:func:`_frame_job`).
_HEADER = struct.Struct("<QQ")
_SPEC = struct.Struct("<16sQ")

#: What the worker is asked to render: the job (pickled) and the arrays that go with it, each
#: ``(numpy dtype, length)``, and a callable that yields them (called in the sending thread).
Specs = Sequence[tuple[Any, int]]
Produce = Callable[[], Iterable[Any]]


def _frame_job(job: dict[str, Any], specs: Specs) -> bytes:
    """The frame and the pickle of ``job``; the arrays follow (:func:`_send_job`)."""
    meta = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    if any(len(dtype.str) > 16 for dtype, _ in specs):
        raise ValueError("an array's dtype does not fit the frame (16 characters); send it with the job")
    frame = b"".join(_SPEC.pack(dtype.str.encode("ascii"), n) for dtype, n in specs)  # numpy dtypes
    return _HEADER.pack(len(meta), len(specs)) + frame + meta


def _write_all(f: Any, view: memoryview) -> None:
    done = 0
    while done < view.nbytes:  # a raw write may take part of it
        done += f.write(view[done:]) or 0


def _send_job(fd: int, head: bytes, specs: Specs, produce: Produce | None) -> None:
    """Write a framed job (:func:`_frame_job`) and its arrays, as they are, to the pipe ``fd``,
    and close it. The arrays come from ``produce()`` (numpy takes: this may run in a thread)."""
    import numpy as np

    with contextlib.suppress(OSError):  # a larger pipe: fewer switches between the processes
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    with os.fdopen(fd, "wb", buffering=0) as f:
        _write_all(f, memoryview(head))
        for (dtype, n), produced in zip(specs, produce() if produce is not None else (), strict=True):
            array = np.ascontiguousarray(produced)
            if array.dtype != np.dtype(dtype) or array.shape != (n,):
                raise ValueError(f"an array is {array.dtype}{list(array.shape)}, announced as {dtype}[{n}]")
            _write_all(f, array.view(np.uint8).data)


def _read_into(f: Any, view: memoryview) -> None:
    """Fill ``view`` from ``f`` (an :class:`EOFError` if the pipe ends first)."""
    done = 0
    while done < view.nbytes:
        got = f.readinto(view[done:])
        if not got:
            raise EOFError("the job ended early")
        done += got


def _receive_job(fd: int) -> tuple[dict[str, Any], list[Any]] | None:
    """The job and arrays :func:`_send_job` wrote (each array read straight into its own memory),
    or ``None`` when the parent closed the pipe without one."""
    with os.fdopen(fd, "rb", buffering=0) as f:
        head = bytearray(_HEADER.size)
        got = f.readinto(head)
        if not got:
            return None
        _read_into(f, memoryview(head)[got:])
        meta_length, n_arrays = _HEADER.unpack(head)
        frame = bytearray(_SPEC.size * n_arrays)
        _read_into(f, memoryview(frame))
        specs = [_SPEC.unpack_from(frame, i * _SPEC.size) for i in range(n_arrays)]
        meta = bytearray(meta_length)
        _read_into(f, memoryview(meta))
        arrays = []
        if specs:
            import numpy as np

            for dtype, n in specs:
                array = np.empty(n, dtype=np.dtype(dtype.rstrip(b"\0").decode("ascii")))
                _read_into(f, array.view(np.uint8).data)
                arrays.append(array)
    job: dict[str, Any] = pickle.loads(meta)
    return job, arrays


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


def _child(job_r: int, res_w: int, render: Render) -> None:
    """The forked process: import the plotting code, wait for one job, render it, answer with
    the bytes; never returns (``os._exit``: the parent's buffers and exit handlers are the
    parent's)."""
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
        received = _receive_job(job_r)
        if received is None:  # the parent closed the pipe without a job (it ended): nothing to do
            os._exit(0)
        try:
            result: tuple[Any, ...] = ("ok", render(*received))
        except BudgetlabError as exc:
            result = ("error", type(exc), str(exc))
        except OSError as exc:  # a font or a cache that cannot be read: the parent says it as it would have
            result = ("oserror", exc.errno, exc.strerror, exc.filename)
        except Exception as exc:  # a bug: the parent reports it as one
            result = ("crash", f"{type(exc).__name__}: {exc}")
        with os.fdopen(res_w, "wb") as f:
            pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
    except KeyboardInterrupt:
        os._exit(130)
    except BaseException:
        os._exit(1)
    os._exit(0)


class PlotWorker:
    """A forked process that renders one timeline (see the module docstring): :meth:`start`
    forks it, :meth:`submit` sends the job and returns at once, :meth:`result` waits for the
    encoded figure; :meth:`cancel` stops it."""

    def __init__(self, pid: int, job_w: int, res_r: int) -> None:
        self.pid, self.job_w, self.res_r = pid, job_w, res_r
        self.done = False  # the result was collected, or the worker was stopped
        self.job: tuple[dict[str, Any], Produce | None] | None = None  # submitted (rendered here if never taken)
        self.sender: threading.Thread | None = None  # the thread writing it to the pipe
        self.unsent = False  # the worker was gone before it took the whole job
        self.failed: BaseException | None = None  # what the sending thread raised that was not the pipe's
        self.reaped = False

    @classmethod
    def start(cls, render: Render) -> PlotWorker | None:
        """Fork the worker that will answer ``render(job, arrays)``, or ``None`` where a fork is not
        safe."""
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
            _child(job_r, res_w, render)
        os.close(job_r)
        os.close(res_w)
        return cls(pid, job_w, res_r)

    def submit(self, job: dict[str, Any], specs: Specs = (), produce: Produce | None = None) -> None:
        """Send the job and return at once: a thread of this process writes it to the pipe with
        the arrays ``produce()`` yields (``specs``: each one's dtype and length; the worker reads
        them straight into its own memory) while the run goes on, and the worker renders it. A
        worker that is gone before it has taken the job, or is killed before it answers (out of
        memory), leaves it to :meth:`result`'s fallback."""
        head = _frame_job(job, specs)  # the pickling here: the thread only gathers and writes arrays
        job_w, self.job_w = self.job_w, -1  # the sender's from here on: it closes it
        self.job = (job, produce)
        sender = threading.Thread(target=self._send, args=(job_w, head, specs, produce), name="budgetlab-plot-job",
                                  daemon=True)
        try:
            sender.start()
        except RuntimeError:  # no thread to be had: sent from this one
            self._send(job_w, head, specs, produce)
        else:
            self.sender = sender

    def _send(self, job_w: int, head: bytes, specs: Specs, produce: Produce | None) -> None:
        try:
            _send_job(job_w, head, specs, produce)
        except OSError:  # the worker is gone (a closed pipe)
            self.unsent = True
        except BaseException as exc:  # noqa: BLE001  (a bug in producing the arrays: raised by result())
            self.failed = exc

    def _sent(self) -> bool:
        """Wait for the sending thread; whether the worker took the whole job."""
        if self.sender is not None:
            self.sender.join()
            self.sender = None
        return not self.unsent

    def result(self, fallback: Render) -> bytes:
        """Wait for the submitted job's bytes; the worker's error is raised here as it was raised
        there (a :class:`~budgetlab.errors.BudgetlabError` of the same class and message, an
        :class:`OSError` with its number and file). A job the worker never took, or did not
        answer because it was killed (SIGKILL: out of memory), is rendered here by
        ``fallback(job, arrays)``. The worker is reaped whatever happens, Ctrl-C included."""
        if self.job is None:
            raise RuntimeError("PlotWorker.result() without a job submitted")
        job, produce = self.job
        try:
            answer = self._answer()
        finally:
            self.done, self.job = True, None
            self._end()  # reaped in any case (nothing to stop after an answer)
        if answer is None:
            return fallback(job, list(produce()) if produce is not None else [])
        if answer[0] == "ok":
            return cast(bytes, answer[1])
        if answer[0] == "error":
            error: type[BudgetlabError] = answer[1]
            raise error(answer[2])
        if answer[0] == "oserror":
            raise OSError(answer[1], answer[2], answer[3])
        raise RuntimeError(f"drawing the timeline failed: {answer[1]}")

    def _answer(self) -> tuple[Any, ...] | None:
        """The worker's answer, or ``None`` for a job to render here."""
        sent = self._sent()
        if self.failed is not None:
            raise self.failed
        if not sent:
            return None
        res_r, self.res_r = self.res_r, -1
        data = _read_all(res_r)
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        try:
            return cast(tuple[Any, ...], pickle.loads(data)) if data else self._ended(status)
        except (pickle.UnpicklingError, EOFError):  # cut short: the process ended while it answered
            return self._ended(status)

    @staticmethod
    def _ended(status: int) -> tuple[Any, ...] | None:
        """A worker that ended without an answer: killed from outside (SIGKILL, as the kernel's
        out-of-memory killer does) leaves the job to this process; anything else is a crash."""
        import signal

        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            return None
        return ("crash", f"the drawing process ended (status {status})")

    def _end(self) -> None:
        """Stop the worker now (it renders nothing more), end the sending, close the pipes and
        reap it; again, it does nothing."""
        import signal

        if not self.reaped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        self._sent()  # a write in progress ends with the worker (a closed pipe)
        for fd in (self.job_w, self.res_r):
            if fd >= 0:
                os.close(fd)
        self.job_w = self.res_r = -1
        if not self.reaped:
            os.waitpid(self.pid, 0)
            self.reaped = True

    def cancel(self) -> None:
        """No plot after all (the run failed or was interrupted, before or after the job was
        sent): the worker is stopped at once and reaped. It writes no file, so nothing is left."""
        if self.done:
            return
        self.done, self.job = True, None
        self._end()


def render_in_worker(job: dict[str, Any], arrays: list[Any]) -> bytes:
    """The worker's drawing: :func:`budgetlab.cli.replay.render_job` (imported in the child)."""
    from .replay import render_job

    return render_job(job, arrays)
