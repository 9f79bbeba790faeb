"""Sphinx extension for budgetlab's docs: the plot gallery, the CLI's help and the API listing.

Directives (use them from MyST as ```` ```{gallery} ````; ``budgetlab-api`` inside ``{eval-rst}``):

``gallery``
    every entry of :data:`gallery_table.GALLERY`, each picture drawn from the sample data during the
    build (written into the build output, ``_gallery/NAME.png``) beside the code that drew it.
``gallery-item NAME``
    one entry of the gallery.
``cli-help [SUBCOMMAND ...]``
    ``budgetlab [SUBCOMMAND] --help`` as printed by the installed parser.
``budgetlab-api SECTION``
    autodoc entries for every public name of ``budgetlab.__all__`` (and ``budgetlab.plotting``,
    ``budgetlab.datasets``) whose home module belongs to SECTION; the section ``other`` takes every
    name no other section claims, so no public name can be left out.

Run as a script to render one gallery entry to a file (the README's picture)::

    python docs/_ext/budgetlab_docs.py timeline docs/_static/timeline.png
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gallery_table import GALLERY, NOTES  # noqa: E402

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# gallery


def render(name: str, out: Path, *, dpi: int = 100) -> None:
    """Run gallery entry ``name`` in a temporary folder and save its figure to ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    code = GALLERY[name][1]
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    plt.close("all")
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            namespace: dict[str, Any] = {"__name__": f"gallery_{name}"}
            exec(compile(code, f"<gallery {name}>", "exec"), namespace)
            fig = namespace.get("fig") or plt.gcf()
            fig.savefig(out, dpi=dpi, bbox_inches="tight")
        finally:
            os.chdir(here)
            plt.close("all")


class GalleryDirective(SphinxDirective):
    """All gallery entries (no argument) or one (``gallery-item NAME``)."""

    optional_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        names = [self.arguments[0]] if self.arguments else list(GALLERY)
        out: list[nodes.Node] = []
        for name in names:
            if name not in GALLERY:
                logger.warning("unknown gallery entry %r (known: %s)", name, ", ".join(GALLERY),
                               location=self.get_location())
                continue
            out.extend(self._entry(name, title=not self.arguments))
        return out

    def _entry(self, name: str, *, title: bool) -> list[nodes.Node]:
        caption, code = GALLERY[name]
        app = self.env.app
        rendered: set[str] = app.env.temp_data.setdefault("bl_gallery_done", set())
        png = Path(app.outdir) / "_gallery" / f"{name}.png"
        if name not in rendered:
            try:
                render(name, png)
            except Exception:  # a broken entry must fail the build (warnings are errors)
                logger.warning("gallery entry %r failed:\n%s", name, traceback.format_exc(),
                               location=self.get_location())
                return []
            rendered.add(name)
        depth = self.env.docname.count("/")
        src = "../" * depth + f"_gallery/{name}.png"
        box = nodes.container(classes=["bl-gallery-item"])
        if title:
            label = f"gallery-{name.replace('_', '-')}"
            box += nodes.rubric(text=caption, ids=[label])
            std = self.env.get_domain("std")
            # {ref}`gallery-NAME`
            std.note_hyperlink_target(label, self.env.docname, label, caption)
        row = nodes.container(classes=["bl-gallery-row"])
        literal = nodes.literal_block(code, code, language="python", classes=["bl-gallery-code"])
        row += literal
        row += nodes.raw("", f'<div class="bl-gallery-img"><a href="{src}"><img src="{src}" '
                             f'alt="{caption}"></a></div>', format="html")
        box += row
        if name in NOTES:  # what the marks mean, under the picture
            box += nodes.paragraph(text=NOTES[name], classes=["bl-gallery-note"])
        return [box]


# ---------------------------------------------------------------------------------------------
# command-line help


class CliHelpDirective(SphinxDirective):
    """``budgetlab [SUBCOMMAND ...] --help``, from the parser itself."""

    optional_arguments = 3
    has_content = False

    def run(self) -> list[nodes.Node]:
        from budgetlab.cli.app import build_parser

        os.environ["COLUMNS"] = "100"
        parser: argparse.ArgumentParser = build_parser()
        for word in self.arguments:
            subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            if not subs or word not in subs[0].choices:
                logger.warning("budgetlab has no subcommand %r", " ".join(self.arguments),
                               location=self.get_location())
                return []
            parser = subs[0].choices[word]
        text = parser.format_help()
        return [nodes.literal_block(text, text, language="text")]


# ---------------------------------------------------------------------------------------------
# API listing

