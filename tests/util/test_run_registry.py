"""One run's inputs and outputs (issue 15): an output never resolves to a file read in the same
run, two outputs of one run never share a file, special files are never replaced, empty and
over-long names are refused, the temporary file is short and never left behind, and the plot
format follows the suffix."""

from __future__ import annotations

import os
import socket
import tempfile
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab._util import files
from budgetlab._util.figures import save_figure
from budgetlab._util.files import (
    atomic_path,
    atomic_write,
    check_output,
    name_max,
    write_table,
)
from budgetlab._util.inputs import register_input
from budgetlab._util.plan import new_run, plan_outputs
from budgetlab.errors import ConfigError, OutputExistsError

pytestmark = pytest.mark.usefixtures("fresh_run")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp" in p.name)


@pytest.fixture
def inp(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("a\n1\n")
    register_input(path)
    return path


def other_names(inp: Path, tmp_path: Path, monkeypatch) -> list[Path]:
    """Every kind of other name for ``inp``: symlink, hard link, ``..``, relative, a symlinked
    folder."""
    os.symlink(inp, tmp_path / "sym.csv")
    os.link(inp, tmp_path / "hard.csv")
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path, tmp_path / "dirlink")
    monkeypatch.chdir(tmp_path)
    return [inp, tmp_path / "sym.csv", tmp_path / "hard.csv", tmp_path / "sub" / ".." / "in.csv",
            Path("in.csv"), Path("./sub/../in.csv"), tmp_path / "dirlink" / "in.csv"]


@pytest.mark.parametrize("force", [False, True])
def test_no_name_of_an_input_is_an_output(inp, tmp_path, monkeypatch, force):
    before = inp.read_bytes()
    for name in other_names(inp, tmp_path, monkeypatch):
        with pytest.raises(ConfigError, match="is an input of this run"):
            check_output(name, force=force)
        with pytest.raises(ConfigError, match="is an input of this run"):
            write_table(pd.DataFrame({"x": [9]}), name, force=force)
        with pytest.raises(ConfigError, match="is an input of this run"):
            plan_outputs({"--out": name}, force=force)
    assert inp.read_bytes() == before and leftovers(tmp_path) == []


def test_an_input_that_is_appended_to_during_the_run_stays_an_input(inp):
    with open(inp, "a") as fh:
        fh.write("2\n")  # another process appends: mtime and size change, the file is the same
    with pytest.raises(ConfigError, match="is an input"):
        check_output(inp, force=True)


def test_an_input_renamed_into_the_target_during_the_work_is_not_replaced(tmp_path):
    log = tmp_path / "log.csv"
    log.write_text("input\n")
    register_input(log)
    target = tmp_path / "out.csv"
    with pytest.raises(ConfigError, match="is an input"):
        with atomic_write(target, force=True) as fh:
            fh.write("result")
            os.link(log, target)  # the target became another name of the input meanwhile
    assert log.read_text() == "input\n" and target.read_text() == "input\n"


def test_a_new_file_that_reuses_a_deleted_inputs_inode_is_not_an_input(tmp_path):
    old = tmp_path / "old.csv"
    old.write_text("x")
    register_input(old)
    ident = os.stat(old).st_ino
    old.unlink()
    for i in range(200):  # inodes are reused freely: find a new file that got the freed one
        new = tmp_path / f"n{i}.csv"
        new.write_text("y")
        if os.stat(new).st_ino == ident:
            break
        new.unlink()
    else:
        pytest.skip("the file system did not reuse the freed inode in 200 tries (nothing to check)")
    assert check_output(new, force=True) == new


def test_new_run_forgets_the_inputs(inp):
    new_run()
    assert check_output(inp, force=True) == inp


