"""``budgetlab notebooks --html OUT_DIR``: execute the analysis notebooks and render them to HTML.

Each notebook is executed top to bottom in a fresh kernel (papermill, optionally with parameters
that override its ``parameters`` cell) and rendered with its outputs by nbconvert. Every HTML file
is written atomically (:func:`budgetlab._util.files.atomic_path`) and an existing one is replaced only with
``--force``; all outputs are checked before the first notebook runs. A notebook that fails leaves
no HTML behind and stops the command with one line naming the notebook and the cell.

The kernels import the budgetlab this command belongs to (its folder goes first on their
``PYTHONPATH``), run in the current working directory (so ``-p source=logs/x.parquet`` means
what it says where the command was typed), and draw with matplotlib's inline backend.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, NotebookError

__all__ = ["add_parser", "render_notebooks", "find_notebooks", "parse_parameters", "NotebookError",
           "DEFAULT_NOTEBOOKS"]

#: The repository's notebooks, next to the package in a checkout (absent from an installed wheel).
DEFAULT_NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def find_notebooks(spec: str | os.PathLike[str] | None = None) -> list[Path]:
    """The notebooks to render: one ``.ipynb`` file, or every ``*.ipynb`` of a folder (sorted by
    name, without hidden or ``_``-prefixed files); default :data:`DEFAULT_NOTEBOOKS`.

    >>> [p.name for p in find_notebooks()][:1]
    ['01_recalibrate_slo.ipynb']
    """
    path = Path(spec).expanduser() if spec is not None else DEFAULT_NOTEBOOKS
    if path.is_file():
        if path.suffix != ".ipynb":
            raise ConfigError(f"{path.name}: is not a notebook; give a .ipynb file or a folder of them.")
        return [path]
    if path.is_dir():
        found = sorted(p for p in path.glob("*.ipynb") if not p.name.startswith((".", "_")))
        if not found:
            raise ConfigError(f"{path}: holds no .ipynb notebooks; give --notebooks DIR or a notebook file.")
        return found
    if spec is None:
        raise ConfigError(f"{path}: no notebooks folder next to this installation of budgetlab; give "
                          "--notebooks DIR (the notebooks/ folder of a budgetlab checkout).")
    raise ConfigError(f"{path}: no such file or folder; give --notebooks DIR or a .ipynb file.")


def parse_parameters(items: Sequence[str] | Mapping[str, Any] | None) -> dict[str, Any]:
    """``["source=logs/x.parquet", "target=0.97", "incidents_source=null"]`` as a dict; each
    value is read as YAML (numbers, ``null``/``None``, ``true``, lists, mappings), else kept as text.

    >>> parse_parameters(["target=0.97", "incidents_source=None", "windows=[1h, 24h]", "source=a=b.csv"])
    {'target': 0.97, 'incidents_source': None, 'windows': ['1h', '24h'], 'source': 'a=b.csv'}
    """
    if items is None:
        return {}
    if isinstance(items, Mapping):
        out = dict(items)
    else:
        import yaml

        out = {}
        for item in items:
            name, sep, text = str(item).partition("=")
            name = name.strip()
            if not sep:
                raise ConfigError(f"-p {item!r}: write NAME=VALUE (e.g. -p source=path/to/log.parquet).")
            if text.strip() in ("None", "none"):  # Python spelling, as in the parameters cell
                value: Any = None
            else:
                try:
                    value = yaml.safe_load(text) if text.strip() else ""
                except yaml.YAMLError:
                    value = text
            out[name] = value
    for name in out:
        if not isinstance(name, str) or not _NAME.match(name):
            raise ConfigError(f"-p {name!r}: a parameter name must be a Python identifier (e.g. source).")
    return out


@contextlib.contextmanager
def _kernel_environment() -> Iterator[None]:
    """Kernels import this budgetlab (its parent folder first on PYTHONPATH) and draw inline."""
    root = str(Path(__file__).resolve().parents[2])
    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "MPLBACKEND")}
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


def _error_line(src: Path, exc: BaseException) -> str:
    """One line about a failed notebook. The value of an exception is shown only for budgetlab's
    own errors, whose messages never hold data values (other messages might)."""
    from .. import errors

    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = " ".join(str(getattr(exc, "evalue", "")).split())
    count = getattr(exc, "exec_count", None)
    where = f"cell [{count}]" if count is not None else "a cell"
    if ename in errors.__all__ and evalue:
        detail = f"{ename}: {evalue[:400]}"
    else:
        detail = f"{ename} (open the notebook, e.g. with jupyter lab, to see the traceback)"
    return f"{src.name}: {where} raised {detail}"


def _html_outputs(sources: Sequence[Path], folder: str | os.PathLike[str], *, force: bool) -> list[Path]:
    """``folder/<name>.html`` of each notebook, every one checked (and ``folder`` made) before the
    first notebook runs; the notebooks are registered as inputs (no HTML may replace one)."""
    from .._util.files import plan_outputs, register_input

    if not sources:
        raise ConfigError("no notebooks to render.")
    if not os.fspath(folder).strip():
        raise ConfigError("--html: an empty folder name; give the folder for the HTML files (e.g. --html html).")
    out = Path(folder).expanduser()
    seen: set[str] = set()
    for src in sources:
        if src.stem in seen:
            raise ConfigError(f"two notebooks are named {src.stem!r}; their HTML files would collide.")
        seen.add(src.stem)
        register_input(src)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out.name}: is a file; --html takes a folder.")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"--html {out.name}: cannot create the folder ({exc.strerror or type(exc).__name__}); give "
                          "a folder you can write to.") from None
    planned = plan_outputs({f"--html {src.stem}.html": out / f"{src.stem}.html" for src in sources}, force=force)
    return list(planned.values())


def render_notebooks(
    notebooks: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    parameters: Mapping[str, Any] | None = None,
    force: bool = False,
    timeout: float = 600,
    kernel: str = "python3",
    cwd: str | os.PathLike[str] | None = None,
    log: Any = print,
) -> list[Path]:
    """Execute each notebook (with ``parameters`` injected after its ``parameters`` cell) and
    write ``OUT_DIR/<name>.html`` with its outputs. Returns the written paths.

    Raises :class:`~budgetlab.errors.OutputExistsError` before running anything when an output
    exists (without ``force``), and :class:`NotebookError` when a notebook fails (its HTML is not
    written; those of the notebooks before it are).
    """
    from .._util.files import atomic_path

    try:
        import nbformat
        import papermill
        from jupyter_client.kernelspec import NoSuchKernel
        from nbconvert import HTMLExporter
        from papermill.exceptions import PapermillExecutionError
    except ImportError as exc:
        raise ConfigError(f"budgetlab notebooks needs papermill and nbconvert ({exc.name} is missing); install "
                          "them with: pip install 'budgetlab[notebooks]'.") from None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ConfigError(f"timeout={timeout!r} must be a number of seconds > 0.")
    sources = [Path(n) for n in notebooks]
    targets = _html_outputs(sources, out_dir, force=force)
    params = parse_parameters(parameters)
    run_dir = str(Path(cwd) if cwd is not None else Path.cwd())
    exporter = HTMLExporter(template_name="lab")  # type: ignore[no-untyped-call]
    written = []
    with _kernel_environment(), tempfile.TemporaryDirectory(prefix="budgetlab-nb-") as scratch:
        for src, target in zip(sources, targets, strict=True):
            started = time.perf_counter()
            executed = Path(scratch) / src.name
            try:
                papermill.execute_notebook(
                    str(src), str(executed), parameters=params, kernel_name=kernel, progress_bar=False,
                    cwd=run_dir, execution_timeout=timeout, log_output=False,
                )
            except PapermillExecutionError as exc:
                raise NotebookError(_error_line(src, exc)) from None
            except NoSuchKernel:
                raise ConfigError(f"no Jupyter kernel named {kernel!r}; install one (pip install ipykernel) or "
                                  "give --kernel NAME (see: jupyter kernelspec list).") from None
            except (RuntimeError, TimeoutError) as exc:  # the kernel died or a cell ran out of time
                raise NotebookError(f"{src.name}: the kernel stopped ({type(exc).__name__}): a cell ran longer than "
                                    f"the timeout ({timeout:g} s) or the kernel died.") from None
            nb = nbformat.read(executed, as_version=4)  # type: ignore[no-untyped-call]
            body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": src.stem}})
            with atomic_path(target, force=force) as tmp:
                tmp.write_text(body, encoding="utf-8")
            written.append(target)
            log(f"{src.name}: executed in {time.perf_counter() - started:.1f} s, wrote {target}")
    return written


def _cmd_notebooks(args: argparse.Namespace) -> int:
    paths = find_notebooks(args.notebooks)
    render_notebooks(paths, args.html, parameters=parse_parameters(args.parameter), force=args.force,
                     timeout=args.timeout, kernel=args.kernel)
    return 0


def add_parser(subparsers: Any) -> None:
    """Register ``budgetlab notebooks``."""
    p = subparsers.add_parser(
        "notebooks", help="execute the analysis notebooks and render them to HTML with their outputs",
        description="Execute notebooks top to bottom (papermill) and write OUT_DIR/<name>.html with the "
                    "outputs (nbconvert). Kernels run in the current folder.")
    p.add_argument("--html", required=True, metavar="OUT_DIR", help="folder for the HTML files (created if missing)")
    p.add_argument("--notebooks", default=None, metavar="DIR_OR_FILE",
                   help="a folder of .ipynb files or one notebook (default: the notebooks/ folder of this checkout)")
    p.add_argument("-p", "--parameter", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of the notebooks' parameters cell; VALUE is read as YAML "
                        "(0.97, None, '[1h, 24h]'); repeatable, e.g. -p source=path/to/log.parquet")
    p.add_argument("--timeout", type=float, default=600, help="seconds one cell may run (600)")
    p.add_argument("--kernel", default="python3", help="Jupyter kernel name (python3)")
    p.add_argument("--force", action="store_true", help="overwrite existing HTML files")
    p.set_defaults(func=_cmd_notebooks)
