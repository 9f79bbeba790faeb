"""``budgetlab notebooks --html OUT_DIR``: execute the analysis notebooks and render them to HTML.

The notebooks ship with the package (``budgetlab/notebooks/*.ipynb``, found through
:mod:`importlib.resources`), so the command works from any directory after ``pip install``;
``--notebooks DIR_OR_FILE`` runs others (repeatable: every one given, in order;
:mod:`~budgetlab.cli.notebook_files`). Each notebook is executed top to bottom in a fresh kernel
(papermill, optionally with plain parameter values that override its ``parameters`` cell, e.g.
``-p source=path/to/log.parquet``) and rendered with its outputs by nbconvert. Every HTML file is
written atomically (:func:`budgetlab._util.files.atomic_path`) and an existing one is replaced only
with ``--force``; all outputs are checked before the first notebook runs.

A notebook that fails leaves no HTML behind and stops the command with one line naming the
notebook, the cell and where the executed copy with the error is kept:
``OUT_DIR/<name>.failed.ipynb``
(budgetlab's own diagnostic file: it replaces an earlier one of the same name, and is removed when
that notebook later succeeds into the same folder). On a terminal a progress bar runs over the
notebooks and their cells (silent when stderr is not a terminal or ``TQDM_DISABLE`` is set).

The kernels import the budgetlab this command belongs to (its folder goes first on their
``PYTHONPATH``), run in the current working directory (so ``-p source=logs/x.parquet`` means
what it says where the command was typed), and draw with matplotlib's inline backend.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .._util.words import say
from ..errors import ConfigError, NotebookError
from .notebook_failures import drop_stale_failure, error_line, keep_failed, kept_text
from .notebook_files import DEFAULT_NOTEBOOKS, chosen_notebooks, find_notebooks
from .notebook_params import parse_parameters, per_notebook
from .number_flags import number
from .prose import path_label

__all__ = ["add_parser", "render_notebooks", "find_notebooks", "DEFAULT_NOTEBOOKS"]

_INLINE_BACKEND = "module://matplotlib_inline.backend_inline"

@contextlib.contextmanager
def _kernel_environment() -> Iterator[None]:
    """Kernels import this budgetlab (its parent folder first on PYTHONPATH) and draw inline."""
    root = str(Path(__file__).resolve().parents[2])
    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "MPLBACKEND", "JUPYTER_PATH")}
    rest = [p for p in (saved["PYTHONPATH"] or "").split(os.pathsep) if p and p != root]
    os.environ["PYTHONPATH"] = os.pathsep.join([root, *rest])
    os.environ["MPLBACKEND"] = _INLINE_BACKEND
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _html_exporter(exporter_class: Any) -> Any:
    """nbconvert's HTML exporter with its ``lab`` template, checked before any notebook runs. In a
    virtual environment that reuses the system's packages (``--system-site-packages``) nbconvert's
    templates sit under the base installation's ``share/jupyter``, which Jupyter does not search
    from the environment: that folder is then added to ``JUPYTER_PATH`` (restored afterwards by
    :func:`_kernel_environment`)."""
    import sys

    base = Path(sys.base_prefix) / "share" / "jupyter"
    for extra in (None, base):
        if extra is not None:  # the base installation's templates, when they are there
            if not (extra / "nbconvert" / "templates" / "lab").is_dir():
                break
            os.environ["JUPYTER_PATH"] = os.pathsep.join(
                [p for p in (os.environ.get("JUPYTER_PATH"), str(extra)) if p])
        try:
            exporter = exporter_class(template_name="lab")
            exporter.template  # noqa: B018  (loads the template: fails here, not after a run)
            return exporter
        except ValueError:
            pass
    raise ConfigError("nbconvert's HTML template 'lab' is not installed where Jupyter looks "
                      "(share/jupyter of this "
                      "environment); reinstall nbconvert here (pip install --force-reinstall "
                      "nbconvert) or set "
                      "JUPYTER_PATH to the share/jupyter folder that holds nbconvert/templates.")


def _check_notebook(src: Path, nbformat: Any) -> None:
    """Refuse a file nbformat cannot read as a notebook, before the first notebook runs."""
    try:
        nbformat.read(src, as_version=4)
    # not JSON, not a notebook, not UTF-8, unreadable: nbformat raises many kinds
    except Exception as exc:
        raise ConfigError(f"{src.name}: is not a readable Jupyter notebook ({type(exc).__name__}); "
                          "give a .ipynb "
                          "file saved by Jupyter, or leave it out of --notebooks.") from None


def _html_outputs(sources: Sequence[Path], folder: str | os.PathLike[str], *,
                  force: bool) -> list[Path]:
    """``folder/<name>.html`` of each notebook, every one checked (and ``folder`` made) before the
    first notebook runs; the notebooks are registered as inputs (no HTML may replace one)."""
    from .._util.files import make_folder
    from .._util.inputs import register_input
    from .._util.plan import plan_outputs

    if not sources:
        raise ConfigError("no notebooks to render: give "
                          f"{say('notebooks= one or more .ipynb paths', '--notebooks DIR_OR_FILE')}"
                          " (a folder of .ipynb files or one notebook).")
    if not os.fspath(folder).strip():
        raise ConfigError("--html: an empty folder name; give the folder for the HTML files (e.g. "
                          "--html html).")
    out = Path(folder).expanduser()
    seen: set[str] = set()
    for src in sources:
        if src.stem in seen:
            raise ConfigError(f"two notebooks are named {src.stem!r}; their HTML files would "
                              "collide.")
        seen.add(src.stem)
        register_input(src)
    make_folder(out, flag="--html")
    planned = plan_outputs({f"--html {src.stem}.html": out / f"{src.stem}.html" for src in sources},
                           force=force)
    return list(planned.values())


def render_notebooks(
    notebooks: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    parameters: Mapping[str, Any] | None = None,
    force: bool = False,
    timeout: float = 600,
    kernel: str = "python3",
    log: Any = print,
) -> list[Path]:
    """Execute each notebook (with ``parameters`` injected after its ``parameters`` cell) and
    write ``OUT_DIR/<name>.html`` with its outputs. Returns the written paths.

    Raises :class:`~budgetlab.errors.OutputExistsError` before running anything when an output
    exists (without ``force``), and :class:`NotebookError` when a notebook fails (its HTML is not
    written; those of the notebooks before it are; the executed copy with the error is kept as
    ``OUT_DIR/<name>.failed.ipynb`` and the message says so). A progress bar runs over the notebooks
    and their cells when stderr is a terminal (:func:`budgetlab._util.progress.progress_enabled`);
    elsewhere ``log`` gets a line as each notebook starts (``"01_recalibrate_slo.ipynb (1 of 5):
    running"``). ``log`` gets a line as each one ends, with its time and HTML file.
    """
    from .._util.files import atomic_path
    from .._util.progress import progress, progress_enabled

    # before papermill is looked for: a bad value is not reported as a missing tool
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0 \
            or not math.isfinite(timeout):
        raise ConfigError(f"{say(f'timeout={timeout!r}', f'--timeout {timeout!r}')} must be a "
                          "finite number of seconds > 0 (the longest one cell may run), e.g. "
                          f"{say('timeout=600', '--timeout 600')}.")
    tools = _tools()
    sources = [Path(n) for n in notebooks]
    for src in sources:
        _check_notebook(src, tools.nbformat)
    # each notebook gets the -p values its parameters cell names; a name none has is refused
    taken = per_notebook(parse_parameters(parameters),
                         {str(src): list(tools.papermill.inspect_notebook(str(src)))
                          for src in sources})
    targets = _html_outputs(sources, out_dir, force=force)
    run_dir = str(Path.cwd())
    written = []
    show = progress_enabled()
    if show and log is print:  # keep the bars whole: lines go above them
        from tqdm import tqdm

        log = tqdm.write
    with _kernel_environment(), tempfile.TemporaryDirectory(prefix="budgetlab-nb-") as scratch:
        exporter = _html_exporter(tools.HTMLExporter)
        pairs = zip(sources, targets, strict=True)
        for i, (src, target) in enumerate(progress(pairs, total=len(sources), desc="notebooks",
                                                   enabled=show), start=1):
            if not show:  # no bar: a line as each one starts (the first may run for minutes)
                log(f"{src.name} ({i} of {len(sources)}): running")
            started = time.perf_counter()
            executed = Path(scratch) / src.name
            cells: dict[str, Any] | bool = {"desc": src.stem, "leave": False,
                                            "disable": False} if show else False
            _execute(tools, src, executed, target, params=taken[str(src)], kernel=kernel,
                     cwd=run_dir,
                     timeout=timeout,
                     cells=cells)
            nb = tools.nbformat.read(executed, as_version=4)
            body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": src.stem}})
            with atomic_path(target, force=force) as tmp:
                tmp.write_text(body, encoding="utf-8")
            drop_stale_failure(target)
            written.append(target)
            log(f"{src.name}: executed in {time.perf_counter() - started:.1f} s, "
                f"wrote {path_label(target)}")
    return written


def _tools() -> SimpleNamespace:
    """papermill, nbformat and nbconvert's HTML exporter, or the one line that says to install
    them."""
    try:
        import nbformat
        import papermill
        from jupyter_client.kernelspec import NoSuchKernel
        from nbconvert import HTMLExporter
        from papermill.exceptions import PapermillExecutionError
    except ImportError as exc:
        raise ConfigError(f"budgetlab notebooks needs papermill and nbconvert ({exc.name} is "
                          "missing); install "
                          "them with: pip install 'budgetlab[notebooks]'.") from None
    return SimpleNamespace(nbformat=nbformat, papermill=papermill, NoSuchKernel=NoSuchKernel,
                           HTMLExporter=HTMLExporter,
                           PapermillExecutionError=PapermillExecutionError)


def _execute(tools: SimpleNamespace, src: Path, executed: Path, target: Path, *, params: dict[str,
                                                                                              Any],
             kernel: str, cwd: str, timeout: float, cells: dict[str, Any] | bool) -> None:
    """Run ``src`` into ``executed``; a failure is one line (the executed copy kept beside
    ``target``)."""
    try:
        with _kernel_manager() as manager:
            tools.papermill.execute_notebook(
                str(src), str(executed), parameters=params, kernel_name=kernel,
                progress_bar=cells, cwd=cwd, execution_timeout=timeout, log_output=False,
                **({"kernel_manager_class": manager} if manager is not None else {}),
            )
    except tools.PapermillExecutionError as exc:
        raise NotebookError(error_line(src, exc, keep_failed(executed, target))) from None
    except tools.NoSuchKernel:
        raise ConfigError(f"no Jupyter kernel named {kernel!r}; install one (pip install "
                          "ipykernel) or "
                          "give --kernel NAME (see: jupyter kernelspec list).") from None
    except (RuntimeError, TimeoutError) as exc:  # the kernel died or a cell ran out of time
        raise NotebookError(f"{src.name}: the kernel stopped ({type(exc).__name__}): a cell ran "
                            "longer than "
                            f"the timeout ({timeout:g} s) or the kernel died"
                            f"{kept_text(keep_failed(executed, target))}.") from None


@contextlib.contextmanager
def _kernel_manager() -> Iterator[Any]:
    """The class of the kernel's manager: on POSIX, one that talks over Unix sockets in a
    private temporary folder (no TCP port that other local users could reach, and no "running
    over TCP without encryption" warning from ipykernel 7 per notebook); elsewhere ``None``,
    papermill's own (TCP on 127.0.0.1). nbclient creates, owns and shuts down the manager; it is
    async, as nbclient's default is (with a blocking one a cell never times out)."""
    if os.name != "posix":
        yield None
        return
    from jupyter_client.manager import AsyncKernelManager

    with tempfile.TemporaryDirectory(prefix="budgetlab-kernel-") as folder:
        class IPCKernelManager(AsyncKernelManager):  # type: ignore[misc]
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(transport="ipc", ip=os.path.join(folder, "kernel"), **kwargs)

            async def _async_interrupt_kernel(self) -> None:
                # jupyter_client sends SIGINT before every shutdown request; papermill shuts
                # down on the reply to its last request, and a SIGINT reaching ipykernel before
                # it restores its handler printed "KeyboardInterrupt caught in kernel". The
                # request alone stops an idle kernel; a busy one (a cell over the timeout) gets
                # jupyter_client's SIGTERM, then SIGKILL.
                if not self.shutting_down:
                    await super()._async_interrupt_kernel()

        yield IPCKernelManager


def _cmd_notebooks(args: argparse.Namespace) -> int:
    paths = chosen_notebooks(args.notebooks)  # every --notebooks value, in order
    render_notebooks(paths, args.html, parameters=parse_parameters(args.parameter),
                     force=args.force,
                     timeout=args.timeout, kernel=args.kernel)
    return 0


def add_parser(subparsers: Any) -> None:
    """Register ``budgetlab notebooks``."""
    p = subparsers.add_parser(
        "notebooks", help="execute the analysis notebooks and render them to HTML with their "
                          "outputs",
        description="Execute notebooks top to bottom (papermill) and write OUT_DIR/<name>.html "
                    "with the outputs (nbconvert). Kernels run in the current folder. A notebook "
                    "that fails is kept, executed up to the error, as OUT_DIR/<name>.failed.ipynb.")
    p.add_argument("--html", required=True, metavar="OUT_DIR",
                   help="folder for the HTML files (created if missing)")
    p.add_argument("--notebooks", action="append", default=None, metavar="DIR_OR_FILE",
                   help="a folder of .ipynb files or one notebook; a bare name such as "
                        "04_incident_replay.ipynb not found here names a shipped one; "
                        "repeatable: every one given runs, in order, e.g. --notebooks "
                        "01_recalibrate_slo.ipynb --notebooks 04_incident_replay.ipynb (default: "
                        "all notebooks shipped with budgetlab)")
    p.add_argument("-p", "--parameter", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of the notebooks' parameters cell; VALUE is a plain "
                        "value (None, true/false, a number, else text: 3:47 stays text); "
                        "repeatable, e.g. -p source=path/to/log.parquet")
    p.add_argument("--timeout", type=number, default=600,
                   help="seconds one cell may run (600)")
    p.add_argument("--kernel", default="python3", help="Jupyter kernel name (python3)")
    p.add_argument("--force", action="store_true", help="overwrite existing HTML files")
    p.set_defaults(func=_cmd_notebooks)