#: section -> home-module prefixes (after ``budgetlab.``)
SECTIONS: dict[str, tuple[str, ...]] = {
    "config": ("slo",),
    "events": ("events.",),
    "windows": ("windows.",),
    "budget": ("budget.",),
    "alerts": ("alerts.",),
    "analyses": ("analyses.",),
    "interop": ("interop.",),
    "plotting": ("plotting.",),
    "datasets": ("datasets",),
    "errors": ("errors",),
}
PUBLIC_MODULES = ("budgetlab", "budgetlab.plotting", "budgetlab.datasets",
                  "budgetlab.datasets.synth",
                  # the notebooks' building blocks (public modules, not re-exported at the top
                  # level)
                  "budgetlab.analyses.history", "budgetlab.analyses.choices",
                  "budgetlab.analyses.incident_review")


def public_names() -> list[tuple[str, str, Any]]:
    """``(qualified name, home module, object)`` for every public name, in ``__all__`` order."""
    import importlib

    seen: set[str] = set()
    rows: list[tuple[str, str, Any]] = []
    for modname in PUBLIC_MODULES:
        mod = importlib.import_module(modname)
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if inspect.ismodule(obj):
                continue  # its names are listed under its own module
            qual = f"{modname}.{name}"
            home = getattr(obj, "__module__", None) or modname
            if not str(home).startswith("budgetlab"):
                home = _data_home(name, obj)
            if qual in seen:
                continue
            seen.add(qual)
            rows.append((qual, str(home), obj))
    return rows


def _data_home(name: str, obj: Any) -> str:
    """The module that defines a data name (e.g. ``STATUS_DTYPE``): the deepest one holding it."""
    holders = [m for m, mod in list(sys.modules.items())
               if m.startswith("budgetlab") and getattr(mod, name, None) is obj]
    return max(holders, key=lambda m: m.count("."), default="budgetlab")


def data_doc(qual: str, obj: Any) -> str:
    """The ``#:`` comment above a public data name in the module that defines it."""
    from sphinx.pycode import ModuleAnalyzer

    name = qual.rsplit(".", 1)[1]
    for modname, mod in sorted(sys.modules.items()):
        if not modname.startswith("budgetlab") or getattr(mod, name, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:  # compiled or source-less module: try the next one
            continue
        if ("", name) in docs:
            return " ".join(line.strip() for line in docs[("", name)] if line.strip())
    text = repr(obj)
    return f"``{text}``" if len(text) <= 120 else "(see its module)"


def section_of(home: str) -> str:
    rest = home.removeprefix("budgetlab.")
    for section, prefixes in SECTIONS.items():
        if any(rest == p.rstrip(".") or rest.startswith(p) for p in prefixes):
            return section
    return "other"


class ApiDirective(SphinxDirective):
    """Autodoc entries for one section of the public API (use inside ``{eval-rst}``)."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        section = self.arguments[0]
        if section not in SECTIONS and section != "other":
            logger.warning("unknown API section %r", section, location=self.get_location())
            return []
        rows = [r for r in public_names() if section_of(r[1]) == section]
        if not rows:
            return []
        lines = [".. autosummary::", ""] + [f"   ~{qual}" for qual, _, _ in rows] + [""]
        for qual, _, obj in rows:
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                lines += [f".. autoexception:: {qual}", "   :show-inheritance:", ""]
            elif inspect.isclass(obj):
                lines += [f".. autoclass:: {qual}", "   :members:", ""]
            elif callable(obj):
                lines += [f".. autofunction:: {qual}", ""]
            else:
                lines += [f".. py:data:: {qual}", "", f"   {data_doc(qual, obj)}", ""]
        node = nodes.container()
        self.state.nested_parse(StringList(lines, source="budgetlab-api"), self.content_offset,
                                node)
        return list(node.children)


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("gallery", GalleryDirective)
    app.add_directive("gallery-item", GalleryDirective)
    app.add_directive("cli-help", CliHelpDirective)
    app.add_directive("budgetlab-api", ApiDirective)
    app.add_css_file("budgetlab.css")
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout's budgetlab
    cli = argparse.ArgumentParser(description="render one gallery entry to an image file")
    cli.add_argument("name", choices=list(GALLERY))
    cli.add_argument("out", type=Path)
    cli.add_argument("--dpi", type=int, default=100)
    ns = cli.parse_args()
    with contextlib.redirect_stdout(io.StringIO()):
        render(ns.name, ns.out, dpi=ns.dpi)
    print(ns.out)
