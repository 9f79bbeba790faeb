"""The installed package is complete (issue 17): the wheel built from this checkout, installed
into a fresh virtual environment, runs ``budgetlab demo``, loads every dataset by name and executes
every packaged notebook, all from a temporary folder far from the checkout.

The virtual environment reuses the packages installed for the test run, no network: those of the
base interpreter (``--system-site-packages``) and, when the tests themselves run in a virtual
environment (as most people run them), that environment's too, through a ``.pth`` file listing
the running interpreter's site-packages folders (``--system-site-packages`` alone sees the base
interpreter's, not the outer environment's). Its own site-packages come first, so its budgetlab
shadows any other copy (an editable install of the outer environment included: a ``.pth`` path
line adds the folder, not the editable finders inside it), which every step checks
(``budgetlab.__file__`` inside the environment). The wheel is built from a copy
of the files it is made of (``pyproject.toml``, ``README.md``, ``budgetlab/``), so the build
leaves nothing in the checkout. Expected figures come from ``data/README.md`` (row counts) and from
the wheel's own file list (which notebooks ship), never from the code under test.

These tests execute each packaged notebook once on its shipped data; nbmake does not run them a
second time (see ``addopts`` in pyproject.toml). Deselect them with ``-m "not wheel"``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from tests.notebook_files import page_figures, small_notebook

# xdist_group: with -n, one worker builds and installs the wheel and runs every test of it
pytestmark = [pytest.mark.wheel, pytest.mark.timeout(1800), pytest.mark.xdist_group("wheel")]

ROOT = Path(__file__).resolve().parents[1]
BIN = "Scripts" if os.name == "nt" else "bin"
_BUILD_FILES = ("pyproject.toml", "README.md", "LICENSE", "LICENSE.txt", "LICENSE.md",
                "MANIFEST.in",
                "setup.py", "setup.cfg")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    python: Path
    budgetlab: Path
    env: dict[str, str]
    run_dir: Path

    def run(self, *args: str | Path, cwd: Path | None = None,
            timeout: float = 1500) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(a) for a in args], cwd=cwd or self.run_dir, env=self.env,
                              text=True,
                              capture_output=True, timeout=timeout, check=False)


def _readme_rows() -> dict[str, int]:
    """Row counts per load name from the dataset table of data/README.md."""
    rows = {}
    for line in (ROOT / "data" / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[1].startswith("`") and cells[2].replace(",", "").isdigit():
            rows[cells[1].strip("`")] = int(cells[2].replace(",", ""))
    return rows


def _build_wheel(work: Path) -> Path:
    src = work / "src"
    src.mkdir()
    for name in _BUILD_FILES:
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "budgetlab", src / "budgetlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints"))
    dist = work / "dist"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q",
           "-w", str(dist)]
    # Without build isolation when this environment can build wheels by itself (setuptools >= 70.1
    # has bdist_wheel; older ones need the wheel package): offline. Otherwise pip makes an isolated
    # build environment from the package index, as `pip install .` does.
    if _can_build_offline():
        cmd.append("--no-build-isolation")
    result = subprocess.run([*cmd, str(src)], capture_output=True, text=True, timeout=600,
                            check=False)
    assert result.returncode == 0, ("building the wheel "
                                    f"failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    wheels = sorted(dist.glob("budgetlab-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _can_build_offline() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    version = tuple(int(p) for p in re.findall(r"\d+", setuptools.__version__)[:2])
    return version >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(work)
    venv = work / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                           str(venv)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert made.returncode == 0, made.stderr
    python = venv / BIN / ("python.exe" if os.name == "nt" else "python")
    _see_running_packages(python)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "JUPYTER_PATH")}
    env.update(TQDM_DISABLE="1", MPLBACKEND="Agg", PIP_NO_INDEX="1", PYTHONNOUSERSITE="1",
               PATH=os.pathsep.join([str(venv / BIN), env.get("PATH", "")]))
    # pip of the base installation (reused through --system-site-packages) installs into the venv
    pip = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index",
                          "--ignore-installed",
                          "--disable-pip-version-check", "-q", str(wheel)],
                         capture_output=True, text=True, timeout=600, env=env, check=False)
    assert pip.returncode == 0, pip.stderr
    run_dir = work / "run"
    run_dir.mkdir()
    return Installed(wheel, venv, python, venv / BIN / "budgetlab", env, run_dir)


def _see_running_packages(python: Path) -> None:
    """Make the new environment see the packages of the interpreter running the tests (a
    ``.pth`` file of path lines in its site-packages, after its own)."""
    asked = subprocess.run([str(python), "-I", "-c",
                            "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           capture_output=True, text=True, timeout=120, check=True)
    own = Path(asked.stdout.strip())
    assert _inside(own, python.parents[1]), own
    running = [p for p in (*site.getsitepackages(), sysconfig.get_paths()["purelib"],
                           sysconfig.get_paths()["platlib"])
               if Path(p).is_dir()]
    (own / "_budgetlab_test_outer_env.pth").write_text("\n".join(dict.fromkeys(running)) + "\n",
                                                       encoding="utf-8")


def _inside(path: str | Path, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(folder.resolve())


def _shipped_notebooks(wheel: Path) -> dict[str, nbformat.NotebookNode]:
    with zipfile.ZipFile(wheel) as z:
        return {Path(n).name: nbformat.reads(z.read(n).decode("utf-8"), as_version=4)
                for n in z.namelist() if re.fullmatch(r"budgetlab/notebooks/[^/_.][^/]*\.ipynb", n)}


def test_the_wheel_carries_every_dataset_and_every_notebook(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as z:
        names = set(z.namelist())
    from budgetlab.datasets.synth import PRESETS

    for spec in PRESETS.values():
        for file_name in spec["files"]:
            assert f"budgetlab/datasets/{file_name}" in names, file_name
    in_checkout = sorted(p.name for p in (ROOT / "budgetlab" / "notebooks").glob("*.ipynb"))
    assert in_checkout and sorted(_shipped_notebooks(installed.wheel)) == in_checkout
    assert "budgetlab/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "data/", "notebooks/"))]


def test_the_environment_sees_the_packages_the_tests_run_with(installed: Installed) -> None:
    """Run from a virtual environment, the test environment sees that environment's packages,
    not only the base interpreter's (without them ``budgetlab demo`` failed there with
    ModuleNotFoundError)."""
    import numpy
    import pandas
    import pyarrow

    result = installed.run(installed.python, "-c", "import numpy, pandas, pyarrow, json; "
                           "print(json.dumps([m.__file__ for m in (numpy, pandas, pyarrow)]))")
    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert [Path(f).resolve() for f in seen] == [Path(m.__file__).resolve() for m in (numpy, pandas,
                                                                                      pyarrow)]


def test_demo_runs_from_a_temporary_folder(installed: Installed) -> None:
    assert installed.budgetlab.is_file()
    folder = installed.run_dir / "demo"
    folder.mkdir()
    result = installed.run(installed.budgetlab, "demo", cwd=folder)
    assert result.returncode == 0, result.stderr[-3000:]
    # the demo sample, read from the wheel
    assert f"{_readme_rows()['demo']:,} events" in result.stdout
    assert "D1" in result.stdout  # its incident (demo_incidents), read from the wheel too
    assert list(folder.iterdir()) == []  # the demo writes nothing where it runs


LOAD_ALL = textwrap.dedent("""\
    import json, sys
    import budgetlab
    from budgetlab import datasets
    tables = {name: datasets.load(name) for name in datasets.names()}
    # a relative path: the same loader reads a log of one's own (a CSV written here from the demo)
    demo = tables["demo"].head(500)
    demo.assign(outcome=demo["bucket"].astype(str))[["ts", "outcome", "captcha_type"]].to_csv(
        "mine.csv", index=False)
    mine = datasets.load("mine.csv", by="captcha_type")
    print(json.dumps({
        "file": budgetlab.__file__,
        "rows": {name: len(t) for name, t in tables.items()},
        "columns": {name: list(t.columns) for name, t in tables.items()},
        "mine": [len(mine), int(mine["ok"].sum()), int(demo["ok"].sum())],
    }))
