"""The layer contract: imports run one way, from the front end down to the CLI.

Each module belongs to a layer; it may import modules of its own layer and
of the layers above it, never below. The run-time primitives (runtime/) sit
above both the compiler, which emits code calling them, and the engine, which
runs that code: the engine imports only the runtime and the base, never the
compiler nor the language. Consumers of the game API (agents,
simulation, adapters, tools) sit side by side: simulation and the adapters
may use the agents, but no two of these packages import each other
otherwise. And no two modules of `interpreter/`, nor two of `cli/`, import
each other, directly or through others (an import inside a function counts
too).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import ROOT

# Layers from the top (imports nothing below it) to the bottom.
LAYERS = [
    ("base", ["interpreter.errors", "interpreter.rng", "interpreter.files", "interpreter.limits"]),
    ("language", ["interpreter.language"]),
    ("runtime", ["interpreter.runtime"]),
    ("compiler", ["interpreter.compiler"]),
    ("engine", ["interpreter.engine"]),
    ("game", ["interpreter.game", "interpreter.loader", "interpreter.visibility", "interpreter.view",
              "interpreter.worlds", "interpreter.play", "interpreter.replay", "interpreter.query",
              "interpreter.traits", "interpreter.events", "interpreter.saves", "interpreter.observation"]),
    ("agents", ["interpreter.agents"]),
    ("tools", ["interpreter.simulation", "interpreter.adapters", "interpreter.lsp", "interpreter.serve",
               "interpreter.leaks"]),
    ("cli", ["cli"]),
]
# A layer that may import only some of the layers above it.
ONLY = {"engine": ("base", "runtime")}
FACADE = "interpreter"  # interpreter/__init__.py re-exports the game API for users


def layer_of(module: str):
    """(layer index, package within the layer) of a module of this project, or None."""
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                return index, prefix
    return None


def modules(root: Path) -> dict:
    """Module name -> file, for every Python file of interpreter/ and cli/."""
    out = {}
    for folder in ("interpreter", "cli"):
        for path in (root / folder).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports(module: str, path: Path, known: dict) -> set:
    """The project modules `module` imports, anywhere in its file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names = [f"{base}.{alias.name}" for alias in node.names]
            if not any(name in known for name in names):
                names.append(base)  # `from .module import name`: the module itself
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def graph(root: Path) -> dict:
    known = modules(root)
    return {m: imports(m, path, known) for m, path in known.items()}


def wrong_way(edges: dict) -> list[str]:
    """Every import that goes up the layers, or across the packages of the tools layer."""
    problems = []
    for source, targets in sorted(edges.items()):
        if source == FACADE:
            continue
        src = layer_of(source)
        if src is None:
            problems.append(f"{source} belongs to no layer")
            continue
        for target in sorted(targets):
            dst = layer_of(target) if target != FACADE else (len(LAYERS) - 1, FACADE)
            if dst is None:
                problems.append(f"{target} (imported by {source}) belongs to no layer")
            elif dst[0] > src[0]:
                problems.append(f"{source} ({LAYERS[src[0]][0]}) imports {target} ({LAYERS[dst[0]][0]})")
            elif dst[0] < src[0] and LAYERS[dst[0]][0] not in ONLY.get(LAYERS[src[0]][0], (LAYERS[dst[0]][0],)):
                allowed = " and ".join(ONLY[LAYERS[src[0]][0]])
                problems.append(f"{source} ({LAYERS[src[0]][0]}) imports {target} ({LAYERS[dst[0]][0]}): "
                                f"it may import only {allowed}")
            elif dst[0] == src[0] and LAYERS[src[0]][0] == "tools" and dst[1] != src[1]:
                problems.append(f"{source} imports {target}: the tools do not import each other")
    return problems


