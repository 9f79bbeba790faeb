"""The docs build with Sphinx, warnings as errors, as `python -m sphinx -W --keep-going -b html docs
OUT`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.docs.doc_blocks import DOCS, ROOT


def test_docs_build_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "html"
    env = dict(os.environ, MPLBACKEND="Agg", TQDM_DISABLE="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert proc.returncode == 0, f"sphinx failed (warnings are errors):\n{proc.stderr[-5000:]}"
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "budgetlab" in index
    # the gallery drew every entry during the build
    sys.path.insert(0, str(DOCS / "_ext"))
    from gallery_table import GALLERY, NOTES

    # the hourly profile says what its hollow dots are, under the picture
    gallery = (out / "gallery.html").read_text(encoding="utf-8")
    assert NOTES.keys() <= GALLERY.keys() and "hollow dot" in NOTES["hourly_profile"]
    for note in NOTES.values():
        assert note in gallery
    drawn = {p.stem for p in (out / "_gallery").glob("*.png")}
    assert drawn == set(GALLERY), f"gallery pictures missing: {sorted(set(GALLERY) - drawn)}"
    assert all(p.stat().st_size > 10_000 for p in (out / "_gallery").glob("*.png"))
    # the API reference names every public name
    api = (out / "api.html").read_text(encoding="utf-8")
    sys.path.insert(0, str(ROOT))
    import budgetlab
    import budgetlab.datasets
    import budgetlab.plotting

    for mod in (budgetlab, budgetlab.plotting, budgetlab.datasets):
        for name in mod.__all__:
            if name in ("synth", "datasets"):
                continue
            assert f'id="{mod.__name__}.{name}"' in api, (f"{mod.__name__}.{name} missing from the "
                                                          "API page")


def test_a_warning_fails_the_build(tmp_path: Path) -> None:
    """The same command fails on a warning (a page outside every toctree is one)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["myst_parser"]\nsource_suffix = {".md": '
                                 '"markdown"}\n')
    (src / "index.md").write_text("# Index\n")
    (src / "orphan.md").write_text("# Not in any toctree\n")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(src), str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=300,
                          check=False)
    assert proc.returncode != 0 and "toctree" in proc.stderr
