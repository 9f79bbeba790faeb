"""The public surface: every exported name resolves, lazily, to the object of its home module."""

import importlib
import subprocess
import sys

import pytest

import budgetlab


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


def test_dask_alias_is_the_scaleout_module():
    pytest.importorskip("dask.dataframe", reason="needs dask[dataframe]")
    import budgetlab.dask as alias
    import budgetlab.scaleout as scaleout

    for name in ("read_events", "bin_events", "replay", "transitions"):
        assert getattr(alias, name) is getattr(scaleout, name)


def test_import_budgetlab_does_not_load_the_analyses():
    code = ("import sys, budgetlab; "
            "print(sorted(m for m in sys.modules if m.startswith('budgetlab.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
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