def cycles(edges: dict) -> list[str]:
    """One import cycle through each module that is in one (a cycle runs
    within one package: imports between interpreter/ and cli/ run one way)."""
    inner = {m: {t for t in ts if t.split(".")[0] == m.split(".")[0] and t != FACADE}
             for m, ts in edges.items() if m != FACADE}
    found, seen, path = [], set(), []

    def visit(m):
        if m in path:
            found.append(" -> ".join(path[path.index(m):] + [m]))
            return
        if m in seen:
            return
        seen.add(m)
        path.append(m)
        for t in sorted(inner.get(m, ())):
            visit(t)
        path.pop()

    for m in sorted(inner):
        visit(m)
    return found


def test_imports_run_one_way():
    assert wrong_way(graph(ROOT)) == []


def test_no_import_cycles():
    assert cycles(graph(ROOT)) == []


def test_every_module_is_in_a_layer():
    assert [m for m in modules(ROOT) if m != FACADE and layer_of(m) is None] == []


@pytest.fixture(scope="module")
def tree():
    """The modules of this tree and their imports, read once."""
    return modules(ROOT), graph(ROOT)


def planted(tree, tmp_path, module: str, text: str) -> dict:
    """The import graph of this tree with one more module, `module`, of `text`."""
    known, edges = tree
    path = tmp_path / (module.rpartition(".")[2] + ".py")
    path.write_text(text)
    return {**edges, module: imports(module, path, {**known, module: path})}


@pytest.mark.parametrize("package, text, expected", [
    ("engine", "from ..game import Game\n", "interpreter.engine.planted (engine) imports interpreter.game (game)"),
    ("engine", "from ..compiler.build import compile_program\n",
     "interpreter.engine.planted (engine) imports interpreter.compiler.build (compiler): it may import only base and runtime"),
    ("engine", "def f():\n    from ..language import nodes\n",
     "interpreter.engine.planted (engine) imports interpreter.language.nodes (language): it may import only base and runtime"),
    ("runtime", "from ..compiler.codegen import Module\n",
     "interpreter.runtime.planted (runtime) imports interpreter.compiler.codegen (compiler)"),
    ("adapters", "from ..simulation import simulate\n",
     "interpreter.adapters.planted imports interpreter.simulation: the tools do not import each other"),
], ids=["engine-imports-game", "engine-imports-compiler", "engine-imports-language", "runtime-imports-compiler",
        "adapter-imports-simulation"])
def test_a_planted_wrong_way_import_is_caught(tree, tmp_path, package, text, expected):
    """The contract fails on this tree with one wrong-way import added."""
    edges = planted(tree, tmp_path, f"interpreter.{package}.planted", text)
    assert expected in wrong_way(edges)


def test_a_planted_cycle_through_the_cli_is_caught(tree, tmp_path):
    """A module of cli/ that imports one importing it back makes a cycle."""
    edges = planted(tree, tmp_path, "cli.planted", "from .main import main\n")
    edges = {**edges, "cli.main": edges["cli.main"] | {"cli.planted"}}
    assert "cli.main -> cli.planted -> cli.main" in cycles(edges)


def test_a_planted_cycle_is_caught(tmp_path):
    (tmp_path / "interpreter").mkdir()
    (tmp_path / "cli").mkdir()
    (tmp_path / "interpreter" / "__init__.py").write_text("")
    (tmp_path / "interpreter" / "errors.py").write_text("def f():\n    from . import rng\n")
    (tmp_path / "interpreter" / "rng.py").write_text("from .errors import f\n")
    assert cycles(graph(tmp_path)) == ["interpreter.errors -> interpreter.rng -> interpreter.errors"]


def test_a_planted_cycle_in_the_cli_is_caught(tmp_path):
    (tmp_path / "interpreter").mkdir()
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "__init__.py").write_text("")
    (tmp_path / "cli" / "render.py").write_text("def f():\n    from .table import g\n")
    (tmp_path / "cli" / "table.py").write_text("from .render import f\ndef g():\n    pass\n")
    assert cycles(graph(tmp_path)) == ["cli.render -> cli.table -> cli.render"]
