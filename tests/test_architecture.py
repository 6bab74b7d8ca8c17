"""The architecture, enforced on the source: brains stay independent behind their contract, the
shells (CLI, MCP, HTTP) use only the public facade and models, and no import cycle appears.

Imports are read from the source with ``ast``: module-level ones and those inside functions
(lazy imports run too); those under ``if TYPE_CHECKING:`` are annotations only and skipped."""

from __future__ import annotations

import ast
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
    "lgent.serving",  # the answer models the MCP and HTTP shells share
    "lgent.arguments",  # the query arguments every surface validates with
    "lgent.ids",  # the stable id rule (the MCP router names servers by it)
    *SHELLS,  # `lgent serve` starts the MCP and HTTP servers
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


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

    for name, line in walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    plant(
        monkeypatch, tmp_path, "lgent.cli.probe", "def f() -> None:\n    import lgent.cli.other\n"
    )
    plant(monkeypatch, tmp_path, "lgent.cli.other", "from lgent.cli import probe\n")
    assert import_cycles() == [["lgent.cli.other", "lgent.cli.probe"]]
