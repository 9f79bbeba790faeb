"""Sphinx configuration of budgetlab's docs (Sphinx + MyST Markdown + numpydoc).

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (``pip install
".[docs]"``).
The test suite builds them the same way (tests/docs/test_docs_build.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # document the checkout, not another installed copy
sys.path.insert(0, str(HERE / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("TQDM_DISABLE", "1")

import budgetlab  # noqa: E402

project = "budgetlab"
author = "the budgetlab authors"
copyright = "budgetlab authors"  # noqa: A001
release = version = budgetlab.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "budgetlab_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_static_path = ["_static"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_typehints = "none"  # the numpydoc sections say the types
autodoc_member_order = "bysource"
autosummary_generate = False  # no stub files written into the source tree
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()

html_theme = "pydata_sphinx_theme"
html_title = f"budgetlab {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False
