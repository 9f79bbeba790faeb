"""A small parametrized notebook written to a file, for the tests of ``budgetlab notebooks``
(tests/cli/test_notebooks_cli.py, and on the installed wheel: tests/test_installed_wheel.py)."""

from __future__ import annotations

import base64
import re
import struct
from pathlib import Path

import nbformat


def small_notebook(path: Path, body: str, params: str = "n = 3") -> Path:
    """A notebook at ``path``: a cell tagged ``parameters`` (``params``), then ``body``."""
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(params)
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell, nbformat.v4.new_code_cell(body)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)
    return path


#: A figure in a rendered page: a PNG shown as an output image. nbconvert's ``lab`` template also
#: inlines JupyterLab's CSS, which carries one PNG of its own on every page: CodeMirror's
#: trailing-space marker (``.cm-trailingspace { background-image: url(data:image/png;...) }``, 8 x 5
#: pixels, 233 bytes), so ``"data:image/png;base64," in html`` holds on a page with no figure.
_FIGURE = re.compile(r'<img\b[^>]*\bsrc="data:image/png;base64,([A-Za-z0-9+/=\s]+)"')


def page_figures(html: str) -> list[tuple[int, int]]:
    """The (width, height) in pixels of every PNG figure a rendered page shows, read from each
    PNG's header (the CSS's own images are not figures)."""
    sizes = []
    for data in _FIGURE.findall(html):
        png = base64.b64decode("".join(data.split()))
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
        width, height = struct.unpack(">II", png[16:24])
        sizes.append((width, height))
    return sizes