def test_two_outputs_of_one_run_never_share_a_file(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.csv").write_text("old")
    os.symlink(tmp_path / "a.csv", tmp_path / "sym.png")
    os.link(tmp_path / "a.csv", tmp_path / "hard.png")
    os.symlink(tmp_path / "not-yet.csv", tmp_path / "dangling.png")
    monkeypatch.chdir(tmp_path)
    pairs = [("a.csv", "a.csv"), ("a.csv", str(tmp_path / "a.csv")), ("a.csv", "sub/../a.csv"),
             ("a.csv", "sym.png"), ("a.csv", "hard.png"), ("not-yet.csv", "dangling.png")]
    for out, other in pairs:
        new_run()
        with pytest.raises(ConfigError, match="names the same file as --out"):
            plan_outputs({"--out": out, "--table": other}, force=True)
    assert (tmp_path / "a.csv").read_text() == "old"


def test_planned_outputs_are_remembered_for_the_run(tmp_path):
    out = tmp_path / "tr.csv"
    plan_outputs({"--out": out, "--plot": tmp_path / "t.png"})
    # a side file planned later in the same run (e.g. the record replay writes beside --out)
    with pytest.raises(ConfigError, match="names the same file as --plot"):
        plan_outputs({"record": tmp_path / "t.png"})
    assert (
        plan_outputs({"record": tmp_path / "tr.csv.run.json"})["record"].name == "tr.csv.run.json"
    )
    assert plan_outputs({"--out": out})["--out"] == out  # the same option again: the same output
    new_run()
    assert plan_outputs({"record": tmp_path / "t.png"})["record"].name == "t.png"


def test_none_is_no_output_but_an_empty_name_is_refused(tmp_path):
    assert plan_outputs({"--out": None,
                         "--plot": tmp_path / "p.svg"}) == {"--plot": tmp_path / "p.svg"}
    for empty in ["", "  "]:
        with pytest.raises(ConfigError, match="empty"):
            plan_outputs({"--out": empty})
        with pytest.raises(ConfigError, match="empty"):
            check_output(empty)
        with pytest.raises(ConfigError, match="empty"):
            write_table(pd.DataFrame({"a": [1]}), empty)
    with pytest.raises(ConfigError, match="names a folder"):
        check_output(str(tmp_path / "missing") + "/")


def _fifo(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "fifo")
    return tmp_path / "fifo"


def _symlink_to_fifo(tmp_path: Path) -> Path:
    os.symlink(_fifo(tmp_path), tmp_path / "link.csv")
    return tmp_path / "link.csv"


def _socket(tmp_path: Path) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="bl"))  # short: a socket path has ~100 bytes at most
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(folder / "s.csv"))
    sock.close()
    return folder / "s.csv"


@pytest.mark.parametrize("make", [_fifo, _symlink_to_fifo, _socket, lambda _: Path(os.devnull)],
                         ids=["fifo", "symlink-to-fifo", "socket", "device"])
@pytest.mark.parametrize("force", [False, True])
def test_special_files_are_never_replaced(make, force, tmp_path):
    special = make(tmp_path)
    with pytest.raises(ConfigError, match="never replaces special files"):
        check_output(special, force=force)
    with pytest.raises(ConfigError, match="never replaces special files"):
        plan_outputs({"--out": special}, force=force)
    if special.parent == tmp_path:
        with pytest.raises(ConfigError, match="never replaces special files"):
            with atomic_write(special, force=force) as fh:
                fh.write("x")
        assert not os.path.isfile(special) and leftovers(tmp_path) == []


def test_a_250_character_name_is_written_with_a_short_temporary_name(tmp_path):
    target = tmp_path / ("t" * 246 + ".csv.gz")  # 253 bytes: the old hidden name (+ 18) did not fit
    seen = []
    with atomic_path(target) as tmp:
        seen.append(tmp.name)
        pd.DataFrame({"a": [1, 2]}).to_csv(tmp, index=False)  # compression follows the suffix
    assert len(seen[0]) < 40 and seen[0].endswith(".csv.gz") and seen[0].startswith(".")
    assert pd.read_csv(target)["a"].tolist() == [1, 2]
    assert leftovers(tmp_path) == []