""")


def test_every_dataset_loads_by_name_from_a_temporary_folder(installed: Installed) -> None:
    result = installed.run(installed.python, "-c", LOAD_ALL)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    # the wheel's budgetlab, not the checkout's
    assert _inside(out["file"], installed.venv), out["file"]
    assert out["rows"] == _readme_rows()
    for name, columns in out["columns"].items():
        assert columns[:3] == (["ts", "ok",
                                "bucket"] if "incidents" not in name else ["incident_id", "kind",
                                                                           "start"])
    assert out["mine"][0] == 500 and out["mine"][1] == out["mine"][2]


def _html_checks(html: str, nb: nbformat.NotebookNode, name: str) -> None:
    n_code = sum(c.cell_type == "code" for c in nb.cells)
    prompts = {int(x) for x in re.findall(r"In(?:&nbsp;|\s)\[(\d+)\]:", html)}
    assert len(prompts) >= n_code, f"{name}: {len(prompts)} executed cells of {n_code}"
    assert "In&nbsp;[ ]:" not in html and "In [ ]:" not in html, f"{name}: a cell was not executed"
    assert page_figures(html), f"{name}: no figure"  # the CSS's own PNG is not one
    assert "Traceback" not in html, f"{name}: an error output"


def test_every_notebook_executes_from_a_temporary_folder(installed: Installed) -> None:
    shipped = _shipped_notebooks(installed.wheel)
    rows = _readme_rows()
    out = installed.run_dir / "html"
    result = installed.run(installed.budgetlab, "notebooks", "--html", "html/")
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-3000:])
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{Path(n).stem}.html" for n in shipped)
    for name, nb in shipped.items():
        html = (out / f"{Path(name).stem}.html").read_text(encoding="utf-8")
        _html_checks(html, nb, name)
        # the notebook read its default dataset from the wheel: its row count (data/README.md) is
        # shown
        source = _default(nb, "source")
        assert source in rows, f"{name}: source={source!r} is not a shipped dataset"
        assert f"{rows[source]:,}" in html, f"{name}: the {source} row count is not shown"
        assert f"{name}: executed" in result.stdout


def _default(nb: nbformat.NotebookNode, parameter: str) -> str:
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    for node in ast.parse(cell.source).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id",
                                                     None) for t in node.targets] == [parameter]:
            return str(ast.literal_eval(node.value))
    raise AssertionError(f"no {parameter} in the parameters cell")


PROBE = """\
import budgetlab
from budgetlab import datasets
events = datasets.load(source, by="captcha_type")
print(f"kernel-budgetlab={budgetlab.__file__}")
print(f"rows={len(events)}")
"""


def test_a_plain_parameter_points_a_notebook_at_a_log(installed: Installed) -> None:
    """``-p source=PATH`` (a plain value, relative to where the command runs) reaches the kernel,
    and the kernel imports the wheel's budgetlab."""
    folder = installed.run_dir / "probe"
    folder.mkdir()
    small_notebook(folder / "probe.ipynb", PROBE, params='source = "demo"')
    (folder / "log.csv").write_text("ts,outcome,captcha_type\n2026-01-05T10:00:00Z,success,image\n"
                                    "2026-01-05T10:00:01Z,timeout,image\n", encoding="utf-8")
    result = installed.run(installed.budgetlab, "notebooks", "--html", "out", "--notebooks",
                           "probe.ipynb",
                           "-p", "source=log.csv", cwd=folder)
    assert result.returncode == 0, result.stderr[-3000:]
    html = (folder / "out" / "probe.html").read_text(encoding="utf-8")
    assert "rows=2" in html
    kernel_file = re.search(r"kernel-budgetlab=(\S+?__init__\.py)", html)
    assert kernel_file and _inside(kernel_file.group(1), installed.venv), kernel_file
