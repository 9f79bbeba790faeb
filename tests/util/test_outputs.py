"""Nothing is lost or damaged: inputs are byte-identical after a run, outputs appear whole or not
at all, an existing output is replaced only with --force, and an input is never an output."""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab._util.files import atomic_path, atomic_write, check_output, write_table
from budgetlab.cli import main
from budgetlab.errors import ConfigError, OutputExistsError

ROOT = Path(__file__).resolve().parents[2]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp" in p.name)


@pytest.fixture
def events_frame():
    rng = np.random.default_rng(5)
    n = 400
    t = pd.Timestamp("2026-11-29", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 6 * 3600, n)),
                                                               unit="s")
    return pd.DataFrame({"ts": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                         "outcome": np.where(rng.random(n) < 0.9, "success", "timeout"),
                         "region": rng.choice(["fra", "ams"], n)})


@pytest.mark.parametrize("name", ["log.csv", "log.csv.gz", "log.tsv", "log.jsonl", "log.parquet"])
def test_inputs_are_byte_identical_after_a_cli_run_with_outputs(events_frame, tmp_path, name,
                                                                capsys):
    path = tmp_path / name
    if name == "log.parquet":
        events_frame.to_parquet(path, index=False)
    elif name == "log.jsonl":
        path.write_text(events_frame.to_json(orient="records", lines=True))
    else:
        text = events_frame.to_csv(index=False, sep="\t" if name == "log.tsv" else ",").encode()
        path.write_bytes(gzip.compress(text, mtime=0) if name.endswith(".gz") else text)
    before, mtime = sha(path), path.stat().st_mtime_ns
    out, png = tmp_path / "tr.csv", tmp_path / "timeline.png"
    argv = ["replay", str(path), "--window", "30min", "--by", "region", "--out", str(out), "--plot",
            str(png)]
    assert main(argv) == 0
    assert main([*argv, "--force"]) == 0
    capsys.readouterr()
    assert sha(path) == before and path.stat().st_mtime_ns == mtime
    assert out.read_text().startswith("ts,") and png.read_bytes()[:4] == b"\x89PNG"
    assert leftovers(tmp_path) == []


def test_an_input_is_never_an_output_not_even_with_force(events_frame, tmp_path, capsys):
    path = tmp_path / "log.csv"
    events_frame.to_csv(path, index=False)
    before = sha(path)
    assert main(["replay", str(path), "--out", str(path), "--force"]) == 2
    err = capsys.readouterr().err
    assert "is an input" in err and err.count("\n") == 1
    assert sha(path) == before
    read_events(path)
    with pytest.raises(ConfigError, match="is an input"):
        write_table(pd.DataFrame({"a": [1]}), path, force=True)
    link = tmp_path / "same.csv"  # another name for the same file
    os.link(path, link)
    with pytest.raises(ConfigError, match="is an input"):
        check_output(link, force=True)
    assert sha(path) == before


def test_existing_output_is_replaced_only_with_force(tmp_path):
    target = tmp_path / "t.csv"
    target.write_text("old")
    with pytest.raises(OutputExistsError, match="pass force=True"):
        write_table(pd.DataFrame({"a": [1]}), target)
    assert target.read_text() == "old"
    write_table(pd.DataFrame({"a": [1]}), target, force=True)
    assert target.read_text() == "a\n1\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("exc", [RuntimeError, KeyboardInterrupt])
def test_a_failure_while_writing_leaves_the_old_file(tmp_path, exc):
    target = tmp_path / "t.csv"
    target.write_text("old content")
    with pytest.raises(exc):
        with atomic_write(target, force=True) as fh:
            fh.write("half of the new")
            raise exc()
    assert target.read_text() == "old content"
    assert leftovers(tmp_path) == []
    fresh = tmp_path / "new.csv"
    with pytest.raises(exc):
        with atomic_path(fresh) as tmp:
            tmp.write_text("partial")
            raise exc()
    assert not fresh.exists() and leftovers(tmp_path) == []