def test_a_name_too_long_for_the_file_system_is_refused_before_the_work(tmp_path):
    too_long = tmp_path / ("n" * (name_max(tmp_path) + 1))
    work = []
    with pytest.raises(ConfigError, match="shorter name"):
        with atomic_path(too_long):
            work.append(1)
    assert work == []  # the block never ran
    with pytest.raises(ConfigError, match="shorter name"):
        plan_outputs({"--out": too_long})
    long_multibyte = tmp_path / ("é" * 130 + ".csv")  # 130 characters, 264 bytes
    with pytest.raises(ConfigError, match="264 bytes"):
        check_output(long_multibyte)


def test_name_max_falls_back_to_255(monkeypatch, tmp_path):
    def no_answer(path, name):
        raise OSError("not supported")
    monkeypatch.setattr(os, "pathconf", no_answer)
    assert name_max(tmp_path) == 255


class _InterruptAfterClose(types.SimpleNamespace):
    """``os`` for the files module, whose ``close`` closes and then raises KeyboardInterrupt:
    Ctrl-C right after the temporary file was created, before the block starts."""

    def __getattr__(self, name):
        return getattr(os, name)

    def close(self, fd):
        os.close(fd)
        raise KeyboardInterrupt


def test_ctrl_c_between_creating_the_temporary_file_and_the_block_leaves_nothing(tmp_path,
                                                                                 monkeypatch):
    target = tmp_path / "out.csv"
    target.write_text("old")
    monkeypatch.setattr(files, "os", _InterruptAfterClose())
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target, force=True) as tmp:
            tmp.write_text("new")
    monkeypatch.undo()
    assert target.read_text() == "old" and leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["body", "publish"])
def test_ctrl_c_inside_the_block_or_while_publishing_leaves_nothing(tmp_path, monkeypatch, where):
    target = tmp_path / "out.csv"
    if where == "publish":
        def interrupted(*args, **kwargs):
            raise KeyboardInterrupt
        monkeypatch.setattr(files, "_fsync_dir", interrupted)
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target) as tmp:
            tmp.write_text("new")
            if where == "body":
                raise KeyboardInterrupt
    assert leftovers(tmp_path) == []


@pytest.fixture
def figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot(np.arange(3), np.arange(3))
    yield fig
    plt.close(fig)


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG\r\n\x1a\n"), (".pdf", b"%PDF-"),
                                               (".svg", b"<?xml"),
                                               (".PDF", b"%PDF-")])
def test_save_figure_writes_the_format_the_suffix_names(figure, tmp_path, suffix, magic):
    path = save_figure(figure, tmp_path / f"f{suffix}")
    data = path.read_bytes()
    assert data.startswith(magic)
    if suffix == ".svg":
        assert b"<svg" in data
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("name", ["f.jpg", "f", "f.png.txt"])
def test_other_plot_suffixes_are_refused_before_drawing(figure, tmp_path, name):
    with pytest.raises(ConfigError, match=r"\.png, \.svg, \.pdf"):
        save_figure(figure, tmp_path / name)
    with pytest.raises(ConfigError, match=r"\.png, \.svg, \.pdf"):
        plan_outputs({"--plot": tmp_path / name})
    assert list(tmp_path.iterdir()) == []


def test_save_figure_needs_force_for_an_existing_file(figure, tmp_path):
    (tmp_path / "f.svg").write_text("old")
    with pytest.raises(OutputExistsError):
        save_figure(figure, tmp_path / "f.svg")
    assert (tmp_path / "f.svg").read_text() == "old"
    save_figure(figure, tmp_path / "f.svg", force=True)
    assert b"<svg" in (tmp_path / "f.svg").read_bytes()


def test_messages_never_show_a_file_name_that_could_be_personal(tmp_path):
    target = tmp_path / "ivan@example.org.csv"
    target.write_text("x")
    with pytest.raises(OutputExistsError) as info:
        check_output(target)
    assert "ivan" not in str(info.value) and "not shown" in str(info.value)
    with pytest.raises(OutputExistsError, match="'report.csv'"):
        (tmp_path / "report.csv").write_text("x")
        check_output(tmp_path / "report.csv")
