"""Figures written as outputs: the format follows the suffix (:data:`PLOT_SUFFIXES`), the bytes
are encoded in memory (:func:`figure_bytes`) and written atomically (:func:`save_figure`).
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .files import check_output, shown_path, write_bytes

__all__ = ["PLOT_SUFFIXES", "figure_bytes", "save_figure"]

#: Figure formats an output path may name (the format follows the suffix).
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def _plot_format(p: Path) -> str:
    """The format a plot at ``p`` is written in (its suffix), or a :class:`ConfigError`."""
    fmt = p.suffix.lower().lstrip(".")
    if f".{fmt}" not in PLOT_SUFFIXES:
        raise ConfigError(f"{shown_path(p)}: a plot is written as {', '.join(PLOT_SUFFIXES)} (the "
                          "format follows the suffix); choose one of these suffixes.")
    return fmt


def figure_bytes(fig: Any, path: str | PathLike[str], *, dpi: int = 110,
                 png_compression: int | None = None) -> bytes:
    """A matplotlib figure encoded in the format ``path``'s suffix names (png, svg or pdf), in
    memory: the bytes :func:`save_figure` writes; ``png_compression`` (0-9) trades a PNG's size
    for the time to encode it (default: Pillow's).

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> figure_bytes(fig, "timeline.svg")[:5]
    b'<?xml'
    >>> figure_bytes(fig, "timeline.jpg")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: 'timeline.jpg': a plot is written as .png, .svg, .pdf (the format
    follows the suffix); choose one of these suffixes.
    >>> plt.close(fig)
    """
    import io

    fmt = _plot_format(Path(path))
    extra = (
        {"pil_kwargs": {"compress_level": png_compression}}
        if fmt == "png" and png_compression is not None
        else {}
    )
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=dpi, **extra)
    return buffer.getvalue()


def save_figure(fig: Any, path: str | PathLike[str], *, force: bool = False, dpi: int = 110,
                png_compression: int | None = None, option: str | None = None) -> Path:
    """Save a matplotlib figure atomically in the format its suffix names (png, svg or pdf): the
    bytes of :func:`figure_bytes`, written by :func:`write_bytes` (a refusal names ``option``
    first, see :func:`~budgetlab._util.files.check_output`).

    >>> import tempfile, pathlib
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> out = save_figure(fig, pathlib.Path(tempfile.mkdtemp()) / "f.pdf")
    >>> out.read_bytes()[:4]
    b'%PDF'
    >>> plt.close(fig)
    """
    _plot_format(Path(path))  # before the drawing: a refused name costs no rendering
    check_output(path, force=force, option=option)
    return write_bytes(figure_bytes(fig, path, dpi=dpi, png_compression=png_compression), path,
                       force=force, option=option)