def test_a_killed_process_leaves_the_old_file_or_none(tmp_path):
    target = tmp_path / "big.csv"
    target.write_text("old content")
    fresh = tmp_path / "fresh.csv"
    script = textwrap.dedent(f"""
        import os, signal
        from budgetlab._util.files import atomic_write
        with atomic_write({str(fresh)!r}) as fh2:
            fh2.write("x" * 100000)
            with atomic_write({str(target)!r}, force=True) as fh:
                fh.write("y" * 100000)
                fh.flush()
                os.kill(os.getpid(), signal.SIGKILL)  # no cleanup runs: the worst case
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=False)
    assert proc.returncode == -9
    assert target.read_text() == "old content"  # the old file, whole
    assert not fresh.exists()  # or none
    # what a kill leaves is hidden temporary files, never a partial file under the target name
    assert all(name.startswith(".") for name in leftovers(tmp_path))


def test_an_interrupted_cli_run_leaves_the_old_output(events_frame, tmp_path, monkeypatch, capsys):
    path = tmp_path / "log.csv"
    events_frame.to_csv(path, index=False)
    out = tmp_path / "tr.csv"
    out.write_text("previous result")

    def half_then_interrupt(self, target, *args, **kwargs):
        Path(target).write_text("ts,from_status\n2026")  # half a table ...
        raise KeyboardInterrupt  # ... then Ctrl-C

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_interrupt)
    assert main(["replay", str(path), "--window", "30min", "--out", str(out), "--force"]) == 130
    assert capsys.readouterr().err.endswith(
        "budgetlab: interrupted; none of its outputs was written ('tr.csv' and "
        "'tr.csv.run.json'); the earlier "
        "'tr.csv' is left as it was.\n")
    assert out.read_text() == "previous result"
    assert leftovers(tmp_path) == []


def test_a_target_that_appears_while_writing_is_not_overwritten(tmp_path):
    target = tmp_path / "t.csv"
    with pytest.raises(OutputExistsError):
        with atomic_write(target) as fh:
            fh.write("mine")
            target.write_text("someone else's")  # created by another process meanwhile
    assert target.read_text() == "someone else's"
    assert leftovers(tmp_path) == []


def test_outputs_get_ordinary_permissions(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    with atomic_write(tmp_path / "atomic.txt") as fh:
        fh.write("x")
    assert (tmp_path / "atomic.txt").stat().st_mode == plain.stat().st_mode  # the umask's, not 0600


def test_binary_writes_and_table_formats(tmp_path):
    with atomic_write(tmp_path / "b.bin", "wb") as fh:
        fh.write(b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    table = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    write_table(table, tmp_path / "t.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), table, check_dtype=False)
    with pytest.raises(ConfigError, match=".csv or .parquet"):
        write_table(table, tmp_path / "t.xlsx")
    with pytest.raises(ConfigError, match="mode"):
        with atomic_write(tmp_path / "x", "a"):
            pass


@pytest.mark.parametrize("bad", ["missing_folder/out.csv", "."])
def test_bad_output_paths(tmp_path, bad):
    with pytest.raises(ConfigError):
        check_output(tmp_path / bad)


def test_api_refusals_name_the_keyword_argument(tmp_path):
    """Through the API an output refusal starts with the keyword that gave the path (the CLI's
    are named by their flags: tests/cli/test_output_folders.py)."""
    from budgetlab.interop.prometheus.rules import write_prometheus_rules

    with pytest.raises(ConfigError) as info:
        write_prometheus_rules({"groups": []}, tmp_path / "no-such-folder" / "rules.yaml")
    assert str(info.value) == "path: folder 'no-such-folder' does not exist; create it first."
    (tmp_path / "rules.yaml").write_text("old")
    with pytest.raises(OutputExistsError) as exists:
        write_prometheus_rules({"groups": []}, tmp_path / "rules.yaml")
    assert str(exists.value) == ("path: 'rules.yaml' exists already; pass force=True to "
                                 "overwrite it.")
    assert (tmp_path / "rules.yaml").read_text() == "old"


def test_check_output_names_its_option_first_or_the_file(tmp_path):
    """Each refusal of an output: with ``option`` that option first, then the file; without it
    the file first (its earlier wording)."""
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    cases = [  # path, with option, without
        (tmp_path / "a-folder",
         "--out: 'a-folder' is a folder, not a file; give a file name for the output.",
         "'a-folder': is a folder, not a file; give a file name for the output."),
        (tmp_path / "a-file" / "t.csv",
         "--out: 't.csv' cannot be written: 'a-file' is a file, not a folder; give an output "
         "path inside a folder.",
         "'t.csv': cannot be written: 'a-file' is a file, not a folder; give an output path "
         "inside a folder."),
        (f"{tmp_path}/x/", "--out: 'x' names a folder (it ends in '/'); give a file name for the "
                           "output.",
         "'x': names a folder (it ends in '/'); give a file name for the output."),
        (tmp_path / "gone" / "t.csv", "--out: folder 'gone' does not exist; create it first.",
         "'gone': folder does not exist; create it first."),
    ]
    for path, with_option, without in cases:
        with pytest.raises(ConfigError) as named:
            check_output(path, option="--out")
        with pytest.raises(ConfigError) as plain:
            check_output(path)
        assert (str(named.value), str(plain.value)) == (with_option, without)


@pytest.mark.parametrize(("code", "reason"), [
    (13, "its folder 'out' does not let budgetlab create files (Permission denied)"),
    (30, "its folder 'out' does not let budgetlab create files (Read-only file system)"),
    (2, "its folder 'out' cannot hold files (a special file system, such as /proc: creating a "
        "file there fails with No such file or directory)"),
    (28, "creating a file in its folder 'out' failed (No space left on device)")])
def test_an_unwritable_folder_gives_the_reason_the_system_gave(tmp_path, monkeypatch, code,
                                                              reason):
    # `alerts ... --out /proc/x.csv` said "does not let budgetlab create files (No such file or
    # directory)": a folder that exists answering "no such file" to a new one (Linux's /proc,
    # errno 2) cannot hold files; permission (13) and a read-only file system (30) are what the
    # words say; any other reason is the system's own (28, a full disk). The probe's os.open
    # fails with each errno (Linux's numbers and texts, os.strerror).
    (tmp_path / "out").mkdir()
    real_open = os.open

    def refuse(path, *args, **kw):
        if ".bl-" in os.fspath(path):
            raise OSError(code, os.strerror(code))
        return real_open(path, *args, **kw)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(ConfigError) as info:
        check_output(tmp_path / "out" / "x.csv", option="--out")
    assert str(info.value) == (f"--out: 'x.csv' cannot be written, {reason}; give an output in a "
                               "folder you can write to.")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux's /proc only")
def test_proc_is_a_folder_that_cannot_hold_files(tmp_path):
    with pytest.raises(ConfigError, match=r"^--out: 'x.csv' cannot be written, its folder 'proc' "
                                          r"cannot hold files \(a special file system"):
        check_output(Path("/proc/x.csv"), option="--out")
