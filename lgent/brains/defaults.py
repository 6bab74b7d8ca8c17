"""The brains L-gent ships: keyword, semantic and graph, each declared in its own package
(``lgent/brains/<name>/spec.py``). Their default weights per query class (``[fusion.weights]``
overrides them) are the table docs/architecture.md shows."""

from __future__ import annotations

from lgent.brains.graph.spec import GRAPH
from lgent.brains.keyword.spec import KEYWORD
from lgent.brains.registry import BrainRegistry
from lgent.brains.semantic.spec import SEMANTIC

__all__ = ["GRAPH", "KEYWORD", "SEMANTIC", "default_registry"]


def default_registry() -> BrainRegistry:
    """Keyword, semantic and graph: the three brains L-gent ships."""
    return BrainRegistry([KEYWORD, SEMANTIC, GRAPH])
