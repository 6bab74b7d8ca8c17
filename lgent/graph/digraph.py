"""A small directed graph of names: what the type lattice needs, without networkx.

Edges run child -> parent. Importing networkx cost about a tenth of a second of every short
process (a one-shot ``lgent query``), for three operations on a graph of a few hundred types:
reachability either way and one shortest path. Nodes keep their insertion order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator


class Digraph:
    """Named nodes, each with an optional arity (``params``), and directed edges."""

    def __init__(self) -> None:
        self.params: dict[str, int | None] = {}
        self._out: dict[str, set[str]] = {}
        self._in: dict[str, set[str]] = {}

    def __contains__(self, name: object) -> bool:
        return name in self.params

    def __len__(self) -> int:
        return len(self.params)

    def __iter__(self) -> Iterator[str]:
        return iter(self.params)

    def copy(self) -> Digraph:
        other = Digraph()
        other.params = dict(self.params)
        other._out = {n: set(e) for n, e in self._out.items()}
        other._in = {n: set(e) for n, e in self._in.items()}
        return other

    def add_node(self, name: str, params: int | None) -> None:
        """Add ``name`` (or set its arity)."""
        self.params[name] = params
        self._out.setdefault(name, set())
        self._in.setdefault(name, set())

    def add_edge(self, source: str, target: str) -> None:
        for name in (source, target):
            if name not in self.params:
                self.add_node(name, None)
        self._out[source].add(target)
        self._in[target].add(source)

    def remove_edge(self, source: str, target: str) -> None:
        self._out[source].discard(target)
        self._in[target].discard(source)

    def remove_node(self, name: str) -> None:
        for target in self._out.pop(name, set()):
            self._in[target].discard(name)
        for source in self._in.pop(name, set()):
            self._out[source].discard(name)
        del self.params[name]

    def successors(self, name: str) -> list[str]:
        return sorted(self._out.get(name, ()))

    def in_degree(self, name: str) -> int:
        return len(self._in.get(name, ()))

    def reachable(self, name: str, *, forward: bool) -> set[str]:
        """Every node reachable from ``name`` along the edges (``forward``) or against them,
        ``name`` itself excluded."""
        edges = self._out if forward else self._in
        seen: set[str] = set()
        frontier = [name]
        while frontier:
            for nxt in edges.get(frontier.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        seen.discard(name)
        return seen

    def shortest_path(self, source: str, target: str) -> list[str] | None:
        """The fewest-edges path from ``source`` to ``target`` along the edges, or None."""
        previous: dict[str, str | None] = {source: None}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            if node == target:
                path = [node]
                while (step := previous[path[-1]]) is not None:
                    path.append(step)
                return path[::-1]
            for nxt in sorted(self._out.get(node, ())):
                if nxt not in previous:
                    previous[nxt] = node
                    queue.append(nxt)
        return None
