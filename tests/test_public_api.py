"""The public surface: every exported name resolves, lazily, to the object of its home module.

The surface is written once, in ``budgetlab/__init__.py``'s ``_EXPORTS`` (and ``_MODULES``);
``__all__`` is built from it at import, and the type checkers' stub ``budgetlab/__init__.pyi`` is
generated from it: ``python tests/test_public_api.py`` writes it, and a test here checks that the
committed stub is the generated one.
"""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import budgetlab

STUB = Path(__file__).resolve().parents[1] / "budgetlab" / "__init__.pyi"


def stub_text() -> str:
    """The stub of ``budgetlab/__init__.py``, generated from its tables."""
    lines = ['"""What type checkers see of ``budgetlab`` (its names are imported on first use at '
             'run time).',
             "",
             "Generated from ``_EXPORTS``, ``_MODULES`` and ``budgetlab.errors.__all__`` by",
             '``python tests/test_public_api.py``; do not edit."""',
             ""]
    imports = [(".", "errors", "errors")]  # (module, imported name, bound name)
    for name, path in budgetlab._MODULES.items():
        parent, _, leaf = path.rpartition(".")
        imports.append((f".{parent}" if parent else ".", leaf, name))
    imports += [(".errors", name, name) for name in budgetlab.errors.__all__]
    imports += [(f".{module}", name, name) for name, module in budgetlab._EXPORTS.items()]
    # in the order ruff's isort keeps: by module, then constants, classes, functions
    # (case-insensitive)
    kind = {True: 0, False: 1}
    imports.sort(key=lambda t: (t[0], kind[t[1].isupper()] if t[1][0].isupper() else 2,
                                t[1].lower()))
    for module, name, bound in imports:
        lines.append(f"from {module} import {name} as {bound}")
    lines += ["", "__version__: str", "__all__ = ["]
    lines += [f'    "{name}",' for name in budgetlab.__all__]
    lines += ["]", "", "def __dir__() -> list[str]: ..."]
    return "\n".join(lines) + "\n"


def test_the_type_checkers_stub_is_generated_from_the_export_table():
    assert STUB.read_text(encoding="utf-8") == stub_text(), "run: python tests/test_public_api.py"


def test_all_is_built_from_the_tables():
    assert budgetlab.__all__ == [*budgetlab.errors.__all__, "synth", "datasets",
                                 *budgetlab._EXPORTS]
    assert len(set(budgetlab.__all__)) == len(budgetlab.__all__)


@pytest.mark.parametrize("name", budgetlab.__all__)
def test_every_exported_name_resolves_and_is_documented(name):
    obj = getattr(budgetlab, name)
    assert obj is not None
    assert (getattr(obj, "__doc__", None) or "").strip(), f"budgetlab.{name} has no docstring"


def test_exports_point_at_their_home_module():
    # a name's home module is the one _EXPORTS names: the object there is the one exported
    for name, module in budgetlab._EXPORTS.items():
        home = importlib.import_module(f"budgetlab.{module}")
        assert getattr(home, name) is getattr(budgetlab, name), name
    assert set(budgetlab._EXPORTS) <= set(budgetlab.__all__)


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'replay_all'"):
        budgetlab.replay_all  # noqa: B018


def test_subpackages_and_the_synth_module_are_attributes():
    assert budgetlab.synth is importlib.import_module("budgetlab.datasets.synth")
    assert budgetlab.windows is importlib.import_module("budgetlab.windows")
    assert budgetlab.analyses.recalibrate is budgetlab.recalibrate


def test_the_dask_api_has_one_name():
    pytest.importorskip("dask.dataframe", reason="needs dask[dataframe]")
    import budgetlab.dask as bd

    assert bd.__name__ == "budgetlab.dask" and bd.__file__.endswith("__init__.py")
    package = Path(budgetlab.__file__).parent
    # no second name
    assert not (package / "scaleout").exists() and not (package / "dask.py").exists()
    for name in ("read_events", "bin_events", "replay", "transitions"):
        assert getattr(bd, name).__module__.startswith("budgetlab.dask."), name


def test_import_budgetlab_does_not_load_the_analyses():
    code = ("import sys, budgetlab; "
            "print(sorted(m for m in sys.modules if m.startswith('budgetlab.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    loaded = eval(out)  # a printed list of module names
    assert "budgetlab.analyses" not in loaded and "budgetlab.budget" not in loaded, loaded


SUBPACKAGES = ["events", "windows", "budget", "alerts", "analyses", "interop", "cli"]


@pytest.mark.parametrize("package", SUBPACKAGES)
def test_every_name_a_subpackage_exports_is_documented(package):
    module = importlib.import_module(f"budgetlab.{package}")
    assert module.__all__, package
    for name in module.__all__:
        obj = getattr(module, name)
        if callable(obj) or isinstance(obj, type):
            assert (obj.__doc__ or "").strip(), f"budgetlab.{package}.{name} has no docstring"


if __name__ == "__main__":  # regenerate the stub after editing _EXPORTS / _MODULES
    STUB.write_text(stub_text(), encoding="utf-8")
    print(f"wrote {STUB}")
