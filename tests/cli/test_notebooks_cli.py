"""The packaged notebooks as committed (no outputs, a papermill ``parameters`` cell, data found
through budgetlab.datasets) and ``budgetlab notebooks --html`` (the packaged notebooks by default,
small notebooks rendered with their outputs, atomic and --force-guarded outputs, one-line errors
that say where the executed copy of a failed notebook is kept, a progress bar on a terminal).

The notebooks themselves run on the shipped data from the installed wheel in
tests/test_installed_wheel.py, and unchanged on another log (a short one with a group that never
fails) through plain parameter values in tests/analyses/test_notebooks_edge_data.py.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.resources
import os
import re
from pathlib import Path

import nbformat
import papermill
import pytest

from budgetlab import datasets
from budgetlab.cli import main
from budgetlab.cli import notebooks as nbcli
from budgetlab.cli.notebook_params import parse_parameters
from budgetlab.cli.notebooks import find_notebooks
from budgetlab.errors import ConfigError, NotebookError
from tests.notebook_files import page_figures, small_notebook

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "budgetlab" / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
EXPECTED = ["01_recalibrate_slo.ipynb", "02_window_length.ipynb", "03_timeout_vs_solve.ipynb",
            "04_incident_replay.ipynb"]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------------------------------------
# the packaged notebooks


def test_the_four_notebooks_ship_with_the_package(tmp_path, monkeypatch):
    # issue 6's four; more may follow (tested by glob)
    assert set(EXPECTED) <= {p.name for p in NOTEBOOKS}
    assert nbcli.DEFAULT_NOTEBOOKS == importlib.resources.files("budgetlab").joinpath("notebooks")
    monkeypatch.chdir(tmp_path)  # found through the package, from any folder
    assert find_notebooks() == NOTEBOOKS


def test_a_packaged_notebook_is_found_by_its_file_name_from_any_folder(tmp_path, monkeypatch):
    """docs/notebooks.md runs one packaged notebook with ``--notebooks 04_incident_replay.ipynb``:
    a bare file name that is not in the working folder names the packaged notebook."""
    monkeypatch.chdir(tmp_path)
    assert find_notebooks("04_incident_replay.ipynb") == [FOLDER / "04_incident_replay.ipynb"]
    (tmp_path / "04_incident_replay.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    # a file here wins
    assert find_notebooks("04_incident_replay.ipynb") == [Path("04_incident_replay.ipynb")]
    with pytest.raises(ConfigError, match=r"^99_nope\.ipynb: no such file; give --notebooks DIR "
                                          r"or a \.ipynb file\.$"):
        find_notebooks("99_nope.ipynb")
    with pytest.raises(ConfigError, match=r"^sub/04_incident_replay\.ipynb: no such file \(its "
                                          r"folder does not exist either\)"):
        find_notebooks("sub/04_incident_replay.ipynb")  # a path with a folder is only a path


def test_the_top_level_notebooks_folder_is_the_packaged_one():
    top = ROOT / "notebooks"
    if top.is_symlink():
        assert top.resolve() == FOLDER.resolve() and os.readlink(top) == os.path.join("budgetlab",
                                                                                      "notebooks")
    else:  # until notebooks/_build.py is gone the folder stays; it holds no notebook of its own
        assert not list(top.glob("*.ipynb")) and not (top / "conftest.py").exists()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_parameters_cell_points_at_the_shipped_data_with_plain_values(path):
    """What `budgetlab notebooks -p NAME=VALUE` relies on (the notebooks' other rules:
    test_notebook_sources.py)."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert "parameters" in code[0].metadata.get("tags",
                                                []), ("the first code cell must be tagged "
                                                      "'parameters'")
    # every line of the parameters cell assigns a plain value, never a dictionary
    params = {}
    for node in ast.parse(code[0].source).body:
        assert isinstance(node,
                          ast.Assign) and len(node.targets) == 1, f"{path.name}: line {node.lineno}"
        params[node.targets[0].id] = value = ast.literal_eval(node.value)
        assert value is None or isinstance(value, (str, int, float, bool,
                                                   list)), f"{path.name}: {node.targets[0].id}"
    assert {"source", "incidents", "tz"} <= set(params)
    # what papermill sees
    assert {"source", "incidents", "tz"} <= set(papermill.inspect_notebook(str(path)))
    # the shipped data are named, never a path: budgetlab.datasets finds them
    assert params["source"] in datasets.names() and params["incidents"] in datasets.names()
    for cell in code:
        for bad in ('"data/', "'data/", "../", "read_parquet(", "os.chdir"):
            assert bad not in cell.source, (f"{path.name}: {bad!r} (find data through "
                                            "budgetlab.datasets)")


