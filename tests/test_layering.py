"""The floor plan, checked: the subpackages follow the data flow, with no cycle and no private
name imported across modules (function-level imports included)."""

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "budgetlab"

# Lower layers never import higher ones (events -> windows -> budget -> alerts -> analyses).
LAYERS = {"_util": 0, "errors": 0, "slo": 1, "events": 2, "windows": 3, "budget": 4, "alerts": 5,
          "analyses": 6}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` of every ``from X import names`` in ``path``, resolved to absolute."""
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - node.level + 1]
                mod = ".".join(parent + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] == "budgetlab":
                found.append((mod, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.split(".")[0] == "budgetlab"]
    return found


MODULES = _modules()
GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def test_the_walk_sees_the_package():
    assert {"budgetlab.budget.figures", "budgetlab.windows.trailing",
            "budgetlab.events.read"} <= set(MODULES)
    assert ("budgetlab.budget.figures", ["STATUSES", "hold_low_traffic", "remaining_fraction",
                                         "status_codes"]) in \
        GRAPH["budgetlab.budget.replay_status"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_crosses_a_module(module):
    for target, names in GRAPH[module]:
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        # a submodule imported by name (``from . import _events``) is a module, not a private name
        private = [n for n in private if f"{target}.{n}" not in MODULES]
        assert not private, f"{module} imports {private} from {target}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) is not None))
def test_lower_layers_never_import_higher_ones(module):
    mine = _layer(module)
    for target, _ in GRAPH[module]:
        theirs = _layer(target)
        assert theirs is None or theirs <= mine, (f"{module} (layer {mine}) imports {target} "
                                                  f"(layer {theirs})")
        assert not target.startswith(("budgetlab.cli", "budgetlab.plotting")) or module.startswith(
            "budgetlab.analyses.incident"), f"{module} imports {target}"


def test_no_import_cycle():
    edges = {m: set() for m in MODULES}
    for m, imps in GRAPH.items():
        for target, names in imps:
            for t in [target] + [f"{target}.{n}" for n in names]:
                if t in MODULES and t != m and not MODULES[t].name == "__init__.py":
                    edges[m].add(t)
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in edges[node]:
            if state.get(nxt) == 1:
                raise AssertionError("import "
                                     "cycle: " + " -> ".join(stack[stack.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])
