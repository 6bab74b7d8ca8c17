"""The architecture, enforced on the source: brains stay independent behind their contract, the
shells (CLI, MCP, HTTP) use only the public facade and models, and no import cycle appears.

Imports are read from the source with ``ast``: module-level ones and those inside functions
(lazy imports run too); those under ``if TYPE_CHECKING:`` are annotations only and skipped."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "lgent"
SHELLS = ("lgent.cli", "lgent.mcp", "lgent.http")
SHELL_MAY_USE = (
    "lgent",  # the package itself: its __all__ is the public API
    "lgent.lgent",
    "lgent.models",
    "lgent.errors",
    "lgent.config",
    "lgent.limits",
    "lgent.health",  # the one health rule every surface states
    "lgent.serving",  # the answer models the MCP and HTTP shells share
    "lgent.validation",  # the query arguments every surface validates with
    "lgent.ids",  # the stable id rule (the MCP router names servers by it)
    "lgent.scopes",  # the one rule of who sees and writes what, every surface applies
    "lgent.facets",  # the facets every surface counts, and their answer models
    *SHELLS,  # `lgent serve` starts the MCP and HTTP servers
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


@functools.cache
def parsed(source: str) -> ast.Module:
    """``source``'s syntax tree, each distinct text parsed once: every check reads every
    module (the trees are only read, never changed)."""
    return ast.parse(source)


def runtime_imports(path: Path) -> Iterator[tuple[str, int]]:
    """``(module, line)`` of every lgent module imported at run time by the file at ``path``."""

    def walk(node: ast.AST) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    full = f"{child.module}.{alias.name}"
                    yield (full if full in MODULES else child.module), child.lineno
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, child.lineno
            yield from walk(child)

    for name, line in walk(parsed(path.read_text(encoding="utf-8"))):
        if name == "lgent" or name.startswith("lgent."):
            yield name, line


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def brain_of(name: str) -> str | None:
    """``keyword`` for ``lgent.brains.keyword.index``; None outside a brain's own package (the
    shared contract ``lgent.brains.base``, the registry and the defaults are not a brain)."""
    parts = name.split(".")
    if (
        len(parts) >= 3
        and parts[:2] == ["lgent", "brains"]
        and (PACKAGE / "brains" / parts[2]).is_dir()
    ):
        return parts[2]
    return None


def violations_of_brain_independence() -> list[str]:
    found = []
    for name, path in MODULES.items():
        mine = brain_of(name)
        if mine is None:
            continue
        for target, line in runtime_imports(path):
            other = brain_of(target)
            if other is not None and other != mine:
                found.append(f"{path.name}:{line} ({name}) imports the {other} brain: {target}")
            if any(within(target, p) for p in ("lgent.catalog", "lgent.fusion", "lgent.lgent")):
                found.append(f"{name}:{line} imports {target} (brains know no catalog or fusion)")
    return found


def violations_of_shell_imports() -> list[str]:
    found = []
    for name, path in MODULES.items():
        if not any(within(name, shell) for shell in SHELLS):
            continue
        for target, line in runtime_imports(path):
            allowed = target in SHELL_MAY_USE or any(within(target, s) for s in SHELLS)
            if not allowed:
                found.append(f"{name}:{line} imports {target}")
    return found


GRAPH_OWNERS = ("lgent.graph", "lgent.brains.graph")
"""The graph model and the brain that keeps it: the only packages that may hold the graph's
lock or read its private members."""
GRAPH_HOLDS = frozenset({"lock", "reading"})
GRAPH_SPEC = "lgent.brains.graph.spec"
"""The graph brain's declaration, which the registry of defaults names (it imports the brain
itself only inside its factory)."""


def violations_of_the_graph_seam() -> list[str]:
    """Outside the graph brain's package, nobody imports the graph brain (but its declaration,
    ``GRAPH_SPEC``); outside the graph
    model and that brain, nobody holds the graph's lock (``lock``, ``reading()``) or reads a
    private member of anything named for the graph (``graph._info``, ``self.graph.lock``)."""
    found = []
    for name, path in MODULES.items():
        if any(within(name, owner) for owner in GRAPH_OWNERS):
            continue
        for target, line in runtime_imports(path):
            if within(target, "lgent.brains.graph") and target != GRAPH_SPEC:
                found.append(f"{name}:{line} imports the graph brain: {target}")
        source = path.read_text(encoding="utf-8")
        if "graph" not in source:
            continue
        for node in ast.walk(parsed(source)):
            if not isinstance(node, ast.Attribute):
                continue
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            if (private or node.attr in GRAPH_HOLDS) and "graph" in ast.unparse(node.value):
                found.append(f"{name}:{node.lineno} touches {ast.unparse(node)}")
    return found


def violations_of_grammar_independence() -> list[str]:
    """The keyword grammar (``lgent.grammar``) knows no index, catalog or brain: text to a
    syntax tree, nothing else (tantivy's ``query-grammar`` crate knows no schema)."""
    found = []
    for name, path in MODULES.items():
        if not within(name, "lgent.grammar"):
            continue
        source = path.read_text(encoding="utf-8")
        if "import tantivy" in source or "from tantivy" in source:
            found.append(f"{name} imports tantivy")
        for target, line in runtime_imports(path):
            if any(within(target, p) for p in ("lgent.catalog", "lgent.brains", "lgent.fusion")):
                found.append(f"{name}:{line} imports {target}")
    return found


def import_cycles() -> list[list[str]]:
    edges = {n: {t for t, _ in runtime_imports(p) if t in MODULES} for n, p in MODULES.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges[v]:
                cycles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return cycles


def test_brains_never_import_each_other_or_the_layers_above() -> None:
    assert violations_of_brain_independence() == []


def test_shells_use_only_the_public_facade_and_models() -> None:
    assert violations_of_shell_imports() == []


def test_only_the_graph_brain_knows_the_graph_brain_and_the_graph_lock() -> None:
    assert violations_of_the_graph_seam() == []


def test_the_grammar_knows_no_index_catalog_or_brain() -> None:
    assert violations_of_grammar_independence() == []


def test_no_import_cycle() -> None:
    assert import_cycles() == []


def plant(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, source: str) -> None:
    """Add (or replace) module ``name`` with ``source`` in the table the checks read."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    monkeypatch.setitem(MODULES, name, path)


def test_the_checks_catch_planted_violations(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    plant(
        monkeypatch, tmp_path, "lgent.brains.graph.probe", "from lgent.brains.keyword import spec\n"
    )
    assert violations_of_brain_independence()
    plant(
        monkeypatch, tmp_path, "lgent.cli.probe", "from lgent.catalog.store import CatalogStore\n"
    )
    assert violations_of_shell_imports()
    plant(monkeypatch, tmp_path, "lgent.grammar.probe", "from lgent.catalog import store\n")
    assert violations_of_grammar_independence()
    plant(monkeypatch, tmp_path, "lgent.fusion.probe", "from lgent.brains.graph import brain\n")
    assert violations_of_the_graph_seam()
    plant(
        monkeypatch,
        tmp_path,
        "lgent.fusion.probe",
        "def f(g):\n    with g.graph.lock:\n        pass\n",
    )
    assert violations_of_the_graph_seam()
    plant(monkeypatch, tmp_path, "lgent.fusion.probe", "def f(graph):\n    return graph._info\n")
    assert violations_of_the_graph_seam()
    plant(
        monkeypatch, tmp_path, "lgent.fusion.probe", "def f(graph):\n    return graph.knows('x')\n"
    )
    assert violations_of_the_graph_seam() == []
    plant(
        monkeypatch, tmp_path, "lgent.cli.probe", "def f() -> None:\n    import lgent.cli.other\n"
    )
    plant(monkeypatch, tmp_path, "lgent.cli.other", "from lgent.cli import probe\n")
    assert import_cycles() == [["lgent.cli.other", "lgent.cli.probe"]]