# ------------------------------------------------------------------------------------------------
# budgetlab notebooks --html


RENDERED = '''\
import budgetlab, matplotlib.pyplot as plt
print(f"triangle={n * (n + 1) // 2}")
print(f"imported-from={budgetlab.__file__}")
fig, ax = plt.subplots()
ax.plot(range(n), range(n))
plt.show()
'''


def test_renders_a_notebook_to_html_with_its_outputs(tmp_path, capsys):
    nb = small_notebook(tmp_path / "small.ipynb", RENDERED)
    out = tmp_path / "html"
    env_before = {k: os.environ.get(k) for k in ("PYTHONPATH", "MPLBACKEND")}
    assert main(["notebooks", "--html", str(out), "--notebooks", str(nb), "-p", "n=7"]) == 0
    assert "small.ipynb: executed" in capsys.readouterr().out
    html = out / "small.html"
    text = html.read_text(encoding="utf-8")
    # 7 * 8 / 2: the parameter was injected
    assert "triangle=28" in text and "triangle=6" not in text
    # the kernel used this checkout
    assert f"imported-from={ROOT / 'budgetlab' / '__init__.py'}" in text
    figures = page_figures(text)  # the figure is inside the page, a plot's size
    assert len(figures) == 1 and min(figures[0]) > 100, figures
    assert sorted(p.name for p in out.iterdir()) == ["small.html"]  # no temporary file left
    assert {k: os.environ.get(k) for k in env_before} == env_before
    # an existing output needs --force, and is left alone without it
    before = _sha(html)
    assert main(["notebooks", "--html", str(out), "--notebooks", str(nb)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err
    assert _sha(html) == before
    assert main(["notebooks", "--html", str(out), "--notebooks", str(nb), "--force"]) == 0
    assert "triangle=6" in html.read_text(encoding="utf-8")


def test_a_page_without_a_figure_shows_none(tmp_path, capsys):
    # a figure closed before the cell ends is never shown: the page has no figure, though it
    # carries the PNG of JupyterLab's CSS (CodeMirror's trailing-space marker, 8 x 5 pixels), which
    # "data:image/png;base64," in the page took for one
    nb = small_notebook(tmp_path / "closed.ipynb", "import matplotlib.pyplot as plt\n"
                        "fig, ax = plt.subplots()\nax.plot(range(n), range(n))\nplt.close(fig)\n")
    assert main(["notebooks", "--html", str(tmp_path / "html"), "--notebooks", str(nb)]) == 0
    capsys.readouterr()
    text = (tmp_path / "html" / "closed.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in text  # the CSS's marker
    assert page_figures(text) == []  # the shown one: test_renders_a_notebook_to_html_...


@pytest.mark.skipif(os.name != "posix", reason="Unix sockets (ipc) are POSIX only; elsewhere the "
                    "kernel talks TCP on 127.0.0.1")
def test_the_kernel_talks_over_a_private_unix_socket_not_tcp(tmp_path, capfd):
    # ipykernel 7 warns, once per notebook, that a kernel "is running over TCP without
    # encryption": the kernel's own app names its transport, and the socket folder is gone after
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from ipykernel.kernelapp import IPKernelApp\n"
        "app = IPKernelApp.instance()\n"
        "print(f'transport={app.transport} ip={app.ip}')")]
    path = tmp_path / "transport.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    assert main(["notebooks", "--html", str(tmp_path / "html"), "--notebooks", str(path)]) == 0
    out, err = capfd.readouterr()
    text = (tmp_path / "html" / "transport.html").read_text(encoding="utf-8")
    said = re.search(r"transport=(\w+) ip=([^<\s]+)", text)  # the output, not the source
    assert said is not None and said[1] == "ipc"
    folder = Path(said[2]).parent
    assert folder.name.startswith("budgetlab-kernel-") and not folder.exists()
    assert "without encryption" not in out + err


#: An IPython startup file for the kernel: its reply to papermill's last request (kernel_info,
#: sent after the last cell) is followed by 0.3 s inside the handler, where ipykernel still lets a
#: SIGINT raise; the file it writes says the handler was wrapped.
_SLOW_REPLY = """
import pathlib, time
_kernel = get_ipython().kernel
_reply = _kernel.shell_handlers["kernel_info_request"]
async def _slow_reply(*args, **kwargs):
    await _reply(*args, **kwargs)
    time.sleep(0.3)
_kernel.shell_handlers["kernel_info_request"] = _slow_reply
pathlib.Path({marker!r}).write_text("wrapped")
"""


@pytest.mark.skipif(os.name != "posix", reason="the kernel manager of POSIX systems")
def test_no_keyboard_interrupt_from_the_kernel_at_shutdown(tmp_path, capfd, monkeypatch):
    # jupyter_client sends SIGINT before its shutdown request; landing while ipykernel answered
    # papermill's last kernel_info request, it printed "[IPKernelApp] ERROR | KeyboardInterrupt
    # caught in kernel." (about 1 run in 15 here; every run with the reply held 0.3 s)
    marker = tmp_path / "wrapped.txt"
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00_slow_reply.py").write_text(_SLOW_REPLY.format(marker=str(marker)))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    nb = small_notebook(tmp_path / "quick.ipynb", "print(n)")
    nbcli.render_notebooks([nb], tmp_path / "html", log=lambda _line: None)
    assert marker.read_text() == "wrapped"  # the window was there
    out, err = capfd.readouterr()
    assert "KeyboardInterrupt" not in out + err


def _error_outputs(path: Path) -> list[tuple[str, str]]:
    nb = nbformat.read(path, as_version=4)
    return [(o.ename, o.evalue) for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "error"]


def test_a_failing_notebook_gives_one_line_no_html_and_keeps_the_executed_copy(tmp_path, capsys):
    folder = tmp_path / "nbs"
    folder.mkdir()
    small_notebook(folder / "a_ok.ipynb", "print(n)")
    small_notebook(folder / "b_bad.ipynb",
                    "import budgetlab\nraise budgetlab.ConfigError('window must be longer.')")
    small_notebook(folder / "c_secret.ipynb", "raise ValueError('someone@example.com')")
    out = tmp_path / "html"
    assert main(["notebooks", "--html", str(out), "--notebooks", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    # the message's own full stop does not end the line: no ".;"
    assert "b_bad.ipynb" in err and "ConfigError: window must be longer; the executed" in err
    kept = out / "b_bad.failed.ipynb"
    assert f"the executed notebook with the error is {kept}" in err
    # rendered before the failure, whole; the failed one kept executed up to its error, no HTML
    assert sorted(p.name for p in out.iterdir()) == ["a_ok.html", "b_bad.failed.ipynb"]
    assert _error_outputs(kept) == [("ConfigError", "window must be longer.")]
    # a message that is not budgetlab's may hold data: only the exception's name is shown
    assert main(["notebooks", "--html", str(tmp_path / "h2"), "--notebooks",
                 str(folder / "c_secret.ipynb")]) == 2
    err = capsys.readouterr().err
    assert (
        "ValueError" in err
        and "example.com" not in err
        and not (tmp_path / "h2" / "c_secret.html").exists()
    )
    assert (
        "c_secret.failed.ipynb" in err
        and _error_outputs(tmp_path / "h2" / "c_secret.failed.ipynb")[0][0] == "ValueError"
    )
    # fixed and run again into the same folder: the HTML is written and the stale failed copy
    # removed
    small_notebook(folder / "b_bad.ipynb", "print('fixed')")
    assert main(["notebooks", "--html", str(out), "--notebooks", str(folder / "b_bad.ipynb")]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["a_ok.html", "b_bad.html"]


def test_a_cell_over_the_timeout_keeps_the_executed_copy(tmp_path):
    nb = small_notebook(tmp_path / "slow.ipynb", "import time\ntime.sleep(30)")
    out = tmp_path / "html"
    with pytest.raises(NotebookError,
                       match=r"slow.ipynb: the kernel stopped .*timeout \(2 "
                             r"s\).*slow.failed.ipynb"):
        nbcli.render_notebooks([nb], out, timeout=2, log=lambda _line: None)
    assert sorted(p.name for p in out.iterdir()) == ["slow.failed.ipynb"]


def test_a_progress_bar_over_notebooks_and_cells_on_a_terminal(tmp_path, capsys, monkeypatch):
    import budgetlab._util.progress as progress_module

    folder = tmp_path / "nbs"
    folder.mkdir()
    for name in ("one", "two"):
        small_notebook(folder / f"{name}.ipynb", "print(n)")
    monkeypatch.setattr(progress_module, "progress_enabled", lambda: True)  # as on a terminal
    nbcli.render_notebooks(find_notebooks(folder), tmp_path / "html", log=lambda _line: None)
    err = capsys.readouterr().err
    assert "notebooks" in err and "2/2" in err  # the bar over the notebooks
    assert "one" in err and "cell" in err  # the bar over one notebook's cells
    # not a terminal: silent
    monkeypatch.setattr(progress_module, "progress_enabled", lambda: False)
    nbcli.render_notebooks(find_notebooks(folder), tmp_path / "html2", log=lambda _line: None)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, needle", [
    (["notebooks", "--html", "{tmp}/o", "--notebooks", "{tmp}/missing"], "no such file"),
    (["notebooks", "--html", "{tmp}/o", "--notebooks", "{tmp}/x.ipynb", "-p", "novalue"],
     "NAME=VALUE"),
    (["notebooks", "--html", "{tmp}/o", "--notebooks", "{tmp}/x.ipynb", "-p", "1x=2"],
     "identifier"),
    (["notebooks", "--html", "{tmp}/o", "--notebooks", "{tmp}/x.ipynb", "--kernel",
      "no-such-kernel"], "kernel"),
    (["notebooks", "--notebooks", "{tmp}/x.ipynb"], "--html"),
])
def test_bad_arguments_give_one_line_and_exit_2(tmp_path, capsys, argv, needle):
    small_notebook(tmp_path / "x.ipynb", "print(n)")
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
    assert not (tmp_path / "o" / "x.html").exists()


@pytest.mark.parametrize("content", [b"not json", b"{}", b"[]", b'{"nbformat": 4}', b"\xff\xfe"],
                         ids=["text", "empty-object", "list", "no-cells", "not-utf8"])
def test_a_file_that_is_not_a_notebook_gives_one_line_and_exit_2_before_anything_runs(tmp_path,
                                                                                      capsys,
                                                                                      content):
    """A broken .ipynb is the user's file, not an internal error (it was exit 1, "internal error");
    it is found before the first notebook runs, so no HTML is written for the good one either."""
    folder = tmp_path / "nbs"
    folder.mkdir()
    small_notebook(folder / "a_ok.ipynb", "print(n)")
    (folder / "b_bad.ipynb").write_bytes(content)
    assert main(["notebooks", "--html", str(tmp_path / "o"), "--notebooks", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "b_bad.ipynb: is not a readable Jupyter notebook" in err, err
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").iterdir())


def test_parse_parameters_reads_plain_values_not_yaml():
    # hand-written expectations; YAML 1.1 would read 3:47 as 227 and no as False
    assert parse_parameters(
        [
            "target=0.97",
            "incidents=None",
            "x=null",
            "source=logs/a=b.csv",
            "tz=Europe/Berlin",
            "flag=true",
            "alert_time=3:47",
            "scope_value=no",
            "n_boot=100",
            "quoted='0.5'",
            "windows=[1h, 24h]",
        ]
    ) == {
        "target": 0.97,
        "incidents": None,
        "x": None,
        "source": "logs/a=b.csv",
        "tz": "Europe/Berlin",
        "flag": True,
        "alert_time": "3:47",
        "scope_value": "no",
        "n_boot": 100,
        "quoted": "0.5",
        "windows": "[1h, 24h]",
    }
    with pytest.raises(ConfigError):
        parse_parameters(["=3"])


def test_an_earlier_failed_copy_is_not_run_again(tmp_path):
    small_notebook(tmp_path / "a.ipynb", "print(1)")
    small_notebook(tmp_path / "a.failed.ipynb", "raise ValueError")
    assert [p.name for p in find_notebooks(tmp_path)] == ["a.ipynb"]


def test_off_a_terminal_a_line_as_each_notebook_starts_and_ends(tmp_path, monkeypatch):
    """Without a bar (a pipe, a log file) the first notebook may run for minutes: a line says
    which one runs, and which of how many, before its end line."""
    import budgetlab._util.progress as progress_module

    folder = tmp_path / "nbs"
    folder.mkdir()
    for name in ("one", "two"):
        small_notebook(folder / f"{name}.ipynb", "print(n)")
    monkeypatch.setattr(progress_module, "progress_enabled", lambda: False)
    lines: list[str] = []
    nbcli.render_notebooks(find_notebooks(folder), tmp_path / "html", log=lines.append)
    assert len(lines) == 4
    assert lines[0] == "one.ipynb (1 of 2): running"
    assert lines[1].startswith("one.ipynb: executed in ")
    assert lines[2] == "two.ipynb (2 of 2): running"
    assert lines[3].startswith("two.ipynb: executed in ")
    assert lines[3].endswith(str(tmp_path / "html" / "two.html"))


def test_a_parameter_no_notebook_declares_is_refused_before_anything_runs(tmp_path, capsys):
    """``-p sorce=my.log`` (a typo) was only a papermill warning ("Passed unknown parameter"):
    every notebook then ran on its own default data, exit 0. It is refused, naming the close
    match and the parameters the notebooks have, before a folder is made or a kernel starts."""
    nb = small_notebook(tmp_path / "small.ipynb", "print(n)", params="n = 3\nsource = 'demo'")
    out = tmp_path / "html"
    assert main(["notebooks", "--html", str(out), "--notebooks", str(nb), "-p", "sorce=x.csv"]) == 2
    err = capsys.readouterr().err
    assert err == ("budgetlab: error: -p sorce: no notebook of this run has a parameter of that "
                   "name (did you mean source?); their parameters: n, source.\n")
    assert not out.exists()


def test_a_parameter_goes_to_the_notebooks_that_declare_it(tmp_path, caplog):
    """``-p n=7`` over two notebooks of which one has an ``n``: that one gets it, the other runs on
    its own parameters, without papermill's "unknown parameter" warning."""
    folder = tmp_path / "nbs"
    folder.mkdir()
    small_notebook(folder / "a.ipynb", "print(f'a-n={n}')")
    small_notebook(folder / "b.ipynb", "print(f'b-k={k}')", params="k = 5")
    out = tmp_path / "html"
    with caplog.at_level("WARNING"):  # papermill warns through logging
        assert main(["notebooks", "--html", str(out), "--notebooks", str(folder), "-p",
                     "n=7"]) == 0
    assert "unknown parameter" not in caplog.text
    assert "a-n=7" in (out / "a.html").read_text(encoding="utf-8")
    assert "b-k=5" in (out / "b.html").read_text(encoding="utf-8")


def test_repeated_notebooks_flags_run_every_notebook_given_in_order(tmp_path, capsys):
    """``--notebooks A --notebooks B`` ran only B (the second value replaced the first, exit 0).
    Every value runs, in the order given; a notebook named twice (its folder, then the file) runs
    once; two different notebooks of one name are refused before anything runs."""
    first = small_notebook(tmp_path / "b_first.ipynb", "print(f'first-n={n}')")
    folder = tmp_path / "more"
    folder.mkdir()
    second = small_notebook(folder / "a_second.ipynb", "print(f'second-n={n}')")
    out = tmp_path / "html"
    assert main(["notebooks", "--html", str(out), "--notebooks", str(first), "--notebooks",
                 str(folder), "--notebooks", str(second), "-p", "n=4"]) == 0
    said = capsys.readouterr().out
    assert said.index("b_first.ipynb (1 of 2): running") < said.index(
        "a_second.ipynb (2 of 2): running")  # off a terminal (captured): the order given
    assert sorted(p.name for p in out.iterdir()) == ["a_second.html", "b_first.html"]
    assert "first-n=4" in (out / "b_first.html").read_text(encoding="utf-8")
    assert "second-n=4" in (out / "a_second.html").read_text(encoding="utf-8")
    twin = small_notebook(tmp_path / "a_second.ipynb", "print(n)")
    assert main(["notebooks", "--html", str(tmp_path / "o"), "--notebooks", str(second),
                 "--notebooks", str(twin)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "two notebooks are named 'a_second'" in err
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").iterdir())
