"""Sizes a reader can take in (issue 30): no module in ``lgent/`` over 800 lines, no function
over 80 except the route and tool tables, the facade under 450 lines, ``QueryFusion.query``
under 40 (a list of steps)."""

from __future__ import annotations

import ast
from pathlib import Path

from lgent.fusion.fusion import QueryFusion

PACKAGE = Path(__file__).resolve().parent.parent / "lgent"
MODULE_LINES = 800
FUNCTION_LINES = 80
TABLES = frozenset({"build_http_app", "build_mcp_server"})
"""Functions that are tables of routes or tools: one short entry per route or tool."""


def oversized(source: str, where: str) -> list[str]:
    """What in ``source`` (a module at ``where``) is over the limits."""
    found = []
    lines = len(source.splitlines())
    if lines > MODULE_LINES:
        found.append(f"{where}: {lines} lines")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name not in TABLES:
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append(f"{where}:{node.lineno} {node.name}: {length} lines")
    return found


def test_no_module_or_function_is_over_its_limit() -> None:
    found = [
        problem
        for path in sorted(PACKAGE.rglob("*.py"))
        for problem in oversized(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert found == []


def test_the_facade_and_the_fusion_query_stay_short() -> None:
    assert len((PACKAGE / "lgent.py").read_text(encoding="utf-8").splitlines()) <= 450
    (query,) = [
        n
        for n in ast.walk(ast.parse((PACKAGE / "fusion" / "fusion.py").read_text()))
        if isinstance(n, ast.AsyncFunctionDef) and n.name == QueryFusion.query.__name__
    ]
    assert (query.end_lineno or 0) - query.lineno + 1 <= 40


def test_the_check_catches_planted_violations() -> None:
    long_function = "def f():\n" + "    x = 1\n" * FUNCTION_LINES
    assert oversized(long_function, "m.py") == ["m.py:1 f: 81 lines"]
    long_module = "x = 1\n" * (MODULE_LINES + 1)
    assert oversized(long_module, "m.py") == ["m.py: 801 lines"]
    table = "def build_http_app():\n" + "    x = 1\n" * 200
    assert oversized(table, "m.py") == []
